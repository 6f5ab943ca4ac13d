/* Analyses: compute facts about a kernel, never edit its AST. */
#ifndef IMCL_ANALYSIS_H
#define IMCL_ANALYSIS_H

#include "ast.h"

/* Classifies every array parameter of kernel k as read and/or written (seen through
 * offset aliases) and finds the arrays that the kernel provably overwrites in full
 * before reading, whose old contents need not be copied to the device. */
void analyze_access(Arena *a, Function *k);

/* The footprint of one grid access: in each dimension, whether its offsets from
 * the grid coordinate are known constants, their range and how many there are. */
typedef struct AccessFootprint {
    Node *access;
    bool known[3];
    long long min[3], max[3];
    int count[3];
    const char *why[3];   /* when not known: the reason */
} AccessFootprint;

typedef struct Footprint {
    Function *k;
    AccessFootprint *items;
    int n, cap;
} Footprint;

/* The footprint of every grid access of kernel k (thesis 3.1.4): set-valued
 * constant propagation through locals, branches and loops with constant bounds. */
Footprint *analyze_footprint(Arena *a, Function *k);
const AccessFootprint *footprint_of(const Footprint *fp, const Node *access);

/* The constant offset c of an index expression of the form `b + c`, `b - c`,
 * `c + b` or `b` (b one of idx/idy/idz). */
bool analyze_const_offset(const Node *ix, Builtin b, long long *offset);

/* True when access `acc` (a grid access of its root array) provably lies inside the
 * array's storage (extent plus halo) in dimension dim, so needs no guard. */
bool analyze_access_inside(const Function *k, const Footprint *fp, const Node *acc, int dim);

#endif
