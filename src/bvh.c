/* bvh.c — BVH motion-capture reader (see include/posebench/bvh.h).
 *
 * Three small parts:
 *   - a tokenizer over the whole text that tracks line numbers;
 *   - a recursive-descent parser for HIERARCHY (depth bounded by
 *     max_depth, so recursion cannot run away);
 *   - a row reader for MOTION that makes two passes: the first only counts
 *     lines and values (so nothing is allocated from the header's "Frames:"
 *     claim: the allocation is sized from rows that really exist in the
 *     bytes), the second converts numbers into the pose.
 * Input is treated as hostile: every count is checked against a limit before
 * it sizes an allocation, every number is validated before strtod sees it,
 * and every error path frees what was built and leaves the outputs zeroed. */
#include "bvh_int.h"

static const double deg_to_rad = 3.14159265358979323846 / 180.0;

/* ---- Channels ---------------------------------------------------------------- */
enum { CH_XPOS, CH_YPOS, CH_ZPOS, CH_XROT, CH_YROT, CH_ZROT, CH_COUNT };
static const char *const channel_name[CH_COUNT] = {
    "Xposition", "Yposition", "Zposition", "Xrotation", "Yrotation", "Zrotation"
};

/* ---- HIERARCHY ---------------------------------------------------------------------- */

/* OFFSET x y z; owner ("joint 'Hips'", "End Site") names the block in messages. */
static pb_status read_offset(parser *ps, float off[3], const char *owner)
{
    static const char *const axis[3] = { "x", "y", "z" };
    char what[PB_BVH_NAME_MAX + 40];
    snprintf(what, sizeof what, "after '{' of %s", owner);
    pb_status s = pb_bvh_expect(ps, "OFFSET", what);
    for (int i = 0; i < 3 && s == PB_OK; i++) {
        double v = 0;
        snprintf(what, sizeof what, "OFFSET %s of %s", axis[i], owner);
        s = pb_bvh_read_number(ps, ps->opt->unit_scale, &v, what);
        if (s == PB_OK && !(fabs(v) <= PB_BVH_MAX_POSITION))
            s = pb_bvh_perr(ps, ps->line, "%s is %g (%g after unit_scale %g), expected at most %g in magnitude "
                            "after unit_scale (PB_BVH_MAX_POSITION: keeps forward kinematics finite)", what,
                            v / ps->opt->unit_scale, v, (double)ps->opt->unit_scale, PB_BVH_MAX_POSITION);
        off[i] = (float)v;
    }
    return s;
}

static pb_status read_channels(parser *ps, joint_def *jd)
{
    char q[SHOW_MAX + 8];
    pb_status s = pb_bvh_expect(ps, "CHANNELS", "after OFFSET");
    if (s != PB_OK) return s;
    token t = pb_bvh_next_token(ps);
    if (pb_bvh_tok_is(&t, "3"))
        jd->nchan = 3;
    else if (pb_bvh_tok_is(&t, "6"))
        jd->nchan = 6;
    else
        return pb_bvh_perr(ps, t.line, "expected a channel count of 3 or 6 after CHANNELS of joint '%s', found %s", jd->name,
                    pb_bvh_show(&t, q));
    unsigned seen = 0;
    for (int i = 0; i < jd->nchan; i++) {
        t = pb_bvh_next_token(ps);
        int k = 0;
        while (k < CH_COUNT && !pb_bvh_tok_is(&t, channel_name[k])) k++;
        if (k == CH_COUNT)
            return pb_bvh_perr(ps, t.line,
                        "expected a channel name (Xposition, Yposition, Zposition, Xrotation, Yrotation, Zrotation; "
                        "%d of %d for joint '%s'), found %s",
                        i + 1, jd->nchan, jd->name, pb_bvh_show(&t, q));
        if (seen & (1u << k))
            return pb_bvh_perr(ps, t.line, "channel %s listed twice for joint '%s'", channel_name[k], jd->name);
        seen |= 1u << k;
        jd->chan[i] = (unsigned char)k;
    }
    jd->first_chan = ps->nchannels;
    ps->nchannels += (size_t)jd->nchan;
    return PB_OK;
}

