/* Shared helpers of the end-to-end sample checks (tests/run/check_<name>.c).
 *
 * Each check driver includes the headers that imcl generated for two backends side
 * by side -- "c/<K>.h" (--prefix ref_) and "opencl/<K>.h" (--prefix ocl_), or, when
 * compiled with -DCHECK_CUDA, "cuda/<K>.h" (--prefix cuda_) -- runs both wrappers on
 * the same deterministic inputs, computes the expected result itself in plain C (the
 * oracle, independent of imcl) and compares element by element.
 *
 * Tolerances (also documented in docs/testing.md), with e the oracle's value and g
 * the value a backend produced, a point matches when |g - e| <= max(rtol*|e|, atol):
 *   integer types: exact (rtol = atol = 0);
 *   float:  rtol 1e-5,  atol 1e-6;
 *   double: rtol 1e-12, atol 1e-12.
 * NaN never matches. The float samples use inputs that are multiples of 1/256 (and
 * weights that are multiples of 1/64), so every sum and product is exact in float
 * whatever the evaluation order or FMA contraction; only the final rounding of
 * functions such as sqrt is left to the tolerance.
 *
 * Other checks done with these helpers: output buffers are prefilled with all-ones
 * bytes (NaN for float/double, -1 for int), so a point a wrapper forgets to write is
 * reported; every buffer handed to a wrapper has guard bytes on both sides that must
 * be unchanged afterwards (out-of-bounds writes); read-only inputs must be unchanged;
 * a NULL array (and, for life, grid arrays of different extents) must be refused
 * with PK_ERR_ARGUMENT (-1).
 */
#ifndef CHECK_COMMON_H
#define CHECK_COMMON_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK_FLOAT_RTOL 1e-5
#define CHECK_FLOAT_ATOL 1e-6
#define CHECK_DOUBLE_RTOL 1e-12
#define CHECK_DOUBLE_ATOL 1e-12
#define CHECK_MAX_REPORT 5
#define CHECK_GUARD 64 /* guard bytes on each side of a buffer */

/* The second backend under test: OpenCL by default, CUDA with -DCHECK_CUDA; with
 * -DCHECK_REF_ONLY the C reference again (tests/lang's run of PK_rows, whose shims
 * stand in for the C reference's PK: the device backends have no PK_rows). */
#ifdef CHECK_REF_ONLY
#define CHECK_DEV_NAME "c (again)"
#define CHECK_DEV_CALL(K) ref_##K
#define CHECK_DEV_STRERROR(K) ref_##K##_strerror
#define CHECK_DEV_RELEASE(K) ref_##K##_release
#elif defined(CHECK_CUDA)
#define CHECK_DEV_NAME "cuda"
#define CHECK_DEV_CALL(K) cuda_##K
#define CHECK_DEV_STRERROR(K) cuda_##K##_strerror
#define CHECK_DEV_RELEASE(K) cuda_##K##_release
#else
#define CHECK_DEV_NAME "opencl"
#define CHECK_DEV_CALL(K) ocl_##K
#define CHECK_DEV_STRERROR(K) ocl_##K##_strerror
#define CHECK_DEV_RELEASE(K) ocl_##K##_release
#endif

/* Call kernel K's wrapper of backend b (0 = C reference, 1 = device backend). */
#define CHECK_CALL(b, K, ...) ((b) == 0 ? ref_##K(__VA_ARGS__) : CHECK_DEV_CALL(K)(__VA_ARGS__))
#define CHECK_STRERROR(b, K, rc) ((b) == 0 ? ref_##K##_strerror(rc) : CHECK_DEV_STRERROR(K)(rc))

/* ---- deterministic inputs -------------------------------------------------- */

typedef struct {
    uint64_t s;
} Lcg;

static inline void lcg_seed(Lcg *g, uint64_t seed) { g->s = seed * 2862933555777941757ULL + 3037000493ULL; }

static inline uint32_t lcg_next(Lcg *g)
{
    g->s = g->s * 6364136223846793005ULL + 1442695040888963407ULL; /* Knuth's MMIX LCG */
    return (uint32_t)(g->s >> 32);
}

/* Uniform in [0, 1), 32 random bits. */
static inline double lcg_unit(Lcg *g) { return lcg_next(g) / 4294967296.0; }

