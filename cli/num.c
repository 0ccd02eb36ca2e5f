/* num.c — the CLI's one number parser (num.h). strtoull/strtod alone accept
 * leading spaces, a sign, hexadecimal and "inf"; here the grammar is checked
 * first, then the C library converts what is left (plain decimal). */
#include "num.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int digit(char c) { return c >= '0' && c <= '9'; }

/* The number of digits at s (0: none). */
static size_t digits(const char *s)
{
    size_t n = 0;
    while (digit(s[n])) n++;
    return n;
}

int num_whole(const char *s, uint64_t lo, uint64_t hi, uint64_t *out)
{
    if (!s) return -1;
    size_t n = digits(s);
    if (n == 0 || s[n] != '\0') return -1;
    errno = 0;
    unsigned long long v = strtoull(s, NULL, 10);
    if (errno || v < lo || v > hi) return -1;
    *out = (uint64_t)v;
    return 0;
}

int num_integer(const char *s, long lo, long hi, long *out)
{
    if (!s) return -1;
    int neg = s[0] == '-';
    size_t n = digits(s + neg);
    if (n == 0 || s[neg + n] != '\0') return -1;
    errno = 0;
    long v = strtol(s, NULL, 10);
    if (errno || v < lo || v > hi) return -1;
    *out = v;
    return 0;
}

int num_real(const char *s, double lo, double hi, double *out)
{
    if (!s) return -1;
    const char *p = s + (s[0] == '-');
    size_t whole = digits(p);
    p += whole;
    size_t frac = 0;
    if (*p == '.') {
        frac = digits(p + 1);
        p += 1 + frac;
    }
    if (whole + frac == 0) return -1;   /* ".", "-", "" */
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-') p++;
        size_t e = digits(p);
        if (e == 0) return -1;
        p += e;
    }
    if (*p != '\0') return -1;
    errno = 0;
    double v = strtod(s, NULL);
    if (errno || !isfinite(v) || v < lo || v > hi) return -1;   /* ERANGE: 1e999, or 1e-999 underflowing */
    *out = v;
    return 0;
}
