/* test_sniff.c — each detector of simdsv_sniff on small inputs with exact
 * expectations, the "not sure" cases, settings given by the caller, and the
 * reader options the detection feeds: SIMDSV_OPT_ENCODING (each converter,
 * invalid input), SIMDSV_OPT_END_OFFSET and SIMDSV_OPT_HEADER_ROWS. */
#include "check.h"
#include "simdsv.h"
#include "sniff_dialect.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Every case is also detected for a reader of records (dialect_only),
 * which must give the same dialect. */
static simdsv_sniff *sniff_n(const char *data, size_t n, const simdsv_sniff_params *p)
{
    simdsv_sniff *s = NULL;
    const simdsv_status st = simdsv_sniff_memory(data, n, p, &s);
    CHECK(st == SIMDSV_OK && s);
    simdsv_sniff_params records;
    if (p)
        records = *p;
    else
        memset(&records, 0, sizeof records);
    records.dialect_only = 1;
    simdsv_sniff *d = NULL;
    CHECK(simdsv_sniff_memory(data, n, &records, &d) == SIMDSV_OK && d);
    if (s && d) {
        const char *differs = sniff_dialect_differs(s, d);
        CHECK_MSG(!differs, "dialect only: another %s", differs ? differs : "");
        for (size_t i = 0; i < d->column_count; i++)
            CHECK(d->columns[i].type == SIMDSV_TYPE_NULL);
    }
    simdsv_sniff_free(d);
    return s;
}

static simdsv_sniff *sniff(const char *data)
{
    return sniff_n(data, strlen(data), NULL);
}

static double conf(const simdsv_sniff *s, simdsv_sniff_setting k)
{
    return s->decisions[k].confidence;
}

static const char *why(const simdsv_sniff *s, simdsv_sniff_setting k)
{
    return s->decisions[k].reason;
}

/* A little table: "id<d>name<d>price\n1<d>ann<d>1.5\n..." (rows data rows). */
static char *table(char d, int rows)
{
    char *buf = malloc(64 + (size_t)rows * 48);
    size_t n = (size_t)sprintf(buf, "id%cname%cprice\n", d, d);
    for (int i = 0; i < rows; i++)
        n += (size_t)sprintf(buf + n, "%d%cname %d%c%d.%d\n", i + 1, d, i, d, i * 3, i % 10);
    return buf;
}

static void test_encoding(void)
{
    simdsv_sniff *s = sniff("\xEF\xBB\xBF" "a,b\n1,2\n");
    CHECK(!strcmp(s->encoding, "utf-8") && s->bom == 1 && conf(s, SIMDSV_SNIFF_ENCODING) == 1);
    simdsv_sniff_free(s);
    const char le[] = "a\0,\0b\0\n\0" "1\0,\0" "2\0\n\0";
    s = sniff_n(le, sizeof le - 1, NULL);
    CHECK(!strcmp(s->encoding, "utf-16le") && s->bom == 0 && !strcmp(s->delimiter, ","));
    simdsv_sniff_free(s);
    const char be[] = "\xFE\xFF\0a\0;\0b\0\n\0" "1\0;\0" "2\0\n";
    s = sniff_n(be, sizeof be - 1, NULL);
    CHECK(!strcmp(s->encoding, "utf-16be") && s->bom == 1 && !strcmp(s->delimiter, ";"));
    simdsv_sniff_free(s);
    s = sniff("nom;ville\n\xE9t\xE9;Besan\xE7on\nna\xEFve;Orl\xE9" "ans\n");
    CHECK(!strcmp(s->encoding, "iso-8859-1") && conf(s, SIMDSV_SNIFF_ENCODING) == 0.8);
    CHECK(!strcmp(s->columns[0].name, "nom"));
    simdsv_sniff_free(s);
    s = sniff("word;n\ndon\x92t;1\n\x93quoted\x94 text;2\n");
    CHECK(!strcmp(s->encoding, "windows-1252"));
    simdsv_sniff_free(s);
    /* Not sure: valid UTF-8 letters and a stray byte are broken UTF-8, not Latin-1. */
    s = sniff("a,b\n\xC3\xA9t\xC3\xA9,1\nx\xFF,2\n");
    CHECK(!strcmp(s->encoding, "utf-8") && conf(s, SIMDSV_SNIFF_ENCODING) < 0.6);
    CHECK(strstr(why(s, SIMDSV_SNIFF_ENCODING), "not sure") != NULL);
    simdsv_sniff_free(s);
    /* Binary: answered, flagged, every other decision "not sure". */
    const char bin[] = "\x7F" "ELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x03\0>\0\x01\0\0\0";
    s = sniff_n(bin, sizeof bin - 1, NULL);
    CHECK(s->binary == 1 && conf(s, SIMDSV_SNIFF_DELIMITER) < 0.6);
    simdsv_sniff_free(s);
}

