/* asset_gltf.h — a small glTF 2 character written by the tests (test_asset.c,
 * test_asset_bad.c): a chain of GL_JOINTS joints with translations and a
 * rotation, a column of GL_VERTS vertices skinned through JOINTS_0/WEIGHTS_0
 * and JOINTS_1/WEIGHTS_1 (up to 8 influences: some vertices have 6), the
 * inverse bind matrices of its rest pose, and one animation of two samplers
 * (a rotation of joint 2, a translation of joint 0) at 0, 0.5 and 1 s. The
 * buffer is one base64 data URI, so the file stands alone (and imports from
 * memory). gl_char holds every number, so a test knows the answers and can
 * break one of them (a NaN weight, a singular matrix) before writing. */
#ifndef TEST_ASSET_GLTF_H
#define TEST_ASSET_GLTF_H
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GL_JOINTS 8   /* as many as a vertex's JOINTS_0 and JOINTS_1 can name: 8 distinct influences */
#define GL_VERTS 16
#define GL_KEYS 3

typedef struct gl_char {
    float t[GL_JOINTS][3];            /* rest translation of each joint (parent: the previous one) */
    float r[GL_JOINTS][4];            /* rest rotation, glTF order x y z w */
    float ib[GL_JOINTS][16];          /* inverse bind, column-major as glTF stores it */
    float pos[GL_VERTS][3], nrm[GL_VERTS][3];
    unsigned short jt[GL_VERTS][8];   /* JOINTS_0 then JOINTS_1 */
    float w[GL_VERTS][8];             /* WEIGHTS_0 then WEIGHTS_1 */
    float times[GL_KEYS];
    float rot_keys[GL_KEYS][4];       /* joint 2, x y z w */
    float tr_keys[GL_KEYS][3];        /* joint 0 */
    int no_skin, no_mesh, no_anim;    /* leave the skin / the mesh / the animation out */
    int no_ibm;                       /* the skin without inverseBindMatrices (the identity, by the spec) */
} gl_char;

/* Row-major 4x4 of a translation and a rotation (x y z w). */
static void gl_trs(const float t[3], const float q[4], double m[16])
{
    double x = q[0], y = q[1], z = q[2], w = q[3];
    double r[9] = { 1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w),
                    2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w),
                    2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y) };
    memset(m, 0, 16 * sizeof *m);
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) m[i * 4 + j] = r[i * 3 + j];
        m[i * 4 + 3] = t[i];
    }
    m[15] = 1;
}

static void gl_mul(const double a[16], const double b[16], double o[16])
{
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            double s = 0;
            for (int k = 0; k < 4; k++) s += a[i * 4 + k] * b[k * 4 + j];
            o[i * 4 + j] = s;
        }
}

/* Inverse of a rigid row-major transform. */
static void gl_rigid_inv(const double m[16], double o[16])
{
    memset(o, 0, 16 * sizeof *o);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) o[i * 4 + j] = m[j * 4 + i];
    for (int i = 0; i < 3; i++) o[i * 4 + 3] = -(o[i * 4 + 0] * m[3] + o[i * 4 + 1] * m[7] + o[i * 4 + 2] * m[11]);
    o[15] = 1;
}

/* Weights of vertex v: 6 influences on every fourth vertex, else 2 near its joint. */
static const float gl_six[6] = { 0.30f, 0.24f, 0.18f, 0.13f, 0.09f, 0.06f };

