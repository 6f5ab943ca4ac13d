/* Registers: the --liveness table of a kernel and the estimate of the 32-bit
 * registers one thread of a configuration needs (docs/tuning.md, "Registers"). */
#ifndef IMCL_REGISTERS_H
#define IMCL_REGISTERS_H

#include <stdio.h>

#include "ast.h"
#include "params.h"

/* What a device may give one thread (CUDA: 255 registers per thread and 65536 per
 * block on every GPU since sm_35; OpenCL: the same budget, docs/tuning.md). */
#define REGISTERS_PER_THREAD 255
#define REGISTERS_PER_BLOCK 65536

/* The estimate, per thread: index + live + loaded + coarsening + unrolled
 * (docs/tuning.md, "Registers"). */
typedef struct RegEstimate {
    int index;      /* coordinates, thread and block indices, array addresses, tile origins */
    int live;       /* peak 32-bit registers of the scalars live at one point of the
                     * body, a double counting 2, a helper's own peak added at its calls */
    int loaded;     /* what the array elements one statement loads add to that peak */
    int coarsen;    /* with more than one point per thread: the most one statement loads
                     * (the device compiler starts the next point's loads early) */
    int points;     /* grid points per thread: coarsen_x * coarsen_y * coarsen_z */
    int unrolled;   /* per loop unrolled by a factor > 1: half the peak of its body's locals */
    int window;     /* stream_z: the values of the windows of planes (pass_stream_z) */
    int cache;      /* mem_<array> register: the rows' registers and values (pass_register_cache) */
    int batch;      /* batch_loop: what the loop over the blocks keeps across its iterations */
    int total;
} RegEstimate;

/* Kernel k's terms, which do not depend on the configuration. */
typedef struct RegTerms {
    int index, live, loaded, coarsen;
    int window;     /* what the windows take with stream_z, every array that may have one in one */
    int batch;      /* what batch_loop 1 adds (0: k has no Image or Block, so no batch) */
    int *cache;     /* per parameter: what its register cache takes (0: it cannot have one) */
    int *lines;     /* per for loop of the body: its line and what unrolling it adds */
    const char **names;  /* and its parameter (unroll_L<line> or unroll_<label>) */
    struct LoopInfo *loops;
    int *unroll;
    int nloops;
} RegTerms;

void registers_terms(Arena *a, Function *k, RegTerms *t);
/* Computes k's terms once, in arena a, which must live as long as k: every later
 * registers_terms of k reads them (compile speed: once per source, not per
 * configuration). */
void registers_cache(Arena *a, Function *k);
/* The estimate for kernel k under tp (its coarsening, unroll factors and placements). */
RegEstimate registers_estimate(Arena *a, Function *k, const TuneParams *tp);
/* k's terms into t, and what a configuration may add to the least estimate (index,
 * live and loaded) within the budget the space's restrictions keep; INT_MAX where they
 * keep none (a CPU backend, or a kernel whose least is over the budget). A value whose
 * own term is larger is not listed: no configuration of the space could hold it. */
int registers_room(Arena *a, Function *k, const struct SpaceOptions *o, RegTerms *t);
/* The space's restrictions that keep the estimate within the budget of a GPU backend
 * (blocks of up to max_threads threads) into out[0..]: how many (0 to 2). */
int registers_restrictions(Arena *a, Function *k, const struct SpaceOptions *o, int max_threads, const char **out);
/* The default block of kernel k: 32x4x1 on a GPU backend (within the register budget of
 * every kernel whose one point fits a thread); 8x8x8 for a Block grid and 8x8x1 for an
 * Image on the C backend. */
void registers_default_block(const Function *k, const struct SpaceOptions *o, int block[3]);
/* Points a thread computes when nothing of the geometry is given (the default
 * configuration), into coarsen[0..2]: on a GPU backend 2 along the slowest axis of the
 * grid (y of an Image, z of a Block) for a kernel whose point reads at most
 * REGISTERS_COARSEN_LOADS values and stays within the budget so, unless --size gives
 * that axis an odd extent; else 1 everywhere. */
#define REGISTERS_COARSEN_LOADS 64
void registers_default_coarsen(Arena *a, Function *k, const struct SpaceOptions *o, int coarsen[3]);
/* The -t check of the same budget: reports and returns false when tp is over it. */
bool registers_check(Arena *a, Function *k, const TuneParams *tp, const struct SpaceOptions *o, Diag *d);

/* Prints, for kernel k and each helper it calls, the scalars live after each source
 * line and the peak; with tp, the estimate for that configuration too. */
void registers_print_liveness(FILE *out, Arena *a, const Program *prog, Function *k, const TuneParams *tp);

#endif
