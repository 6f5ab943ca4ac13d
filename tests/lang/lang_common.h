/* Shared helpers of the language-coverage tests (tests/lang/<feature>.c).
 *
 * Each <feature>.imcl holds one or more small kernels written for one language
 * feature; <feature>.c is its oracle driver. The driver includes the headers imcl
 * generated for two backends side by side -- "c/<K>.h" (--prefix ref_) and
 * "opencl/<K>.h" (--prefix ocl_), or "cuda/<K>.h" (--prefix cuda_) when compiled with
 * -DCHECK_CUDA -- runs both wrappers on the same deterministic inputs, computes the
 * expected result itself in plain C (independent of imcl) and compares.
 *
 * This builds on tests/run/check_common.h (LCG, guarded buffers, CHECK_CALL, Shape,
 * tolerances) and adds what the samples did not need: every element type, and a small
 * per-call harness:
 *
 *     Lang L; lang_begin(&L, "types");
 *     for (int b = 0; b < 2; b++) {              // 0 = C reference, 1 = device backend
 *         lang_call_begin(&L, b, "kname");
 *         void *in  = lang_in(&L, "in", T_INT, n, in_init);              // read-only input
 *         void *out = lang_out(&L, "out", T_INT, n, out_init, expect, &shape);
 *         int rc = CHECK_CALL(b, kname, in, w, h, out, w, h, 3);
 *         lang_call_end(&L, rc, CHECK_STRERROR(b, kname, rc), LANG_BUILD_LOG(b, kname));
 *     }
 *     return lang_finish(&L);
 *
 * lang_in copies the initial contents into a guarded buffer and, after the call,
 * checks that it is unchanged; lang_out copies its initial contents (the values of
 * points the kernel must leave alone) into a guarded buffer and after the call
 * compares every element with the oracle's `expect` (given as double for every
 * element type). Guards on both sides of every buffer must be intact.
 *
 * Tolerances (as in check_common.h), with e the oracle's value and g the backend's:
 *   integer element types: exact;
 *   float:  |g - e| <= max(1e-5 * |e|, 1e-6);
 *   double: |g - e| <= max(1e-12 * |e|, 1e-12).
 * NaN never matches (outputs whose every point must be written are prefilled with
 * NaN or a sentinel the oracle never produces). The inputs are chosen so that every
 * float result is exact or well conditioned; a driver that needs a looser bound for
 * a transcendental function passes it explicitly (lang_out_tol) and says why.
 */
#ifndef LANG_COMMON_H
#define LANG_COMMON_H

#include "check_common.h"

#include <limits.h>

#ifdef CHECK_REF_ONLY
#define LANG_DEV_BUILD_LOG(K) ref_##K##_build_log
#elif defined(CHECK_CUDA)
#define LANG_DEV_BUILD_LOG(K) cuda_##K##_build_log
#else
#define LANG_DEV_BUILD_LOG(K) ocl_##K##_build_log
#endif
#define LANG_BUILD_LOG(b, K) ((b) == 0 ? ref_##K##_build_log() : LANG_DEV_BUILD_LOG(K)())

typedef enum { T_CHAR, T_UCHAR, T_SHORT, T_USHORT, T_INT, T_UINT, T_FLOAT, T_DOUBLE } ElemType;

static const char *const lang_type_name[] = {"char", "uchar", "short", "ushort", "int", "uint", "float", "double"};

static inline size_t lang_esize(ElemType t)
{
    switch (t) {
    case T_CHAR: return sizeof(signed char);
    case T_UCHAR: return sizeof(unsigned char);
    case T_SHORT: return sizeof(short);
    case T_USHORT: return sizeof(unsigned short);
    case T_INT: return sizeof(int);
    case T_UINT: return sizeof(unsigned int);
    case T_FLOAT: return sizeof(float);
    case T_DOUBLE: return sizeof(double);
    }
    return 1;
}

/* Element i of an array of type t, as a double (exact for every integer type). */
static inline double lang_get(ElemType t, const void *p, long i)
{
    switch (t) {
    case T_CHAR: return ((const signed char *)p)[i];
    case T_UCHAR: return ((const unsigned char *)p)[i];
    case T_SHORT: return ((const short *)p)[i];
    case T_USHORT: return ((const unsigned short *)p)[i];
    case T_INT: return ((const int *)p)[i];
    case T_UINT: return ((const unsigned int *)p)[i];
    case T_FLOAT: return ((const float *)p)[i];
    case T_DOUBLE: return ((const double *)p)[i];
    }
    return 0;
}

