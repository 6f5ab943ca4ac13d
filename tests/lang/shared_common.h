/* Oracle helpers shared by the shared_*.c and coarsen_*.c drivers (tests/lang):
 * reading an array through its boundary condition, as docs/language.md defines it,
 * independently of imcl.
 *
 * An array has interior extents w x h x d (d = 1 for an Image), a ghost layer n
 * cells wide on every side (halo; none in z for an Image), and starts `off`
 * elements into its buffer (an offset alias: the base's extents and boundary, the
 * coordinates of the alias). Boundary conditions act on the storage range
 * -n .. extent+n-1 of each coordinate:
 *   constant(v): v when a coordinate leaves that range;
 *   clamped: each coordinate clamped into it;
 *   periodic: each coordinate modulo the storage extent;
 *   mirror: reflected with the edge repeated (-1 -> 0), period 2 x storage extent;
 *   none: the read must stay inside (the oracle stops with an error otherwise). */
#ifndef SHARED_COMMON_H
#define SHARED_COMMON_H

#include "lang_common.h"

typedef enum { B_CONST, B_CLAMP, B_PERIODIC, B_MIRROR, B_NONE } BKind;

typedef struct {
    BKind k;
    double v; /* the constant, already representable in the element type */
    ElemType t;
    const void *a;
    int w, h, d, n;
    int dims; /* 2: Image, 3: Block */
    long off;
} Arr;

static inline Arr arr2(BKind k, double v, ElemType t, const void *a, int w, int h, int n)
{
    return (Arr){k, v, t, a, w, h, 1, n, 2, 0};
}

static inline Arr arr3(BKind k, double v, ElemType t, const void *a, int w, int h, int d, int n)
{
    return (Arr){k, v, t, a, w, h, d, n, 3, 0};
}

static inline int bc_coord(const Arr *A, int c, int s, int *out)
{
    switch (A->k) {
    case B_CONST:
    case B_NONE:
        if (c < 0 || c >= s) return 0;
        break;
    case B_CLAMP: c = clampi(c, 0, s - 1); break;
    case B_PERIODIC: c = wrapi(c, s); break;
    case B_MIRROR: c = mirrori(c, s); break;
    }
    *out = c;
    return 1;
}

/* Element (x, y, z) of A (z ignored for an Image) through its boundary condition. */
static inline double rd3(const Arr *A, int x, int y, int z)
{
    int sw = A->w + 2 * A->n, sh = A->h + 2 * A->n;
    int sd = A->dims == 3 ? A->d + 2 * A->n : 1;
    int sx = 0, sy = 0, sz = 0;
    int in = bc_coord(A, x + A->n, sw, &sx) & bc_coord(A, y + A->n, sh, &sy);
    if (A->dims == 3) in &= bc_coord(A, z + A->n, sd, &sz);
    if (!in) {
        if (A->k == B_NONE) {
            fprintf(stderr, "oracle bug: read (%d, %d, %d) outside a 'none' array\n", x, y, z);
            exit(1);
        }
        return A->v;
    }
    return lang_get(A->t, A->a, A->off + ((long)sz * sh + sy) * sw + sx);
}

static inline double rd2(const Arr *A, int x, int y) { return rd3(A, x, y, 0); }

/* n random elements of type t: floats are multiples of 1/256 in [0, 4), uchar
 * 0..255, other integers -1000..1000. */
static inline void *rand_arr(Lcg *g, ElemType t, long n)
{
    void *p = lang_alloc(n, lang_esize(t));
    for (long i = 0; i < n; i++) {
        uint32_t r = lcg_next(g);
        double v = t == T_UCHAR ? (double)(r % 256)
                 : lang_is_real(t) ? (double)(r % 1024) / 256.0
                 : (double)((int)(r % 2001) - 1000);
        lang_set(t, p, i, v);
    }
    return p;
}

/* An output's initial contents when every point must be written: NaN / INT_MIN. */
static inline void *unset_arr(ElemType t, long n)
{
    void *p = lang_alloc(n, lang_esize(t));
    for (long i = 0; i < n; i++) lang_set(t, p, i, lang_is_real(t) ? NAN : (double)INT_MIN);
    return p;
}

/* Element i of the storage of a Block with interior extents w x h x d and halo n:
 * is it a ghost cell? */
static inline int ghost3(long i, int w, int h, int d, int n)
{
    int sw = w + 2 * n, sh = h + 2 * n;
    long x = i % sw, y = (i / sw) % sh, z = i / ((long)sw * sh);
    return x < n || x >= w + n || y < n || y >= h + n || z < n || z >= d + n;
}

#endif