static void test_delimiter(void)
{
    static const char delims[] = {',', ';', '\t', '|', ':'};
    for (size_t i = 0; i < sizeof delims; i++) {
        char *t = table(delims[i], 20);
        simdsv_sniff *s = sniff(t);
        CHECK(s->delimiter[0] == delims[i] && s->delimiter[1] == '\0' && conf(s, SIMDSV_SNIFF_DELIMITER) > 0.9);
        CHECK(s->column_count == 3 && s->columns[0].type == SIMDSV_TYPE_INT64 &&
              s->columns[2].type == SIMDSV_TYPE_FLOAT64);
        simdsv_sniff_free(s);
        free(t);
    }
    /* ';' with a ',' inside one column: the ';' splits more and types better. */
    simdsv_sniff *s = sniff("code;name;gps\n1;a;48.9,-1.5\n2;b;49.2,-1.3\n3;c;48.1,-1.1\n4;d;47.0,-1.0\n");
    CHECK(!strcmp(s->delimiter, ";"));
    CHECK(!strcmp(why(s, SIMDSV_SNIFF_DELIMITER), "delimiter ';': 3 fields in 5 of 5 sampled rows; ',' gives 1-2"));
    simdsv_sniff_free(s);
    /* A doubled delimiter is reported as such. */
    s = sniff("a||b||c\n1||2||3\n4||5||6\n7||8||9\n");
    CHECK(!strcmp(s->delimiter, "||"));
    simdsv_sniff_free(s);
    /* Padding after the delimiter. */
    s = sniff("a, b, c\n1, 2, 3\n4, 5, 6\n7, 8, 9\n");
    CHECK(!strcmp(s->delimiter, ",") && s->padding == 1);
    simdsv_sniff_free(s);
    /* Not sure: one column, one line, nothing complete. */
    s = sniff("alpha\nbeta\ngamma\n");
    CHECK(!strcmp(s->delimiter, ",") && conf(s, SIMDSV_SNIFF_DELIMITER) < 0.6);
    CHECK(strstr(why(s, SIMDSV_SNIFF_DELIMITER), "not sure") != NULL);
    simdsv_sniff_free(s);
    s = sniff("a;b;c");
    CHECK(!strcmp(s->delimiter, ";") && conf(s, SIMDSV_SNIFF_DELIMITER) <= 0.5);
    CHECK(conf(s, SIMDSV_SNIFF_LINE_ENDING) < 0.6);
    simdsv_sniff_free(s);
    simdsv_sniff_params p;
    memset(&p, 0, sizeof p);
    p.partial = 1;
    s = sniff_n("a;b;c", 5, &p);
    CHECK(conf(s, SIMDSV_SNIFF_DELIMITER) < 0.2 && s->sampled_rows == 0);
    simdsv_sniff_free(s);
    s = sniff("");
    CHECK(!strcmp(s->delimiter, ",") && s->column_count == 0 && conf(s, SIMDSV_SNIFF_HEADER) < 0.6);
    simdsv_sniff_free(s);
}

static void test_quote_escape_lines(void)
{
    simdsv_sniff *s = sniff("id,text\n1,'a, b'\n2,'c, d'\n3,'e'\n");
    CHECK(s->quote == '\'' && s->escape == -1);
    simdsv_sniff_free(s);
    s = sniff("id,text\n1,\"say \\\"hi\\\", ok\"\n2,\"x \\\"y\\\", z\"\n3,\"w\"\n");
    CHECK(s->quote == '"' && s->escape == '\\');
    simdsv_sniff_free(s);
    s = sniff("id,text\n1,\"say \"\"hi\"\", ok\"\n2,\"x\"\n");
    CHECK(s->quote == '"' && s->escape == -1 && strstr(why(s, SIMDSV_SNIFF_ESCAPE), "doubled quotes in 1"));
    simdsv_sniff_free(s);
    s = sniff("a,b\r\n1,2\r\n3,4\r\n");
    CHECK(!strcmp(s->line_ending, "CRLF") && conf(s, SIMDSV_SNIFF_LINE_ENDING) == 1);
    simdsv_sniff_free(s);
    s = sniff("a,b\r1,2\r3,4\r");
    CHECK(!strcmp(s->line_ending, "CR"));
    simdsv_sniff_free(s);
    /* Broken quoting keeps '"': the reader is to report it, not hide it. */
    s = sniff("a,b\nc,d\"e\nf\n\"g\"h\n\"unterminated\n");
    CHECK(s->quote == '"' && s->end_offset == 0 && s->header == 1);
    simdsv_sniff_free(s);
}

