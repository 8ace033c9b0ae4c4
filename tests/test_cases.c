/*
 * test_cases.c — table-driven cases with exact expectations, plus the API
 * surface (options, statuses, kernels, allocator hooks, misuse).
 *
 * Every table case is read one-shot, split at every byte offset, one byte at
 * a time, through files (read() with a 4 KiB buffer, mmap, FILE*) and a pipe,
 * continuing after data errors; each way must give exactly the expected
 * records and errors (positions included).  Then the case is shifted by
 * 1..130 empty lines (moving it across 64-byte block edges) with the
 * expectation shifted accordingly, and simdsv_reader_count must agree with
 * what simdsv_reader_next yields.
 *
 * Options of a case are a string of space-separated settings:
 *   d=C q=C e=C c=C   delimiter, quote, escape, comment (C: a character,
 *                     \t, \0, \\, \xHH, or "none")
 *   cc=N              comment character by code point (SIMDSV_OPT_COMMENT_CHAR)
 *   ds=S              delimiter of several bytes (SIMDSV_OPT_DELIMITER_STRING; \s is a space)
 *   trim              SIMDSV_OPT_TRIM_SPACES
 *   h=1 skip=N lenient utf8=strict|lossy|none maxf=N maxr=N
 *   count=STATUS:N:OFFSET  what simdsv_reader_count returns, when it cannot
 *                     be derived from the expected items
 * Headers are off unless h=1.
 */
#include "harness.h"

/* ------------------------------------------------------------ options */

static int parse_char(const char *v, int *out)
{
    if (strcmp(v, "none") == 0) {
        *out = -1;
        return 1;
    }
    if (v[0] != '\\') {
        if (v[0] == '\0' || v[1] != '\0')
            return 0;
        *out = (unsigned char)v[0];
        return 1;
    }
    if (strcmp(v, "\\t") == 0)
        *out = '\t';
    else if (strcmp(v, "\\0") == 0)
        *out = 0;
    else if (strcmp(v, "\\\\") == 0)
        *out = '\\';
    else if (v[1] == 'x' && h_hex(v[2]) >= 0 && h_hex(v[3]) >= 0 && v[4] == '\0')
        *out = h_hex(v[2]) * 16 + h_hex(v[3]);
    else
        return 0;
    return 1;
}

typedef struct spec_info {
    int header, lenient, limits, skip;
    int has_count; /* count=STATUS:N:OFFSET given */
    simdsv_status count_status;
    uint64_t count, count_offset;
} spec_info;

/* Options from a spec string (see the top of the file); NULL on a bad spec. */
static simdsv_options *make_opts(const char *spec, spec_info *info)
{
    simdsv_options *opt = simdsv_options_new(NULL);
    spec_info dummy;
    if (!info)
        info = &dummy;
    memset(info, 0, sizeof *info);
    if (!opt)
        return NULL;
    simdsv_options_set(opt, SIMDSV_OPT_HEADER, 0);
    char buf[256];
    snprintf(buf, sizeof buf, "%s", spec);
    for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
        char *eq = strchr(tok, '=');
        const char *v = eq ? eq + 1 : "";
        if (eq)
            *eq = '\0';
        simdsv_status st = SIMDSV_ERR_INVALID_ARGUMENT;
        int c;
        if (strcmp(tok, "d") == 0 && parse_char(v, &c))
            st = simdsv_options_set(opt, SIMDSV_OPT_DELIMITER, c);
        else if (strcmp(tok, "q") == 0 && parse_char(v, &c))
            st = simdsv_options_set(opt, SIMDSV_OPT_QUOTE, c);
        else if (strcmp(tok, "e") == 0 && parse_char(v, &c))
            st = simdsv_options_set(opt, SIMDSV_OPT_ESCAPE, c);
        else if (strcmp(tok, "c") == 0 && parse_char(v, &c))
            st = simdsv_options_set(opt, SIMDSV_OPT_COMMENT, c);
        else if (strcmp(tok, "cc") == 0)
            st = simdsv_options_set(opt, SIMDSV_OPT_COMMENT_CHAR, strtol(v, NULL, 0));
        else if (strcmp(tok, "ds") == 0) {
            char seq[8];
            size_t n = 0;
            for (const char *p = v; *p && n < sizeof seq - 1; p++)
                seq[n++] = p[0] == '\\' && p[1] == 's' ? (p++, ' ') : *p;
            seq[n] = '\0';
            st = simdsv_options_set_string(opt, SIMDSV_OPT_DELIMITER_STRING, seq);
        } else if (strcmp(tok, "trim") == 0)
            st = simdsv_options_set(opt, SIMDSV_OPT_TRIM_SPACES, 1);
        else if (strcmp(tok, "h") == 0) {
            info->header = atoi(v);
            st = simdsv_options_set(opt, SIMDSV_OPT_HEADER, info->header);
        } else if (strcmp(tok, "skip") == 0) {
            info->skip = 1;
            st = simdsv_options_set(opt, SIMDSV_OPT_SKIP_LINES, atoi(v));
        } else if (strcmp(tok, "lenient") == 0) {
            info->lenient = 1;
            st = simdsv_options_set(opt, SIMDSV_OPT_LENIENT, 1);
        } else if (strcmp(tok, "utf8") == 0) {
            const int mode = strcmp(v, "strict") == 0 ? 0 : strcmp(v, "lossy") == 0 ? 1 : strcmp(v, "none") == 0 ? 2 : -1;
            st = simdsv_options_set(opt, SIMDSV_OPT_UTF8, mode);
        } else if (strcmp(tok, "maxf") == 0) {
            info->limits = 1;
            st = simdsv_options_set(opt, SIMDSV_OPT_MAX_FIELDS, atoi(v));
        } else if (strcmp(tok, "count") == 0) {
            /* what simdsv_reader_count must return, when the expected items
             * cannot tell (a quoting error hidden behind invalid UTF-8) */
            char name[64];
            unsigned long long n = 0, at = 0;
            if (sscanf(v, "%63[A-Z_]:%llu:%llu", name, &n, &at) >= 2 && h_status_from_name(name) >= 0) {
                info->has_count = 1;
                info->count_status = (simdsv_status)h_status_from_name(name);
                info->count = n;
                info->count_offset = at;
                st = SIMDSV_OK;
            }
        } else if (strcmp(tok, "maxr") == 0) {
            info->limits = 1;
            st = simdsv_options_set(opt, SIMDSV_OPT_MAX_RECORD_SIZE, atoi(v));
        }
        if (st != SIMDSV_OK) {
            FAIL_MSG("bad option spec '%s' (at '%s')", spec, tok);
            simdsv_options_free(opt);
            return NULL;
        }
    }
    return opt;
}

/* -------------------------------------------------------------- the table */

typedef struct tcase {
    const char *name;
    const char *opts;
    const char *in;
    size_t len;
    const char *exp;
} tcase;

#define IN(s) s, sizeof(s) - 1
#define QIU "{'error':'QUOTE_IN_UNQUOTED_FIELD','at':"
#define TAQ "{'error':'TEXT_AFTER_QUOTE','at':"
#define UTQ "{'error':'UNTERMINATED_QUOTE','at':"
#define BADU "{'error':'INVALID_UTF8','at':"
#define TMF "{'error':'TOO_MANY_FIELDS','at':"
#define TLR "{'error':'RECORD_TOO_LARGE','at':"

