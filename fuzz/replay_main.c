/* replay_main.c — runs a fuzz target over files without libFuzzer: how
 * `make test` replays fuzz/regressions/ and the seed corpus. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
    int ran = 0;
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        if (!f) {
            perror(argv[i]);
            return 1;
        }
        uint8_t *buf = NULL;
        size_t len = 0, cap = 0, n;
        uint8_t chunk[65536];
        while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
            if (len + n > cap) {
                cap = (len + n) * 2;
                buf = realloc(buf, cap);
                if (!buf)
                    return 1;
            }
            for (size_t k = 0; k < n; k++)
                buf[len + k] = chunk[k];
            len += n;
        }
        fclose(f);
        LLVMFuzzerTestOneInput(buf ? buf : (const uint8_t *)"", len);
        free(buf);
        ran++;
    }
    printf("replayed %d inputs\n", ran);
    return 0;
}
