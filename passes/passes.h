/* Tuning and lowering passes: each transforms a kernel's AST. */
#ifndef IMCL_PASSES_H
#define IMCL_PASSES_H

#include "ast.h"

/* Global memory: rewrites every Image/Block access into a linear access of its
 * buffer (x fastest, halo and alias offset included), applies the array's
 * boundary condition to reads, guards writes that may fall outside the array, and
 * linearizes subscripts of fixed-size array parameters. After this pass the body
 * has no AST_GRID_ACCESS and no alias declarations. Needs analyze_access.
 * Returns the number of errors reported. */
int pass_global_memory(Arena *a, Function *k, Diag *diag);

struct TuneParams;

/* Thread mapping for the GPU backends: declares idx/idy/idz from the block and
 * thread indices (thesis eq. 3.1-3.3), makes threads past the grid's edge return,
 * and turns every use of the idx/idy/idz built-ins into uses of those locals. */
void pass_thread_mapping(Arena *a, Function *k, const struct TuneParams *tp);

/* Loop unrolling: every for loop whose unroll_L<line> factor F is above 1 becomes
 * a loop running F copies of its body per iteration plus a loop running what is
 * left (none when F divides a known trip count; no loop at all when F reaches it),
 * each copy in a block of its own. The loops must be unrollable (analyze_loops);
 * one that is not is reported. Returns the number of errors reported. */
int pass_unroll(Arena *a, Function *k, const struct TuneParams *tp, Diag *diag);

#endif