/* Error positions are [byte, line, column, record, field]. */
static const tcase cases[] = {
    /* quoting */
    {"plain", "", IN("a,b,c\n1,2,3\n"), "[['a','b','c'],['1','2','3']]"},
    {"no final line end", "", IN("a,b\nc,d"), "[['a','b'],['c','d']]"},
    {"quoted delimiter", "", IN("\"a,b\",c\n"), "[{'fields':['a,b','c'],'flags':[1,0]}]"},
    {"quoted LF", "", IN("\"a\nb\",c\nd\n"), "[['a\nb','c'],['d']]"},
    {"quoted CRLF kept raw", "", IN("\"a\r\nb\",c\r\nd\r\n"), "[['a\r\nb','c'],['d']]"},
    {"quoted lone CR", "", IN("\"a\rb\"\rc"), "[['a\rb'],['c']]"},
    {"doubled quotes", "", IN("\"a\"\"b\",\"\"\"\"\n"), "[{'fields':['a\"b','\"'],'flags':[3,3]}]"},
    {"doubled quotes at the edges", "", IN("\"\"\"a\"\"\"\n"), "[{'fields':['\"a\"'],'flags':[3]}]"},
    {"lone empty quoted field", "", IN("\"\"\n"), "[{'fields':[''],'flags':[1]}]"},
    {"lone empty quoted field at EOF", "", IN("\"\""), "[{'fields':[''],'flags':[1]}]"},
    {"empty quoted fields", "", IN("\"\",\"\"\n\"\"\r\n"), "[{'fields':['',''],'flags':[1,1]},{'fields':[''],'flags':[1]}]"},
    {"empty fields", "", IN(",\n,,\n"), "[['',''],['','','']]"},
    {"trailing delimiter", "", IN("a,\nb,\r\nc,"), "[['a',''],['b',''],['c','']]"},
    {"leading delimiter", "", IN(",a\n"), "[['','a']]"},
    {"spaces are kept", "", IN(" a , b \n"), "[[' a ',' b ']]"},
    {"quoted then CR", "", IN("\"a\"\rb\r"), "[['a'],['b']]"},
    {"quoted then CRLF", "", IN("\"a\"\r\n\"b\""), "[['a'],['b']]"},
    {"flags", "", IN("a,\"b\",\"c\"\"d\",\"\"\n"), "[{'fields':['a','b','c\"d',''],'flags':[0,1,3,1]}]"},

    /* line ends */
    {"LF CR CRLF mix", "", IN("a\rb\r\nc\nd"), "[['a'],['b'],['c'],['d']]"},
    {"CR CRLF is an empty line", "", IN("a\r\r\nb\n\rc"), "[['a'],['b'],['c']]"},
    {"only line ends", "", IN("\n\r\n\r\r\n\n"), "[]"},
    {"empty input", "", IN(""), "[]"},
    {"empty lines between records", "", IN("a\n\n\nb\n\r\n\r\nc"), "[['a'],['b'],['c']]"},
    {"leading empty lines, offsets", "", IN("\n\r\na,b\n\nc"),
     "[{'fields':['a','b'],'index':0,'offset':3},{'fields':['c'],'index':1,'offset':8}]"},
    {"one field without line end", "", IN("x"), "[['x']]"},
    {"record offsets", "", IN("ab,c\r\n\"d\ne\",f\ng"),
     "[{'fields':['ab','c'],'offset':0},{'fields':['d\ne','f'],'offset':6},{'fields':['g'],'offset':14}]"},

    /* BOM */
    {"BOM stripped", "", IN("\xEF\xBB\xBF" "a,b\n"), "[{'fields':['a','b'],'offset':3}]"},
    {"BOM then quoted field", "", IN("\xEF\xBB\xBF\"a\",b"), "[{'fields':['a','b'],'flags':[1,0]}]"},
    {"BOM only", "", IN("\xEF\xBB\xBF"), "[]"},
    {"BOM then line end", "", IN("\xEF\xBB\xBF\na"), "[['a']]"},
    {"BOM not at the start is data", "", IN("a\n\xEF\xBB\xBF" "b\n"), "[['a'],['\xEF\xBB\xBF" "b']]"},
    {"partial BOM is invalid UTF-8", "", IN("\xEF\xBB"), "[" BADU "[0,1,1,0,0]}]"},
    {"partial BOM without UTF-8 check", "utf8=none", IN("\xEF\xBB,x"), "[['\xEF\xBB','x']]"},
    {"column after a BOM", "", IN("\xEF\xBB\xBF\"a\"b\n"), "[" TAQ "[6,1,4,0,0]}]"},

    /* skipped lines */
    {"skip 1", "skip=1", IN("junk \"x\nA,B\n"), "[['A','B']]"},
    {"skip 2 CRLF", "skip=2", IN("x\r\ny\r\na\r\n"), "[['a']]"},
    {"skip counts a lone CR", "skip=2", IN("x\ry\na"), "[['a']]"},
    {"skip counts empty lines", "skip=2", IN("\n\na\n"), "[['a']]"},
    {"skip more lines than there are", "skip=5", IN("a\nb\n"), "[]"},
    {"skip after the BOM", "skip=1", IN("\xEF\xBB\xBF" "junk\na"), "[['a']]"},
    {"skip ignores quotes", "skip=1", IN("\"\na,b"), "[['a','b']]"},
    {"skip: lines count from the file start", "skip=1", IN("x\na\"b\n"), "[" QIU "[3,2,2,0,0]}]"},
    {"skip then header", "skip=1 h=1", IN("junk\nh1,h2\nv1,v2\n"),
     "[{'header':['h1','h2']},{'fields':['v1','v2'],'index':0}]"},

    /* header */
    {"header", "h=1", IN("name,age\nbob,3\namy,4\n"),
     "[{'header':['name','age']},{'fields':['bob','3'],'index':0},{'fields':['amy','4'],'index':1}]"},
    {"quoted header is decoded", "h=1", IN("\"n\"\"x\",b\n1,2"), "[{'header':['n\"x','b'],'flags':[1,0]},['1','2']]"},
    {"header only", "h=1", IN("a,b\n"), "[{'header':['a','b']}]"},
    {"header of empty fields", "h=1", IN(",\n1,2\n"), "[{'header':['','']},['1','2']]"},
    {"header, empty input", "h=1", IN(""), "[]"},
    {"header after BOM and empty lines", "h=1", IN("\xEF\xBB\xBF\n\na\nb"), "[{'header':['a']},{'fields':['b'],'index':0}]"},
    {"header with an error: the next record is the header", "h=1", IN("a\"b\nc\nd\n"),
     "[" QIU "[1,1,2,0,0]},{'header':['c']},{'fields':['d'],'index':0}]"},
    {"error after the header", "h=1", IN("h\nx\"\ny\n"), "[{'header':['h']}," QIU "[3,2,2,1,0]},{'fields':['y'],'index':0}]"},
    {"indexes skip errors", "", IN("a\nb\"\nc\n\"d\"e\nf"),
     "[{'fields':['a'],'index':0}," QIU "[3,2,2,1,0]},{'fields':['c'],'index':1}," TAQ
     "[10,4,4,3,0]},{'fields':['f'],'index':2}]"},

    /* comments */
    {"comments", "c=#", IN("#x\na\n#y,\"z\nb"), "[['a'],['b']]"},
    {"quotes in comments do not toggle quoting", "c=#", IN("#\"\na,b\n#\"x\"y\n\"c\"\n"),
     "[['a','b'],{'fields':['c'],'flags':[1]}]"},
    {"comment only at a record start", "c=#", IN("a#b,#c\n #d\n"), "[['a#b','#c'],[' #d']]"},
    {"quoted comment character", "c=#", IN("\"#a\"\n"), "[{'fields':['#a'],'flags':[1]}]"},
    {"comment at EOF", "c=#", IN("a\n#x"), "[['a']]"},
    {"comment with CRLF", "c=#", IN("#x\r\na\r\n#\r\n"), "[['a']]"},
    {"comment ends at a lone CR", "c=#", IN("#x\ra"), "[['a']]"},
    {"comment inside a multi-line quoted field is data", "c=#", IN("\"a\n#b\"\n#c\nd"), "[['a\n#b'],['d']]"},
    {"comment after empty lines", "c=#", IN("\n\n#x\n\na"), "[['a']]"},
    {"comments are not records", "c=#", IN("#c\na\"\n"), "[" QIU "[4,2,2,0,0]}]"},
    {"comment then header", "c=# h=1", IN("#c\nh\n#d\nv\n"), "[{'header':['h']},{'fields':['v'],'index':0}]"},
    {"non-ASCII comment", "cc=0x3b8", IN("\xCE\xB8x\na\n\xCE\xB8\nb"), "[['a'],['b']]"},
    {"non-ASCII comment: same lead byte is data", "cc=0x3b8", IN("\xCE\xB9" "a,\"q\"\"\"\n"),
     "[['\xCE\xB9" "a','q\"']]"},
    {"non-ASCII comment: lead byte at EOF", "cc=0x3b8 utf8=none", IN("x\n\xCE"), "[['x'],['\xCE']]"},
    {"4-byte comment", "cc=0x1f600", IN("\xF0\x9F\x98\x80 x\na\n\xF0\x9F\x98\x81\n"), "[['a'],['\xF0\x9F\x98\x81']]"},

    /* no quoting */
    {"no quoting", "q=none", IN("\"a,b\",c\n\"\"\n"), "[{'fields':['\"a','b\"','c'],'flags':[0,0,0]},{'fields':['\"\"'],'flags':[0]}]"},
    {"no quoting: line ends always end records", "q=none", IN("\"a\nb\"\n"), "[['\"a'],['b\"']]"},

    /* escape */
    {"escaped quote", "e=\\\\", IN("\"a\\\"b\",c\n"), "[{'fields':['a\"b','c'],'flags':[3,0]}]"},
    {"escaped escape", "e=\\\\", IN("\"a\\\\b\"\n"), "[{'fields':['a\\\\b'],'flags':[3]}]"},
    {"escape at the end of a quoted field", "e=\\\\", IN("\"a\\\\\"\n"), "[{'fields':['a\\\\'],'flags':[3]}]"},
    {"escape outside quotes is literal", "e=\\\\", IN("a\\b,c\\\n"), "[{'fields':['a\\\\b','c\\\\'],'flags':[0,0]}]"},
    {"escape outside quotes does not escape a quote", "e=\\\\", IN("a\\\"b\nx\n"), "[" QIU "[2,1,3,0,0]},['x']]"},
    {"escaped delimiter and line end", "e=\\\\", IN("\"a\\,b\\\nc\"\n"), "[{'fields':['a,b\nc'],'flags':[3]}]"},
    {"escape then EOF", "e=\\\\", IN("\"a\\"), "[" UTQ "[0,1,1,0,0]}]"},
    {"doubled quotes still work with an escape", "e=\\\\", IN("\"a\"\"b\"\n"), "[{'fields':['a\"b'],'flags':[3]}]"},
    {"escaped quote then text after quote", "e=\\\\", IN("\"a\\\"x\"y\n"), "[" TAQ "[6,1,7,0,0]}]"},
    {"escape equal to quote means doubling", "e=\"", IN("\"a\"\"b\",c\n"), "[['a\"b','c']]"},
    {"letter escape", "e=z", IN("\"azzb\",\"az\"b\"\n"), "[{'fields':['azb','a\"b'],'flags':[3,3]}]"},

    /* delimiters */
    {"tab", "d=\\t", IN("a\tb\t\"c\td\"\n"), "[['a','b','c\td']]"},
    {"unit separator", "d=\\x1f", IN("a\x1f" "b,c\n"), "[['a','b,c']]"},
    {"NUL delimiter", "d=\\0", IN("a\0b\0\"c\0d\"\n\0"), "[['a','b','c\\0d'],['','']]"},
    {"letter delimiter", "d=x", IN("axb\n\"x\"x\"y\"\n"), "[['a','b'],['x','y']]"},
    {"space delimiter", "d=\\x20", IN("a b  c\n"), "[['a','b','','c']]"},
    {"semicolon", "d=;", IN("a;b,c\n"), "[['a','b,c']]"},

    /* delimiters of several bytes and trimmed spaces: the slow path reads every record */
    {"two-byte delimiter", "ds=||", IN("a||b|c||\nd|||e\n"), "[['a','b|c',''],['d','|e']]"},
    {"two-byte delimiter, quoted", "ds=||", IN("\"a||b\"||\"c\"\"\"\n"), "[{'fields':['a||b','c\"'],'flags':[1,1]}]"},
    {"two-byte delimiter, text after quote", "ds=||", IN("\"a\"|b||c\nx\n"), "[" TAQ "[3,1,4,0,0]},['x']]"},
    {"two-byte delimiter at the end", "ds=::", IN("a::b::"), "[['a','b','']]"},
    {"two-byte delimiter cut at the end", "ds=::", IN("a::b:"), "[['a','b:']]"},
    {"comma space", "ds=,\\s", IN("a, b,c, \"d, e\"\n"), "[['a','b,c','d, e']]"},
    {"four-byte delimiter", "ds=<#>|", IN("1<#>|2<#>3\n"), "[['1','2<#>3']]"},
    {"multi-byte delimiter with a header", "ds=|| h=1", IN("x||y\n1||2\n"), "[{'header':['x','y']},['1','2']]"},
    {"multi-byte delimiter with comments", "ds=|| c=#", IN("#x||y\n1||2\n"), "[['1','2']]"},
    {"trim spaces", "trim", IN("a, b ,  c\n d ,e\n"), "[['a','b','c'],['d','e']]"},
    {"trim spaces around quotes", "trim", IN(" \"a b\" , \" c\"\n"), "[{'fields':['a b',' c'],'flags':[1,1]}]"},
    {"trim keeps inner spaces", "trim", IN("a  b,  ,\n"), "[['a  b','','']]"},
    {"trim: text after the spaces after a quote", "trim lenient", IN("\"a\"  b,c\n"), "[['a  b','c']]"},
    {"trim: text after quote is an error", "trim", IN("\"a\" b,c\nd\n"), "[" TAQ "[4,1,5,0,0]},['d']]"},
    {"trim with a tab delimiter", "trim d=\\t", IN(" a \t b\n"), "[['a','b']]"},
    {"trim with comma space", "trim ds=,\\s", IN("a,  b , c\n"), "[['a','b','c']]"},
    {"high byte delimiter", "d=\\xa7 utf8=none", IN("a\xA7" "b\n"), "[['a','b']]"},
    {"NUL bytes in fields", "", IN("a\0b,c\0\n\"\0\"\n"), "[['a\\0b','c\\0'],{'fields':['\\0'],'flags':[1]}]"},
    {"single-quote quote", "q='", IN("'a,b',\"c\"\n'it''s'\n"), "[{'fields':['a,b','\"c\"'],'flags':[1,0]},{'fields':['it\\'s'],'flags':[3]}]"},

    /* lenient: Python csv semantics */
    {"lenient", "lenient", IN("a\"b,c\n\"x\"y,z\n\"abc"),
     "[{'fields':['a\"b','c'],'flags':[0,0]},{'fields':['xy','z'],'flags':[1,0]},{'fields':['abc'],'flags':[1]}]"},
    {"lenient: quotes after text after quote", "lenient", IN("\"a\"b\"c\",d\n"), "[['ab\"c\"','d']]"},
    {"lenient: doubled quotes in a repaired field", "lenient", IN("\"a\"\"b\"x,c\n"), "[{'fields':['a\"bx','c'],'flags':[1,0]}]"},
    {"lenient: unterminated over lines", "lenient", IN("a,\"b\nc"), "[['a','b\nc']]"},
    {"lenient: records after a repaired one", "lenient", IN("x\"\ny,\"z\"\n"), "[['x\"'],{'fields':['y','z'],'flags':[0,1]}]"},
    {"lenient: text after quote then CR", "lenient", IN("\"a\"b\rc"), "[['ab'],['c']]"},
    {"lenient with escape", "lenient e=\\\\", IN("\"a\\\"b\"c\n"), "[['a\"bc']]"},
    {"lenient: lone quote", "lenient", IN("\""), "[{'fields':[''],'flags':[1]}]"},

    /* strict errors, exact positions */
    {"spec example", "", IN("a,b\nc,d\"e\nf\n"), "[['a','b']," QIU "[7,2,4,1,1]},['f']]"},
    {"text after quote", "", IN("\"ab\"c,d\nx\n"), "[" TAQ "[4,1,5,0,0]},['x']]"},
    {"text after quote in the second field", "", IN("a,\"b\"c\n"), "[" TAQ "[5,1,6,0,1]}]"},
    {"space after quote", "", IN("\"a\" ,b\n"), "[" TAQ "[3,1,4,0,0]}]"},
    {"quote after a quoted field", "", IN("\"a\",b\"c\n"), "[" QIU "[5,1,6,0,1]}]"},
    {"unterminated quote", "", IN("a,b\nc,\"d\ne\n"), "[['a','b']," UTQ "[6,2,3,1,1]}]"},
    {"lone quote", "", IN("\""), "[" UTQ "[0,1,1,0,0]}]"},
    {"unterminated after a doubled quote", "", IN("x\n\"a\"\""), "[['x']," UTQ "[2,2,1,1,0]}]"},
    {"text after a multi-line quoted field", "", IN("\"a\nb\"x\n"), "[" TAQ "[5,2,3,0,0]}]"},
    {"quote error on line 3 after CRLF and a multi-line field", "", IN("x,y\r\n\"p\r\nq\",\xC3\xA9\"\r\nz\r\n"),
     "[['x','y']," QIU "[14,3,5,1,1]},['z']]"},
    {"several errors, reading goes on", "", IN("a\"b\n\"c\"d\n\"e\n"),
     "[" QIU "[1,1,2,0,0]}," TAQ "[7,2,4,1,0]}," UTQ "[9,3,1,2,0]}]"},
    {"column counts characters", "", IN("\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80,x\"\n"), "[" QIU "[11,1,6,0,1]}]"},
    {"column counts each invalid byte as one", "utf8=none", IN("\x80\x80,\"x\"y\n"), "[" TAQ "[6,1,7,0,1]}]"},

    /* UTF-8 */
    {"UTF-8 strict", "", IN("a\n\xFF\nb\n"), "[['a']," BADU "[2,2,1,1,0]},['b']]"},
    {"UTF-8 strict, second field", "", IN("ab,c\xFF" "d\n"), "[" BADU "[4,1,5,0,1]}]"},
    {"UTF-8 strict, quoted field", "", IN("x,\"a\nb\xC3\"\n"), "[" BADU "[6,2,2,0,1]}]"},
    {"UTF-8 error on line 3 after CRLF and a multi-line field", "", IN("x,y\r\n\"p\r\nq\",\xC3\xA9\xFF\r\nz\r\n"),
     "[['x','y']," BADU "[14,3,5,1,1]},['z']]"},
    {"UTF-8 truncated at EOF", "", IN("a\xE2\x82"), "[" BADU "[1,1,2,0,0]}]"},
    {"UTF-8 overlong", "", IN("\xC0\x80"), "[" BADU "[0,1,1,0,0]}]"},
    {"UTF-8 surrogate", "", IN("\xED\xA0\x80"), "[" BADU "[0,1,1,0,0]}]"},
    {"UTF-8 above U+10FFFF", "", IN("\xF4\x90\x80\x80"), "[" BADU "[0,1,1,0,0]}]"},
    {"UTF-8 valid multibyte", "", IN("\xC3\xA9,\xE2\x82\xAC,\xF0\x9F\x98\x80\n"), "[['\xC3\xA9','\xE2\x82\xAC','\xF0\x9F\x98\x80']]"},
    {"UTF-8 lossy flags the right field", "utf8=lossy", IN("a,\xFF,c\n\"\xC3\",x\ny\n"),
     "[{'fields':['a','\xFF','c'],'flags':[0,4,0]},{'fields':['\xC3','x'],'flags':[5,0]},{'fields':['y'],'flags':[0]}]"},
    {"UTF-8 none", "utf8=none", IN("a,\xFF\n"), "[{'fields':['a','\xFF'],'flags':[0,0]}]"},
    {"UTF-8 lossy header", "h=1 utf8=lossy", IN("\xFF,b\n1,2\n"), "[{'header':['\xFF','b'],'flags':[4,0]},['1','2']]"},
    {"UTF-8 error in the header", "h=1", IN("\xFF\nh\nv\n"), "[" BADU "[0,1,1,0,0]},{'header':['h']},['v']]"},
    {"UTF-8 in a comment line is not checked", "c=#", IN("a\n#\xFF\nb\n"), "[['a'],['b']]"},
    {"UTF-8 error field in a repaired record", "lenient", IN("a\"b,\xFF\n"), "[" BADU "[4,1,5,0,1]}]"},
    {"invalid UTF-8 before a quoting error comes first", "count=QUOTE_IN_UNQUOTED_FIELD:0:2", IN("a\xFF\"b\nc\n"), "[" BADU "[1,1,2,0,0]},['c']]"},
    {"invalid UTF-8 in a field before a quoting error", "count=QUOTE_IN_UNQUOTED_FIELD:0:3", IN("\xFF,a\"b\nc\n"), "[" BADU "[0,1,1,0,0]},['c']]"},
    {"a quoting error before invalid UTF-8 comes first", "", IN("a\"\xFF,b\nc\n"), "[" QIU "[1,1,2,0,0]},['c']]"},

    /* limits */
    {"max fields", "maxf=2", IN("a,b\nc,d,e\nf\n"), "[['a','b']," TMF "[8,2,5,1,2]},['f']]"},
    {"max fields, exactly", "maxf=3", IN("a,b,c\n"), "[['a','b','c']]"},
    {"max fields past 16", "maxf=20", IN("a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q,r,s,t,u\nz\n"),
     "[" TMF "[40,1,41,0,20]},['z']]"},
    {"max fields, quoted", "maxf=2", IN("\"a\",\"b\",\"c\"\nz\n"), "[" TMF "[8,1,9,0,2]},['z']]"},
    {"max fields in a repaired record", "maxf=2 lenient", IN("a,b\"x,c\nz\n"), "[" TMF "[6,1,7,0,2]},['z']]"},
    {"max record size", "maxr=5", IN("abc\nabcdef\nxy"), "[['abc']," TLR "[4,2,1,1,0]},['xy']]"},
    {"max record size excludes the line end", "maxr=5", IN("abcde\nabcde\r\nabcde"), "[['abcde'],['abcde'],['abcde']]"},
    {"max record size, quoted line end", "maxr=5", IN("\"a\nb\"\n\"a\nbcd\"\n"), "[['a\nb']," TLR "[6,3,1,1,0]}]"},
};

