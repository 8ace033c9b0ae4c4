/*
 * csv_to_parquet.c — a CSV file to Parquet (zstd when the build has it) in
 * bounded memory: the typed reader's Arrow stream handed to the writer.
 * OUT is replaced only when everything was written.
 *
 *   csv_to_parquet FILE OUT.parquet
 *   cc -O2 csv_to_parquet.c $(pkg-config --cflags --libs simdsv-write) -o csv_to_parquet
 */
#include "simdsv.h"

#include <stdio.h>

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: csv_to_parquet FILE OUT.parquet\n");
        return 2;
    }
    simdsv_reader *reader = NULL;
    struct ArrowArrayStream stream;
    simdsv_status st = simdsv_reader_new(&reader, NULL);
    if (st == SIMDSV_OK)
        st = simdsv_reader_open_path(reader, argv[1]);
    if (st == SIMDSV_OK)
        st = simdsv_table_stream(reader, &stream); /* the stream now owns the reader */
    if (st != SIMDSV_OK) {
        fprintf(stderr, "%s: %s\n", argv[1], simdsv_status_message(st));
        simdsv_reader_free(reader);
        return 1;
    }
    simdsv_write_options w;
    simdsv_write_options_init(&w);
    w.format = SIMDSV_FORMAT_PARQUET;
    w.codec = simdsv_codec_supported(SIMDSV_CODEC_ZSTD) ? SIMDSV_CODEC_ZSTD : SIMDSV_CODEC_NONE;
    simdsv_error err;
    st = simdsv_write_path(&stream, argv[2], &w, &err);
    stream.release(&stream);
    if (st != SIMDSV_OK) {
        fprintf(stderr, "%s: %s\n", argv[2], err.message);
        return 1;
    }
    printf("wrote %s (%s)\n", argv[2], simdsv_codec_name(w.codec));
    return 0;
}
