/*
 * gen.c — taxi-like CSV on standard output, deterministically, for the
 * memory test (tests/memory/run.sh): the header of the NYC taxi trips file
 * and rows of the same shape (ids, timestamps, small counts, coordinates,
 * amounts with two decimals, a Y/N flag and some empty fields) until at least
 * BYTES bytes are written.  Fast enough to feed a command at gigabytes per
 * second through a pipe, so that the command's memory, not the generator,
 * is what the test measures.
 *
 *   gen BYTES [--late-misfit]
 *
 * BYTES takes a K, M or G suffix (powers of 1024).  --late-misfit writes
 * `x` as the last row's passenger_count: an int64 column meeting a value
 * that does not fit, long after any inference sample.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t state = 0x9E3779B97F4A7C15ull;

static uint64_t next(void)
{
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return state * 0x2545F4914F6CDD1Dull;
}

static char *put_uint(char *p, uint64_t v)
{
    char tmp[24];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n)
        *p++ = tmp[--n];
    return p;
}

static char *put_2digits(char *p, unsigned v)
{
    *p++ = (char)('0' + v / 10);
    *p++ = (char)('0' + v % 10);
    return p;
}

/* hundredths as D.DD */
static char *put_cents(char *p, uint64_t cents)
{
    p = put_uint(p, cents / 100);
    *p++ = '.';
    return put_2digits(p, (unsigned)(cents % 100));
}

/* a coordinate: sign, whole degrees, six decimals */
static char *put_coord(char *p, int negative, unsigned degrees, uint64_t millionths)
{
    if (negative)
        *p++ = '-';
    p = put_uint(p, degrees);
    *p++ = '.';
    char digits[6];
    for (int i = 5; i >= 0; i--) {
        digits[i] = (char)('0' + millionths % 10);
        millionths /= 10;
    }
    memcpy(p, digits, 6);
    return p + 6;
}

/* 2015-01-DD HH:MM:SS from seconds since 2015-01-01 (within January) */
static char *put_time(char *p, uint64_t secs)
{
    memcpy(p, "2015-01-", 8);
    p = put_2digits(p + 8, (unsigned)(secs / 86400 + 1));
    *p++ = ' ';
    p = put_2digits(p, (unsigned)(secs / 3600 % 24));
    *p++ = ':';
    p = put_2digits(p, (unsigned)(secs / 60 % 60));
    *p++ = ':';
    return put_2digits(p, (unsigned)(secs % 60));
}

static uint64_t parse_size(const char *s)
{
    char *end;
    uint64_t v = strtoull(s, &end, 10);
    switch (*end) {
    case 'G': v <<= 10; /* fall through */
    case 'M': v <<= 10; /* fall through */
    case 'K': v <<= 10; break;
    case '\0': break;
    default: return 0;
    }
    return v;
}

int main(int argc, char **argv)
{
    const uint64_t total = argc > 1 ? parse_size(argv[1]) : 0;
    const int late_misfit = argc > 2 && strcmp(argv[2], "--late-misfit") == 0;
    if (!total || (argc > 2 && !late_misfit)) {
        fputs("usage: gen BYTES[K|M|G] [--late-misfit]\n", stderr);
        return 2;
    }
    static char buf[1 << 20];
    char *p = buf;
    const char header[] = "VendorID,tpep_pickup_datetime,tpep_dropoff_datetime,passenger_count,trip_distance,"
                          "pickup_longitude,pickup_latitude,RatecodeID,store_and_fwd_flag,dropoff_longitude,"
                          "dropoff_latitude,payment_type,fare_amount,extra,mta_tax,tip_amount,tolls_amount,"
                          "improvement_surcharge,total_amount\n";
    memcpy(p, header, sizeof header - 1);
    p += sizeof header - 1;
    uint64_t written = 0, row = 0;
    for (;;) {
        const uint64_t r = next(), r2 = next();
        const uint64_t pickup = row / 8 % (28 * 86400);
        const uint64_t fare = 250 + r % 6000, tip = r2 % 3 ? 0 : r2 % 900, tolls = r % 17 ? 0 : 554;
        const int last = written + (uint64_t)(p - buf) + 400 >= total;
        *p++ = (char)('1' + (r & 1));
        *p++ = ',';
        p = put_time(p, pickup);
        *p++ = ',';
        p = put_time(p, pickup + 60 + (r >> 8) % 3600);
        *p++ = ',';
        if (last && late_misfit)
            *p++ = 'x';
        else if ((r >> 20) % 50) /* about 2% empty, as in the real file */
            *p++ = (char)('1' + (r >> 24) % 6);
        *p++ = ',';
        p = put_cents(p, (r >> 28) % 4000);
        *p++ = ',';
        p = put_coord(p, 1, 73, 900000 + (r2 >> 8) % 100000);
        *p++ = ',';
        p = put_coord(p, 0, 40, 700000 + (r2 >> 28) % 100000);
        *p++ = ',';
        if ((r >> 20) % 50)
            *p++ = (char)('1' + (r >> 32) % 5 / 4 * ((r >> 36) % 5));
        *p++ = ',';
        if ((r >> 20) % 50)
            *p++ = (r >> 40) % 100 ? 'N' : 'Y';
        *p++ = ',';
        p = put_coord(p, 1, 73, 900000 + (r2 >> 40) % 100000);
        *p++ = ',';
        p = put_coord(p, 0, 40, 700000 + (r >> 44) % 100000);
        *p++ = ',';
        *p++ = (char)('1' + (r >> 50) % 4);
        *p++ = ',';
        p = put_cents(p, fare);
        *p++ = ',';
        memcpy(p, (r >> 54) % 2 ? "0.5," : "0.0,", 4);
        p += 4;
        memcpy(p, "0.5,", 4);
        p += 4;
        p = put_cents(p, tip);
        *p++ = ',';
        p = put_cents(p, tolls);
        *p++ = ',';
        memcpy(p, "0.3,", 4);
        p += 4;
        p = put_cents(p, fare + tip + tolls + 80);
        *p++ = '\n';
        row++;
        if (last || p - buf > (long)sizeof buf - 512) {
            const size_t n = (size_t)(p - buf);
            if (fwrite(buf, 1, n, stdout) != n)
                return 1; /* the reader stopped (head): not an error of ours */
            written += n;
            p = buf;
            if (last)
                break;
        }
    }
    return fflush(stdout) == 0 ? 0 : 1;
}