/* ------------------------------------------------- shifted expectations */

/* Adds k to every byte offset and line of an expectation (the input was
 * prefixed with k line feeds). */
static void shift_expectation(h_json *exp, size_t k)
{
    for (size_t i = 0; i < exp->count; i++) {
        h_json *e = &exp->items[i];
        if (e->type != HJ_OBJ)
            continue;
        for (size_t j = 0; j < e->count; j++) {
            h_json *v = &e->items[j];
            if (strcmp(e->keys[j], "at") == 0 && v->type == HJ_ARR && v->count == 5) {
                v->items[0].num += (int64_t)k;
                v->items[1].num += (int64_t)k;
            } else if (strcmp(e->keys[j], "byte") == 0 || strcmp(e->keys[j], "line") == 0 ||
                       strcmp(e->keys[j], "offset") == 0) {
                v->num += (int64_t)k;
            }
        }
    }
}

/* What simdsv_reader_count must return, derived from the expected items:
 * it counts the data records; UTF-8 is not checked by counting, so a record
 * rejected for UTF-8 only still counts; it stops at the first quoting error
 * (strict mode), and fails like the header if the header cannot be read. */
static int count_expectation(const h_json *exp, int header, simdsv_status *status, uint64_t *count, uint64_t *offset)
{
    *status = SIMDSV_OK;
    *count = 0;
    *offset = 0;
    int header_seen = !header;
    for (size_t i = 0; i < exp->count; i++) {
        const h_json *e = &exp->items[i];
        if (h_json_get(e, "header")) {
            header_seen = 1;
            continue;
        }
        const h_json *err = h_json_get(e, "error");
        if (!err) {
            ++*count;
            continue;
        }
        const int st = h_status_from_name(err->str);
        const h_json *at = h_json_get(e, "at");
        if (!header_seen || st != SIMDSV_ERR_INVALID_UTF8) {
            *status = (simdsv_status)st;
            *offset = at ? (uint64_t)at->items[0].num : 0;
            if (!header_seen)
                *count = 0;
            return st == SIMDSV_ERR_QUOTE_IN_UNQUOTED_FIELD || st == SIMDSV_ERR_TEXT_AFTER_QUOTE ||
                   st == SIMDSV_ERR_UNTERMINATED_QUOTE || st == SIMDSV_ERR_INVALID_UTF8;
        }
        ++*count;
    }
    return 1;
}

static void check_count(const char *name, simdsv_options *opt, const char *in, size_t len, const h_json *exp,
                        const spec_info *info)
{
    simdsv_status want;
    uint64_t want_count, want_offset;
    if (info->has_count) {
        want = info->count_status;
        want_count = info->count;
        want_offset = info->count_offset;
    } else if (!count_expectation(exp, info->header, &want, &want_count, &want_offset)) {
        return;
    }
    static const size_t one[1] = {1};
    for (size_t k = 0; k <= len + 1; k++) {
        size_t chunk[1];
        chunk[0] = k;
        h_read how = h_how(k == 0 ? H_MEMORY : H_CHUNKS);
        if (k > len) {
            how.chunks = one;
            how.cycle = 1;
        } else {
            how.chunks = chunk;
        }
        how.nchunks = 1;
        uint64_t count = 0;
        h_error err;
        const simdsv_status st = h_count(opt, in, len, &how, &count, &err);
        const int ok = st == want && count == want_count && (want == SIMDSV_OK || err.byte_offset == want_offset);
        if (ok) {
            PASS();
            continue;
        }
        FAIL_MSG("case %s: simdsv_reader_count (%s) = %s, %llu (error at byte %llu); expected %s, %llu (at %llu)", name,
                 k == 0 ? "one-shot" : k > len ? "one byte at a time" : "split", simdsv_status_name(st),
                 (unsigned long long)count, (unsigned long long)err.byte_offset, simdsv_status_name(want),
                 (unsigned long long)want_count, (unsigned long long)want_offset);
        break;
    }
}

static void run_table(void)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const tcase *c = &cases[i];
        spec_info info;
        simdsv_options *opt = make_opts(c->opts, &info);
        if (!opt)
            continue;
        h_context("case \"%s\"", c->name);
        H_EXPECT(c->name, opt, c->in, c->len, c->exp, H_ALL_MODES);

        h_json exp;
        const char *error = NULL;
        if (!h_json_parse(c->exp, strlen(c->exp), &exp, &error)) {
            simdsv_options_free(opt);
            continue; /* reported by H_EXPECT */
        }
        if (!info.limits)
            check_count(c->name, opt, c->in, c->len, &exp, &info);

        /* Shifted across block edges by empty lines. */
        const int has_bom = c->len >= 3 && memcmp(c->in, "\xEF\xBB\xBF", 3) == 0;
        if (!info.skip && !has_bom) {
            char *shifted = h_xmalloc(c->len + 130);
            h_json sexp;
            for (size_t k = 1; k <= 130; k++) {
                memset(shifted, '\n', k);
                memcpy(shifted + k, c->in, c->len);
                h_json_parse(c->exp, strlen(c->exp), &sexp, &error);
                shift_expectation(&sexp, k);
                h_expect_ctx ctx = {c->name, &sexp, "(shifted)", __FILE__, __LINE__, 0};
                h_result got;
                h_result_init(&got);
                h_read how = h_how(H_MEMORY);
                h_read_into(&got, opt, shifted, c->len + k, &how);
                char mode[64];
                snprintf(mode, sizeof mode, "one-shot after %zu empty lines", k);
                const int ok = h_expect_check(&ctx, mode, &got);
                h_result_free(&got);
                h_json_free(&sexp);
                if (!ok)
                    break;
            }
            free(shifted);
        }
        h_json_free(&exp);
        simdsv_options_free(opt);
    }
    h_context(NULL);
}