static pb_status parse_end_site(parser *ps, int32_t parent, size_t depth, size_t line)
{
    if (depth > ps->opt->max_depth)
        return pb_bvh_perr(ps, line, "End Site nested %zu deep, deeper than the limit of %zu (pb_bvh_options.max_depth)",
                    depth, ps->opt->max_depth);
    if (ps->nends >= ps->opt->max_joints)
        return pb_bvh_perr(ps, line, "more than %zu End Sites (limit: pb_bvh_options.max_joints)", ps->opt->max_joints);
    pb_status s = pb_bvh_expect(ps, "Site", "after 'End'");
    if (s == PB_OK) s = pb_bvh_expect(ps, "{", "after 'End Site'");
    if (s != PB_OK) return s;
    float off[3];
    s = read_offset(ps, off, "End Site");
    if (s == PB_OK) s = pb_bvh_expect(ps, "}", "closing End Site (an End Site has only an OFFSET)");
    if (s != PB_OK) return s;
    if (ps->nends == ps->cap_ends) {
        size_t cap = ps->cap_ends ? ps->cap_ends * 2 : 32;
        end_def *e = realloc(ps->ends, cap * sizeof *e);
        if (!e) return pb_fail(PB_ERR_NOMEM, "%s: out of memory for %zu End Sites", ps->name, cap);
        ps->ends = e;
        ps->cap_ends = cap;
    }
    end_def *e = &ps->ends[ps->nends++];
    e->parent = parent;
    memcpy(e->offset, off, sizeof off);
    return PB_OK;
}

/* ROOT or JOINT after its keyword: name '{' OFFSET CHANNELS children '}'.
 * Children are parsed recursively; depth is checked first, so the recursion
 * is at most max_depth (<= MAX_DEPTH_CAP) deep. */
static pb_status parse_joint(parser *ps, int32_t parent, size_t depth, const char *keyword, size_t line)
{
    char q[SHOW_MAX + 8];
    if (depth > ps->opt->max_depth)
        return pb_bvh_perr(ps, line, "%s nested %zu deep, deeper than the limit of %zu (pb_bvh_options.max_depth)", keyword,
                    depth, ps->opt->max_depth);
    token t = pb_bvh_next_token(ps);
    if (!t.p || (t.len == 1 && (t.p[0] == '{' || t.p[0] == '}')))
        return pb_bvh_perr(ps, t.line, "expected a joint name after %s, found %s", keyword, pb_bvh_show(&t, q));
    if (t.len >= PB_BVH_NAME_MAX)
        return pb_bvh_perr(ps, t.line, "joint name %s is %zu bytes long, expected at most %d", pb_bvh_show(&t, q), t.len,
                    PB_BVH_NAME_MAX - 1);
    for (size_t j = 0; j < ps->njoints; j++)
        if (strlen(ps->joints[j].name) == t.len && memcmp(ps->joints[j].name, t.p, t.len) == 0)
            return pb_bvh_perr(ps, t.line, "duplicate joint name %s (first declared at line %zu); expected unique names",
                        pb_bvh_show(&t, q), ps->joints[j].line);
    if (ps->njoints >= ps->opt->max_joints)
        return pb_bvh_perr(ps, t.line, "more than %zu joints (limit: pb_bvh_options.max_joints)", ps->opt->max_joints);
    if (ps->njoints == ps->cap_joints) {
        size_t cap = ps->cap_joints ? ps->cap_joints * 2 : 32;
        joint_def *j = realloc(ps->joints, cap * sizeof *j);
        if (!j) return pb_fail(PB_ERR_NOMEM, "%s: out of memory for %zu joints", ps->name, cap);
        ps->joints = j;
        ps->cap_joints = cap;
    }
    /* Refer to the joint by index: recursion below may move the array. */
    size_t self = ps->njoints++;
    joint_def *jd = &ps->joints[self];
    memset(jd, 0, sizeof *jd);
    memcpy(jd->name, t.p, t.len);
    jd->parent = parent;
    jd->line = t.line;

    char where[PB_BVH_NAME_MAX + 40];
    snprintf(where, sizeof where, "after joint name '%s'", jd->name);
    pb_status s = pb_bvh_expect(ps, "{", where);
    if (s != PB_OK) return s;
    snprintf(where, sizeof where, "joint '%s'", jd->name);
    s = read_offset(ps, jd->offset, where);
    if (s == PB_OK) s = read_channels(ps, jd);
    if (s != PB_OK) return s;

    for (;;) {
        t = pb_bvh_next_token(ps);
        if (pb_bvh_tok_is(&t, "}")) return PB_OK;
        if (pb_bvh_tok_is(&t, "JOINT"))
            s = parse_joint(ps, (int32_t)self, depth + 1, "JOINT", t.line);
        else if (pb_bvh_tok_is(&t, "End"))
            s = parse_end_site(ps, (int32_t)self, depth + 1, t.line);
        else if (!t.p)
            return pb_bvh_perr(ps, t.line, "unexpected end of file, expected '}' closing joint '%s' (opened at line %zu)",
                        ps->joints[self].name, ps->joints[self].line);
        else
            return pb_bvh_perr(ps, t.line, "expected 'JOINT', 'End Site' or '}' in joint '%s', found %s",
                        ps->joints[self].name, pb_bvh_show(&t, q));
        if (s != PB_OK) return s;
    }
}