static void gl_default(gl_char *c)
{
    memset(c, 0, sizeof *c);
    for (int j = 0; j < GL_JOINTS; j++) {
        c->t[j][0] = j == 0 ? 0.0f : 0.05f * (float)(j % 2), c->t[j][1] = j == 0 ? 0.0f : 0.4f, c->t[j][2] = 0;
        c->r[j][3] = 1;
        if (j == 2) c->r[j][2] = sinf(0.25f), c->r[j][3] = cosf(0.25f);   /* 0.5 rad about z */
    }
    double g[16], l[16], tmp[16], inv[16];
    for (int j = 0; j < GL_JOINTS; j++) {
        gl_trs(c->t[j], c->r[j], l);
        if (j == 0) memcpy(g, l, sizeof g);
        else gl_mul(g, l, tmp), memcpy(g, tmp, sizeof g);
        gl_rigid_inv(g, inv);
        for (int r = 0; r < 4; r++)
            for (int k = 0; k < 4; k++) c->ib[j][k * 4 + r] = (float)inv[r * 4 + k];   /* column-major */
    }
    for (int v = 0; v < GL_VERTS; v++) {
        float side = v % 2 ? 1.0f : -1.0f;
        c->pos[v][0] = 0.1f * side, c->pos[v][1] = 0.13f * (float)(v / 2), c->pos[v][2] = 0.01f * (float)v;
        c->nrm[v][0] = side;
        int j0 = (v / 2) * (GL_JOINTS - 1) / (GL_VERTS / 2 - 1);
        if (v % 4 == 1) {
            for (int k = 0; k < 6; k++) c->jt[v][k] = (unsigned short)((j0 + k) % GL_JOINTS), c->w[v][k] = gl_six[k];
        } else {
            c->jt[v][0] = (unsigned short)j0, c->w[v][0] = 0.75f;
            c->jt[v][1] = (unsigned short)((j0 + 1) % GL_JOINTS), c->w[v][1] = 0.25f;
        }
    }
    for (int k = 0; k < GL_KEYS; k++) {
        float a = 0.3f * (float)k;
        c->times[k] = 0.5f * (float)k;
        c->rot_keys[k][0] = sinf(a), c->rot_keys[k][3] = cosf(a);   /* 2a about x */
        c->tr_keys[k][0] = 0.1f * (float)(k * k);
    }
}

