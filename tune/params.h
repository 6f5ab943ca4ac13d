/* Tuning parameters (SPEC section 5): loading from a flat JSON object or a legacy
 * ImageCL config.txt, defaults, and validation against a kernel. */
#ifndef IMCL_PARAMS_H
#define IMCL_PARAMS_H

#include "ast.h"

typedef struct MemChoice {
    const char *array;
    MemKind mem;
    bool used;          /* matched an array of some selected kernel */
} MemChoice;

typedef struct UnrollChoice {
    int line;
    int factor;
    bool used;
} UnrollChoice;

typedef struct TuneParams {
    int block[3];
    bool block_given[3];
    int coarsen[3];
    int interleaved;
    int interior;           /* 1: inner blocks run a copy without edge guards (pass_interior) */
    MemChoice *mem;         /* in the arena; copies of a TuneParams share them */
    int nmem, capmem;
    UnrollChoice *unroll;
    int nunroll, capunroll;
} TuneParams;

/* Largest thread block (work-group) imcl targets. */
#define PARAMS_MAX_BLOCK_THREADS 1024
#define PARAMS_MAX_BLOCK_Z 64
/* Most grid points one thread computes in each dimension. */
#define PARAMS_MAX_COARSEN 8

struct SpaceOptions;

void params_init(TuneParams *tp);
/* Reads `path` (JSON object, or KEY:VALUE lines). Reports and returns false on a
 * malformed file or an unknown name or value. */
bool params_load(TuneParams *tp, const char *path, Arena *a, Diag *diag);
/* The parameters for kernel k on the backend and device of `so`: defaults for
 * what was not given (block 8x8x1 for an Image grid, 8x8x8 for a Block grid),
 * checked against k (placements through tune/placement.c); marks the
 * mem_/unroll_ entries of `given` that k uses and sets the `mem` of k's array
 * parameters. Reports and returns false on an illegal combination. */
bool params_for_kernel(TuneParams *given, Function *k, const struct SpaceOptions *so, Arena *a,
                       TuneParams *out, Diag *diag);
/* The placement tp gives `array` (global when it names none). */
MemKind params_mem_of(const TuneParams *tp, const char *array);
/* After every kernel: names that matched no kernel are errors. */
bool params_check_unused(const TuneParams *tp, Diag *diag);
const char *mem_kind_name(MemKind m);

#endif
