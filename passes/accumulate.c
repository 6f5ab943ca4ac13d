/* pass_accumulate: an array element that a point reads and writes again and again,
 * always the same element (`out[idx][idy][idz] += ...` in a loop), lives in a local
 * while the body runs and is stored once at its end, so that each tap costs an add
 * instead of a load and a store of global memory (a device compiler may not keep it
 * in a register itself: another array might alias it). The arithmetic and its order
 * are unchanged.
 *
 * An array qualifies when the body reads the element twice or more, or in a loop
 * (compound assignments count); every access names it directly (no alias, no call
 * is given it) with offsets of one known value each, the same for every access; its
 * value cannot be seen where it does not exist (unseen_where_missing); and the body
 * has no return (a return would skip the store). When the body's first
 * statement to touch it is a plain `A[i] = e`, e becomes the local's initial value;
 * otherwise the local starts from the element's value. */
#include "passes.h"

#include "analysis.h"

typedef struct Uses {
    Symbol *array;
    bool other;     /* named other than by a grid access: a call argument, an alias */
    bool ret;       /* the body has a return */
} Uses;

static bool scan(Node *n, void *p)
{
    Uses *u = p;
    if (n->kind == AST_RETURN)
        u->ret = true;
    if (n->kind == AST_VAR && n->u.var.sym == u->array)
        u->other = true;
    if (n->kind == AST_DECL && n->u.decl.sym->kind == SYM_ALIAS && symbol_root(n->u.decl.sym) == u->array)
        u->other = true;
    return true;
}

/* n lies inside `outer` (or is it). */
static bool within(const Node *n, const Node *outer)
{
    for (; n; n = n->parent)
        if (n == outer)
            return true;
    return false;
}

/* Reads to save: two or more, or one in a loop (a single read-modify-write, say
 * under a condition, would only gain a load and a store it does not always make). */
static bool worth_it(const NodeList *acc)
{
    int reads = 0;
    for (int i = 0; i < acc->len; i++) {
        if (!ast_is_read_use(acc->items[i]))
            continue;
        reads++;
        for (Node *p = acc->items[i]->parent; p; p = p->parent)
            if (p->kind == AST_FOR || p->kind == AST_WHILE || p->kind == AST_DO)
                reads = 2;
    }
    return reads >= 2;
}

/* Every access of `s` reads or writes the same element, at offsets known exactly. */
static bool one_element(const Footprint *fp, const NodeList *acc, Symbol *s)
{
    const AccessFootprint *first = NULL;
    for (int i = 0; i < acc->len; i++) {
        Node *x = acc->items[i];
        const AccessFootprint *af = footprint_of(fp, x);
        if (x->u.access.sym != s || !af)
            return false;
        for (int d = 0; d < x->u.access.n; d++)
            if (!af->known[d] || af->min[d] != af->max[d] || (first && af->min[d] != first->min[d]))
                return false;
        first = af;
    }
    return first != NULL;
}

/* The element's value cannot be seen where it does not exist: it exists at every
 * point (the footprint proves each access inside the array's storage), or each read
 * of it lies in a statement that writes it. Where an element does not exist, a
 * statement writing it does not run and a read gives the boundary value; the
 * statements that both read and write it all go, and the local's value with them,
 * but a read anywhere else would see the local instead of the boundary value. */
static bool unseen_where_missing(const Function *k, const Footprint *fp, const NodeList *acc)
{
    bool inside = true;
    for (int i = 0; i < acc->len && inside; i++)
        for (int d = 0; d < acc->items[i]->u.access.n; d++)
            inside &= analyze_access_inside(k, fp, acc->items[i], d);
    for (int i = 0; i < acc->len && !inside; i++) {
        Node *x = acc->items[i];
        if (!ast_is_read_use(x))
            continue;
        Node *stmt = ast_enclosing_stmt(x);
        Node *e = stmt && stmt->kind == AST_EXPR_STMT ? stmt->u.expr_stmt.expr : NULL;
        if (!e || e->kind != AST_ASSIGN || e->u.binary.lhs->kind != AST_GRID_ACCESS ||
            e->u.binary.lhs->u.access.sym != x->u.access.sym)
            return false;
    }
    return true;
}

/* The body's first top-level statement that touches an access of acc. */
static Node *first_use(Node *body, const NodeList *acc)
{
    NodeList *stmts = &body->u.block.stmts;
    for (int i = 0; i < stmts->len; i++)
        for (int j = 0; j < acc->len; j++)
            if (within(acc->items[j], stmts->items[i]))
                return stmts->items[i];
    return NULL;
}

/* `A[i] = e;` with e free of A: e, else NULL. */
static Node *plain_store_value(Node *stmt, const NodeList *acc)
{
    if (stmt->kind != AST_EXPR_STMT)
        return NULL;
    Node *e = stmt->u.expr_stmt.expr;
    if (e->kind != AST_ASSIGN || e->u.binary.op != '=' || e->u.binary.lhs->kind != AST_GRID_ACCESS)
        return NULL;
    for (int j = 0; j < acc->len; j++)
        if (within(acc->items[j], e->u.binary.rhs))
            return NULL;
    return e->u.binary.rhs;
}

static void keep_in_local(Arena *a, Function *k, Symbol *s, const NodeList *acc)
{
    Loc none = {0};
    Symbol *t = ast_build_symbol(a, arena_printf(a, "imcl_%s_acc", s->name), SYM_LOCAL, s->type->elem, none);
    Node *element = ast_copy(a, acc->items[0]);
    Node *first = first_use(ast_point_body(k), acc);
    Node *init = plain_store_value(first, acc);
    Node *decl;
    if (init) {
        decl = ast_build_decl(a, t, init, first->loc);
        ast_replace(first, decl);
    } else {
        decl = ast_build_decl(a, t, ast_copy(a, element), none);
        ast_insert_before(a, first, decl);
    }
    for (int i = 0; i < acc->len; i++)
        if (!init || acc->items[i] != first->u.expr_stmt.expr->u.binary.lhs)
            ast_replace(acc->items[i], ast_build_var_ref(a, t, acc->items[i]->loc));
    Node *store = ast_build_assign(a, '=', element, ast_build_var_ref(a, t, none), none);
    store->type = s->type->elem;
    ast_append_stmt(a, ast_point_body(k), ast_build_comment(a, arena_printf(a, "the element of %s the point updated "
                                                                     "in a local, stored once", s->name), none));
    ast_append_stmt(a, ast_point_body(k), ast_build_expr_stmt(a, store, none));
    ast_fix_parents(ast_point_body(k));
}

int pass_accumulate(const PassCtx *c, Function *k)
{
    if (!k->is_kernel)
        return 0;
    Footprint *fp = NULL;
    for (int i = 0; i < k->nparams; i++) {
        Symbol *s = k->params[i];
        if (!s->type || !type_is_grid(s->type) || !(s->access & ACC_WRITE))
            continue;
        Uses u = {s, false, false};
        ast_walk(ast_point_body(k), scan, &u);
        if (u.other || u.ret)
            continue;
        NodeList acc = ast_query_accesses(c->a, ast_point_body(k), s);
        if (!worth_it(&acc))
            continue;
        if (!fp)
            fp = analyze_footprint(c->a, k);
        if (one_element(fp, &acc, s) && unseen_where_missing(k, fp, &acc)) {
            keep_in_local(c->a, k, s, &acc);
            fp = NULL; /* the body changed */
        }
    }
    return 0;
}
