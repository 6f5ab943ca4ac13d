/* bench/an5d/loops.c: the AN5D stencils as an HPC programmer writes them in C, the oracle
 * and the "hand" baseline of bench/an5d/run.sh. Each loop is OpenMP-parallel over its outer
 * dimension (rows in 2D, planes in 3D). Reads outside the grid are 0: the first and last R
 * points of every row read through a guarded accessor; the others read their neighbours
 * directly, from the rows of the neighbourhood, where a row outside the grid (in the edge
 * rows and planes) is a row of zeros (or, for the boxes, a row skipped).
 *
 * The stencils (bench/an5d/README.md): loops_tmpl.h holds them once, for one element type
 * T and one radius R; it is included here for float and double and R = 1..4 (the fixed
 * shapes, j2d5pt, j2d9pt, j2d9pt_gol, j3d27pt and gradient2d, with R = 1). Stars and the
 * j-stencils compute each point on its own (the tap loops have constant bounds and gcc
 * unrolls them, then vectorises along x: omp simd); boxes accumulate a row of points one
 * row of taps at a time (out_row[x] += the 2R+1 taps of in_row around x, vectorised along
 * x), which is how their hundreds of taps vectorise. Every point adds its taps in the order
 * the .imcl kernel does, so the C backend's results are equal to the bit. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "loops.h"

/* The inner points of a row of n, [x0, x1): those at least r from both ends. */
static inline void an5d_span(int n, int r, int *x0, int *x1)
{
    *x0 = r < n ? r : n;
    *x1 = n - r > *x0 ? n - r : *x0;
}

/* The weights of n taps (5 to 1023 of them) are (t + 1) / AN5D_P2(AN5D_TOT(n)), t = 0..n-1:
 * over the smallest power of two at least n(n+1)/2, their sum; a constant expression, so
 * that gcc folds every weight of an unrolled loop. */
#define AN5D_TOT(n) ((n) * ((n) + 1) / 2)
#define AN5D_P2(x)                                                                              \
    ((x) <= 1 << 4    ? 1 << 4                                                                  \
     : (x) <= 1 << 5  ? 1 << 5                                                                  \
     : (x) <= 1 << 6  ? 1 << 6                                                                  \
     : (x) <= 1 << 7  ? 1 << 7                                                                  \
     : (x) <= 1 << 8  ? 1 << 8                                                                  \
     : (x) <= 1 << 9  ? 1 << 9                                                                  \
     : (x) <= 1 << 10 ? 1 << 10                                                                 \
     : (x) <= 1 << 11 ? 1 << 11                                                                 \
     : (x) <= 1 << 12 ? 1 << 12                                                                 \
     : (x) <= 1 << 13 ? 1 << 13                                                                 \
     : (x) <= 1 << 14 ? 1 << 14                                                                 \
     : (x) <= 1 << 15 ? 1 << 15                                                                 \
     : (x) <= 1 << 16 ? 1 << 16                                                                 \
     : (x) <= 1 << 17 ? 1 << 17                                                                 \
     : (x) <= 1 << 18 ? 1 << 18                                                                 \
     : (x) <= 1 << 19 ? 1 << 19                                                                 \
                      : 1 << 20)

#define T float
#define S f
#define SQRT sqrtf
#define R 1
#include "loops_tmpl.h"
#undef R
#define R 2
#include "loops_tmpl.h"
#undef R
#define R 3
#include "loops_tmpl.h"
#undef R
#define R 4
#include "loops_tmpl.h"
#undef R
#undef SQRT
#undef S
#undef T

#define T double
#define S d
#define SQRT sqrt
#define R 1
#include "loops_tmpl.h"
#undef R
#define R 2
#include "loops_tmpl.h"
#undef R
#define R 3
#include "loops_tmpl.h"
#undef R
#define R 4
#include "loops_tmpl.h"
#undef R
#undef SQRT
#undef S
#undef T
