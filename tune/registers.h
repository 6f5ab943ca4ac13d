/* Registers: the --liveness table of a kernel and the estimate of the 32-bit
 * registers one thread of a configuration needs (docs/tuning.md, "Registers"). */
#ifndef IMCL_REGISTERS_H
#define IMCL_REGISTERS_H

#include <stdio.h>

#include "ast.h"
#include "params.h"

/* The estimate, per thread: index + points * (live + unrolled). */
typedef struct RegEstimate {
    int live;       /* peak 32-bit registers of the scalars live at one point of the
                     * body, a double counting 2, a helper's own peak added at its calls */
    int unrolled;   /* per unrolled loop: (factor - 1) x the peak of its body's own locals */
    int points;     /* grid points per thread: coarsen_x * coarsen_y * coarsen_z */
    int index;      /* coordinates, thread and block indices, array addresses, tile origins */
    int total;
} RegEstimate;

/* The estimate for kernel k under tp (its coarsening, unroll factors and placements). */
RegEstimate registers_estimate(Arena *a, Function *k, const TuneParams *tp);
/* Kernel k's terms that do not depend on the configuration (live, index) and, per
 * line of a for loop, the registers an unrolled copy adds (*extra, *lines: n of them). */
void registers_terms(Arena *a, Function *k, int *live, int *index, int **lines, int **extra, int *n);

/* Prints, for kernel k and each helper it calls, the scalars live after each source
 * line and the peak; with tp, the estimate for that configuration too. */
void registers_print_liveness(FILE *out, Arena *a, const Program *prog, Function *k, const TuneParams *tp);

#endif