static pb_status parse_hierarchy(parser *ps)
{
    char q[SHOW_MAX + 8];
    /* A UTF-8 byte order mark from Windows editors is not content. */
    if (ps->size >= 3 && memcmp(ps->buf, "\xEF\xBB\xBF", 3) == 0) ps->pos = 3;
    token t = pb_bvh_next_token(ps);
    if (!t.p) return pb_bvh_perr(ps, t.line, "empty file, expected 'HIERARCHY'");
    if (!pb_bvh_tok_is(&t, "HIERARCHY"))
        return pb_bvh_perr(ps, t.line, "expected 'HIERARCHY' at the start of a BVH file, found %s", pb_bvh_show(&t, q));
    t = pb_bvh_next_token(ps);
    if (!pb_bvh_tok_is(&t, "ROOT")) return pb_bvh_perr(ps, t.line, "expected 'ROOT' after HIERARCHY, found %s", pb_bvh_show(&t, q));
    for (;;) {
        pb_status s = parse_joint(ps, -1, 1, "ROOT", t.line);
        if (s != PB_OK) return s;
        t = pb_bvh_next_token(ps);
        if (pb_bvh_tok_is(&t, "MOTION")) return PB_OK;
        if (!pb_bvh_tok_is(&t, "ROOT"))   /* several ROOTs: a multi-character file */
            return pb_bvh_perr(ps, t.line, "expected 'MOTION' (or another 'ROOT') after the hierarchy, found %s",
                        pb_bvh_show(&t, q));
    }
}

/* ---- MOTION ---------------------------------------------------------------------------- */

/* "Frames:" value: digits only. Returns the count saturated at SIZE_MAX. */
static pb_status read_frame_count(parser *ps, size_t *count, size_t *line)
{
    char q[SHOW_MAX + 8];
    token t = pb_bvh_next_token(ps);
    *line = t.line;
    size_t v = 0;
    int ok = t.p != NULL && t.len > 0;
    for (size_t i = 0; ok && i < t.len; i++) {
        unsigned d = (unsigned)(t.p[i] - '0');
        if (d > 9) ok = 0;
        else v = v > (SIZE_MAX - d) / 10 ? SIZE_MAX : v * 10 + d;
    }
    if (!ok) return pb_bvh_perr(ps, t.line, "expected a non-negative integer frame count after 'Frames:', found %s", pb_bvh_show(&t, q));
    if (v > ps->opt->max_frames)
        return pb_bvh_perr(ps, t.line, "Frames: %s is more than the limit of %zu frames (pb_bvh_options.max_frames)",
                    pb_bvh_show(&t, q), ps->opt->max_frames);
    *count = v;
    return PB_OK;
}

