/* Footprints: constant offsets of array accesses from the grid point. */
#include "analysis.h"

bool analyze_const_offset(const Node *ix, Builtin b, long long *offset)
{
    if (ix->kind == AST_BUILTIN && ix->u.builtin.which == b) {
        *offset = 0;
        return true;
    }
    if (ix->kind != AST_BINARY || (ix->u.binary.op != '+' && ix->u.binary.op != '-'))
        return false;
    const Node *l = ix->u.binary.lhs, *r = ix->u.binary.rhs;
    long long c;
    if (l->kind == AST_BUILTIN && l->u.builtin.which == b && ast_const_int(r, &c)) {
        *offset = ix->u.binary.op == '+' ? c : -c;
        return true;
    }
    if (ix->u.binary.op == '+' && r->kind == AST_BUILTIN && r->u.builtin.which == b &&
        ast_const_int(l, &c)) {
        *offset = c;
        return true;
    }
    return false;
}

bool analyze_access_inside(const Function *k, const Node *acc, int dim)
{
    Symbol *s = acc->u.access.sym;
    /* An alias views its base at a run-time offset: nothing is known. */
    if (s->kind != SYM_PARAM)
        return false;
    bool bound = false;
    for (int i = 0; i < k->ngrid_arrays; i++)
        bound |= k->grid_arrays[i] == s;
    if (!bound)
        return false;
    long long off;
    if (!analyze_const_offset(acc->u.access.ix[dim], (Builtin)(BI_IDX + dim), &off))
        return false;
    return off >= -s->halo && off <= s->halo;
}