static void gl_b64(FILE *f, const unsigned char *p, size_t n)
{
    static const char t[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (size_t i = 0; i < n; i += 3) {
        unsigned v = (unsigned)p[i] << 16 | (i + 1 < n ? (unsigned)p[i + 1] << 8 : 0) | (i + 2 < n ? p[i + 2] : 0);
        fputc(t[v >> 18 & 63], f), fputc(t[v >> 12 & 63], f);
        fputc(i + 1 < n ? t[v >> 6 & 63] : '=', f), fputc(i + 2 < n ? t[v & 63] : '=', f);
    }
}

/* Write c as a .gltf at path: 1 on success. */
static int gl_write(const gl_char *c, const char *path)
{
    /* buffer: positions, normals, joints0, joints1, weights0, weights1, indices, ib, times, rot keys, tr keys */
    enum { NTRI = (GL_VERTS / 2 - 1) * 2 };
    unsigned short idx[NTRI * 3], j0[GL_VERTS][4], j1[GL_VERTS][4];
    float w0[GL_VERTS][4], w1[GL_VERTS][4];
    for (int q = 0; q < GL_VERTS / 2 - 1; q++) {
        unsigned short a = (unsigned short)(2 * q);
        unsigned short t6[6] = { a, (unsigned short)(a + 1), (unsigned short)(a + 3), a, (unsigned short)(a + 3),
                                 (unsigned short)(a + 2) };
        memcpy(idx + 6 * q, t6, sizeof t6);
    }
    for (int v = 0; v < GL_VERTS; v++)
        for (int k = 0; k < 4; k++) j0[v][k] = c->jt[v][k], j1[v][k] = c->jt[v][k + 4], w0[v][k] = c->w[v][k],
                                    w1[v][k] = c->w[v][k + 4];
    struct { const void *p; size_t n; } part[] = {
        { c->pos, sizeof c->pos }, { c->nrm, sizeof c->nrm }, { j0, sizeof j0 }, { j1, sizeof j1 }, { w0, sizeof w0 },
        { w1, sizeof w1 }, { idx, sizeof idx }, { c->ib, sizeof c->ib }, { c->times, sizeof c->times },
        { c->rot_keys, sizeof c->rot_keys }, { c->tr_keys, sizeof c->tr_keys },
    };
    enum { NPART = 11 };
    size_t off[NPART + 1] = { 0 };
    for (int i = 0; i < NPART; i++) off[i + 1] = off[i] + (part[i].n + 3) / 4 * 4;
    unsigned char *buf = calloc(1, off[NPART]);
    if (!buf) return 0;
    for (int i = 0; i < NPART; i++) memcpy(buf + off[i], part[i].p, part[i].n);
    FILE *f = fopen(path, "w");
    if (!f) return free(buf), 0;
    char body[16] = "";
    if (!c->no_mesh) snprintf(body, sizeof body, ",%d", GL_JOINTS);   /* the mesh's node follows the joints */
    fprintf(f, "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0%s]}],\"nodes\":[", body);
    for (int j = 0; j < GL_JOINTS; j++) {
        fprintf(f, "{\"name\":\"j%d\",\"translation\":[%.9g,%.9g,%.9g],\"rotation\":[%.9g,%.9g,%.9g,%.9g]", j,
                c->t[j][0], c->t[j][1], c->t[j][2], c->r[j][0], c->r[j][1], c->r[j][2], c->r[j][3]);
        if (j + 1 < GL_JOINTS) fprintf(f, ",\"children\":[%d]", j + 1);
        fprintf(f, "},");
    }
    fprintf(f, "{\"name\":\"body\"%s%s}],", c->no_mesh ? "" : ",\"mesh\":0", c->no_mesh || c->no_skin ? "" : ",\"skin\":0");
    fprintf(f, "\"buffers\":[{\"byteLength\":%zu,\"uri\":\"data:application/octet-stream;base64,", off[NPART]);
    gl_b64(f, buf, off[NPART]);
    fprintf(f, "\"}],\"bufferViews\":[");
    for (int i = 0; i < NPART; i++)
        fprintf(f, "%s{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu}", i ? "," : "", off[i], part[i].n);
    fprintf(f, "],\"accessors\":["
            "{\"bufferView\":0,\"componentType\":5126,\"count\":%d,\"type\":\"VEC3\",\"min\":[-1,-1,-1],\"max\":[1,2,1]},"
            "{\"bufferView\":1,\"componentType\":5126,\"count\":%d,\"type\":\"VEC3\"},"
            "{\"bufferView\":2,\"componentType\":5123,\"count\":%d,\"type\":\"VEC4\"},"
            "{\"bufferView\":3,\"componentType\":5123,\"count\":%d,\"type\":\"VEC4\"},"
            "{\"bufferView\":4,\"componentType\":5126,\"count\":%d,\"type\":\"VEC4\"},"
            "{\"bufferView\":5,\"componentType\":5126,\"count\":%d,\"type\":\"VEC4\"},"
            "{\"bufferView\":6,\"componentType\":5123,\"count\":%d,\"type\":\"SCALAR\"},"
            "{\"bufferView\":7,\"componentType\":5126,\"count\":%d,\"type\":\"MAT4\"},"
            "{\"bufferView\":8,\"componentType\":5126,\"count\":%d,\"type\":\"SCALAR\",\"min\":[%g],\"max\":[%g]},"
            "{\"bufferView\":9,\"componentType\":5126,\"count\":%d,\"type\":\"VEC4\"},"
            "{\"bufferView\":10,\"componentType\":5126,\"count\":%d,\"type\":\"VEC3\"}],",
            GL_VERTS, GL_VERTS, GL_VERTS, GL_VERTS, GL_VERTS, GL_VERTS, NTRI * 3, GL_JOINTS, GL_KEYS,
            (double)c->times[0], (double)c->times[GL_KEYS - 1], GL_KEYS, GL_KEYS);
    if (!c->no_mesh)
        fprintf(f, "\"meshes\":[{\"name\":\"body\",\"primitives\":[{\"attributes\":{\"POSITION\":0,\"NORMAL\":1%s},"
                "\"indices\":6}]}],", c->no_skin ? "" : ",\"JOINTS_0\":2,\"JOINTS_1\":3,\"WEIGHTS_0\":4,\"WEIGHTS_1\":5");
    if (!c->no_skin && !c->no_mesh) {
        fprintf(f, "\"skins\":[{%s\"skeleton\":0,\"joints\":[", c->no_ibm ? "" : "\"inverseBindMatrices\":7,");
        for (int j = 0; j < GL_JOINTS; j++) fprintf(f, "%s%d", j ? "," : "", j);
        fprintf(f, "]}],");
    }
    if (!c->no_anim)
        fprintf(f, "\"animations\":[{\"name\":\"wave\",\"samplers\":[{\"input\":8,\"output\":9,\"interpolation\":\"LINEAR\"},"
                "{\"input\":8,\"output\":10,\"interpolation\":\"LINEAR\"}],\"channels\":["
                "{\"sampler\":0,\"target\":{\"node\":2,\"path\":\"rotation\"}},"
                "{\"sampler\":1,\"target\":{\"node\":0,\"path\":\"translation\"}}]}],");
    fprintf(f, "\"extras\":{}}\n");
    free(buf);
    return fclose(f) == 0;
}
#endif
