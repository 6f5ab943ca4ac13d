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
 * thread indices (thesis eq. 3.1-3.6, interleaved or blocked), runs the body once
 * per point of a coarsened thread, skips points past the grid's edge, puts the
 * kernel's prologue first, and turns every use of the idx/idy/idz built-ins into
 * uses of those locals. */
void pass_thread_mapping(Arena *a, Function *k, const struct TuneParams *tp);

/* Shared (local) memory for the GPU backends (thesis 3.4): every read-only array
 * placed in shared memory gets a tile of (block x coarsening + footprint) points,
 * loaded cooperatively by all threads of the block in the kernel's prologue
 * before a barrier; its reads in the body become reads of the tile (eq.
 * 3.14-3.22). Runs before pass_global_memory, which lowers the loads. Returns the
 * number of errors reported. */
int pass_shared_memory(Arena *a, Function *k, const struct TuneParams *tp, Diag *diag);

/* Loop unrolling: every for loop whose unroll_L<line> factor F is above 1 becomes
 * a loop running F copies of its body per iteration plus a loop running what is
 * left (none when F divides a known trip count; no loop at all when F reaches it),
 * each copy in a block of its own. The loops must be unrollable (analyze_loops);
 * one that is not is reported. Returns the number of errors reported. */
int pass_unroll(Arena *a, Function *k, const struct TuneParams *tp, Diag *diag);

#endif
