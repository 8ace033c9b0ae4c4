/* fuzz_sniff.c — simdsv_sniff_memory on any bytes: never crashes, every
 * confidence is in [0, 1] with a reason, the detection for a reader of
 * records (dialect_only) gives the same dialect, the options it proposes are
 * accepted by a reader, and that reader reads the same bytes to the end
 * (lossy UTF-8, lenient) without a crash. */
#include "../tests/sniff_dialect.h"
#include "simdsv.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    simdsv_sniff *s = NULL;
    simdsv_sniff_params p;
    memset(&p, 0, sizeof p);
    p.partial = size && (data[0] & 1); /* both the whole-input and the stream-start cases */
    if (simdsv_sniff_memory(data, size, &p, &s) != SIMDSV_OK)
        return 0; /* only NOMEM can fail here */
    for (int k = 0; k < SIMDSV_SNIFF_SETTING_COUNT; k++)
        if (!(s->decisions[k].confidence >= 0 && s->decisions[k].confidence <= 1) || !s->decisions[k].reason)
            abort();
    if (!s->delimiter[0] || strlen(s->delimiter) > 4 || s->end_offset > size)
        abort();
    for (size_t i = 0; i < s->column_count; i++)
        if (!s->columns[i].name || !s->columns[i].format || !s->columns[i].reason)
            abort();
    simdsv_sniff *d = NULL;
    p.dialect_only = 1;
    if (simdsv_sniff_memory(data, size, &p, &d) == SIMDSV_OK && sniff_dialect_differs(s, d))
        abort();
    simdsv_sniff_free(d);
    simdsv_options *o = simdsv_options_new(NULL);
    if (o && simdsv_sniff_apply(s, o) == SIMDSV_OK) {
        simdsv_options_set(o, SIMDSV_OPT_UTF8, SIMDSV_UTF8_LOSSY);
        simdsv_options_set(o, SIMDSV_OPT_LENIENT, 1);
        simdsv_reader *r = NULL;
        if (simdsv_reader_new(&r, o) == SIMDSV_OK && simdsv_reader_open_memory(r, data, size) == SIMDSV_OK) {
            simdsv_record rec;
            simdsv_status st;
            int guard = 0;
            while ((st = simdsv_reader_next(r, &rec)) != SIMDSV_END && guard++ < 1000000)
                if (st == SIMDSV_ERR_NOMEM || st == SIMDSV_ERR_IO)
                    break;
        }
        simdsv_reader_free(r);
    }
    simdsv_options_free(o);
    simdsv_sniff_free(s);
    return 0;
}
