/* bvh_lex.c — the BVH reader's messages (file:line, warnings or strict
 * errors), tokenizer and number grammar (bvh_int.h; the parser is bvh.c). */
#include "bvh_int.h"

/* ---- Messages ------------------------------------------------------------------ */

/* Record "name:line: <message>" as a parse error. */
pb_status pb_bvh_perr(const parser *ps, size_t line, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return pb_fail(PB_ERR_PARSE, "%s:%zu: %s", ps->name, line, msg);
}

/* A condition real files have: a warning normally ("name:line: msg; then"),
 * an error in strict mode ("name:line: msg (an error in strict mode)"). */
pb_status pb_bvh_pwarn(parser *ps, size_t line, const char *then, const char *fmt, ...)
{
    char msg[300], full[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (ps->opt->strict) return pb_bvh_perr(ps, line, "%s (an error in strict mode)", msg);
    snprintf(full, sizeof full, "%.100s:%zu: %s; %.60s", ps->name, line, msg, then);
    ps->warnings++;
    if (ps->opt->warn)
        ps->opt->warn(ps->opt->user, full);
    else
        fprintf(stderr, "posebench: warning: %s\n", full);
    return PB_OK;
}

/* Quote a token for a message: at most SHOW_MAX characters, "end of file" at EOF. */
const char *pb_bvh_show(const token *t, char out[SHOW_MAX + 8])
{
    if (!t->p) return "end of file";
    size_t n = t->len < SHOW_MAX ? t->len : SHOW_MAX;
    out[0] = '\'';
    memcpy(out + 1, t->p, n);
    strcpy(out + 1 + n, t->len > SHOW_MAX ? "...'" : "'");
    return out;
}

/* ---- Tokenizer ------------------------------------------------------------------- */

int pb_bvh_is_space(unsigned char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

/* Skip white space. Line breaks are "\n", "\r\n" and a lone "\r" (old Mac
 * exports); with cross_lines = 0 stop in front of a line break instead. */
void pb_bvh_skip_space(parser *ps, int cross_lines)
{
    while (ps->pos < ps->size && pb_bvh_is_space((unsigned char)ps->buf[ps->pos])) {
        char c = ps->buf[ps->pos];
        if (c == '\n' || c == '\r') {
            if (!cross_lines) return;
            if (c == '\n' || ps->pos + 1 >= ps->size || ps->buf[ps->pos + 1] != '\n') ps->line++;
        }
        ps->pos++;
    }
}

/* Next token: '{' and '}' on their own, otherwise a run of non-space bytes.
 * cross_lines = 0 returns an EOF-like token (p = NULL) at the end of the line. */
token pb_bvh_next_token_ex(parser *ps, int cross_lines)
{
    pb_bvh_skip_space(ps, cross_lines);
    token t = { NULL, 0, ps->line };
    if (ps->pos >= ps->size || pb_bvh_is_space((unsigned char)ps->buf[ps->pos])) return t;
    size_t start = ps->pos;
    char c = ps->buf[ps->pos++];
    if (c != '{' && c != '}')
        while (ps->pos < ps->size) {
            c = ps->buf[ps->pos];
            if (pb_bvh_is_space((unsigned char)c) || c == '{' || c == '}') break;
            ps->pos++;
        }
    t.p = ps->buf + start;
    t.len = ps->pos - start;
    return t;
}

token pb_bvh_next_token(parser *ps) { return pb_bvh_next_token_ex(ps, 1); }

/* Keywords and channel names are compared ignoring ASCII case: exporters
 * disagree on "End Site" / "End site" and "Xrotation" / "XRotation". */
int pb_bvh_tok_is(const token *t, const char *word)
{
    size_t n = strlen(word);
    if (!t->p || t->len != n) return 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char a = (unsigned char)t->p[i], b = (unsigned char)word[i];
        if (a >= 'A' && a <= 'Z') a = (unsigned char)(a - 'A' + 'a');
        if (b >= 'A' && b <= 'Z') b = (unsigned char)(b - 'A' + 'a');
        if (a != b) return 0;
    }
    return 1;
}

pb_status pb_bvh_expect(parser *ps, const char *word, const char *where)
{
    token t = pb_bvh_next_token(ps);
    char q[SHOW_MAX + 8];
    if (!pb_bvh_tok_is(&t, word)) return pb_bvh_perr(ps, t.line, "expected '%s' %s, found %s", word, where, pb_bvh_show(&t, q));
    return PB_OK;
}

/* "Frames:" or "Frames" ":" (both spellings occur). */
pb_status pb_bvh_expect_label(parser *ps, const char *word, const char *shown)
{
    token t = pb_bvh_next_token(ps);
    char q[SHOW_MAX + 8];
    size_t n = strlen(word);
    if (t.p && t.len == n + 1 && t.p[n] == ':') {
        token w = t;
        w.len = n;
        if (pb_bvh_tok_is(&w, word)) return PB_OK;
    }
    if (pb_bvh_tok_is(&t, word)) {
        token c = pb_bvh_next_token(ps);
        if (c.p && c.len == 1 && c.p[0] == ':') return PB_OK;
        t = c;
    }
    return pb_bvh_perr(ps, t.line, "expected '%s', found %s", shown, pb_bvh_show(&t, q));
}

/* ---- Numbers ---------------------------------------------------------------------- */

/* Parse a decimal floating-point token into *out. The grammar is checked by
 * hand first — [+-] digits [. digits] [(e|E) [+-] digits], at least one
 * mantissa digit — because strtod would also accept "inf", "nan", "0x1p3"
 * and leading spaces. Values beyond float range are NUM_RANGE; underflow to
 * zero or a denormal is accepted (it is a tiny number, not an error). */
int pb_bvh_parse_number(const token *t, double *out)
{
    if (!t->p || t->len == 0) return NUM_BAD;
    const char *p = t->p, *end = t->p + t->len;
    size_t digits = 0;
    if (*p == '+' || *p == '-') p++;
    while (p < end && *p >= '0' && *p <= '9') p++, digits++;
    if (p < end && *p == '.') {
        p++;
        while (p < end && *p >= '0' && *p <= '9') p++, digits++;
    }
    if (digits == 0) return NUM_BAD;
    if (p < end && (*p == 'e' || *p == 'E')) {
        p++;
        if (p < end && (*p == '+' || *p == '-')) p++;
        size_t exp_digits = 0;
        while (p < end && *p >= '0' && *p <= '9') p++, exp_digits++;
        if (exp_digits == 0) return NUM_BAD;
    }
    if (p != end) return NUM_BAD;
    if (t->len > NUM_MAX) return NUM_BAD;
    /* strtod needs a terminated string; the token is not one in the buffer. */
    char tmp[NUM_MAX + 1];
    memcpy(tmp, t->p, t->len);
    tmp[t->len] = '\0';
    char *stop;
    double v = strtod(tmp, &stop);
    if (stop != tmp + t->len) return NUM_BAD;   /* e.g. a locale with ',' as decimal point */
    if (!isfinite(v) || fabs(v) > FLT_MAX) return NUM_RANGE;
    *out = v;
    return NUM_OK;
}

/* A number that must fit a float after multiplying by scale. */
pb_status pb_bvh_read_number(parser *ps, double scale, double *out, const char *what)
{
    token t = pb_bvh_next_token(ps);
    char q[SHOW_MAX + 8];
    double v = 0;
    int r = pb_bvh_parse_number(&t, &v);
    if (r == NUM_BAD) return pb_bvh_perr(ps, t.line, "expected a number (%s), found %s", what, pb_bvh_show(&t, q));
    if (r == NUM_RANGE || fabs(v * scale) > FLT_MAX)
        return pb_bvh_perr(ps, t.line, "expected a number within float range (%s), found %s", what, pb_bvh_show(&t, q));
    *out = v * scale;
    return PB_OK;
}

