/* Read/write classification of array parameters, through offset aliases. */
#include "analysis.h"

typedef struct AccessCtx {
    Function *k;
    bool has_return;
} AccessCtx;

/* The parameter an AST_INDEX chain of a fixed-size array subscripts. */
static Symbol *index_root(const Node *n)
{
    while (n->kind == AST_INDEX)
        n = n->u.index.base;
    return n->kind == AST_VAR ? n->u.var.sym : NULL;
}

static void mark(Symbol *s, const Node *use)
{
    if (ast_is_lvalue_use(use))
        s->access |= ACC_WRITE;
    if (ast_is_read_use(use))
        s->access |= ACC_READ;
}

static bool visit(Node *n, void *p)
{
    AccessCtx *c = p;
    if (n->kind == AST_RETURN)
        c->has_return = true;
    if (n->kind == AST_GRID_ACCESS)
        mark(symbol_root(n->u.access.sym), n);
    if (n->kind == AST_INDEX && (!n->parent || n->parent->kind != AST_INDEX)) {
        Symbol *s = index_root(n);
        if (s && s->kind == SYM_PARAM)
            mark(s, n);
    }
    return true;
}

/* Does statement s write a[idx][idy][idz] on every path through it? */
static bool writes_own_point(const Node *s, const Symbol *a)
{
    if (!s)
        return false;
    switch (s->kind) {
    case AST_EXPR_STMT: {
        const Node *e = s->u.expr_stmt.expr;
        if (e->kind != AST_ASSIGN || e->u.binary.op != '=')
            return false;
        const Node *lhs = e->u.binary.lhs;
        if (lhs->kind != AST_GRID_ACCESS || lhs->u.access.sym != a)
            return false;
        for (int d = 0; d < lhs->u.access.n; d++) {
            const Node *ix = lhs->u.access.ix[d];
            if (ix->kind != AST_BUILTIN || ix->u.builtin.which != (Builtin)(BI_IDX + d))
                return false;
        }
        return true;
    }
    case AST_BLOCK:
        for (int i = 0; i < s->u.block.stmts.len; i++)
            if (writes_own_point(s->u.block.stmts.items[i], a))
                return true;
        return false;
    case AST_IF:
        return writes_own_point(s->u.if_.then, a) && writes_own_point(s->u.if_.els, a);
    default:
        return false;
    }
}

/* Every grid point writes its own element of a, and the grid covers a exactly. */
static bool writes_whole_grid(const Function *k, Symbol *a)
{
    if (a->halo)
        return false;
    bool bound = false;
    for (int i = 0; i < k->ngrid_arrays; i++)
        bound |= k->grid_arrays[i] == a;
    return bound && writes_own_point(ast_point_body(k), a);
}

void analyze_access(Arena *a, Function *k)
{
    (void)a;
    for (int i = 0; i < k->nparams; i++) {
        k->params[i]->access = 0;
        k->params[i]->fully_written = false;
    }
    AccessCtx c = {k, false};
    ast_walk(ast_point_body(k), visit, &c);
    for (int i = 0; i < k->nparams; i++) {
        Symbol *s = k->params[i];
        /* Overwritten in full only when never read and written on every path. */
        s->fully_written = type_is_grid(s->type) && s->access == ACC_WRITE && !c.has_return &&
                           writes_whole_grid(k, s);
    }
}