static pb_status read_frame_time(parser *ps, double *ft)
{
    char q[SHOW_MAX + 8];
    pb_status s = pb_bvh_expect(ps, "Frame", "after the frame count");
    if (s == PB_OK) s = pb_bvh_expect_label(ps, "Time", "Time:' (as in 'Frame Time:");
    if (s != PB_OK) return s;
    token t = pb_bvh_next_token(ps);
    double v = 0;
    if (pb_bvh_parse_number(&t, &v) != NUM_OK || !(v > 0))
        return pb_bvh_perr(ps, t.line, "expected a positive number of seconds after 'Frame Time:', found %s",
                    pb_bvh_show(&t, q));
    /* 1e-30 s is a number, not a capture rate: its velocities (differences x fps) overflow every kernel */
    if (!(v >= PB_BVH_MIN_FRAME_TIME && v <= PB_BVH_MAX_FRAME_TIME))
        return pb_bvh_perr(ps, t.line, "Frame Time: %g s is outside %g .. %g s (%g .. %g fps), the range of a capture "
                    "rate (PB_BVH_MIN_FRAME_TIME, PB_BVH_MAX_FRAME_TIME)", v, PB_BVH_MIN_FRAME_TIME,
                    PB_BVH_MAX_FRAME_TIME, 1 / PB_BVH_MAX_FRAME_TIME, 1 / PB_BVH_MIN_FRAME_TIME);
    /* Rows are lines: a value after the frame time would shift every row. */
    token extra = pb_bvh_next_token_ex(ps, 0);
    if (extra.p)
        return pb_bvh_perr(ps, extra.line, "expected the end of the line after the frame time, found %s", pb_bvh_show(&extra, q));
    *ft = v;
    return PB_OK;
}

/* Pass 1 over the rows: count complete rows without converting anything.
 * A row is one line. Every row must hold exactly nchannels values, except
 * that a short final row (a file cut off mid-write) is dropped with a
 * warning. *rows is bounded by the bytes present, and checked against the
 * limits here, so the caller may allocate from it. */
static pb_status count_rows(parser *ps, size_t *rows)
{
    size_t n = 0;
    size_t per_row_limit = ps->opt->max_elements / ps->njoints;
    for (;;) {
        pb_bvh_skip_space(ps, 1);
        if (ps->pos >= ps->size) break;
        size_t line = ps->line, values = 0, row_start = ps->pos;
        while (pb_bvh_next_token_ex(ps, 0).p) values++;
        if (values < ps->nchannels) {
            pb_bvh_skip_space(ps, 1);
            if (ps->pos >= ps->size) {   /* nothing follows: the file was cut off mid-row */
                /* Only numbers make a cut-off row; a trailing word is garbage. */
                size_t end = ps->pos;
                ps->pos = row_start;
                ps->line = line;
                for (size_t v = 0; v < values; v++) {
                    char q[SHOW_MAX + 8];
                    double d;
                    token t = pb_bvh_next_token_ex(ps, 0);
                    int r = pb_bvh_parse_number(&t, &d);
                    if (r != NUM_OK)
                        return pb_bvh_perr(ps, line, "expected a number%s (motion row %zu, value %zu), found %s",
                                    r == NUM_RANGE ? " within float range" : "", n + 1, v + 1, pb_bvh_show(&t, q));
                }
                ps->pos = end;
                *rows = n;
                return pb_bvh_pwarn(ps, line, "dropping it", "last motion row has %zu of %zu values (file cut off?)",
                             values, ps->nchannels);
            }
        }
        if (values != ps->nchannels)
            return pb_bvh_perr(ps, line, "motion row %zu has %zu values, expected %zu (one per channel in HIERARCHY)", n + 1,
                        values, ps->nchannels);
        n++;
        if (n > ps->opt->max_frames)
            return pb_bvh_perr(ps, line, "more than %zu motion rows (limit: pb_bvh_options.max_frames)", ps->opt->max_frames);
        if (n > per_row_limit)
            return pb_bvh_perr(ps, line, "%zu rows x %zu joints is more than the limit of %zu keys (frames x joints) "
                        "a clip may hold (pb_bvh_options.max_elements)", n, ps->njoints, ps->opt->max_elements);
    }
    *rows = n;
    return PB_OK;
}

/* q = q * (rotation of angle a about one axis), in double. */
static void quat_mul_axis(double q[4], int axis, double a)
{
    double c = cos(a * 0.5), s = sin(a * 0.5);
    double b[4] = { c, 0, 0, 0 };
    b[1 + axis] = s;
    double r[4] = {
        q[0] * b[0] - q[1] * b[1] - q[2] * b[2] - q[3] * b[3],
        q[0] * b[1] + q[1] * b[0] + q[2] * b[3] - q[3] * b[2],
        q[0] * b[2] - q[1] * b[3] + q[2] * b[0] + q[3] * b[1],
        q[0] * b[3] + q[1] * b[2] - q[2] * b[1] + q[3] * b[0],
    };
    memcpy(q, r, sizeof r);
}

