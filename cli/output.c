/* output.c — the command's output: buffered writes to standard output (or
 * to a sink set by a program that runs the commands in-process: the fuzz
 * target) or, with -o FILE, to a temporary file in FILE's folder that is
 * renamed over FILE only when the command succeeds (a failed or interrupted
 * run leaves no file behind) — or written in place when FILE is a device, a
 * FIFO or a symbolic link, which a rename would replace; a broken pipe ends the run quietly; formatted
 * output that never trusts a length it did not write; and the CSV writer
 * shared by every command that writes CSV. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char out_buf[1 << 16];
static size_t out_len;
static int out_fd = STDOUT_FILENO;
static int out_tty = -1;        /* -1: not known yet */
static char *temp_path;         /* the temporary file while -o is being written */
static char *final_path;
static bool out_in_place;       /* -o FILE opened as it is: closed at the end, never renamed */
static out_sink_fn sink;        /* instead of standard output when set */
static void *sink_ctx;

void out_set_sink(out_sink_fn fn, void *ctx)
{
    sink = fn;
    sink_ctx = ctx;
    out_tty = -1;
}

void out_abandon(void)
{
    /* Also called from signal handlers: only async-signal-safe calls. */
    if (temp_path)
        unlink(temp_path);
}

static void on_signal(int sig)
{
    out_abandon();
    signal(sig, SIG_DFL);
    raise(sig);
}

bool out_is_tty(void)
{
    if (out_tty < 0)
        out_tty = !temp_path && !sink && isatty(out_fd);
    return out_tty == 1;
}

static void write_all(const char *p, size_t n)
{
    if (n && out_is_tty())
        progress_erase();
    if (sink && !temp_path) {
        sink(sink_ctx, p, n);
        return;
    }
    while (n) {
        const ssize_t w = write(out_fd, p, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EPIPE) {
                progress_end();
                _exit(EXIT_OK); /* the reader went away (| head): end quietly */
            }
            progress_erase();
            fprintf(stderr, "simdsv: cannot write the output%s%s: %s\n", final_path ? " " : "",
                    final_path ? final_path : "", strerror(errno));
            out_abandon();
            _exit(EXIT_DATA);
        }
        p += w;
        n -= (size_t)w;
    }
}

void out_write(const void *data, size_t size)
{
    if (out_len + size > sizeof out_buf) {
        write_all(out_buf, out_len);
        out_len = 0;
        if (size > sizeof out_buf) {
            write_all(data, size);
            return;
        }
    }
    memcpy(out_buf + out_len, data, size);
    out_len += size;
}

char *out_reserve(size_t size)
{
    if (out_len + size > sizeof out_buf) {
        write_all(out_buf, out_len);
        out_len = 0;
    }
    return size <= sizeof out_buf ? out_buf + out_len : NULL;
}

void out_commit(size_t size)
{
    out_len += size;
}

char *out_window(size_t need, char **end)
{
    char *p = out_reserve(need);
    *end = out_buf + sizeof out_buf;
    return p;
}

void out_window_done(char *p)
{
    out_len = (size_t)(p - out_buf);
}

void out_byte(char c)
{
    if (out_len == sizeof out_buf) {
        write_all(out_buf, out_len);
        out_len = 0;
    }
    out_buf[out_len++] = c;
}

void out_str(const char *s)
{
    out_write(s, strlen(s));
}

void out_pad(size_t n)
{
    static const char spaces[] = "                                ";
    for (; n >= sizeof spaces - 1; n -= sizeof spaces - 1)
        out_write(spaces, sizeof spaces - 1);
    out_write(spaces, n);
}

size_t cli_format(char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    const int n = vsnprintf(buf, size, fmt, ap);
    va_end(ap);
    if (n < 0 || size == 0) {
        if (size)
            buf[0] = '\0';
        return 0;
    }
    return (size_t)n < size ? (size_t)n : size - 1;
}

void out_printf(const char *fmt, ...)
{
    /* Numbers and short words fit the stack buffer; anything longer is
     * formatted again into a buffer of its exact size, never cut. */
    char small[256];
    va_list ap, again;
    va_start(ap, fmt);
    va_copy(again, ap);
    const int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n >= 0 && (size_t)n < sizeof small) {
        out_write(small, (size_t)n);
    } else if (n >= 0) {
        char *big = malloc((size_t)n + 1);
        if (big) {
            const int m = vsnprintf(big, (size_t)n + 1, fmt, again);
            if (m >= 0)
                out_write(big, (size_t)m <= (size_t)n ? (size_t)m : (size_t)n);
            free(big);
        } else {
            cli_error("out of memory");
        }
    }
    va_end(again);
}

bool out_flush(void)
{
    write_all(out_buf, out_len);
    out_len = 0;
    return true;
}

bool out_rewind(void)
{
    if ((!temp_path && !out_in_place) || sink)
        return false;
    out_len = 0;
    return ftruncate(out_fd, 0) == 0 && lseek(out_fd, 0, SEEK_SET) == 0;
}