/* -------------------------------------------------- generated long inputs */

typedef struct text {
    char *data;
    size_t len, cap;
} text;

static void put(text *t, const void *p, size_t n)
{
    if (t->cap - t->len < n + 1) {
        size_t cap = t->cap ? t->cap : 256;
        while (cap - t->len < n + 1)
            cap *= 2;
        t->data = h_xrealloc(t->data, cap);
        t->cap = cap;
    }
    memcpy(t->data + t->len, p, n);
    t->len += n;
    t->data[t->len] = '\0';
}

static void puts_(text *t, const char *s)
{
    put(t, s, strlen(s));
}

static void put_rep(text *t, char c, size_t n)
{
    for (size_t i = 0; i < n; i++)
        put(t, &c, 1);
}

/* A JSON string literal for bytes. */
static void put_json_string(text *t, const char *p, size_t n)
{
    puts_(t, "\"");
    for (size_t i = 0; i < n; i++) {
        const unsigned char c = (unsigned char)p[i];
        char esc[8];
        if (c == '"' || c == '\\') {
            snprintf(esc, sizeof esc, "\\%c", c);
            puts_(t, esc);
        } else if (c < 0x20 || c >= 0x7f) {
            snprintf(esc, sizeof esc, "\\x%02x", c);
            puts_(t, esc);
        } else {
            put(t, &c, 1);
        }
    }
    puts_(t, "\"");
}

static void expect_generated(const char *name, const char *spec, const text *in, const text *exp, unsigned modes)
{
    simdsv_options *opt = make_opts(spec, NULL);
    if (!opt)
        return;
    h_context("generated \"%s\"", name);
    H_EXPECT(name, opt, in->data, in->len, exp->data, modes);
    spec_info info;
    simdsv_options_free(opt);
    opt = make_opts(spec, &info);
    h_json j;
    const char *error;
    if (h_json_parse(exp->data, exp->len, &j, &error)) {
        simdsv_status want;
        uint64_t want_count, want_offset;
        if (!info.limits && count_expectation(&j, info.header, &want, &want_count, &want_offset)) {
            for (int streamed = 0; streamed < 2; streamed++) {
                static const size_t chunks[3] = {1, 4093, 77};
                h_read how = h_how(streamed ? H_CHUNKS : H_MEMORY);
                how.chunks = chunks;
                how.nchunks = 3;
                how.cycle = 1;
                uint64_t count;
                h_error err;
                CHECK_STATUS(h_count(opt, in->data, in->len, &how, &count, &err), want);
                CHECK_EQ_U64(count, want_count);
            }
        }
        h_json_free(&j);
    }
    simdsv_options_free(opt);
    h_context(NULL);
}

static void run_generated(void)
{
    text in = {NULL, 0, 0}, exp = {NULL, 0, 0}, field = {NULL, 0, 0};

    /* A long unquoted field (> 64 KiB scan chunk, > buffer). */
    put_rep(&in, 'x', 70000);
    puts_(&in, ",y\nz");
    puts_(&exp, "[[");
    put_json_string(&exp, in.data, 70000);
    puts_(&exp, ",'y'],['z']]");
    expect_generated("long unquoted field", "", &in, &exp, H_ALL_MODES);

    /* A long quoted field full of delimiters, line ends and doubled quotes,
     * spanning many 64-byte blocks and buffer refills. */
    in.len = exp.len = field.len = 0;
    puts_(&in, "a,\"");
    for (size_t i = 0; field.len < 70000; i++) {
        static const char *const pieces[] = {"abc", ",", "\n", "\r\n", "\"\"", "\r", "x y", "\xC3\xA9"};
        const char *p = pieces[(i * 7 + i / 3) % 8];
        puts_(&in, p);
        if (strcmp(p, "\"\"") == 0)
            puts_(&field, "\"");
        else
            puts_(&field, p);
    }
    puts_(&in, "\",b\r\nc,\"d\"\n");
    puts_(&exp, "[{'fields':['a',");
    put_json_string(&exp, field.data, field.len);
    puts_(&exp, ",'b'],'flags':[0,3,0]},{'fields':['c','d'],'flags':[0,1]}]");
    expect_generated("long quoted field", "", &in, &exp, H_ALL_MODES);

    /* Many records: more than one scan chunk, record indexes. */
    in.len = exp.len = 0;
    puts_(&exp, "[");
    for (int i = 0; i < 7000; i++) { /* about 90 KiB: more than one scan chunk */
        char line[64];
        snprintf(line, sizeof line, i % 3 ? "r%d,%d\n" : "\"r%d\",\"%d\"\r\n", i, i * 7);
        puts_(&in, line);
        snprintf(line, sizeof line, "%s{'fields':['r%d','%d'],'index':%d}", i ? "," : "", i, i * 7, i);
        puts_(&exp, line);
    }
    puts_(&exp, "]");
    expect_generated("many records", "", &in, &exp, H_ONESHOT | H_BYTES | H_FILES | H_PIPES);

    /* A line end at every position around the 4 KiB refill and the 64-byte
     * block edges: the CR of a CRLF as the last byte of a buffer. */
    static const size_t edges[] = {62, 63, 64, 65, 4093, 4094, 4095, 4096, 4097};
    for (size_t e = 0; e < sizeof edges / sizeof edges[0]; e++) {
        in.len = exp.len = 0;
        put_rep(&in, 'a', edges[e]);
        puts_(&in, "\r\nb\r\r\n\"c\r\n\"\r\nd");
        puts_(&exp, "[[");
        put_json_string(&exp, in.data, edges[e]);
        puts_(&exp, "],['b'],['c\\r\\n'],['d']]");
        char name[64];
        snprintf(name, sizeof name, "CR at offset %zu", edges[e]);
        expect_generated(name, "", &in, &exp, H_ALL_MODES);
    }

    /* A quoted field opening right before a refill. */
    for (size_t pad = 4090; pad <= 4100; pad++) {
        in.len = exp.len = 0;
        put_rep(&in, 'p', pad);
        puts_(&in, "\n\"q,\r\n\"\"\",z\n");
        puts_(&exp, "[[");
        put_json_string(&exp, in.data, pad);
        puts_(&exp, "],{'fields':['q,\\r\\n\"','z'],'flags':[3,0]}]");
        char name[64];
        snprintf(name, sizeof name, "quoted field after %zu bytes", pad);
        expect_generated(name, "", &in, &exp, H_ONESHOT | H_SPLITS | H_BYTES | H_FILES);
    }

    /* A record of exactly the buffer size, then one longer than it. */
    in.len = exp.len = 0;
    put_rep(&in, 'm', 4095);
    puts_(&in, "\n");
    put_rep(&in, 'n', 9000);
    puts_(&in, ",\"");
    put_rep(&in, 'o', 5000);
    puts_(&in, "\"\n");
    puts_(&exp, "[[");
    put_json_string(&exp, in.data, 4095);
    puts_(&exp, "],[");
    put_json_string(&exp, in.data + 4096, 9000);
    puts_(&exp, ",");
    put_json_string(&exp, in.data + 4096 + 9002, 5000);
    puts_(&exp, "]]");
    expect_generated("records of the buffer size and longer", "", &in, &exp, H_ALL_MODES);

    /* Errors far into the input: exact line and column. */
    in.len = exp.len = 0;
    for (int i = 0; i < 3000; i++)
        puts_(&in, "abcdefghijklmnopqrstuvwxyz\n");
    put_rep(&in, 'q', 70000);
    puts_(&in, "\"x\n\"y\"z\ntail\n");
    {
        char buf[256];
        puts_(&exp, "[");
        for (int i = 0; i < 3000; i++)
            puts_(&exp, "['abcdefghijklmnopqrstuvwxyz'],");
        snprintf(buf, sizeof buf, QIU "[%d,3001,70001,3000,0]}," TAQ "[%d,3002,4,3001,0]},['tail']]", 3000 * 27 + 70000,
                 3000 * 27 + 70000 + 3 + 3);
        puts_(&exp, buf);
    }
    expect_generated("errors far into the input", "", &in, &exp, H_ONESHOT | H_BYTES | H_FILES | H_PIPES);

    /* A character straddling the 64 KiB scan chunk. */
    for (size_t at = 65533; at <= 65537; at++) {
        in.len = exp.len = 0;
        put_rep(&in, 'u', at);
        puts_(&in, "\xE2\x82\xAC,\xF0\x9F\x98\x80\n\xFF\n");
        puts_(&exp, "[[");
        put_json_string(&exp, in.data, at + 3);
        char buf[128];
        snprintf(buf, sizeof buf, ",'\xF0\x9F\x98\x80']," BADU "[%zu,2,1,1,0]}]", at + 3 + 1 + 4 + 1);
        puts_(&exp, buf);
        char name[64];
        snprintf(name, sizeof name, "UTF-8 around the scan chunk at %zu", at);
        expect_generated(name, "", &in, &exp, H_ONESHOT | H_BYTES | H_FILES);
    }

    /* A record over SIMDSV_OPT_MAX_RECORD_SIZE and over the streaming
     * buffer: reported at its start, and reading goes on after it (limits
     * are data errors) in every mode. */
    static const size_t too_large[] = {6000, 20000};
    for (size_t i = 0; i < 2; i++) {
        in.len = exp.len = 0;
        puts_(&in, "a\n");
        put_rep(&in, 'x', too_large[i]);
        puts_(&in, ",\"y\ny\"\nb\n");
        puts_(&exp, "[['a']," TLR "[2,2,1,1,0]},['b']]");
        char name[64];
        snprintf(name, sizeof name, "record of %zu bytes over a 5000-byte limit", too_large[i] + 7);
        expect_generated(name, "maxr=5000", &in, &exp, H_ONESHOT | H_BYTES | H_FILES | H_PIPES);
    }

    /* Other buffer sizes. */
    in.len = exp.len = field.len = 0;
    puts_(&exp, "[");
    for (int i = 0; i < 3000; i++) {
        char line[96];
        snprintf(line, sizeof line, "%d,\"q\"\"%d\r\n\",%s\n", i, i, i % 7 ? "z" : "\xC3\xA9");
        puts_(&in, line);
        snprintf(line, sizeof line, "%s['%d','q\"%d\\r\\n','%s']", i ? "," : "", i, i, i % 7 ? "z" : "\xC3\xA9");
        puts_(&exp, line);
    }
    puts_(&exp, "]");
    {
        h_json j;
        const char *error;
        if (CHECK(h_json_parse(exp.data, exp.len, &j, &error))) {
            simdsv_options *opt = make_opts("", NULL);
            static const size_t sizes[] = {4096, 4097, 5000, 65536, 1 << 20};
            static const size_t chunks[3] = {333, 1, 4099};
            for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
                h_context("buffer size %zu", sizes[i]);
                h_result got;
                h_result_init(&got);
                h_read how = h_how(H_CHUNKS);
                how.buffer_size = sizes[i];
                how.chunks = chunks;
                how.nchunks = 3;
                how.cycle = 1;
                h_read_into(&got, opt, in.data, in.len, &how);
                char why[256];
                if (!h_result_match(&got, &j, why, sizeof why))
                    FAIL_MSG("%s", why);
                else
                    PASS();
                h_result_free(&got);
            }
            h_context(NULL);
            simdsv_options_free(opt);
            h_json_free(&j);
        }
    }

    free(in.data);
    free(exp.data);
    free(field.data);
}

/* ------------------------------------------------------------ API surface */