/* Pass 2: convert rows into the pose. The shape was checked by count_rows,
 * so only the numbers themselves can fail here. */
static pb_status fill_rows(parser *ps, size_t rows, double *vals, pb_pose *pose)
{
    char q[SHOW_MAX + 8];
    size_t J = ps->njoints;
    double scale = ps->opt->unit_scale;
    for (size_t r = 0; r < rows; r++) {
        size_t row_line = 0;
        for (size_t c = 0; c < ps->nchannels; c++) {
            token t = pb_bvh_next_token(ps);
            row_line = t.line;
            int res = pb_bvh_parse_number(&t, &vals[c]);
            if (res != NUM_OK)
                return pb_bvh_perr(ps, t.line, "expected a number%s (motion row %zu, value %zu), found %s",
                            res == NUM_RANGE ? " within float range" : "", r + 1, c + 1, pb_bvh_show(&t, q));
        }
        for (size_t j = 0; j < J; j++) {
            const joint_def *jd = &ps->joints[j];
            size_t i = r * J + j;
            double pos[3] = { jd->offset[0], jd->offset[1], jd->offset[2] };
            double rot[4] = { 1, 0, 0, 0 };
            for (int k = 0; k < jd->nchan; k++) {
                double v = vals[jd->first_chan + (size_t)k];
                int ch = jd->chan[k];
                if (ch <= CH_ZPOS) {
                    pos[ch] = v * scale;
                    if (!(fabs(pos[ch]) <= PB_BVH_MAX_POSITION))
                        return pb_bvh_perr(ps, row_line, "%s of joint '%s' in motion row %zu is %g (%g after unit_scale "
                                    "%g), expected at most %g in magnitude after unit_scale (PB_BVH_MAX_POSITION: keeps "
                                    "forward kinematics finite)", channel_name[ch], jd->name, r + 1, v, pos[ch], scale,
                                    PB_BVH_MAX_POSITION);
                } else {
                    if (!(fabs(v) <= PB_BVH_MAX_ANGLE))
                        return pb_bvh_perr(ps, row_line, "%s of joint '%s' in motion row %zu is %g degrees, expected at "
                                    "most %g in magnitude (PB_BVH_MAX_ANGLE)", channel_name[ch], jd->name, r + 1, v,
                                    PB_BVH_MAX_ANGLE);
                    /* Listed order, intrinsic: R = R1 * R2 * R3 on column vectors. */
                    quat_mul_axis(rot, ch - CH_XROT, v * deg_to_rad);
                }
            }
            double norm = sqrt(rot[0] * rot[0] + rot[1] * rot[1] + rot[2] * rot[2] + rot[3] * rot[3]);
            for (int k = 0; k < 3; k++) pose->plane[PB_POS_X + k][i] = (float)pos[k];
            for (int k = 0; k < 4; k++) pose->plane[PB_ROT_W + k][i] = (float)(rot[k] / norm);
        }
    }
    return PB_OK;
}

static pb_status parse_motion(parser *ps, pb_clip *clip)
{
    size_t header_frames = 0, header_line = 0;
    double ft = 1;
    pb_status s = pb_bvh_expect_label(ps, "Frames", "Frames:");
    if (s == PB_OK) s = read_frame_count(ps, &header_frames, &header_line);
    if (s == PB_OK) s = read_frame_time(ps, &ft);
    if (s != PB_OK) return s;

    size_t start = ps->pos, start_line = ps->line, rows = 0;
    s = count_rows(ps, &rows);
    if (s != PB_OK) return s;
    if (rows == 0)
        return pb_bvh_perr(ps, header_line, "no complete motion rows (header says Frames: %zu); expected at least one row of %zu values",
                    header_frames, ps->nchannels);
    if (header_frames != rows) {
        s = pb_bvh_pwarn(ps, header_line, "using the rows present", "header says Frames: %zu but %zu complete motion rows follow",
                  header_frames, rows);
        if (s != PB_OK) return s;
    }

    double *vals = malloc(ps->nchannels * sizeof *vals);
    if (!vals) return pb_fail(PB_ERR_NOMEM, "%s: out of memory for a row of %zu values", ps->name, ps->nchannels);
    /* fps is finite and > 0: read_frame_time checked ft's range. */
    s = pb_clip_alloc(clip, rows, ps->njoints, (float)(1.0 / ft));
    if (s != PB_OK) {
        char why[256];
        snprintf(why, sizeof why, "%s", pb_last_error());
        free(vals);
        return pb_fail(s, "%s: cannot allocate the clip (%zu frames x %zu joints): %s", ps->name, rows, ps->njoints, why);
    }
    clip->frame_time = (float)ft;   /* as in the file, not 1 / (float)fps */
    clip->warnings = ps->warnings;
    ps->pos = start;
    ps->line = start_line;
    s = fill_rows(ps, rows, vals, &clip->pose);
    free(vals);
    return s;
}