/* A multiple of 1/2^bits in [0, 1): exactly representable, sums stay exact. */
static inline float lcg_quantized(Lcg *g, int bits) { return (float)(lcg_next(g) >> (32 - bits)) / (float)(1u << bits); }

/* 0 or 1, with probability about p of 1. */
static inline int lcg_bit(Lcg *g, double p) { return lcg_unit(g) < p ? 1 : 0; }

/* ---- problem sizes ------------------------------------------------------------ */

/* Sizes come from argv[1..n] (all of them or none); defaults otherwise. Numeric
 * arguments are the sizes; anything else is a usage error (exit 2). */
static inline void check_sizes(const char *name, int argc, char **argv, int n, int *ext)
{
    if (argc == 1) return;
    if (argc != n + 1) {
        fprintf(stderr, "usage: check_%s%s\n", name, n == 2 ? " [WIDTH HEIGHT]" : " [WIDTH HEIGHT DEPTH]");
        exit(2);
    }
    for (int i = 0; i < n; i++) {
        char *end;
        long v = strtol(argv[i + 1], &end, 10);
        if (*end || v < 1 || v > 4096) {
            fprintf(stderr, "check %s: bad size '%s' (expected an integer 1..4096)\n", name, argv[i + 1]);
            exit(2);
        }
        ext[i] = (int)v;
    }
}

/* ---- guarded buffers -------------------------------------------------------- */

/* A buffer of `bytes` bytes with CHECK_GUARD guard bytes (0xA5) on each side. */
static inline void *gbuf_alloc(size_t bytes)
{
    unsigned char *p = malloc(bytes + 2 * CHECK_GUARD);
    if (!p) {
        fprintf(stderr, "check: out of host memory\n");
        exit(1);
    }
    memset(p, 0xA5, CHECK_GUARD);
    memset(p + CHECK_GUARD + bytes, 0xA5, CHECK_GUARD);
    return p + CHECK_GUARD;
}

static inline void gbuf_free(void *buf)
{
    if (buf) free((unsigned char *)buf - CHECK_GUARD);
}

/* 1 when both guards of a buffer of `bytes` bytes are intact. */
static inline int gbuf_guards_ok(const void *buf, size_t bytes)
{
    const unsigned char *p = (const unsigned char *)buf;
    for (size_t i = 0; i < CHECK_GUARD; i++)
        if (p[-1 - (long)i] != 0xA5 || p[bytes + i] != 0xA5) return 0;
    return 1;
}

/* ---- comparison ------------------------------------------------------------- */

/* Extents of the compared storage and the ghost-layer width, for messages:
 * element i is point (x, y, z) of storage; coordinates are reported relative to the
 * interior (so ghost cells show as -1 or extent). */
typedef struct {
    int w, h, d; /* storage extents (d = 1 for an Image) */
    int halo;
    int ndim;
} Shape;

typedef struct {
    long bad;       /* mismatching points */
    double max_rel; /* max |g-e| / max(|e|, atol) over all points */
} Cmp;

static inline void shape_coords(const Shape *s, long i, char *out, size_t n)
{
    long x = i % s->w, y = (i / s->w) % s->h, z = i / ((long)s->w * s->h);
    if (s->ndim == 2)
        snprintf(out, n, "[%ld][%ld]", x - s->halo, y - s->halo);
    else
        snprintf(out, n, "[%ld][%ld][%ld]", x - s->halo, y - s->halo, z - s->halo);
}

static inline long shape_count(const Shape *s) { return (long)s->w * s->h * s->d; }

static inline void cmp_note(Cmp *c, const char *what, const Shape *s, long i, const char *gs, const char *es)
{
    if (c->bad < CHECK_MAX_REPORT) {
        char at[64];
        shape_coords(s, i, at, sizeof at);
        fprintf(stderr, "  %s: mismatch at %s (element %ld): got %s, expected %s\n", what, at, i, gs, es);
    }
    c->bad++;
}

static inline Cmp cmp_int(const char *what, const int *got, const int *exp, const Shape *s)
{
    Cmp c = {0, 0.0};
    for (long i = 0; i < shape_count(s); i++) {
        if (got[i] != exp[i]) {
            char gs[32], es[32];
            snprintf(gs, sizeof gs, "%d", got[i]);
            snprintf(es, sizeof es, "%d", exp[i]);
            cmp_note(&c, what, s, i, gs, es);
            c.max_rel = INFINITY;
        }
    }
    return c;
}