static void test_comment_preamble_footer_tables(void)
{
    simdsv_sniff *s = sniff("# made by a script\n# two lines\nid,n\n1,2\n3,4\n5,6\n");
    CHECK(s->comment == '#' && !strcmp(s->comment_marker, "#"));
    simdsv_sniff_free(s);
    s = sniff("// note\nid,n\n1,2\n// more\n3,4\n5,6\n");
    CHECK(s->comment == '/' && !strcmp(s->comment_marker, "//"));
    simdsv_sniff_free(s);
    /* '#' starting data rows of the table's width is data, not a comment. */
    s = sniff("tag,n\n#a,1\nb,2\n#c,3\nd,4\ne,5\n");
    CHECK(s->comment == -1);
    simdsv_sniff_free(s);
    const char pre[] = "Quarterly report\nExported 2024-01-02\n\nid,name,n\n1,a,2\n2,b,3\n3,c,4\n4,d,5\n";
    s = sniff(pre);
    CHECK(s->skip_lines == 3 && s->header == 1 && s->table_count == 1);
    simdsv_sniff_free(s);
    const char foot[] = "id,name,n\n1,a,2\n2,b,3\n3,c,4\n4,d,5\n\nTotal: 14\n";
    s = sniff(foot);
    CHECK(s->end_offset == (uint64_t)(strstr(foot, "\nTotal") - foot) && s->footer_lines == 2);
    simdsv_sniff_free(s);
    const char two[] = "id,name,n\n1,a,2\n2,b,3\n3,c,4\n\ncode,label\nx,1\ny,2\nz,3\n";
    s = sniff(two);
    CHECK(s->table_count == 2 && s->table == 0 && s->tables[1].first_line == 6 && s->tables[1].columns == 2);
    CHECK(s->end_offset == (uint64_t)(strstr(two, "\ncode") - two) && s->tables[0].last_line == 4);
    simdsv_sniff_free(s);
    simdsv_sniff_params p;
    memset(&p, 0, sizeof p);
    p.table = 1;
    s = sniff_n(two, strlen(two), &p);
    CHECK(s->table == 1 && s->skip_lines == 5 && s->end_offset == 0 && s->column_count == 2);
    CHECK(!strcmp(s->columns[0].name, "code") && s->columns[1].type == SIMDSV_TYPE_INT64);
    simdsv_sniff_free(s);
    /* A repeated header inside a table (files concatenated) is one line left
     * out, not a second table. */
    const char cat[] = "a,b\n1,2\n3,4\na,b\n5,6\n7,8\n";
    s = sniff(cat);
    CHECK_EQ_U64(s->table_count, 1);
    CHECK_EQ_U64(s->repeated_header_count, 1);
    CHECK_EQ_U64(s->repeated_headers[0].line, 4);
    CHECK_EQ_U64(s->repeated_headers[0].byte_start, 12);
    CHECK_EQ_U64(s->repeated_headers[0].byte_end, 16);
    CHECK(s->header == 1 && s->columns[0].type == SIMDSV_TYPE_INT64);
    char note[128];
    CHECK_EQ_U64(simdsv_sniff_left_out(s, note, sizeof note), strlen("line 4 (repeats the header)"));
    CHECK_STR(note, "line 4 (repeats the header)");
    simdsv_sniff_free(s);
}

/* Issue 21, "the rule": every line is data unless there is positive evidence
 * otherwise.  Each case is a file that once lost lines (the defect's number)
 * or a file with the evidence, beside one without it. */