bool out_open(const char *path)
{
    if (!path)
        return true;
    /* A device, FIFO or symbolic link is written in place: renaming a
     * temporary file over it would replace the node itself (run as root,
     * `-o /dev/null` would leave a regular file where /dev/null was). */
    struct stat st;
    if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        const int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
        if (fd < 0) {
            cli_error("%s: cannot open the output: %s", path, strerror(errno));
            return false;
        }
        out_fd = fd;
        out_tty = -1;
        out_in_place = true;
        return true;
    }
    const char *slash = strrchr(path, '/');
    const size_t dir_len = slash ? (size_t)(slash - path) + 1 : 0;
    const size_t n = strlen(path);
    temp_path = malloc(n + 32);
    final_path = malloc(n + 1);
    if (!temp_path || !final_path) {
        cli_error("out of memory");
        free(temp_path);
        free(final_path);
        temp_path = final_path = NULL;
        return false;
    }
    memcpy(final_path, path, n + 1);
    /* .NAME.simdsv-XXXXXX in the same folder, so that rename() is atomic. */
    memcpy(temp_path, path, dir_len);
    snprintf(temp_path + dir_len, n + 32 - dir_len, ".%s.simdsv-XXXXXX", path + dir_len);
    const int fd = mkstemp(temp_path);
    if (fd < 0) {
        cli_error("%s: cannot create the output: %s", path, strerror(errno));
        free(temp_path);
        free(final_path);
        temp_path = final_path = NULL;
        return false;
    }
    /* The mode a plain "> FILE" would give (mkstemp makes it 0600). */
    const mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    signal(SIGHUP, on_signal);
    out_fd = fd;
    out_tty = 0;
    return true;
}

int out_finish(int status)
{
    if (out_len) {
        if (status == EXIT_OK || !temp_path)
            out_flush();
        out_len = 0;
    }
    if (out_in_place) {
        if (close(out_fd) != 0 && status == EXIT_OK) {
            cli_error("cannot write the output: %s", strerror(errno));
            status = EXIT_DATA;
        }
        out_in_place = false;
        out_fd = STDOUT_FILENO;
        out_tty = -1;
        return status;
    }
    if (!temp_path)
        return status;
    if (status == EXIT_OK) {
        if (close(out_fd) != 0) {
            cli_error("cannot write the output %s: %s", final_path, strerror(errno));
            status = EXIT_DATA;
        } else if (rename(temp_path, final_path) != 0) {
            cli_error("%s: cannot rename the output into place: %s", final_path, strerror(errno));
            status = EXIT_DATA;
        }
    } else {
        close(out_fd);
    }
    if (status != EXIT_OK)
        unlink(temp_path);
    free(temp_path);
    free(final_path);
    temp_path = NULL;
    final_path = NULL;
    out_fd = STDOUT_FILENO;
    out_tty = -1;
    return status;
}

/* Whether the 16 bytes at p hold '"', LF, CR or d.  Written so that the
 * compiler vectorises it (a mask per byte, then the masks ORed as words):
 * this runs on the content of every quoted field that select, search and
 * convert write. */
static inline bool block_needs_quotes(const unsigned char *p, unsigned char d)
{
    uint8_t mask[16];
    for (size_t k = 0; k < 16; k++) {
        const uint8_t c = p[k];
        mask[k] = (uint8_t)((c == '"' ? 0xff : 0) | (c == '\n' ? 0xff : 0) | (c == '\r' ? 0xff : 0) |
                            (c == d ? 0xff : 0));
    }
    uint64_t lo, hi;
    memcpy(&lo, mask, 8);
    memcpy(&hi, mask + 8, 8);
    return (lo | hi) != 0;
}

bool csv_needs_quotes(const char *s, size_t n, int delimiter, bool alone)
{
    if (n == 0)
        return alone; /* a lone empty field would read back as an empty line */
    const unsigned char *u = (const unsigned char *)s;
    const unsigned char d = (unsigned char)delimiter;
    if (n >= 16) {
        /* 16 bytes a step; the last step overlaps the one before it. */
        for (size_t i = 0; i + 16 < n; i += 16)
            if (block_needs_quotes(u + i, d))
                return true;
        return block_needs_quotes(u + n - 16, d);
    }
    for (size_t i = 0; i < n; i++) {
        const unsigned char c = u[i];
        if (c == '"' || c == '\n' || c == '\r' || c == d)
            return true;
    }
    return false;
}

bool csv_quotes_doubled(const char *s, size_t n)
{
    const char *end = s + n, *q = memchr(s, '"', n);
    if (!q)
        return false;
    for (; q; q = memchr(q, '"', (size_t)(end - q))) {
        if (q + 1 == end || q[1] != '"')
            return false;
        q += 2;
    }
    return true;
}

void out_csv_field(const char *s, size_t n, int delimiter, bool alone)
{
    if (!csv_needs_quotes(s, n, delimiter, alone)) {
        out_write(s, n);
        return;
    }
    out_byte('"');
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '"') {
            out_write(s + run, i + 1 - run);
            out_byte('"');
            run = i + 1;
        }
    }
    out_write(s + run, n - run);
    out_byte('"');
}