static void test_status_names(void)
{
    static const char *const names[] = {
        "SIMDSV_OK", "SIMDSV_END", "SIMDSV_ERR_NOMEM", "SIMDSV_ERR_INVALID_ARGUMENT", "SIMDSV_ERR_IO",
        "SIMDSV_ERR_KERNEL_UNSUPPORTED", "SIMDSV_ERR_QUOTE_IN_UNQUOTED_FIELD", "SIMDSV_ERR_TEXT_AFTER_QUOTE",
        "SIMDSV_ERR_UNTERMINATED_QUOTE", "SIMDSV_ERR_INVALID_UTF8", "SIMDSV_ERR_RECORD_TOO_LARGE",
        "SIMDSV_ERR_TOO_MANY_FIELDS", "SIMDSV_ERR_BAD_DIALECT", "SIMDSV_ERR_UNKNOWN_OPTION"};
    /* The numbers are ABI. */
    CHECK_EQ_INT(SIMDSV_OK, 0);
    CHECK_EQ_INT(SIMDSV_END, 1);
    CHECK_EQ_INT(SIMDSV_ERR_QUOTE_IN_UNQUOTED_FIELD, 6);
    CHECK_EQ_INT(SIMDSV_ERR_UNKNOWN_OPTION, 13);
    for (int st = 0; st < (int)(sizeof names / sizeof names[0]); st++) {
        CHECK_STR(simdsv_status_name((simdsv_status)st), names[st]);
        const char *m = simdsv_status_message((simdsv_status)st);
        CHECK(m != NULL && m[0] != '\0');
    }
    CHECK_STR(simdsv_status_message(SIMDSV_ERR_UNTERMINATED_QUOTE), "the input ended inside a quoted field");
    /* Codes appended later have names of their own; past them, unknown. */
    int st = (int)(sizeof names / sizeof names[0]);
    for (; st < 1000 && strcmp(simdsv_status_name((simdsv_status)st), "SIMDSV_UNKNOWN_STATUS") != 0; st++) {
        h_context("status %d", st);
        CHECK(strncmp(simdsv_status_name((simdsv_status)st), "SIMDSV_ERR_", 11) == 0);
        for (int other = 0; other < st; other++)
            CHECK(strcmp(simdsv_status_name((simdsv_status)st), simdsv_status_name((simdsv_status)other)) != 0);
    }
    h_context(NULL);
    CHECK(st < 100);
    CHECK_STR(simdsv_status_name((simdsv_status)-1), "SIMDSV_UNKNOWN_STATUS");
    CHECK_STR(simdsv_status_name((simdsv_status)1000), "SIMDSV_UNKNOWN_STATUS");
    CHECK_STR(simdsv_status_message((simdsv_status)1000), "unknown status");
    CHECK_EQ_U64(simdsv_version_number(), SIMDSV_VERSION_NUMBER);
    CHECK_STR(simdsv_version_string(), SIMDSV_VERSION_STRING);
}