static void test_layout_evidence(void)
{
    char note[256];
    /* Defect 1: a repeated first row, identical rows, one column of booleans. */
    simdsv_sniff *s = sniff("yes\nyes\nno\nyes\nyes\n");
    CHECK(s->table_count == 1 && s->skip_lines == 0 && s->end_offset == 0 && s->header == 0);
    CHECK(s->repeated_header_count == 0 && simdsv_sniff_left_out(s, note, sizeof note) == 0 && !note[0]);
    simdsv_sniff_free(s);
    char buf[4096];
    size_t n = 0;
    for (int i = 0; i < 200; i++)
        n += (size_t)sprintf(buf + n, "1, A\n");
    s = sniff(buf);
    CHECK(s->table_count == 1 && s->header == 0 && s->skip_lines == 0 && s->end_offset == 0);
    simdsv_sniff_free(s);
    s = sniff("10,Paris\n10,Paris\n11,Rome\n10,Paris\n12,Oslo\n");
    CHECK(s->table_count == 1 && s->header == 0 && s->repeated_header_count == 0);
    simdsv_sniff_free(s);

    /* Defect 2: a field-count change without a blank line is no table, and
     * rows of another width before the table's are no preamble. */
    s = sniff("id,name,score,city,note\n1,ann,3,Paris\n2,bob,4,Rome\n3,cid,5,Oslo,late\n4,dan,6,Kyiv,ok\n"
              "5,eve,7,Bern,ok\n6,fay,8,Riga,ok\n");
    CHECK(s->table_count == 1 && s->skip_lines == 0 && s->header == 1 && s->end_offset == 0);
    CHECK(s->column_count == 5 && !strcmp(s->columns[4].name, "note"));
    simdsv_sniff_free(s);
    s = sniff("a,b\n1,2,\n3,4,\n5,6,\n");
    CHECK(s->table_count == 1 && s->skip_lines == 0 && s->header == 1 && !strcmp(s->columns[0].name, "a"));
    simdsv_sniff_free(s);
    /* A blank line and more rows, but no header of their own: data. */
    s = sniff("id,name,n\n1,a,2\n2,b,3\n3,c,4\n\n5,d,6\n7,e,8\n9,f,10\n");
    CHECK(s->table_count == 1 && s->end_offset == 0);
    simdsv_sniff_free(s);
    /* A title line and a blank line, then a header of its own: a second table. */
    const char titled[] = "id,name,n\n1,a,2\n2,b,3\n3,c,4\n\nTable 2\ncode,v\nx,1\ny,2\nz,3\n";
    s = sniff(titled);
    CHECK(s->table_count == 2 && s->tables[1].first_line == 7 && s->tables[0].last_line == 4);
    CHECK_EQ_U64(s->end_offset, (uint64_t)(strstr(titled, "\n\nTable") - titled) + 1);
    simdsv_sniff_free(s);
    /* A preamble of notes as wide as half the table, or set apart by a blank line. */
    s = sniff("Source: a survey, 2024\nid,x,y,z\n1,2,3,4\n5,6,7,8\n9,10,11,12\n13,14,15,16\n");
    CHECK(s->skip_lines == 1 && s->header == 1 && !strcmp(s->columns[0].name, "id"));
    CHECK_EQ_U64(simdsv_sniff_left_out(s, note, sizeof note), strlen("line 1 (a preamble)"));
    simdsv_sniff_free(s);
    s = sniff("Source: a, b\nid,x,y\n1,2,3\n4,5,6\n7,8,9\n10,11,12\n");
    CHECK(s->skip_lines == 0); /* two fields of three, no blank line: a ragged row */
    simdsv_sniff_free(s);
    s = sniff("Source: a, b\n\nid,x,y\n1,2,3\n4,5,6\n7,8,9\n10,11,12\n");
    CHECK(s->skip_lines == 2);
    simdsv_sniff_free(s);
    /* A one-word line right above rows of data is a header the delimiter
     * cut otherwise (times at ':'), not a preamble; with a blank line after
     * notes, a table without a header still has its preamble. */
    s = sniff("t\n01:07:13\n02:14:26\n03:21:39\n04:28:52\n05:35:05\n");
    CHECK(s->skip_lines == 0 && s->end_offset == 0);
    simdsv_sniff_free(s);
    s = sniff("some text\ndescription\n\nJohn,Doe,120 st.,Riverside,NJ,08075\nJack,Mc,220 Av.,Phila,PA,09119\n"
              "Ann,Lee,1 Rd.,Riverside,NJ,08075\nBob,Ray,2 Rd.,SomeTown,SD,91234\n");
    CHECK(s->skip_lines == 3 && s->end_offset == 0 && s->header == 0);
    simdsv_sniff_free(s);
    /* Rows wider than the table after a blank line are no footer. */
    s = sniff("a\nb\nc\nd\n\n1,2,3\n4,5,6\n");
    CHECK(s->end_offset == 0 && s->footer_lines == 0);
    simdsv_sniff_free(s);
    /* ... and a run of the table's shape after it: not two rows. */
    s = sniff("# publisher City\n# updated 12/31/2010\nGID,Street,Species\n1,ADDISON,Celtis\n2,EMERSON,Liquidambar\n");
    CHECK(s->skip_lines == 0 || s->comment == '#');
    simdsv_sniff_free(s);
    /* Lines skipped because the caller said so are not said to be left out. */
    {
        simdsv_options *o = simdsv_options_new(NULL);
        simdsv_options_set(o, SIMDSV_OPT_SKIP_LINES, 1);
        simdsv_sniff_params p;
        memset(&p, 0, sizeof p);
        p.opt = o;
        p.given = 1u << SIMDSV_SNIFF_PREAMBLE;
        const char pre[] = "Source: a survey, 2024\nid,x,y,z\n1,2,3,4\n5,6,7,8\n9,10,11,12\n13,14,15,16\n";
        s = sniff_n(pre, strlen(pre), &p);
        CHECK(s->skip_lines == 1 && simdsv_sniff_left_out(s, note, sizeof note) == 0 && !note[0]);
        simdsv_sniff_free(s);
        simdsv_options_free(o);
    }
    /* A narrow last row is a footer only when no row of the table is narrow. */
    s = sniff("a,b,c,d\n1,2,3,4\n5,6\n7,8,9,10\n11,12,13,14\n15,16\n");
    CHECK(s->end_offset == 0 && s->footer_lines == 0);
    simdsv_sniff_free(s);
    const char foot[] = "a,b,c,d\n1,2,3,4\n5,6,7,8\n7,8,9,10\n11,12,13,14\nTotal 50\n";
    s = sniff(foot);
    CHECK_EQ_U64(s->end_offset, (uint64_t)(strstr(foot, "Total") - foot));
    CHECK_EQ_U64(simdsv_sniff_left_out(s, note, sizeof note), strlen("the last line (a footer)"));
    CHECK_STR(note, "the last line (a footer)");
    simdsv_sniff_free(s);

    /* Defect 3: comment blocks of any share of the lines. */
    s = sniff("# comment\n# comment\n# comment\n# comment\n# comment\n# comment\nid;name\n1;a\n2;b\n3;c\n");
    CHECK(s->comment == '#' && !strcmp(s->delimiter, ";") && s->header == 1 && s->skip_lines == 0);
    CHECK(s->table_count == 1 && s->end_offset == 0 && s->column_count == 2 && !strcmp(s->columns[0].name, "id"));
    CHECK_EQ_U64(simdsv_sniff_left_out(s, note, sizeof note), strlen("lines starting with '#' (comments)"));
    simdsv_sniff_free(s);
    s = sniff("# one\n# two\ncarat,cut,price\n0.2,Ideal,326\n");
    CHECK(s->comment == '#' && s->header_rows == 1 && !strcmp(s->columns[0].name, "carat"));
    simdsv_sniff_free(s);
    /* In one column, '#' values are data: not at the top, or not a note's form. */
    s = sniff("!\n$\n%\n&\n(\n)\n*\n+\n-\n.\n/\n:\n<\n=\n>\n?\n@\n[\n]\n^\n_\n{\n}\n~\n#\nx\n");
    CHECK(s->comment == -1);
    simdsv_sniff_free(s);
    s = sniff("#ff0000\n#00ff00\n#0000ff\nnone\n");
    CHECK(s->comment == -1);
    simdsv_sniff_free(s);

    /* Defect 9: one line alone is a header only when no field is typed (as
     * DuckDB decides); a repeated value is evidence against a header. */
    s = sniff("1,2,3\n");
    CHECK(s->header == 0 && s->table_count == 1);
    simdsv_sniff_free(s);
    s = sniff("7;8;9");
    CHECK(s->header == 0 && !strcmp(s->delimiter, ";"));
    simdsv_sniff_free(s);
    s = sniff("a,b,c\n");
    CHECK(s->header == 1);
    simdsv_sniff_free(s);
    s = sniff("123\n\"345\"\n 567\n");
    CHECK(s->header == 0);
    simdsv_sniff_free(s);
    s = sniff("a,b,\"\"\na,b,\"\"");
    CHECK(s->header == 0 && s->table_count == 1 && s->repeated_header_count == 0);
    simdsv_sniff_free(s);
    /* A text header over typed rows repeated in a one-column file: left out. */
    s = sniff("n\n1\n2\nn\n3\n4\n5\n");
    CHECK(s->header == 1 && s->repeated_header_count == 1 && s->repeated_headers[0].line == 4);
    simdsv_sniff_free(s);
}

