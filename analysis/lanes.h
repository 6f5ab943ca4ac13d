/* analysis/lanes.h: a row of points printed "in lanes" (lanes.c): the C reference's row
 * function and the OpenCL CPU variant's walk along a row. */
#ifndef IMCL_ANALYSIS_LANES_H
#define IMCL_ANALYSIS_LANES_H

#include <stdbool.h>

#include "ast.h"
#include "unparse.h"

/* Points of a row that go through the tap loops together. */
#define LANES_CHUNK 256

typedef struct Lanes {
    const Symbol *x;         /* the row's coordinate, a local; NULL: the builtin idx */
    const Symbol **locals;   /* the locals kept as arrays of a chunk's points */
    int nlocals;
    const Node **outer;      /* the loops run once per chunk, the points inside */
    int nouter;
    const Symbol **varying;  /* the symbols the body declares or writes, and x */
    int nvarying;
} Lanes;

/* Whether the row body `body` (the loop over x's body; x the coordinate it reads as a
 * local, NULL for the builtin idx) is printed in lanes, and how: when it has a nest of
 * tap loops of more than LANES_MIN_TAPS iterations (or an unknown number) that hides the
 * loop over x from a compiler's vectoriser, whose bounds are the same for every point
 * of a row, and everything else would vectorise inside a loop over the points: no loop
 * but small ones a compiler unrolls whole, nothing that leaves the body (return, goto). */
bool lanes_plan(Arena *a, Node *body, const Symbol *x, Lanes *out);
/* The same for any nest of tap loops, small ones too: for rows whose guards it tests
 * once per row of taps (lanes_print), where the nest unrolled whole would keep them
 * at every point. */
bool lanes_plan_any(Arena *a, Node *body, const Symbol *x, Lanes *out);

/* Prints the statements for body (after lanes_plan said yes) at u's indent: the row in
 * chunks of LANES_CHUNK points from imcl_x0 to imcl_x1; in each, the outer loops once,
 * and every run of the other statements as a loop over the chunk's points (imcl_l) with
 * the coordinate idx = imcl_x + imcl_l. The small loops inside the runs get the target's
 * hint to unroll them whole (Target.unroll_hint), where the compiler would not; a run
 * whose edge guards test what is the same for all its points is printed once for each
 * outcome of that test, under an `if` (u->a holds the copies). */
void lanes_print(Unparser *u, const Lanes *l, Node *body);

/* Unparser.print_walk: prints a walk along a row, `for (; x < end; x++) point`, in lanes
 * where lanes_plan takes its body (x kept at end after it); false where it does not. */
bool lanes_print_walk(Unparser *u, const Node *loop);

#endif
