/* cmd_schema.c — simdsv schema: column names, inferred (or given) types and
 * the reason for each type, from the inference sample. */
#include "typed.h"

#include <string.h>

static const char help[] =
    "usage: simdsv schema [OPTIONS] FILE...\n"
    "Prints each column's 1-based index, name, type and why that type was chosen,\n"
    "e.g. \"string: leading zero in `00501` at line 17\".  Types come from a sample of\n"
    "the start, the middle and the end of the file (--infer-rows; all rows with\n"
    "--infer-rows all); --schema fixes them.  Several FILEs: each one's sample, the\n"
    "types joined as one table's (int64 and float64 give float64, other mixes string).\n\n" CLI_TYPED_HELP;

int cmd_schema(int argc, char **argv)
{
    cli_common c;
    const cli_spec spec = {"schema", help, CLI_OUTPUT | CLI_DATASET, 0, NULL, cli_typed_arg, &c};
    int status = cli_parse(&spec, argc, argv, &c);
    if (status >= 0 || !out_open(c.output)) {
        cli_common_free(&c);
        return status >= 0 ? status : EXIT_DATA;
    }
    cli_start(&c);
    simdsv_table *t = cli_read_table(&c, 1, &status);
    if (t) {
        /* Every cell is written and padded piece by piece (the names come
         * from the file: any length, any bytes). */
        size_t name_width = 4, type_width = 4;
        const size_t n = simdsv_table_columns(t);
        for (size_t i = 0; i < n; i++) {
            simdsv_column_info info;
            simdsv_table_column(t, i, &info);
            const size_t len = cli_display_width(info.name);
            name_width = len > name_width ? len : name_width;
            const size_t tl = strlen(simdsv_type_name(info.type));
            type_width = tl > type_width ? tl : type_width;
        }
        name_width = name_width < CLI_PAD_MAX ? name_width : CLI_PAD_MAX;
        out_str("  #  name");
        out_pad(name_width - 4);
        out_str("  type");
        out_pad(type_width - 4);
        out_str("  reason\n");
        for (size_t i = 0; i < n; i++) {
            simdsv_column_info info;
            simdsv_table_column(t, i, &info);
            out_printf("%3zu  ", i + 1);
            const size_t width = text_display(info.name, strlen(info.name), SIZE_MAX, 0, true);
            out_pad(width < name_width ? name_width - width : 0);
            out_str("  ");
            out_str(simdsv_type_name(info.type));
            out_pad(type_width - strlen(simdsv_type_name(info.type)));
            out_str("  ");
            text_display(info.reason, strlen(info.reason), SIZE_MAX, 0, true);
            out_byte('\n');
        }
        simdsv_table_free(t);
    }
    status = out_finish(status);
    cli_common_free(&c);
    return status;
}