static void test_header(void)
{
    simdsv_sniff *s = sniff("1,2.5,x\n3,4.5,y\n5,6.5,z\n");
    CHECK(s->header == 0 && conf(s, SIMDSV_SNIFF_HEADER) == 0.9);
    simdsv_sniff_free(s);
    s = sniff("id,price,label\n1,2.5,x\n3,4.5,y\n");
    CHECK(s->header == 1 && s->header_rows == 1 && conf(s, SIMDSV_SNIFF_HEADER) == 1);
    simdsv_sniff_free(s);
    /* Every column text: a header is kept (the default), "not sure"-ish. */
    s = sniff("a,b\nc,d\ne,f\n");
    CHECK(s->header == 1 && conf(s, SIMDSV_SNIFF_HEADER) == 0.6);
    simdsv_sniff_free(s);
    /* ... unless a value of it recurs below: no header. */
    s = sniff("x,y\nx,z\nw,v\n");
    CHECK(s->header == 0 && conf(s, SIMDSV_SNIFF_HEADER) == 0.6);
    simdsv_sniff_free(s);
    char buf[1024];
    size_t n = (size_t)sprintf(buf, "id,name,price\n,,EUR\n");
    for (int i = 0; i < 12; i++)
        n += (size_t)sprintf(buf + n, "%d,n%d,%d.5\n", i, i, i);
    s = sniff(buf);
    CHECK(s->header_rows == 2 && !strcmp(s->columns[2].name, "price EUR") && !strcmp(s->columns[0].name, "id"));
    simdsv_sniff_free(s);
}