/* Store v (which must be representable) as element i of an array of type t. */
static inline void lang_set(ElemType t, void *p, long i, double v)
{
    switch (t) {
    case T_CHAR: ((signed char *)p)[i] = (signed char)v; break;
    case T_UCHAR: ((unsigned char *)p)[i] = (unsigned char)v; break;
    case T_SHORT: ((short *)p)[i] = (short)v; break;
    case T_USHORT: ((unsigned short *)p)[i] = (unsigned short)v; break;
    case T_INT: ((int *)p)[i] = (int)v; break;
    case T_UINT: ((unsigned int *)p)[i] = (unsigned int)v; break;
    case T_FLOAT: ((float *)p)[i] = (float)v; break;
    case T_DOUBLE: ((double *)p)[i] = v; break;
    }
}

static inline int lang_is_real(ElemType t) { return t == T_FLOAT || t == T_DOUBLE; }

/* Shapes: a plain Image / Block, or one with a ghost layer (storage extents). */
static inline Shape shape2(int w, int h) { return (Shape){w, h, 1, 0, 2}; }
static inline Shape shape3(int w, int h, int d) { return (Shape){w, h, d, 0, 3}; }
static inline Shape shape_flat(long n) { return (Shape){(int)n, 1, 1, 0, 2}; }

/* ---- the per-call harness ------------------------------------------------------ */

#define LANG_MAX_BUFS 40

typedef struct {
    const char *name;
    ElemType t;
    long n;
    void *buf;          /* guarded */
    const void *init;   /* initial contents (caller's) */
    const double *expect; /* NULL: read-only, must equal init afterwards */
    Shape shape;
    double rtol, atol;
} LangBuf;

typedef struct {
    const char *test;
    int failed[2];
    int calls[2];
    long points;
    double max_rel;
    /* the call in progress */
    int b;
    const char *kernel;
    LangBuf bufs[LANG_MAX_BUFS];
    int nbufs;
} Lang;

static inline void lang_begin(Lang *L, const char *test)
{
    memset(L, 0, sizeof *L);
    L->test = test;
}

static inline void lang_call_begin(Lang *L, int b, const char *kernel)
{
    L->b = b;
    L->kernel = kernel;
    L->nbufs = 0;
}

static inline void *lang_buf(Lang *L, const char *name, ElemType t, long n, const void *init)
{
    if (L->nbufs == LANG_MAX_BUFS) {
        fprintf(stderr, "lang %s: too many buffers\n", L->test);
        exit(1);
    }
    size_t bytes = (size_t)n * lang_esize(t);
    void *p = gbuf_alloc(bytes);
    memcpy(p, init, bytes);
    LangBuf *B = &L->bufs[L->nbufs++];
    memset(B, 0, sizeof *B);
    B->name = name;
    B->t = t;
    B->n = n;
    B->buf = p;
    B->init = init;
    return p;
}

/* A read-only input: must come back unchanged. */
static inline void *lang_in(Lang *L, const char *name, ElemType t, long n, const void *init)
{
    return lang_buf(L, name, t, n, init);
}

/* An output (or read-write array): compared with `expect` (n doubles) afterwards;
 * `init` is what the buffer holds before the call. */
static inline void *lang_out_tol(Lang *L, const char *name, ElemType t, long n, const void *init,
                                 const double *expect, const Shape *s, double rtol, double atol)
{
    void *p = lang_buf(L, name, t, n, init);
    LangBuf *B = &L->bufs[L->nbufs - 1];
    B->expect = expect;
    B->shape = *s;
    B->rtol = rtol;
    B->atol = atol;
    return p;
}

static inline void *lang_out(Lang *L, const char *name, ElemType t, long n, const void *init, const double *expect,
                             const Shape *s)
{
    double rtol = 0, atol = 0;
    if (t == T_FLOAT) rtol = CHECK_FLOAT_RTOL, atol = CHECK_FLOAT_ATOL;
    if (t == T_DOUBLE) rtol = CHECK_DOUBLE_RTOL, atol = CHECK_DOUBLE_ATOL;
    return lang_out_tol(L, name, t, n, init, expect, s, rtol, atol);
}

static inline void lang_fail(Lang *L, const char *fmt, const char *a)
{
    fprintf(stderr, "lang %s: %s: %s: ", L->test, check_backend_name[L->b], L->kernel);
    fprintf(stderr, fmt, a);
    fputc('\n', stderr);
    L->failed[L->b] = 1;
}

