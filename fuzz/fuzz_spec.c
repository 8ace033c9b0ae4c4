/* fuzz_spec.c — the string options (null, true, false tokens, projection,
 * schema): any text is either refused with a reason or accepted, and an
 * accepted one reads a table without crashing, with a status that is a
 * success or an error about the options or the data.
 * Input: byte 0 picks the option, the rest is its text. */
#include "simdsv.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char csv[] = "a,b\\,c,#2,x:y,3\n1,2024-01-02,NA,true,\"q\"\n,2.5,x,false,7\n";
    if (size == 0)
        return 0;
    const simdsv_string_option id = (simdsv_string_option)(SIMDSV_OPT_NULL_VALUES + data[0] % 5);
    char *text = malloc(size);
    if (!text)
        return 0;
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    simdsv_options *o = simdsv_options_new(NULL);
    const simdsv_status set = simdsv_options_set_string(o, id, text);
    if (set != SIMDSV_OK && set != SIMDSV_ERR_INVALID_ARGUMENT)
        abort();
    if ((set == SIMDSV_OK) != (simdsv_options_error(o)[0] == '\0'))
        abort(); /* a refusal always says why; an acceptance never does */
    simdsv_reader *r = NULL;
    if (simdsv_reader_new(&r, o) == SIMDSV_OK && simdsv_reader_open_memory(r, csv, sizeof csv - 1) == SIMDSV_OK) {
        simdsv_table *t = NULL;
        const simdsv_status st = simdsv_table_read(r, &t);
        if (st != SIMDSV_OK && st != SIMDSV_ERR_INVALID_ARGUMENT && st != SIMDSV_ERR_VALUE &&
            st != SIMDSV_ERR_RAGGED_ROW && st != SIMDSV_ERR_NOMEM)
            abort();
        if ((st == SIMDSV_OK) != (t != NULL))
            abort();
        simdsv_table_free(t);
    }
    simdsv_reader_free(r);
    simdsv_options_free(o);
    free(text);
    return 0;
}