/* ---- Skeleton ------------------------------------------------------------------------------ */

static pb_status build_skeleton(const parser *ps, pb_bvh_skeleton *sk)
{
    size_t J = ps->njoints, E = ps->nends;
    sk->names = malloc(J * sizeof *sk->names);
    sk->parents = malloc(J * sizeof *sk->parents);
    sk->offsets = malloc(J * sizeof *sk->offsets);
    if (E) {
        sk->end_parents = malloc(E * sizeof *sk->end_parents);
        sk->end_offsets = malloc(E * sizeof *sk->end_offsets);
    }
    if (!sk->names || !sk->parents || !sk->offsets || (E && (!sk->end_parents || !sk->end_offsets)))
        return pb_fail(PB_ERR_NOMEM, "%s: out of memory for a skeleton of %zu joints", ps->name, J);
    for (size_t j = 0; j < J; j++) {
        memcpy(sk->names[j], ps->joints[j].name, PB_BVH_NAME_MAX);
        sk->parents[j] = ps->joints[j].parent;
        memcpy(sk->offsets[j], ps->joints[j].offset, sizeof sk->offsets[j]);
    }
    for (size_t e = 0; e < E; e++) {
        sk->end_parents[e] = ps->ends[e].parent;
        memcpy(sk->end_offsets[e], ps->ends[e].offset, sizeof sk->end_offsets[e]);
    }
    sk->joints = J;
    sk->end_sites = E;
    return PB_OK;
}

/* ---- Entry points ----------------------------------------------------------------------------- */

pb_bvh_options pb_bvh_default_options(void)
{
    pb_bvh_options o;
    memset(&o, 0, sizeof o);
    o.unit_scale = 1.0f;
    o.strict = 0;
    o.max_joints = 1024;
    o.max_frames = 10000000;
    o.max_elements = PB_BVH_DEFAULT_MAX_KEYS;
    o.max_bytes = PB_BVH_DEFAULT_MAX_BYTES;
    o.max_depth = 64;
    o.warn = NULL;
    o.user = NULL;
    return o;
}

pb_status pb_bvh_options_check(const pb_bvh_options *o)
{
    if (!o) return PB_OK;
    if (!isfinite(o->unit_scale) || !(o->unit_scale > 0))
        return pb_fail(PB_ERR_PARAM, "pb_bvh_options: unit_scale = %g, expected a finite value > 0", (double)o->unit_scale);
    if (o->max_joints == 0 || o->max_joints > INT32_MAX)
        return pb_fail(PB_ERR_PARAM, "pb_bvh_options: max_joints = %zu, expected 1..%ld", o->max_joints, (long)INT32_MAX);
    if (o->max_frames == 0) return pb_fail(PB_ERR_PARAM, "pb_bvh_options: max_frames = 0, expected >= 1");
    if (o->max_elements == 0) return pb_fail(PB_ERR_PARAM, "pb_bvh_options: max_elements = 0, expected >= 1");
    if (o->max_bytes == 0) return pb_fail(PB_ERR_PARAM, "pb_bvh_options: max_bytes = 0, expected >= 1");
    if (o->max_depth == 0 || o->max_depth > MAX_DEPTH_CAP)
        return pb_fail(PB_ERR_PARAM, "pb_bvh_options: max_depth = %zu, expected 1..%d", o->max_depth, MAX_DEPTH_CAP);
    return PB_OK;
}

