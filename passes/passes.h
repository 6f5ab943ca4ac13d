/* Tuning and lowering passes: each transforms a kernel's AST; the pass table
 * (passes.c) lists them in pipeline order. */
#ifndef IMCL_PASSES_H
#define IMCL_PASSES_H

#include "ast.h"

struct TuneParams;

/* What every pass gets: the arena of the compilation, where to report, and the
 * configuration (placements are already on the array symbols). */
typedef struct PassCtx {
    Arena *a;
    Diag *diag;
    const struct TuneParams *tp;
    const struct Backend *backend;
} PassCtx;

/* A pass rewrites kernel k, the driver's copy; returns the number of errors. */
typedef int (*PassFn)(const PassCtx *c, Function *k);

typedef struct Pass {
    const char *name;   /* --emit-ast=after:NAME; "pass_NAME" is its function */
    PassFn run;
    bool gpu_only;      /* skipped for the C reference, which runs the kernel as written */
    bool lowers;        /* no grid access or alias is left after it (the verifier checks) */
    const char *does;   /* one line for --help */
} Pass;

/* The passes in the order they run (passes.c says why that order). */
extern const Pass pass_table[];
extern const int pass_count;
/* The pass named `name`, or NULL. */
const Pass *pass_find(const char *name);

/* Dead code (passes/dead_code.c), once per compilation, right after the checks and
 * before any analysis: warns about the locals of the kernels in `kernels` and of
 * every helper whose value is never used (gcc's wording: "variable 'x' set but not
 * used", "unused variable 'x'"), then takes out of them, in place, the stores to
 * scalars that are not live after them, initial values that are not live, and
 * declarations of locals no longer named (analyze_liveness), to a fixed point; array
 * writes and stores whose value has an effect of its own stay. */
/* Distribution (passes/distribute.c), with imcl --mpi, once per kernel after the access
 * analysis: checks that kernel k can run on the parts of its grid that MPI ranks hold,
 * reporting each construct that cannot, and sets k->dist, with its local variant (a
 * kernel of its own, which the driver compiles as any other). Returns the errors. */
int distribute_kernel(Arena *a, Diag *diag, Function *k);

void dead_code_program(Arena *a, Diag *diag, Program *prog, Function **kernels, int nk);

/* Accumulate (passes/accumulate.c, every backend): an array element a point reads
 * and writes again and again, always the same one, is kept in a local
 * `imcl_<array>_acc` and stored once at the end of the body. */
int pass_accumulate(const PassCtx *c, Function *k);

/* Global memory: rewrites every Image/Block access into a linear access of its
 * buffer (x fastest, halo and alias offset included), applies the array's
 * boundary condition to reads, guards writes that may fall outside the array, and
 * linearizes subscripts of fixed-size array parameters. After this pass the body
 * has no AST_GRID_ACCESS and no alias declarations. Needs analyze_access.
 * Returns the number of errors reported. */
int pass_global_memory(const PassCtx *c, Function *k);

/* Texture memory (GPU backends, before pass_global_memory): every read of an
 * Image/Block whose placement is MEM_TEXTURE becomes an AST_BUF_ACCESS with n = 2
 * or 3 whose ix[d] are int coordinates in the array's storage (halo included),
 * with the boundary condition left to the sampler when its addressing mode
 * implements it (placement_texture_address), else applied as pass_global_memory
 * does; declarations of aliases of such arrays are dropped. */
int pass_texture_memory(const PassCtx *c, Function *k);

/* Guard-free interiors (before pass_global_memory): see passes/interior.c. Sets
 * k->interior when the body was split. */
int pass_interior(const PassCtx *c, Function *k);
/* pass_interior's `if (imcl_interior) inner copy else body`, the only statement of
 * k's body while k->interior is set and pass_thread_mapping has not run; NULL when
 * the body was not split. */
Node *pass_interior_split(const Function *k);

/* Thread mapping for the GPU backends: lowers the kernel's point loop (AST_POINTS):
 * declares idx/idy/idz from the block and thread indices (thesis eq. 3.1-3.6,
 * interleaved or blocked), puts the prologue first, runs the point prologue, the
 * body and the point epilogue once per point of a coarsened thread, skips points
 * past the grid's edge, and turns every use of the idx/idy/idz built-ins into uses
 * of those locals. */
int pass_thread_mapping(const PassCtx *c, Function *k);

/* Shared (local) memory for the GPU backends (thesis 3.4): every read-only array
 * placed in shared memory gets a tile of (block x coarsening + footprint) points,
 * loaded cooperatively by all threads of the block in the point loop's prologue
 * before a barrier; its reads in the body become reads of the tile (eq.
 * 3.14-3.22). Runs before pass_global_memory, which lowers the loads. Returns the
 * number of errors reported. */
int pass_shared_memory(const PassCtx *c, Function *k);

/* Register caching (passes/register_cache.c): every array placed in registers
 * (mem_<array> register, CUDA) is loaded in parts by the lanes of each warp, row by
 * row of its footprint, and the values each point reads are fetched from the lanes
 * that hold them with warp shuffles, in the point loop's point prologue; the body reads
 * them from a local box. Runs before pass_global_memory, which lowers the loads.
 * Returns the number of errors reported. */
int pass_register_cache(const PassCtx *c, Function *k);

/* z-marching (passes/stream_z.c): with stream_z, every array in global memory
 * placement_stream_window accepts is read through a window of planes private to the thread, loaded one
 * plane per point. Runs before pass_interior and pass_global_memory, which lower
 * the loads. Returns the number of errors reported. */
int pass_stream_z(const PassCtx *c, Function *k);

/* Loop unrolling: every for loop whose unroll_L<line> factor F is above 1 becomes
 * a loop running F copies of its body per iteration plus a loop running what is
 * left (none when F divides a known trip count; no loop at all when F reaches it),
 * each copy in a block of its own. The loops must be unrollable (analyze_loops);
 * one that is not is reported. Returns the number of errors reported. */
int pass_unroll(const PassCtx *c, Function *k);

#endif