static void test_formats(void)
{
    simdsv_sniff *s = sniff("id;amount\n1;1.234,56\n2;7,5\n3;12.000,00\n");
    CHECK(s->decimal_comma == 1 && s->columns[1].type == SIMDSV_TYPE_FLOAT64 && !strcmp(s->columns[1].format, "1.234,56"));
    simdsv_sniff_free(s);
    s = sniff("id,d\n1,13/01/2024\n2,02/03/2024\n");
    CHECK(s->columns[1].type == SIMDSV_TYPE_DATE && !strcmp(s->columns[1].format, "%d/%m/%Y"));
    simdsv_sniff_free(s);
    s = sniff("id,d\n1,01/13/2024\n2,02/03/2024\n");
    CHECK(!strcmp(s->columns[1].format, "%m/%d/%Y") && s->columns[1].confidence > 0.9);
    simdsv_sniff_free(s);
    /* Not sure: no part above 12; '/' is read month first, and said so. */
    s = sniff("id,d\n1,01/02/2024\n2,03/04/2024\n");
    CHECK(!strcmp(s->columns[1].format, "%m/%d/%Y") && s->columns[1].confidence < 0.6);
    CHECK(strstr(s->columns[1].reason, "not sure") != NULL);
    simdsv_sniff_free(s);
    s = sniff("id,t\n1,5/10/18 4:01\n2,5/11/18 16:30\n");
    CHECK(s->columns[1].type == SIMDSV_TYPE_TIMESTAMP && !strcmp(s->columns[1].format, "%m/%d/%y %H:%M"));
    simdsv_sniff_free(s);
    s = sniff("id,t\n1,25.12.2023 11:05:00 PM\n2,01.01.2024 01:00:00 AM\n");
    CHECK(!strcmp(s->columns[1].format, "%d.%m.%Y %I:%M:%S %p"));
    simdsv_sniff_free(s);
    s = sniff("id,t\n1,2023/12/25\n2,2024/01/01\n");
    CHECK(!strcmp(s->columns[1].format, "%Y/%m/%d"));
    simdsv_sniff_free(s);
    /* Thousands: '.' with a decimal comma, ',' with a decimal point (quoted where ',' delimits);
     * "1,234" alone could be a decimal comma: it takes a second group or a decimal point to decide. */
    s = sniff("id;amount\n1;1.234,56\n2;7,5\n3;12.000,00\n");
    CHECK(s->thousands == '.' && strstr(why(s, SIMDSV_SNIFF_DECIMAL), "1.234,56") != NULL);
    simdsv_sniff_free(s);
    s = sniff("id,amount,n\n1,\"1,234.50\",\"1,000\"\n2,\"12,000,000.25\",\"2,000\"\n3,7.5,\"3,000\"\n");
    CHECK(s->thousands == ',' && s->decimal_comma == 0 && s->columns[1].type == SIMDSV_TYPE_FLOAT64 &&
          !strcmp(s->columns[1].format, "1,234.56"));
    CHECK(s->columns[2].type == SIMDSV_TYPE_STRING); /* "1,000" alone: not decided for that column */
    simdsv_sniff_free(s);
    s = sniff("id;n\n1;1,234\n2;2,500\n");
    CHECK(s->thousands == 0 && s->decimal_comma == 1);
    simdsv_sniff_free(s);
    s = sniff("id;n\n1;1,234,567\n2;2,500,000\n");
    CHECK(s->thousands == ',' && s->decimal_comma == 0 && s->columns[1].type == SIMDSV_TYPE_INT64);
    simdsv_sniff_free(s);
    /* Quoted values type like unquoted ones. */
    s = sniff("\"ts\",\"n\"\n\"2017-08-27 00:05:34\",\"42\"\n\"2017-08-27 00:05:35\",\"7\"\n");
    CHECK(s->columns[0].type == SIMDSV_TYPE_TIMESTAMP && s->columns[1].type == SIMDSV_TYPE_INT64);
    simdsv_sniff_free(s);
}

/* Reads data with the options; returns the records' fields joined by | and / in out. */
static simdsv_status read_all(const char *data, size_t n, simdsv_options *o, char *out, size_t cap,
                              simdsv_error *err)
{
    simdsv_reader *r = NULL;
    simdsv_status st = simdsv_reader_new(&r, o);
    if (st == SIMDSV_ERR_KERNEL_UNSUPPORTED)
        exit(77);
    size_t k = 0;
    out[0] = '\0';
    if (st == SIMDSV_OK)
        st = simdsv_reader_open_memory(r, data, n);
    simdsv_record rec;
    int64_t header = 0;
    simdsv_options_get(o, SIMDSV_OPT_HEADER, &header);
    if (st == SIMDSV_OK && header && (st = simdsv_reader_header(r, &rec)) == SIMDSV_OK) {
        for (size_t i = 0; i < rec.field_count; i++)
            k += (size_t)snprintf(out + k, cap - k, "%s%.*s", i ? "|" : "", (int)rec.fields[i].size,
                                  rec.fields[i].data);
        k += (size_t)snprintf(out + k, cap - k, "/");
    }
    while (st == SIMDSV_OK && (st = simdsv_reader_next(r, &rec)) == SIMDSV_OK) {
        for (size_t i = 0; i < rec.field_count; i++)
            k += (size_t)snprintf(out + k, cap - k, "%s%.*s", i ? "|" : "", (int)rec.fields[i].size,
                                  rec.fields[i].data);
        k += (size_t)snprintf(out + k, cap - k, "/");
    }
    if (err)
        *err = *simdsv_reader_error(r);
    simdsv_reader_free(r);
    return st;
}

