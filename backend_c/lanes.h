/* backend_c/lanes.h: the row function of the C reference printed in lanes (lanes.c). */
#ifndef IMCL_BACKEND_C_LANES_H
#define IMCL_BACKEND_C_LANES_H

#include <stdbool.h>

#include "ast.h"
#include "unparse.h"

/* Points of a row that go through the tap loops together. */
#define LANES_CHUNK 256

typedef struct Lanes {
    const Symbol **locals;   /* the locals kept as arrays of a chunk's points */
    int nlocals;
    const Node **outer;      /* the loops run once per chunk, the points inside */
    int nouter;
} Lanes;

/* Whether the row body `body` (the loop over x's body) is printed in lanes, and how:
 * when it has a nest of tap loops of more than LANES_MIN_TAPS iterations (or an
 * unknown number) that hides the loop over x from a C compiler's vectoriser, whose
 * bounds are the same for every point of a row, and everything else would vectorise
 * inside a loop over the points: no loop but small ones a compiler unrolls whole,
 * nothing that leaves the body (return, goto). */
bool lanes_plan(Arena *a, Node *body, Lanes *out);

/* Prints the row function's statements for body (after lanes_plan said yes) at u's
 * indent: the row in chunks of LANES_CHUNK points from imcl_x0 to imcl_x1; in each, the
 * outer loops once, and every run of the other statements as a loop over the chunk's
 * points (imcl_l) with idx = imcl_x + imcl_l. */
void lanes_print(Unparser *u, const Lanes *l, Node *body);

#endif
