/* How large a kernel's code gets once its loops are unrolled: the estimate of a
 * configuration, the space's restriction and the -t check that keep what a device
 * compiler is handed within what it compiles in reasonable time (docs/tuning.md,
 * "How large the unrolled code gets"). */
#ifndef IMCL_UNROLLED_H
#define IMCL_UNROLLED_H

#include "ast.h"
#include "params.h"

/* The largest size a configuration may have: AST nodes of one point, a grid access
 * counting UNROLLED_ACCESS_WEIGHT, a helper's body counted at each call, a loop's body
 * times its unroll factor (times its trip count for a loop the device compiler
 * unrolls by itself, below), twice that with the interior copy, and the points of a
 * thread times that where their loop is unrolled (pass_thread_mapping). Measured on
 * PoCL (docs/tuning.md): over about twice this, kernels took it more than a minute. */
#define UNROLLED_MAX_SIZE 30000
/* What a grid access adds to the size: its lowering (index arithmetic, edge guards). */
#define UNROLLED_ACCESS_WEIGHT 8
/* A loop of known trip count T with no other kind of loop inside whose T copies of
 * the body are at most this large: LLVM unrolls it whole by itself, whatever its
 * unroll factor (a box's row of 9 taps). */
#define UNROLLED_BY_COMPILER 512

struct SpaceOptions;

/* The size of kernel k under tp (its unroll factors, and interior where the split is made). */
long long unrolled_size(Arena *a, Function *k, const TuneParams *tp);
/* The size of kernel k with factors[i] for loop i of analyze_loops (NULL: 1 for
 * every loop), twice that with interior. */
long long unrolled_size_at(Arena *a, Function *k, const int *factors, bool interior);
/* The space's restriction on the size, or NULL where no configuration can exceed
 * UNROLLED_MAX_SIZE (nor where every configuration does: nothing to choose between).
 * factors[i]: the largest factor the space lists for loop i; interior: whether the
 * space lists interior 1. */
const char *unrolled_restriction(Arena *a, Function *k, const int *factors, bool interior);
/* The -t check of the same bound (GPU backends): sets tp->unrolled_size; reports and
 * returns false when tp is over the bound. Where only the interior copy is and
 * interior was not given, sets tp->interior to 0 instead. */
bool unrolled_check(Arena *a, Function *k, TuneParams *tp, const struct SpaceOptions *o, Diag *d);

#endif