static inline void lang_compare(Lang *L, LangBuf *B)
{
    long bad = 0;
    for (long i = 0; i < B->n; i++) {
        double g = lang_get(B->t, B->buf, i), e = B->expect[i];
        int ok;
        if (lang_is_real(B->t)) {
            double err = fabs(g - e), tol = B->rtol * fabs(e) > B->atol ? B->rtol * fabs(e) : B->atol;
            ok = err <= tol; /* NaN fails */
            if (ok && fabs(e) > 0) {
                double rel = err / fabs(e);
                if (rel > L->max_rel) L->max_rel = rel;
            }
        } else {
            ok = g == e;
        }
        if (!ok) {
            if (bad < CHECK_MAX_REPORT) {
                char at[64];
                shape_coords(&B->shape, i, at, sizeof at);
                fprintf(stderr, "  %s: %s: '%s' (%s) mismatch at %s (element %ld): got %.17g, expected %.17g\n",
                        check_backend_name[L->b], L->kernel, B->name, lang_type_name[B->t], at, i, g, e);
            }
            bad++;
        }
    }
    L->points += B->n;
    if (bad) {
        char msg[96];
        snprintf(msg, sizeof msg, "%ld of %ld elements", bad, B->n);
        fprintf(stderr, "lang %s: %s: %s: '%s' differs from the oracle in %s\n", L->test, check_backend_name[L->b],
                L->kernel, B->name, msg);
        L->failed[L->b] = 1;
    }
}

/* After the wrapper call: check rc, guards, inputs unchanged, outputs vs oracle;
 * frees the call's buffers. */
static inline void lang_call_end(Lang *L, int rc, const char *msg, const char *build_log)
{
    L->calls[L->b]++;
    if (rc != 0) {
        fprintf(stderr, "lang %s: %s: %s: wrapper returned %d (%s), expected 0\n", L->test, check_backend_name[L->b],
                L->kernel, rc, msg ? msg : "(null strerror)");
        if (build_log && *build_log) fprintf(stderr, "---- build log ----\n%s\n-------------------\n", build_log);
        L->failed[L->b] = 1;
    }
    for (int k = 0; k < L->nbufs; k++) {
        LangBuf *B = &L->bufs[k];
        size_t bytes = (size_t)B->n * lang_esize(B->t);
        if (!gbuf_guards_ok(B->buf, bytes)) lang_fail(L, "wrote outside the buffer of '%s'", B->name);
        if (!B->expect) {
            if (memcmp(B->buf, B->init, bytes) != 0) lang_fail(L, "modified read-only input '%s'", B->name);
        } else if (rc == 0) {
            lang_compare(L, B);
        }
        gbuf_free(B->buf);
    }
    L->nbufs = 0;
}

static inline int lang_finish(const Lang *L)
{
    if (L->failed[0] || L->failed[1]) {
        printf("lang %s: c %s, %s %s\n", L->test, L->failed[0] ? "FAILED" : "ok", CHECK_DEV_NAME,
               L->failed[1] ? "FAILED" : "ok");
        return 1;
    }
    printf("lang %s: c ok, %s ok (%d calls each, %ld elements compared, max rel err %.3g)\n", L->test, CHECK_DEV_NAME,
           L->calls[0], L->points, L->max_rel);
    return 0;
}

/* ---- small utilities for oracles --------------------------------------------------- */

static inline int clampi(int i, int lo, int hi) { return i < lo ? lo : i > hi ? hi : i; }

/* periodic: i modulo n into [0, n) */
static inline int wrapi(int i, int n)
{
    int r = i % n;
    return r < 0 ? r + n : r;
}

/* mirror with the edge repeated (symmetric): -1 -> 0, n -> n-1, period 2n */
static inline int mirrori(int i, int n)
{
    int r = wrapi(i, 2 * n);
    return r < n ? r : 2 * n - 1 - r;
}

static inline double *lang_dalloc(long n)
{
    double *p = calloc((size_t)n, sizeof(double));
    if (!p) {
        fprintf(stderr, "lang: out of host memory\n");
        exit(1);
    }
    return p;
}

static inline void *lang_alloc(long n, size_t esize)
{
    void *p = calloc((size_t)n, esize);
    if (!p) {
        fprintf(stderr, "lang: out of host memory\n");
        exit(1);
    }
    return p;
}

#endif
