/* Budgets: the resources the placements of a kernel's arrays share (shared memory
 * per block, constant memory), in one description that the -t check evaluates
 * for a configuration and the space dump prints as a restriction. */
#ifndef IMCL_BUDGET_H
#define IMCL_BUDGET_H

#include "params.h"
#include "placement.h"

/* What array `array` costs when it is placed in the budget's memory: `bytes` for a
 * constant copy (dims 0), or `bytes` per element of a tile of
 * (block_size*coarsen + extra) points in each of `dims` dimensions. */
typedef struct BudgetTerm {
    const char *array;
    int dims;
    long long extra[3];
    long long bytes;
} BudgetTerm;

typedef struct Budget {
    MemKind mem;        /* MEM_SHARED or MEM_CONSTANT */
    long long limit;    /* bytes: SpaceOptions' shared_limit or constant_limit */
    BudgetTerm *terms;  /* in the arena */
    int n, cap;
} Budget;

void budget_init(Budget *b, MemKind mem, const SpaceOptions *o);
/* Adds array s of kernel k, which placement_allowed lets live in b's memory. */
void budget_add(Budget *b, Arena *a, Function *k, Symbol *s, const SpaceOptions *o);
/* The bytes the configuration tp takes: the terms of the arrays it places in b's
 * memory. *first (when not NULL) is the first of those arrays, or NULL. */
long long budget_cost(const Budget *b, const TuneParams *tp, const char **first);
/* The restriction "cost <= limit" as a Python expression over the tuning
 * parameters, or NULL when no configuration can exceed the limit. */
const char *budget_restriction(const Budget *b, Arena *a);

#endif