static void test_given_and_apply(void)
{
    simdsv_options *o = simdsv_options_new(NULL);
    simdsv_options_set(o, SIMDSV_OPT_DELIMITER, ';');
    simdsv_sniff_params p;
    memset(&p, 0, sizeof p);
    p.opt = o;
    p.given = 1u << SIMDSV_SNIFF_DELIMITER;
    simdsv_sniff *s = sniff_n("a,b;c\n1,2;3\n", 12, &p);
    CHECK(!strcmp(s->delimiter, ";") && s->decisions[SIMDSV_SNIFF_DELIMITER].given == 1 &&
          !strcmp(why(s, SIMDSV_SNIFF_DELIMITER), "given"));
    simdsv_sniff_free(s);
    s = sniff("Title\n\nid;n;s\n1;2,5;x\n2;3,5;y\n3;4,5;z\n");
    CHECK(simdsv_sniff_apply(s, o) == SIMDSV_OK);
    int64_t v;
    simdsv_options_get(o, SIMDSV_OPT_DELIMITER, &v);
    CHECK(v == ';');
    simdsv_options_get(o, SIMDSV_OPT_SKIP_LINES, &v);
    CHECK(v == 2);
    simdsv_options_get(o, SIMDSV_OPT_DECIMAL_COMMA, &v);
    CHECK(v == 1);
    simdsv_sniff_free(s);
    /* A delimiter of two bytes, padding and thousands are applied as the reader takes them. */
    s = sniff("a||b\n1||x y\n2||z\n3||w\n");
    CHECK(simdsv_sniff_apply(s, o) == SIMDSV_OK);
    CHECK(!strcmp(simdsv_options_get_string(o, SIMDSV_OPT_DELIMITER_STRING), "||"));
    simdsv_sniff_free(s);
    s = sniff("a, b, c\n1, \"x, y\", 3\n4, z, 6\n7, w, 9\n");
    CHECK(s->padding == 1 && s->columns[0].type == SIMDSV_TYPE_INT64 && !strcmp(s->columns[1].name, "b"));
    CHECK(simdsv_sniff_apply(s, o) == SIMDSV_OK);
    simdsv_options_get(o, SIMDSV_OPT_TRIM_SPACES, &v);
    CHECK(v == 1 && !strcmp(simdsv_options_get_string(o, SIMDSV_OPT_DELIMITER_STRING), ","));
    char got[256];
    CHECK(read_all("a, b, c\n1, \"x, y\", 3\n", 21, o, got, sizeof got, NULL) == SIMDSV_END);
    CHECK(!strcmp(got, "a|b|c/1|x, y|3/"));
    simdsv_sniff_free(s);
    s = sniff("id;amount\n1;1.234,56\n2;7,5\n3;12.000,00\n");
    CHECK(simdsv_sniff_apply(s, o) == SIMDSV_OK);
    simdsv_options_get(o, SIMDSV_OPT_THOUSANDS, &v);
    CHECK(v == '.');
    simdsv_sniff_free(s);
    /* Given by hand: a delimiter of several bytes and trimming. */
    simdsv_options_set_string(o, SIMDSV_OPT_DELIMITER_STRING, "::");
    simdsv_options_set(o, SIMDSV_OPT_TRIM_SPACES, 1);
    p.given = 1u << SIMDSV_SNIFF_DELIMITER | 1u << SIMDSV_SNIFF_PADDING;
    s = sniff_n("a::b\n1:: 2\n", 11, &p);
    CHECK(!strcmp(s->delimiter, "::") && s->padding == 1 && s->columns[1].type == SIMDSV_TYPE_INT64);
    simdsv_sniff_free(s);
    simdsv_options_free(o);
    CHECK(simdsv_sniff_memory(NULL, 3, NULL, &s) == SIMDSV_ERR_INVALID_ARGUMENT);
    int err = 0;
    CHECK(simdsv_sniff_path("/nonexistent/x.csv", NULL, &s, &err) == SIMDSV_ERR_IO && err != 0);
    CHECK(!strcmp(simdsv_sniff_setting_name(SIMDSV_SNIFF_HEADER_ROWS), "header_rows") &&
          simdsv_sniff_setting_name((simdsv_sniff_setting)99) == NULL);
}


static void test_reader_options(void)
{
    char out[512];
    simdsv_options *o = simdsv_options_new(NULL);
    CHECK(simdsv_options_set_string(o, SIMDSV_OPT_ENCODING, "no-such-encoding") == SIMDSV_ERR_INVALID_ARGUMENT);
    CHECK(simdsv_options_set_string(o, SIMDSV_OPT_ENCODING, "Latin1") == SIMDSV_OK);
    CHECK(!strcmp(simdsv_options_get_string(o, SIMDSV_OPT_ENCODING), "Latin1"));
    CHECK(read_all("n\n\xE9t\xE9\n", 6, o, out, sizeof out, NULL) == SIMDSV_END && !strcmp(out, "n/été/"));
    simdsv_options_set_string(o, SIMDSV_OPT_ENCODING, "cp1252");
    CHECK(read_all("n\n\x80\x92\x81\n", 6, o, out, sizeof out, NULL) == SIMDSV_END &&
          !strcmp(out, "n/\xE2\x82\xAC\xE2\x80\x99\xC2\x81/"));
    /* UTF-16 with a BOM (stripped), a surrogate pair, then an unpaired one: an error where it is. */
    simdsv_options_set_string(o, SIMDSV_OPT_ENCODING, "utf-16le");
    const char le[] = "\xFF\xFEn\0\n\0=\xD8\0\xDE\n\0x\0\0\xD8\n\0";
    simdsv_error e;
    CHECK(read_all(le, sizeof le - 1, o, out, sizeof out, &e) == SIMDSV_ERR_INVALID_UTF8);
    CHECK(!strcmp(out, "n/\xF0\x9F\x98\x80/") && e.line == 3 && e.column == 2);
    simdsv_options_set_string(o, SIMDSV_OPT_ENCODING, "UTF-16BE");
    const char be[] = "\0a\0,\0b\0\n\0\xE9\0,\0" "1";
    CHECK(read_all(be, sizeof be - 1, o, out, sizeof out, NULL) == SIMDSV_END && !strcmp(out, "a|b/é|1/"));
    /* Any other name through iconv. */
    simdsv_options_set_string(o, SIMDSV_OPT_ENCODING, "CP850");
    CHECK(read_all("n\n\x82t\x82\n", 6, o, out, sizeof out, NULL) == SIMDSV_END && !strcmp(out, "n/été/"));
    simdsv_options_set_string(o, SIMDSV_OPT_ENCODING, NULL);
    /* The end offset cuts a footer off; header rows join. */
    const char foot[] = "a,b\n1,2\n\nTotal,3\n";
    simdsv_options_set(o, SIMDSV_OPT_END_OFFSET, 8);
    CHECK(read_all(foot, sizeof foot - 1, o, out, sizeof out, NULL) == SIMDSV_END && !strcmp(out, "a|b/1|2/"));
    simdsv_options_set(o, SIMDSV_OPT_END_OFFSET, 0);
    CHECK(simdsv_options_set(o, SIMDSV_OPT_HEADER_ROWS, 0) == SIMDSV_ERR_INVALID_ARGUMENT);
    simdsv_options_set(o, SIMDSV_OPT_HEADER_ROWS, 3);
    const char hr[] = "Sales,,Costs\nQ1,Q2,Q1\nEUR,,USD\n1,2,3\n";
    CHECK(read_all(hr, sizeof hr - 1, o, out, sizeof out, NULL) == SIMDSV_END &&
          !strcmp(out, "Sales Q1 EUR|Sales Q2|Costs Q1 USD/1|2|3/"));
    simdsv_options_free(o);
}