static void test_options(void)
{
    simdsv_options *opt = simdsv_options_new(NULL);
    if (!CHECK(opt != NULL))
        return;
    static const struct {
        simdsv_option id;
        int64_t def;
    } defaults[] = {{SIMDSV_OPT_DELIMITER, ','},    {SIMDSV_OPT_QUOTE, '"'},        {SIMDSV_OPT_ESCAPE, -1},
                    {SIMDSV_OPT_COMMENT, -1},       {SIMDSV_OPT_HEADER, 1},         {SIMDSV_OPT_SKIP_LINES, 0},
                    {SIMDSV_OPT_LENIENT, 0},        {SIMDSV_OPT_UTF8, SIMDSV_UTF8_STRICT},
                    {SIMDSV_OPT_KERNEL, SIMDSV_KERNEL_AUTO}, {SIMDSV_OPT_BUFFER_SIZE, 1 << 20},
                    {SIMDSV_OPT_MAX_RECORD_SIZE, SIMDSV_DEFAULT_MAX_RECORD_SIZE},
                    {SIMDSV_OPT_MAX_FIELDS, SIMDSV_DEFAULT_MAX_FIELDS}, {SIMDSV_OPT_MMAP, 0},
                    {SIMDSV_OPT_COMMENT_CHAR, -1}};
    for (size_t i = 0; i < sizeof defaults / sizeof defaults[0]; i++) {
        int64_t v = -99;
        h_context("default of option %d", (int)defaults[i].id);
        CHECK_STATUS(simdsv_options_get(opt, defaults[i].id, &v), SIMDSV_OK);
        CHECK_EQ_INT(v, defaults[i].def);
    }
    static const struct {
        simdsv_option id;
        int64_t value;
        simdsv_status want;
    } sets[] = {
        {SIMDSV_OPT_DELIMITER, ';', SIMDSV_OK},      {SIMDSV_OPT_DELIMITER, 0, SIMDSV_OK},
        {SIMDSV_OPT_DELIMITER, 255, SIMDSV_OK},      {SIMDSV_OPT_DELIMITER, -1, SIMDSV_ERR_INVALID_ARGUMENT},
        {SIMDSV_OPT_DELIMITER, 256, SIMDSV_ERR_INVALID_ARGUMENT},
        {SIMDSV_OPT_QUOTE, '\'', SIMDSV_OK},         {SIMDSV_OPT_QUOTE, -1, SIMDSV_OK},
        {SIMDSV_OPT_QUOTE, -2, SIMDSV_ERR_INVALID_ARGUMENT}, {SIMDSV_OPT_QUOTE, 256, SIMDSV_ERR_INVALID_ARGUMENT},
        {SIMDSV_OPT_ESCAPE, '\\', SIMDSV_OK},        {SIMDSV_OPT_ESCAPE, -1, SIMDSV_OK},
        {SIMDSV_OPT_ESCAPE, 300, SIMDSV_ERR_INVALID_ARGUMENT},
        {SIMDSV_OPT_COMMENT, '#', SIMDSV_OK},        {SIMDSV_OPT_COMMENT, -1, SIMDSV_OK},
        {SIMDSV_OPT_COMMENT, 256, SIMDSV_ERR_INVALID_ARGUMENT},
        {SIMDSV_OPT_HEADER, 0, SIMDSV_OK},           {SIMDSV_OPT_HEADER, 2, SIMDSV_ERR_INVALID_ARGUMENT},
        {SIMDSV_OPT_LENIENT, 1, SIMDSV_OK},          {SIMDSV_OPT_LENIENT, -1, SIMDSV_ERR_INVALID_ARGUMENT},
        {SIMDSV_OPT_MMAP, 0, SIMDSV_OK},             {SIMDSV_OPT_MMAP, 7, SIMDSV_ERR_INVALID_ARGUMENT},
        {SIMDSV_OPT_SKIP_LINES, 12, SIMDSV_OK},      {SIMDSV_OPT_SKIP_LINES, -1, SIMDSV_ERR_INVALID_ARGUMENT},
        {SIMDSV_OPT_UTF8, SIMDSV_UTF8_NONE, SIMDSV_OK}, {SIMDSV_OPT_UTF8, 3, SIMDSV_ERR_INVALID_ARGUMENT},
        {SIMDSV_OPT_UTF8, -1, SIMDSV_ERR_INVALID_ARGUMENT},
        {SIMDSV_OPT_KERNEL, SIMDSV_KERNEL_SCALAR, SIMDSV_OK}, {SIMDSV_OPT_KERNEL, SIMDSV_KERNEL_COUNT, SIMDSV_ERR_INVALID_ARGUMENT},
        {SIMDSV_OPT_KERNEL, -1, SIMDSV_ERR_INVALID_ARGUMENT},
        {SIMDSV_OPT_BUFFER_SIZE, 4096, SIMDSV_OK},   {SIMDSV_OPT_BUFFER_SIZE, 4095, SIMDSV_ERR_INVALID_ARGUMENT},
        {SIMDSV_OPT_BUFFER_SIZE, -1, SIMDSV_ERR_INVALID_ARGUMENT},
        {SIMDSV_OPT_MAX_RECORD_SIZE, 100, SIMDSV_OK}, {SIMDSV_OPT_MAX_RECORD_SIZE, -1, SIMDSV_ERR_INVALID_ARGUMENT},
        {SIMDSV_OPT_MAX_FIELDS, 7, SIMDSV_OK},       {SIMDSV_OPT_MAX_FIELDS, -5, SIMDSV_ERR_INVALID_ARGUMENT},
        {SIMDSV_OPT_COMMENT_CHAR, 0x3B8, SIMDSV_OK}, {SIMDSV_OPT_COMMENT_CHAR, 0x1F600, SIMDSV_OK},
        {SIMDSV_OPT_COMMENT_CHAR, 0x10FFFF, SIMDSV_OK}, {SIMDSV_OPT_COMMENT_CHAR, '!', SIMDSV_OK},
        {SIMDSV_OPT_COMMENT_CHAR, -1, SIMDSV_OK},
        {SIMDSV_OPT_COMMENT_CHAR, 0x110000, SIMDSV_ERR_INVALID_ARGUMENT},
        {SIMDSV_OPT_COMMENT_CHAR, 0xD800, SIMDSV_ERR_INVALID_ARGUMENT},
        {(simdsv_option)0, 1, SIMDSV_ERR_UNKNOWN_OPTION}, {(simdsv_option)-1, 1, SIMDSV_ERR_UNKNOWN_OPTION},
        {(simdsv_option)99999, 1, SIMDSV_ERR_UNKNOWN_OPTION},
    };
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
        h_context("set option %d to %lld", (int)sets[i].id, (long long)sets[i].value);
        int64_t before = -99, after = -99;
        const simdsv_status gst = simdsv_options_get(opt, sets[i].id, &before);
        CHECK_STATUS(simdsv_options_set(opt, sets[i].id, sets[i].value), sets[i].want);
        if (sets[i].want == SIMDSV_ERR_UNKNOWN_OPTION) {
            CHECK_STATUS(gst, SIMDSV_ERR_UNKNOWN_OPTION);
            continue;
        }
        CHECK_STATUS(simdsv_options_get(opt, sets[i].id, &after), SIMDSV_OK);
        /* a failed set leaves the value alone; a good one round-trips */
        CHECK_EQ_INT(after, sets[i].want == SIMDSV_OK ? sets[i].value : before);
    }
    h_context(NULL);
    /* comment and comment char are one setting */
    int64_t v = 0;
    simdsv_options_set(opt, SIMDSV_OPT_COMMENT, '#');
    simdsv_options_get(opt, SIMDSV_OPT_COMMENT_CHAR, &v);
    CHECK_EQ_INT(v, '#');
    simdsv_options_set(opt, SIMDSV_OPT_COMMENT_CHAR, ';');
    simdsv_options_get(opt, SIMDSV_OPT_COMMENT, &v);
    CHECK_EQ_INT(v, ';');
    simdsv_options_set(opt, SIMDSV_OPT_COMMENT_CHAR, 0x3B8);
    simdsv_options_set(opt, SIMDSV_OPT_COMMENT, -1);
    simdsv_options_get(opt, SIMDSV_OPT_COMMENT_CHAR, &v);
    CHECK_EQ_INT(v, -1);
    /* NULL handles */
    CHECK_STATUS(simdsv_options_set(NULL, SIMDSV_OPT_DELIMITER, ','), SIMDSV_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(simdsv_options_get(opt, SIMDSV_OPT_DELIMITER, NULL), SIMDSV_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(simdsv_options_get(NULL, SIMDSV_OPT_DELIMITER, &v), SIMDSV_ERR_INVALID_ARGUMENT);
    simdsv_options_free(opt);
    simdsv_options_free(NULL);
    /* the delimiter as a string: 1 to 4 bytes, no line end; the byte option resets it */
    opt = simdsv_options_new(NULL);
    CHECK_STATUS(simdsv_options_set_string(opt, SIMDSV_OPT_DELIMITER_STRING, "||"), SIMDSV_OK);
    CHECK(strcmp(simdsv_options_get_string(opt, SIMDSV_OPT_DELIMITER_STRING), "||") == 0);
    int64_t first = 0;
    CHECK(simdsv_options_get(opt, SIMDSV_OPT_DELIMITER, &first) == SIMDSV_OK && first == '|');
    CHECK_STATUS(simdsv_options_set_string(opt, SIMDSV_OPT_DELIMITER_STRING, "abcde"), SIMDSV_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(simdsv_options_set_string(opt, SIMDSV_OPT_DELIMITER_STRING, "|\n"), SIMDSV_ERR_INVALID_ARGUMENT);
    CHECK(strcmp(simdsv_options_get_string(opt, SIMDSV_OPT_DELIMITER_STRING), "||") == 0);
    CHECK_STATUS(simdsv_options_set(opt, SIMDSV_OPT_DELIMITER, ';'), SIMDSV_OK);
    CHECK(strcmp(simdsv_options_get_string(opt, SIMDSV_OPT_DELIMITER_STRING), ";") == 0);
    CHECK_STATUS(simdsv_options_set_string(opt, SIMDSV_OPT_DELIMITER_STRING, NULL), SIMDSV_OK);
    CHECK(strcmp(simdsv_options_get_string(opt, SIMDSV_OPT_DELIMITER_STRING), ",") == 0);
    CHECK_STATUS(simdsv_options_set(opt, SIMDSV_OPT_TRIM_SPACES, 2), SIMDSV_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(simdsv_options_set(opt, SIMDSV_OPT_THOUSANDS, 'x'), SIMDSV_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(simdsv_options_set(opt, SIMDSV_OPT_THOUSANDS, '.'), SIMDSV_OK);
    CHECK(simdsv_options_get(opt, SIMDSV_OPT_THOUSANDS, &first) == SIMDSV_OK && first == '.');
    simdsv_options_free(opt);
    /* an allocator missing a function is refused */
    simdsv_allocator partial = {NULL, NULL, NULL, NULL};
    CHECK(simdsv_options_new(&partial) == NULL);
}

static void test_dialects(void)
{
    static const struct {
        const char *spec;
        simdsv_status want;
    } dialects[] = {
        {"d=,", SIMDSV_OK},
        {"q=,", SIMDSV_ERR_BAD_DIALECT},
        {"d=\"", SIMDSV_ERR_BAD_DIALECT},
        {"d=\\x0a", SIMDSV_ERR_BAD_DIALECT},
        {"d=\\x0d", SIMDSV_ERR_BAD_DIALECT},
        {"q=\\x0a", SIMDSV_ERR_BAD_DIALECT},
        {"q=\\x0d", SIMDSV_ERR_BAD_DIALECT},
        {"e=\\x0a", SIMDSV_ERR_BAD_DIALECT},
        {"c=\\x0d", SIMDSV_ERR_BAD_DIALECT},
        {"e=,", SIMDSV_ERR_BAD_DIALECT},
        {"c=,", SIMDSV_ERR_BAD_DIALECT},
        {"c=\"", SIMDSV_ERR_BAD_DIALECT},
        {"e=# c=#", SIMDSV_ERR_BAD_DIALECT},
        {"e=\"", SIMDSV_OK},                 /* escape == quote: doubling */
        {"q=none e=,", SIMDSV_ERR_BAD_DIALECT},
        {"q=none d=\"", SIMDSV_OK},          /* no quoting: '"' is free */
        {"q=none e=\\\\ c=#", SIMDSV_OK},
        {"d=\\xce cc=0x3b8", SIMDSV_ERR_BAD_DIALECT}, /* the comment's first byte */
        {"d=\\t q=' e=\\\\ c=#", SIMDSV_OK},
        {"ds=|\"", SIMDSV_ERR_BAD_DIALECT},  /* a later byte of the delimiter is the quote */
        {"ds=|\\ e=\\\\", SIMDSV_ERR_BAD_DIALECT},
        {"ds=\"|", SIMDSV_ERR_BAD_DIALECT},
        {"ds=#| c=#", SIMDSV_ERR_BAD_DIALECT},
        {"ds=|# c=#", SIMDSV_OK},            /* a comment starts a record, the delimiter's '#' follows '|' */
        {"trim d=\\x20", SIMDSV_ERR_BAD_DIALECT},
        {"trim q=\\x20", SIMDSV_ERR_BAD_DIALECT},
        {"trim ds=,\\s", SIMDSV_OK},
    };
    for (size_t i = 0; i < sizeof dialects / sizeof dialects[0]; i++) {
        h_context("dialect '%s'", dialects[i].spec);
        simdsv_options *opt = make_opts(dialects[i].spec, NULL);
        if (!opt)
            continue;
        simdsv_reader *r = (simdsv_reader *)&r; /* must be reset to NULL on failure */
        CHECK_STATUS(simdsv_reader_new(&r, opt), dialects[i].want);
        if (dialects[i].want != SIMDSV_OK)
            CHECK(r == NULL);
        simdsv_reader_free(dialects[i].want == SIMDSV_OK ? r : NULL);
        simdsv_options_free(opt);
    }
    h_context(NULL);
}

static void test_unescape(void)
{
    static const struct {
        const char *in;
        int quote, escape;
        const char *out;
    } cases_[] = {
        {"a\"\"b", '"', -1, "a\"b"},
        {"\"\"\"\"", '"', -1, "\"\""},
        {"a\\\"b\\\\", '"', '\\', "a\"b\\"},
        {"a\\,b", '"', '\\', "a,b"},
        {"a\"\"b\\c", -1, -1, "a\"\"b\\c"},
        {"plain", '"', '\\', "plain"},
        {"", '"', -1, ""},
        {"x''y", '\'', -1, "x'y"},
        /* quote and escape bytes next to each other: each takes the byte after it as it is */
        {"a\\\"\"\"b", '"', '\\', "a\"\"b"},
        {"\"\\x", '"', '\\', "\\x"},
        {"\\\"\"\\", '"', '\\', "\"\\"},
        /* a last lone quote or escape byte is dropped */
        {"ab\"", '"', -1, "ab"},
        {"ab\\", '"', '\\', "ab"},
        /* long runs between them */
        {"0123456789abcdefghijklmnopqrstu\"\"vwxyz0123456789", '"', -1, "0123456789abcdefghijklmnopqrstu\"vwxyz0123456789"},
    };
    for (size_t i = 0; i < sizeof cases_ / sizeof cases_[0]; i++) {
        simdsv_field f;
        f.data = cases_[i].in;
        f.size = strlen(cases_[i].in);
        f.flags = SIMDSV_FIELD_QUOTED | SIMDSV_FIELD_NEEDS_UNESCAPE;
        char out[64];
        memset(out, 0x55, sizeof out);
        const size_t n = simdsv_unescape(&f, cases_[i].quote, cases_[i].escape, out);
        h_context("simdsv_unescape(\"%s\")", cases_[i].in);
        CHECK_MEM(out, n, cases_[i].out, strlen(cases_[i].out));
        CHECK((unsigned char)out[f.size] == 0x55 || f.size == sizeof out); /* never writes past size */
    }
    h_context(NULL);

    /* simdsv_reader_unescape: results of one record stay valid together. */
    simdsv_options *opt = make_opts("", NULL);
    simdsv_reader *r = NULL;
    static const char in[] = "\"a\"\"\",\"\"\"b\",c\n\"d\"\"\"\n";
    if (CHECK_STATUS(simdsv_reader_new(&r, opt), SIMDSV_OK) &&
        CHECK_STATUS(simdsv_reader_open_memory(r, in, sizeof in - 1), SIMDSV_OK)) {
        simdsv_record rec;
        CHECK_STATUS(simdsv_reader_next(r, &rec), SIMDSV_OK);
        const char *d0, *d1, *d2;
        size_t n0, n1, n2;
        CHECK_STATUS(simdsv_reader_unescape(r, &rec.fields[0], &d0, &n0), SIMDSV_OK);
        CHECK_STATUS(simdsv_reader_unescape(r, &rec.fields[1], &d1, &n1), SIMDSV_OK);
        CHECK_STATUS(simdsv_reader_unescape(r, &rec.fields[2], &d2, &n2), SIMDSV_OK);
        CHECK_MEM(d0, n0, "a\"", 2);
        CHECK_MEM(d1, n1, "\"b", 2);
        CHECK_MEM(d2, n2, "c", 1);
        CHECK(d2 == rec.fields[2].data); /* no copy without NEEDS_UNESCAPE */
        CHECK_STATUS(simdsv_reader_unescape(r, NULL, &d0, &n0), SIMDSV_ERR_INVALID_ARGUMENT);
        CHECK_STATUS(simdsv_reader_unescape(r, &rec.fields[0], NULL, &n0), SIMDSV_ERR_INVALID_ARGUMENT);
        CHECK_STATUS(simdsv_reader_unescape(NULL, &rec.fields[0], &d0, &n0), SIMDSV_ERR_INVALID_ARGUMENT);
        CHECK_STATUS(simdsv_reader_next(r, &rec), SIMDSV_OK);
        CHECK_STATUS(simdsv_reader_unescape(r, &rec.fields[0], &d0, &n0), SIMDSV_OK);
        CHECK_MEM(d0, n0, "d\"", 2);
        CHECK_STATUS(simdsv_reader_next(r, &rec), SIMDSV_END);
        CHECK_STATUS(simdsv_reader_next(r, &rec), SIMDSV_END); /* END stays END */
    }
    simdsv_reader_free(r);
    simdsv_options_free(opt);
}

static void test_kernels(simdsv_kernel kernel)
{
    static const char *const names[] = {"auto", "scalar", "sse42", "avx2", "avx512", "neon"};
    for (int k = 0; k < SIMDSV_KERNEL_COUNT; k++) {
        CHECK_STR(simdsv_kernel_name((simdsv_kernel)k), names[k]);
        CHECK_EQ_INT(simdsv_kernel_from_name(names[k]), k);
    }
    CHECK(simdsv_kernel_name((simdsv_kernel)SIMDSV_KERNEL_COUNT) == NULL);
    CHECK(simdsv_kernel_name((simdsv_kernel)-1) == NULL);
    CHECK_EQ_INT(simdsv_kernel_from_name("AVX2"), -1);
    CHECK_EQ_INT(simdsv_kernel_from_name(""), -1);
    CHECK_EQ_INT(simdsv_kernel_from_name(NULL), -1);
    CHECK(simdsv_kernel_supported(SIMDSV_KERNEL_AUTO));
    CHECK(simdsv_kernel_supported(SIMDSV_KERNEL_SCALAR));
    CHECK(!simdsv_kernel_supported((simdsv_kernel)SIMDSV_KERNEL_COUNT));

    /* SIMDSV_KERNEL (set by ctest) decides AUTO. */
    simdsv_kernel best = SIMDSV_KERNEL_AUTO;
    CHECK_STATUS(simdsv_kernel_best(&best), SIMDSV_OK);
    CHECK(best != SIMDSV_KERNEL_AUTO && simdsv_kernel_supported(best));
    if (kernel != SIMDSV_KERNEL_AUTO)
        CHECK_EQ_INT(best, kernel);
    simdsv_options *opt = make_opts("", NULL);
    simdsv_reader *r = NULL;
    if (CHECK_STATUS(simdsv_reader_new(&r, opt), SIMDSV_OK))
        CHECK_EQ_INT(simdsv_reader_kernel(r), best);
    simdsv_reader_free(r);

    /* An explicit option wins over the variable; unsupported ones fail. */
    for (int k = SIMDSV_KERNEL_SCALAR; k < SIMDSV_KERNEL_COUNT; k++) {
        h_context("SIMDSV_OPT_KERNEL=%s", names[k]);
        simdsv_options_set(opt, SIMDSV_OPT_KERNEL, k);
        r = NULL;
        const simdsv_status st = simdsv_reader_new(&r, opt);
        if (simdsv_kernel_supported((simdsv_kernel)k)) {
            CHECK_STATUS(st, SIMDSV_OK);
            if (r)
                CHECK_EQ_INT(simdsv_reader_kernel(r), k);
        } else {
            CHECK_STATUS(st, SIMDSV_ERR_KERNEL_UNSUPPORTED);
            CHECK(r == NULL);
        }
        simdsv_reader_free(st == SIMDSV_OK ? r : NULL);
    }
    h_context(NULL);
    simdsv_options_set(opt, SIMDSV_OPT_KERNEL, SIMDSV_KERNEL_AUTO);

    /* A variable naming no kernel. */
    const char *env = getenv("SIMDSV_KERNEL");
    char *saved = NULL;
    if (env) {
        saved = h_xmalloc(strlen(env) + 1);
        strcpy(saved, env);
    }
    setenv("SIMDSV_KERNEL", "bogus", 1);
    CHECK_STATUS(simdsv_kernel_best(&best), SIMDSV_ERR_INVALID_ARGUMENT);
    r = NULL;
    CHECK(simdsv_reader_new(&r, opt) != SIMDSV_OK);
    simdsv_options_set(opt, SIMDSV_OPT_KERNEL, SIMDSV_KERNEL_SCALAR);
    CHECK_STATUS(simdsv_reader_new(&r, opt), SIMDSV_OK); /* the option wins */
    simdsv_reader_free(r);
    for (int k = SIMDSV_KERNEL_SCALAR; k < SIMDSV_KERNEL_COUNT; k++) {
        if (simdsv_kernel_supported((simdsv_kernel)k))
            continue;
        setenv("SIMDSV_KERNEL", names[k], 1);
        CHECK_STATUS(simdsv_kernel_best(&best), SIMDSV_ERR_KERNEL_UNSUPPORTED);
    }
    if (saved) {
        setenv("SIMDSV_KERNEL", saved, 1);
        free(saved);
    } else {
        unsetenv("SIMDSV_KERNEL");
    }
    simdsv_options_free(opt);
}

static long long too_much(void *ctx, void *buf, size_t size, int *os_errno)
{
    (void)ctx;
    (void)os_errno;
    memset(buf, 'a', size);
    return (long long)size + 1;
}

static void test_misuse(void)
{
    simdsv_options *opt = make_opts("", NULL);
    simdsv_reader *r = NULL;
    simdsv_record rec;
    uint64_t n;
    CHECK_STATUS(simdsv_reader_new(NULL, opt), SIMDSV_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(simdsv_reader_next(NULL, &rec), SIMDSV_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(simdsv_reader_count(NULL, &n), SIMDSV_ERR_INVALID_ARGUMENT);
    CHECK(simdsv_reader_error(NULL) != NULL);
    simdsv_reader_free(NULL);
    if (!CHECK_STATUS(simdsv_reader_new(&r, opt), SIMDSV_OK))
        goto done;
    CHECK_STATUS(simdsv_reader_next(r, &rec), SIMDSV_ERR_INVALID_ARGUMENT); /* not opened */
    CHECK_EQ_INT(simdsv_reader_error(r)->code, SIMDSV_OK);
    CHECK_STATUS(simdsv_reader_open_memory(r, NULL, 5), SIMDSV_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(simdsv_reader_open_callback(r, NULL, NULL), SIMDSV_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(simdsv_reader_open_fd(r, -1), SIMDSV_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(simdsv_reader_open_stdio(r, NULL), SIMDSV_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(simdsv_reader_open_path(r, NULL), SIMDSV_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(simdsv_reader_open_memory(r, "a,b\nc\n", 6), SIMDSV_OK);
    CHECK_STATUS(simdsv_reader_open_memory(r, "x", 1), SIMDSV_ERR_INVALID_ARGUMENT); /* opened once */
    CHECK_STATUS(simdsv_reader_next(r, NULL), SIMDSV_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(simdsv_reader_count(r, NULL), SIMDSV_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(simdsv_reader_header(r, &rec), SIMDSV_ERR_INVALID_ARGUMENT); /* headers are off */
    CHECK_STATUS(simdsv_reader_next(r, &rec), SIMDSV_OK);
    CHECK_EQ_U64(simdsv_reader_offset(r), 4);
    CHECK_STATUS(simdsv_reader_next(r, &rec), SIMDSV_OK);
    CHECK_EQ_U64(simdsv_reader_offset(r), 6);
    CHECK_STATUS(simdsv_reader_next(r, &rec), SIMDSV_END);
    simdsv_reader_free(r);
    r = NULL;

    /* Empty memory input, NULL data. */
    if (CHECK_STATUS(simdsv_reader_new(&r, opt), SIMDSV_OK)) {
        CHECK_STATUS(simdsv_reader_open_memory(r, NULL, 0), SIMDSV_OK);
        CHECK_STATUS(simdsv_reader_next(r, &rec), SIMDSV_END);
        simdsv_reader_free(r);
        r = NULL;
    }

    /* Files that cannot be read. */
    if (CHECK_STATUS(simdsv_reader_new(&r, opt), SIMDSV_OK)) {
        CHECK_STATUS(simdsv_reader_open_path(r, "/nonexistent/simdsv/test.csv"), SIMDSV_ERR_IO);
        CHECK_EQ_INT(simdsv_reader_error(r)->code, SIMDSV_ERR_IO);
        CHECK_EQ_INT(simdsv_reader_error(r)->os_errno, ENOENT);
        simdsv_reader_free(r);
        r = NULL;
    }
    if (CHECK_STATUS(simdsv_reader_new(&r, opt), SIMDSV_OK)) {
        CHECK_STATUS(simdsv_reader_open_path(r, "/"), SIMDSV_ERR_IO);
        CHECK_EQ_INT(simdsv_reader_error(r)->os_errno, EISDIR);
        simdsv_reader_free(r);
        r = NULL;
    }
    /* An empty file, mapped and read. */
    char *path = h_temp_file("", 0);
    for (int mm = 0; mm < 2 && path; mm++) {
        simdsv_options_set(opt, SIMDSV_OPT_MMAP, mm);
        if (CHECK_STATUS(simdsv_reader_new(&r, opt), SIMDSV_OK)) {
            CHECK_STATUS(simdsv_reader_open_path(r, path), SIMDSV_OK);
            CHECK_STATUS(simdsv_reader_next(r, &rec), SIMDSV_END);
            simdsv_reader_free(r);
            r = NULL;
        }
    }
    if (path) {
        unlink(path);
        free(path);
    }

    /* A failing callback: SIMDSV_ERR_IO with errno, and it stays failed. */
    {
        static const char in[] = "a,b\nc,d\ne,f\n";
        h_result res;
        h_result_init(&res);
        h_read how = h_how(H_CHUNKS);
        how.fail_at = 10;
        h_read_into(&res, opt, in, sizeof in - 1, &how);
        CHECK_STATUS(res.end, SIMDSV_ERR_IO);
        h_result_free(&res);
        h_session s;
        h_session_open(&s, opt, in, sizeof in - 1, &how);
        if (CHECK_STATUS(s.status, SIMDSV_OK)) {
            simdsv_status st;
            while ((st = simdsv_reader_next(s.reader, &rec)) == SIMDSV_OK) {
            }
            CHECK_STATUS(st, SIMDSV_ERR_IO);
            CHECK_EQ_INT(simdsv_reader_error(s.reader)->os_errno, EIO);
            CHECK_STATUS(simdsv_reader_next(s.reader, &rec), SIMDSV_ERR_IO);
            CHECK_STATUS(simdsv_reader_count(s.reader, &n), SIMDSV_ERR_IO);
        }
        h_session_close(&s);
    }
    /* A callback that claims more bytes than asked is an I/O error. */
    if (CHECK_STATUS(simdsv_reader_new(&r, opt), SIMDSV_OK)) {
        CHECK_STATUS(simdsv_reader_open_callback(r, too_much, NULL), SIMDSV_OK);
        CHECK_STATUS(simdsv_reader_next(r, &rec), SIMDSV_ERR_IO);
        simdsv_reader_free(r);
        r = NULL;
    }
done:
    simdsv_options_free(opt);
}

static void test_header_api(void)
{
    simdsv_options *opt = make_opts("h=1", NULL);
    simdsv_reader *r = NULL;
    simdsv_record rec, hdr;
    static const char in[] = "\"x\"\"y\",b\n1,2\n3,4\n";
    /* next() without header(): the header is consumed; it stays available. */
    if (CHECK_STATUS(simdsv_reader_new(&r, opt), SIMDSV_OK) &&
        CHECK_STATUS(simdsv_reader_open_memory(r, in, sizeof in - 1), SIMDSV_OK)) {
        CHECK_STATUS(simdsv_reader_next(r, &rec), SIMDSV_OK);
        CHECK_EQ_U64(rec.index, 0);
        CHECK_MEM(rec.fields[0].data, rec.fields[0].size, "1", 1);
        CHECK_STATUS(simdsv_reader_header(r, &hdr), SIMDSV_OK);
        CHECK_EQ_U64(hdr.field_count, 2);
        CHECK_MEM(hdr.fields[0].data, hdr.fields[0].size, "x\"y", 3);
        CHECK_EQ_U64(hdr.fields[0].flags, SIMDSV_FIELD_QUOTED);
        CHECK_STATUS(simdsv_reader_next(r, &rec), SIMDSV_OK);
        CHECK_EQ_U64(rec.index, 1);
        CHECK_STATUS(simdsv_reader_next(r, &rec), SIMDSV_END);
        /* the header view outlives the records */
        CHECK_STATUS(simdsv_reader_header(r, &hdr), SIMDSV_OK);
        CHECK_MEM(hdr.fields[1].data, hdr.fields[1].size, "b", 1);
    }
    simdsv_reader_free(r);
    r = NULL;
    /* header() twice, then count. */
    if (CHECK_STATUS(simdsv_reader_new(&r, opt), SIMDSV_OK) &&
        CHECK_STATUS(simdsv_reader_open_memory(r, in, sizeof in - 1), SIMDSV_OK)) {
        CHECK_STATUS(simdsv_reader_header(r, &hdr), SIMDSV_OK);
        CHECK_STATUS(simdsv_reader_header(r, &hdr), SIMDSV_OK);
        CHECK_EQ_U64(hdr.field_count, 2);
        uint64_t n = 99;
        CHECK_STATUS(simdsv_reader_count(r, &n), SIMDSV_OK);
        CHECK_EQ_U64(n, 2);
        CHECK_STATUS(simdsv_reader_header(r, NULL), SIMDSV_ERR_INVALID_ARGUMENT);
    }
    simdsv_reader_free(r);
    r = NULL;
    /* A streamed header stays valid after the buffer moved on. */
    {
        text big = {NULL, 0, 0};
        puts_(&big, "\"head\"\"er\",second\n");
        for (int i = 0; i < 5000; i++)
            puts_(&big, "some,data,to,push,the,buffer,along\n");
        h_read how = h_how(H_CHUNKS);
        static const size_t chunks[1] = {100};
        how.chunks = chunks;
        how.nchunks = 1;
        how.cycle = 1;
        h_session s;
        simdsv_options_set(opt, SIMDSV_OPT_BUFFER_SIZE, 4096);
        h_session_open(&s, opt, big.data, big.len, &how);
        if (CHECK_STATUS(s.status, SIMDSV_OK) && CHECK_STATUS(simdsv_reader_header(s.reader, &hdr), SIMDSV_OK)) {
            int n = 0;
            while (simdsv_reader_next(s.reader, &rec) == SIMDSV_OK)
                n++;
            CHECK_EQ_INT(n, 5000);
            CHECK_EQ_U64(hdr.field_count, 2);
            CHECK_MEM(hdr.fields[0].data, hdr.fields[0].size, "head\"er", 7);
            CHECK_MEM(hdr.fields[1].data, hdr.fields[1].size, "second", 6);
            CHECK_STATUS(simdsv_reader_header(s.reader, &hdr), SIMDSV_OK);
            CHECK_MEM(hdr.fields[1].data, hdr.fields[1].size, "second", 6);
        }
        h_session_close(&s);
        free(big.data);
    }
    /* header() on an empty input */
    if (CHECK_STATUS(simdsv_reader_new(&r, opt), SIMDSV_OK) &&
        CHECK_STATUS(simdsv_reader_open_memory(r, "\n\n", 2), SIMDSV_OK)) {
        CHECK_STATUS(simdsv_reader_header(r, &hdr), SIMDSV_END);
        CHECK_STATUS(simdsv_reader_next(r, &rec), SIMDSV_END);
        uint64_t n = 99;
        CHECK_STATUS(simdsv_reader_count(r, &n), SIMDSV_OK);
        CHECK_EQ_U64(n, 0);
    }
    simdsv_reader_free(r);
    simdsv_options_free(opt);
}

static void test_count_api(void)
{
    static const char in[] = "a\nb\n\"c\nd\"\n#x\ne\n";
    simdsv_options *opt = make_opts("c=#", NULL);
    simdsv_reader *r = NULL;
    simdsv_record rec;
    uint64_t n = 0;
    /* count after some records: the remaining ones */
    if (CHECK_STATUS(simdsv_reader_new(&r, opt), SIMDSV_OK) &&
        CHECK_STATUS(simdsv_reader_open_memory(r, in, sizeof in - 1), SIMDSV_OK)) {
        CHECK_STATUS(simdsv_reader_next(r, &rec), SIMDSV_OK);
        CHECK_STATUS(simdsv_reader_next(r, &rec), SIMDSV_OK);
        CHECK_STATUS(simdsv_reader_count(r, &n), SIMDSV_OK);
        CHECK_EQ_U64(n, 2);
        CHECK_STATUS(simdsv_reader_count(r, &n), SIMDSV_OK);
        CHECK_EQ_U64(n, 0);
        CHECK_STATUS(simdsv_reader_next(r, &rec), SIMDSV_END);
    }
    simdsv_reader_free(r);
    r = NULL;
    /* the count stops at the first quoting error and reports how far it got */
    static const char bad[] = "a\nb\nc\"d\ne\n";
    simdsv_options_set(opt, SIMDSV_OPT_COMMENT, -1);
    if (CHECK_STATUS(simdsv_reader_new(&r, opt), SIMDSV_OK) &&
        CHECK_STATUS(simdsv_reader_open_memory(r, bad, sizeof bad - 1), SIMDSV_OK)) {
        n = 99;
        CHECK_STATUS(simdsv_reader_count(r, &n), SIMDSV_ERR_QUOTE_IN_UNQUOTED_FIELD);
        CHECK_EQ_U64(n, 2);
        CHECK_EQ_U64(simdsv_reader_error(r)->byte_offset, 5);
        CHECK_EQ_U64(simdsv_reader_error(r)->line, 3);
        CHECK_EQ_U64(simdsv_reader_error(r)->record, 2);
    }
    simdsv_reader_free(r);
    simdsv_options_free(opt);

    /* A big input: count equals the records next() yields, every way. */
    text big = {NULL, 0, 0};
    for (int i = 0; i < 30000; i++) {
        char line[64];
        switch (i % 5) {
        case 0: snprintf(line, sizeof line, "%d,\"x\ny\"\n", i); break;
        case 1: snprintf(line, sizeof line, "\n\r\n%d\r", i); break;
        case 2: snprintf(line, sizeof line, "\"%d\"\"\",\n", i); break;
        case 3: snprintf(line, sizeof line, "#%d\"\n", i); break;
        default: snprintf(line, sizeof line, "%d,,,\r\n", i); break;
        }
        puts_(&big, line);
    }
    for (int header = 0; header < 2; header++) {
        for (int lenient = 0; lenient < 2; lenient++) {
            h_context("count of a big input, header=%d lenient=%d", header, lenient);
            simdsv_options *o = make_opts(header ? "c=# h=1" : "c=#", NULL);
            simdsv_options_set(o, SIMDSV_OPT_LENIENT, lenient);
            h_result res;
            h_result_init(&res);
            h_read how = h_how(H_MEMORY);
            h_read_into(&res, o, big.data, big.len, &how);
            CHECK_EQ_U64(res.errors, 0);
            const uint64_t want = res.nitems - (size_t)header;
            CHECK_EQ_U64(want, 24000 - (size_t)header);
            static const size_t chunks[2] = {1000, 3};
            for (int streamed = 0; streamed < 2; streamed++) {
                h_read chow = h_how(streamed ? H_CHUNKS : H_MEMORY);
                chow.chunks = chunks;
                chow.nchunks = 2;
                chow.cycle = 1;
                uint64_t count = 0;
                CHECK_STATUS(h_count(o, big.data, big.len, &chow, &count, NULL), SIMDSV_OK);
                CHECK_EQ_U64(count, want);
            }
            h_result_free(&res);
            simdsv_options_free(o);
        }
    }
    h_context(NULL);
    free(big.data);
}

/* ------------------------------------------------------------ allocator */

typedef struct counting {
    size_t calls, fail_at; /* fail the fail_at-th call (1-based); 0 = never */
    size_t live_blocks, live_bytes, peak_bytes;
    size_t bad_sizes;
} counting;

typedef union block_header {
    size_t size;
    max_align_t align;
} block_header;

static void *count_alloc(void *ctx, size_t size)
{
    counting *c = ctx;
    if (++c->calls == c->fail_at)
        return NULL;
    block_header *h = malloc(sizeof *h + size);
    if (!h)
        return NULL;
    h->size = size;
    c->live_blocks++;
    c->live_bytes += size;
    if (c->live_bytes > c->peak_bytes)
        c->peak_bytes = c->live_bytes;
    return h + 1;
}

static void *count_realloc(void *ctx, void *ptr, size_t old_size, size_t new_size)
{
    counting *c = ctx;
    if (!ptr)
        return old_size == 0 ? count_alloc(ctx, new_size) : NULL;
    block_header *h = (block_header *)ptr - 1;
    if (h->size != old_size)
        c->bad_sizes++;
    if (++c->calls == c->fail_at)
        return NULL;
    const size_t was = h->size;
    block_header *n = realloc(h, sizeof *n + new_size);
    if (!n)
        return NULL;
    n->size = new_size;
    c->live_bytes = c->live_bytes - was + new_size;
    if (c->live_bytes > c->peak_bytes)
        c->peak_bytes = c->live_bytes;
    return n + 1;
}

static void count_free(void *ctx, void *ptr, size_t size)
{
    counting *c = ctx;
    if (!ptr)
        return;
    block_header *h = (block_header *)ptr - 1;
    if (h->size != size)
        c->bad_sizes++;
    c->live_blocks--;
    c->live_bytes -= h->size;
    free(h);
}

/* A workload touching every allocation site; returns the last status. */
static simdsv_status allocator_workload(counting *c, const char *in, size_t len)
{
    simdsv_allocator a = {count_alloc, count_realloc, count_free, c};
    simdsv_options *opt = simdsv_options_new(&a);
    if (!opt)
        return SIMDSV_ERR_NOMEM;
    simdsv_status st = SIMDSV_OK;
    simdsv_options_set(opt, SIMDSV_OPT_BUFFER_SIZE, 4096);
    simdsv_options_set(opt, SIMDSV_OPT_UTF8, SIMDSV_UTF8_LOSSY);
    for (int pass = 0; pass < 3 && st != SIMDSV_ERR_NOMEM; pass++) {
        simdsv_options_set(opt, SIMDSV_OPT_LENIENT, pass == 1);
        simdsv_reader *r = NULL;
        st = simdsv_reader_new(&r, opt);
        if (st != SIMDSV_OK)
            break;
        h_read how = h_how(H_CHUNKS);
        static const size_t chunks[2] = {700, 1};
        how.chunks = chunks;
        how.nchunks = 2;
        how.cycle = 1;
        h_chunk_source src;
        memset(&src, 0, sizeof src);
        src.data = (const unsigned char *)in;
        src.size = len;
        src.how = &how;
        st = pass == 2 ? simdsv_reader_open_memory(r, in, len) : simdsv_reader_open_callback(r, h_chunk_read, &src);
        simdsv_record rec;
        if (st == SIMDSV_OK && pass < 2)
            st = simdsv_reader_header(r, &rec);
        while (st == SIMDSV_OK || h_is_data_error(st)) {
            st = simdsv_reader_next(r, &rec);
            for (size_t i = 0; st == SIMDSV_OK && i < rec.field_count; i++) {
                const char *d;
                size_t n;
                const simdsv_status us = simdsv_reader_unescape(r, &rec.fields[i], &d, &n);
                if (us != SIMDSV_OK)
                    st = us;
            }
        }
        if (pass == 2 && st == SIMDSV_END) {
            simdsv_reader_free(r);
            r = NULL;
            st = simdsv_reader_new(&r, opt);
            if (st == SIMDSV_OK)
                st = simdsv_reader_open_memory(r, in, len);
            uint64_t n;
            if (st == SIMDSV_OK)
                st = simdsv_reader_count(r, &n);
            if (st == SIMDSV_OK || h_is_data_error(st))
                st = SIMDSV_END;
        }
        simdsv_reader_free(r);
    }
    simdsv_options_free(opt);
    return st;
}

static void test_allocator(void)
{
    text in = {NULL, 0, 0};
    puts_(&in, "h1,\"h\"\"2\"\n");
    for (int i = 0; i < 200; i++)
        puts_(&in, "a,\"b\"\"c\",\"d\ne\"\n\"x\"y,z\"\n");
    put_rep(&in, 'L', 9000); /* a record longer than the buffer */
    puts_(&in, ",\"");
    put_rep(&in, 'M', 9000);
    puts_(&in, "\"\"\"\n\xFF,\"q\"\n\"unterminated");

    counting c;
    memset(&c, 0, sizeof c);
    CHECK_STATUS(allocator_workload(&c, in.data, in.len), SIMDSV_END);
    CHECK_EQ_U64(c.live_blocks, 0);
    CHECK_EQ_U64(c.live_bytes, 0);
    CHECK_EQ_U64(c.bad_sizes, 0);
    CHECK(c.calls > 5);
    const size_t total = c.calls;

    /* Fail each allocation in turn: NOMEM (or success), never a leak. */
    size_t nomem = 0;
    for (size_t k = 1; k <= total; k++) {
        memset(&c, 0, sizeof c);
        c.fail_at = k;
        h_context("allocation %zu of %zu fails", k, total);
        const simdsv_status st = allocator_workload(&c, in.data, in.len);
        nomem += st == SIMDSV_ERR_NOMEM;
        if (!CHECK(st == SIMDSV_ERR_NOMEM || st == SIMDSV_END) || !CHECK_EQ_U64(c.live_blocks, 0) ||
            !CHECK_EQ_U64(c.bad_sizes, 0))
            break;
    }
    CHECK(nomem > 0);
    h_context(NULL);

    /* An empty header: its copy has zero bytes. */
    memset(&c, 0, sizeof c);
    simdsv_allocator a = {count_alloc, count_realloc, count_free, &c};
    simdsv_options *opt = simdsv_options_new(&a);
    simdsv_reader *r = NULL;
    if (CHECK(opt != NULL) && CHECK_STATUS(simdsv_reader_new(&r, opt), SIMDSV_OK) &&
        CHECK_STATUS(simdsv_reader_open_memory(r, ",\n1,2\n", 6), SIMDSV_OK)) {
        simdsv_record rec;
        CHECK_STATUS(simdsv_reader_header(r, &rec), SIMDSV_OK);
        CHECK_EQ_U64(rec.field_count, 2);
    }
    simdsv_reader_free(r);
    simdsv_options_free(opt);
    h_context("empty header");
    CHECK_EQ_U64(c.live_blocks, 0);
    CHECK_EQ_U64(c.bad_sizes, 0);
    h_context(NULL);
    free(in.data);
}

int main(void)
{
    const simdsv_kernel kernel = harness_kernel();
    printf("kernel: %s\n", kernel == SIMDSV_KERNEL_AUTO ? "auto" : simdsv_kernel_name(kernel));
    run_table();
    run_generated();
    test_status_names();
    test_options();
    test_dialects();
    test_unescape();
    test_kernels(kernel);
    test_misuse();
    test_header_api();
    test_count_api();
    test_allocator();
    return check_summary();
}