void pb_bvh_skeleton_free(pb_bvh_skeleton *sk)
{
    if (!sk) return;
    free(sk->names);
    free(sk->parents);
    free(sk->offsets);
    free(sk->end_parents);
    free(sk->end_offsets);
    memset(sk, 0, sizeof *sk);
}

/* A control byte cannot be part of a BVH file; rejecting them up front
 * keeps NULs and escape sequences out of names and messages. */
static pb_status check_bytes(parser *ps)
{
    size_t line = 1;
    for (size_t i = 0; i < ps->size; i++) {
        unsigned char c = (unsigned char)ps->buf[i];
        if (c == '\n' || (c == '\r' && (i + 1 >= ps->size || ps->buf[i + 1] != '\n'))) line++;
        else if ((c < 0x20 && !pb_bvh_is_space(c)) || c == 0x7f)
            return pb_bvh_perr(ps, line, "unexpected control byte 0x%02x; expected text", c);
    }
    return PB_OK;
}

static pb_status load(const char *buf, size_t size, const char *name, const pb_bvh_options *opt, pb_bvh_skeleton *skel,
                      pb_clip *clip)
{
    pb_bvh_options defaults = pb_bvh_default_options();
    parser ps;
    memset(&ps, 0, sizeof ps);
    ps.buf = buf;
    ps.size = size;
    ps.line = 1;
    ps.name = name;
    ps.opt = opt ? opt : &defaults;

    pb_status s = check_bytes(&ps);
    if (s == PB_OK) s = parse_hierarchy(&ps);
    if (s == PB_OK) s = parse_motion(&ps, clip);
    if (s == PB_OK) s = build_skeleton(&ps, skel);
    free(ps.joints);
    free(ps.ends);
    if (s != PB_OK) {
        pb_bvh_skeleton_free(skel);
        pb_clip_free(clip);
    }
    return s;
}

/* Validate the arguments shared by both entry points and zero the outputs. */
static pb_status check_args(const char *fn, const pb_bvh_options *opt, pb_bvh_skeleton *skel, pb_clip *clip)
{
    if (skel) memset(skel, 0, sizeof *skel);
    if (clip) memset(clip, 0, sizeof *clip);
    if (!skel) return pb_fail(PB_ERR_NULL, "%s: skel is NULL", fn);
    if (!clip) return pb_fail(PB_ERR_NULL, "%s: clip is NULL", fn);
    return pb_bvh_options_check(opt);
}

pb_status pb_bvh_load_mem(const void *data, size_t size, const char *name, const pb_bvh_options *opt,
                          pb_bvh_skeleton *skel, pb_clip *clip)
{
    pb_status s = check_args("pb_bvh_load_mem", opt, skel, clip);
    if (s != PB_OK) return s;
    if (!data && size > 0) return pb_fail(PB_ERR_NULL, "pb_bvh_load_mem: data is NULL but size = %zu", size);
    size_t max_bytes = opt ? opt->max_bytes : PB_BVH_DEFAULT_MAX_BYTES;
    if (size > max_bytes)
        return pb_fail(PB_ERR_SIZE, "%s: %zu bytes, more than the limit of %zu bytes for a BVH file "
                       "(pb_bvh_options.max_bytes)", name ? name : "<memory>", size, max_bytes);
    return load(data ? data : "", size, name ? name : "<memory>", opt, skel, clip);
}

pb_status pb_bvh_load(const char *path, const pb_bvh_options *opt, pb_bvh_skeleton *skel, pb_clip *clip)
{
    pb_status s = check_args("pb_bvh_load", opt, skel, clip);
    if (s != PB_OK) return s;
    if (!path) return pb_fail(PB_ERR_NULL, "pb_bvh_load: path is NULL");
    char *buf;
    size_t size;
    /* a regular file only (a FIFO would block), at most max_bytes: src/file.c */
    s = pb_file_read(path, opt ? opt->max_bytes : PB_BVH_DEFAULT_MAX_BYTES, "BVH file", &buf, &size);
    if (s != PB_OK) return s;
    s = load(buf, size, path, opt, skel, clip);
    free(buf);
    return s;
}