/* The typed reader with SIMDSV_OPT_DATE_ORDER: the day/month order, 2-digit
 * years, AM/PM; an impossible date stays text; ISO still reads. */
static void test_date_order(void)
{
    simdsv_options *o = simdsv_options_new(NULL);
    CHECK(simdsv_options_set(o, SIMDSV_OPT_DATE_ORDER, 4) == SIMDSV_ERR_INVALID_ARGUMENT);
    simdsv_options_set(o, SIMDSV_OPT_DATE_ORDER, SIMDSV_DATE_MDY);
    simdsv_options_set(o, SIMDSV_OPT_THREADS, 1);
    const char csv[] = "t,d,bad,iso\n5/10/18 4:01,12/31/2024,13/13/2024,2024-01-02\n12/31/24 12:30 AM,2/1/99,1/1/2024,\n";
    simdsv_reader *r = NULL;
    simdsv_table *t = NULL;
    if (simdsv_reader_new(&r, o) == SIMDSV_ERR_KERNEL_UNSUPPORTED)
        exit(77);
    CHECK(simdsv_reader_open_memory(r, csv, sizeof csv - 1) == SIMDSV_OK && simdsv_table_read(r, &t) == SIMDSV_OK);
    if (t) {
        simdsv_column_info info;
        simdsv_table_column(t, 0, &info);
        CHECK(info.type == SIMDSV_TYPE_TIMESTAMP);
        simdsv_table_column(t, 1, &info);
        CHECK(info.type == SIMDSV_TYPE_DATE);
        simdsv_table_column(t, 2, &info);
        CHECK(info.type == SIMDSV_TYPE_STRING);
        simdsv_table_column(t, 3, &info);
        CHECK(info.type == SIMDSV_TYPE_DATE);
        struct ArrowSchema sc;
        struct ArrowArray a;
        CHECK(simdsv_table_move_to_arrow(t, &sc, &a) == SIMDSV_OK);
        const int64_t *ts = a.children[0]->buffers[1];
        CHECK(ts[0] == INT64_C(1525924860000000) && ts[1] == INT64_C(1735605000000000));
        const int32_t *d = a.children[1]->buffers[1];
        CHECK(d[0] == 20088 && d[1] == 10623);
        sc.release(&sc);
        a.release(&a);
        simdsv_table_free(t);
    }
    simdsv_reader_free(r);
    /* Day first, with dots; the sniff says which. */
    simdsv_sniff *s = sniff("id,d\n1,31.12.2024\n2,01.02.2024\n");
    CHECK(s->date_order == SIMDSV_DATE_DMY && !strcmp(why(s, SIMDSV_SNIFF_DATES), "%d.%m.%Y (column 2: d)"));
    CHECK(simdsv_sniff_apply(s, o) == SIMDSV_OK);
    int64_t v;
    simdsv_options_get(o, SIMDSV_OPT_DATE_ORDER, &v);
    CHECK(v == SIMDSV_DATE_DMY);
    simdsv_sniff_free(s);
    simdsv_options_free(o);
}

int main(void)
{
    test_date_order();
    test_encoding();
    test_delimiter();
    test_quote_escape_lines();
    test_comment_preamble_footer_tables();
    test_header();
    test_layout_evidence();
    test_formats();
    test_given_and_apply();
    test_reader_options();
    return check_summary();
}
