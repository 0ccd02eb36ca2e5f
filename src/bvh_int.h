/* bvh_int.h — what the BVH reader's two files share (bvh.c: HIERARCHY,
 * MOTION and the entry points; bvh_lex.c: messages, tokens and numbers).
 * Private to the library: nothing here is exported. */
#ifndef PB_BVH_INT_H
#define PB_BVH_INT_H

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "posebench/bvh.h"
#include "internal.h"

#define MAX_DEPTH_CAP 1024   /* recursion bound no option may exceed */
#define NUM_MAX 127          /* longest number token we accept (characters) */
#define SHOW_MAX 40          /* characters of a token quoted in a message */

/* What the parser knows about a joint before the skeleton is built. */
typedef struct joint_def {
    char name[PB_BVH_NAME_MAX];
    int32_t parent;
    size_t line;              /* where the joint was declared, for messages */
    float offset[3];          /* scaled */
    int nchan;
    unsigned char chan[6];    /* channel kinds in file order */
    size_t first_chan;        /* index of its first value in a motion row */
} joint_def;

typedef struct end_def {
    int32_t parent;
    float offset[3];
} end_def;

typedef struct token {
    const char *p;            /* NULL at end of input */
    size_t len;
    size_t line;
} token;

typedef struct parser {
    const char *buf;
    size_t size, pos, line;
    const char *name;         /* file or display name used in messages */
    const pb_bvh_options *opt;
    joint_def *joints;
    size_t njoints, cap_joints;
    end_def *ends;
    size_t nends, cap_ends;
    size_t nchannels;         /* values per motion row */
    size_t warnings;
} parser;


/* ---- bvh_lex.c ---- */
/* "name:line: <message>" as a parse error. */
pb_status pb_bvh_perr(const parser *ps, size_t line, const char *fmt, ...) PB_PRINTF(3, 4);
/* A condition real files have: a warning normally, an error in strict mode. */
pb_status pb_bvh_pwarn(parser *ps, size_t line, const char *then, const char *fmt, ...) PB_PRINTF(4, 5);
const char *pb_bvh_show(const token *t, char out[SHOW_MAX + 8]);
int pb_bvh_is_space(unsigned char c);
/* Skip white space; with cross_lines = 0 stop in front of a line break. */
void pb_bvh_skip_space(parser *ps, int cross_lines);
token pb_bvh_next_token_ex(parser *ps, int cross_lines);
token pb_bvh_next_token(parser *ps);
int pb_bvh_tok_is(const token *t, const char *word);
pb_status pb_bvh_expect(parser *ps, const char *word, const char *where);
pb_status pb_bvh_expect_label(parser *ps, const char *word, const char *shown);
enum { NUM_OK, NUM_BAD, NUM_RANGE };
int pb_bvh_parse_number(const token *t, double *out);
pb_status pb_bvh_read_number(parser *ps, double scale, double *out, const char *what);

#endif
