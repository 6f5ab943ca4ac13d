/* Budgets of shared and constant memory: one description, evaluated for -t and
 * printed for the space dump (budget.h). */
#include "budget.h"

#include <string.h>

void budget_init(Budget *b, MemKind mem, const SpaceOptions *o)
{
    memset(b, 0, sizeof *b);
    b->mem = mem;
    b->limit = mem == MEM_SHARED ? o->shared_limit : o->constant_limit;
}

void budget_add(Budget *b, Arena *a, Function *k, Symbol *s, const SpaceOptions *o)
{
    BudgetTerm t = {s->name, 0, {0, 0, 0}, type_size(s->type->elem)};
    if (b->mem == MEM_SHARED) {
        SharedTile tile;
        const char *why;
        if (!placement_shared_tile(a, k, s, &tile, &why))
            return;
        t.dims = tile.dims;
        for (int d = 0; d < tile.dims; d++)
            t.extra[d] = tile.max[d] - tile.min[d];
    } else {
        long long elems = placement_constant_elems(k, s, o);
        if (elems <= 0)
            return; /* sized at run time (OpenCL): the device checks it */
        t.bytes *= elems;
    }
    ARENA_GROW(a, b->terms, b->n, b->cap);
    b->terms[b->n++] = t;
}

long long budget_cost(const Budget *b, const TuneParams *tp, const char **first)
{
    long long bytes = 0;
    if (first)
        *first = NULL;
    for (int i = 0; i < b->n; i++) {
        const BudgetTerm *t = &b->terms[i];
        if (params_mem_of(tp, t->array) != b->mem)
            continue;
        long long v = t->bytes;
        for (int d = 0; d < t->dims; d++)
            v *= (long long)tp->block[d] * tp->coarsen[d] + t->extra[d];
        bytes += v;
        if (first && !*first)
            *first = t->array;
    }
    return bytes;
}

const char *budget_restriction(const Budget *b, Arena *a)
{
    StrBuf sb = {0};
    long long fixed = 0;
    bool grows = false;
    for (int i = 0; i < b->n; i++) {
        const BudgetTerm *t = &b->terms[i];
        sb_printf(&sb, "%s(%s)", i ? " + " : "", params_mem_test(a, t->array, "==", b->mem));
        for (int d = 0; d < t->dims; d++)
            sb_printf(&sb, " * (%s*%s + %lld)", params_table[P_block_size_x + d].name,
                      params_table[P_coarsen_x + d].name, t->extra[d]);
        sb_printf(&sb, " * %lld", t->bytes);
        fixed += t->bytes;
        grows |= t->dims > 0;
    }
    /* Each array fits on its own (placement_allowed); together they may not. */
    const char *r = b->n && (grows || fixed > b->limit) ? arena_printf(a, "%s <= %lld", sb_str(&sb), b->limit)
                                                        : NULL;
    sb_free(&sb);
    return r;
}