static inline Cmp cmp_real(const char *what, const void *gotp, const double *exp, const Shape *s, int is_float)
{
    Cmp c = {0, 0.0};
    double rtol = is_float ? CHECK_FLOAT_RTOL : CHECK_DOUBLE_RTOL;
    double atol = is_float ? CHECK_FLOAT_ATOL : CHECK_DOUBLE_ATOL;
    for (long i = 0; i < shape_count(s); i++) {
        double g = is_float ? (double)((const float *)gotp)[i] : ((const double *)gotp)[i];
        double e = exp[i];
        double err = fabs(g - e);
        double scale = fabs(e) > atol ? fabs(e) : atol;
        double rel = err / scale;
        if (!(err <= (rtol * fabs(e) > atol ? rtol * fabs(e) : atol))) { /* NaN fails too */
            char gs[40], es[40];
            snprintf(gs, sizeof gs, "%.17g", g);
            snprintf(es, sizeof es, "%.17g", e);
            cmp_note(&c, what, s, i, gs, es);
            rel = INFINITY;
        }
        if (!(rel <= c.max_rel)) c.max_rel = rel;
    }
    return c;
}

static inline Cmp cmp_float(const char *what, const float *got, const double *exp, const Shape *s)
{
    return cmp_real(what, got, exp, s, 1);
}

static inline Cmp cmp_double(const char *what, const double *got, const double *exp, const Shape *s)
{
    return cmp_real(what, got, exp, s, 0);
}

/* ---- reporting ---------------------------------------------------------------- */

/* Per-backend outcome: a driver calls check_rc, check_guards, check_unchanged and
 * check_cmp for each backend, then check_finish. */
typedef struct {
    const char *sample;
    int failed[2]; /* [0] = c reference, [1] = device backend */
    double max_rel;
    long points;
} Report;

static const char *const check_backend_name[2] = {"c", CHECK_DEV_NAME};

static inline int check_rc(Report *r, int b, int rc, const char *msg)
{
    if (rc != 0) {
        fprintf(stderr, "check %s: %s wrapper returned %d (%s), expected 0\n", r->sample, check_backend_name[b], rc,
                msg ? msg : "(null strerror)");
        r->failed[b] = 1;
        return 0;
    }
    return 1;
}

/* A call that must be refused with code `want` (e.g. -1, PK_ERR_ARGUMENT). */
static inline void check_refused(Report *r, int b, int rc, int want, const char *what)
{
    if (rc != want) {
        fprintf(stderr, "check %s: %s wrapper returned %d for %s, expected %d\n", r->sample, check_backend_name[b], rc,
                what, want);
        r->failed[b] = 1;
    }
}

static inline void check_guards(Report *r, int b, const char *array, const void *buf, size_t bytes)
{
    if (!gbuf_guards_ok(buf, bytes)) {
        fprintf(stderr, "check %s: %s wrapper wrote outside the buffer of '%s'\n", r->sample, check_backend_name[b],
                array);
        r->failed[b] = 1;
    }
}

static inline void check_unchanged(Report *r, int b, const char *array, const void *buf, const void *orig, size_t bytes)
{
    if (memcmp(buf, orig, bytes) != 0) {
        fprintf(stderr, "check %s: %s wrapper modified read-only input '%s'\n", r->sample, check_backend_name[b],
                array);
        r->failed[b] = 1;
    }
}

static inline void check_cmp(Report *r, int b, const char *array, Cmp c)
{
    if (c.bad) {
        fprintf(stderr, "check %s: %s: %ld points of '%s' differ from the oracle\n", r->sample,
                check_backend_name[b], c.bad, array);
        r->failed[b] = 1;
    }
    if (!(c.max_rel <= r->max_rel)) r->max_rel = c.max_rel;
}

static inline int check_finish(const Report *r)
{
    if (r->failed[0] || r->failed[1]) {
        printf("check %s: c %s, %s %s\n", r->sample, r->failed[0] ? "FAILED" : "ok", CHECK_DEV_NAME,
               r->failed[1] ? "FAILED" : "ok");
        return 1;
    }
    printf("check %s: c ok, %s ok (%ld points, max rel err %.3g)\n", r->sample, CHECK_DEV_NAME, r->points, r->max_rel);
    return 0;
}

#endif
