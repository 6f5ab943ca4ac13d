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

/* Texture memory (GPU backends, before pass_global_memory): every read of an
 * Image/Block whose placement is MEM_TEXTURE becomes an AST_BUF_ACCESS with n = 2
 * or 3 whose ix[d] are int coordinates in the array's storage (halo included),
 * with the boundary condition left to the sampler when its addressing mode
 * implements it (placement_texture_address), else applied as pass_global_memory
 * does; declarations of aliases of such arrays are dropped. */
void pass_texture_memory(Arena *a, Function *k);

struct TuneParams;

/* Thread mapping for the GPU backends: declares idx/idy/idz from the block and
 * thread indices (thesis eq. 3.1-3.3), makes threads past the grid's edge return,
 * and turns every use of the idx/idy/idz built-ins into uses of those locals. */
void pass_thread_mapping(Arena *a, Function *k, const struct TuneParams *tp);

#endif
