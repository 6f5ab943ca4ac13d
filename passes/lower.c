/* Index arithmetic and boundary handling shared by the lowering passes. */
#include "lower.h"

#include "build.h"

static Node *call3(Arena *a, const char *name, Node *x, Node *n, int halo, Loc loc)
{
    Node *c = ast_build_call(a, name, loc);
    ast_append_arg(a, c, x);
    ast_append_arg(a, c, n);
    ast_append_arg(a, c, ast_build_int(a, halo, loc));
    c->type = type_scalar(TY_INT);
    return c;
}

Node *lower_add(Arena *a, Node *l, Node *r, Loc loc)
{
    return b_ibin(&(Build){a, loc}, '+', l, r);
}

Node *lower_mul(Arena *a, Node *l, Node *r, Loc loc)
{
    return b_ibin(&(Build){a, loc}, '*', l, r);
}

Node *lower_plus_halo(Arena *a, Node *x, int h, Loc loc)
{
    long long c;
    if (!h)
        return x;
    if (x->kind == AST_BINARY && (x->u.binary.op == '+' || x->u.binary.op == '-') &&
        ast_const_offset(x->u.binary.rhs, &c)) {
        long long sum = (x->u.binary.op == '+' ? c : -c) + h;
        return b_offset(&(Build){a, loc}, x->u.binary.lhs, sum);
    }
    return lower_add(a, x, ast_build_int(a, h, loc), loc);
}

Node *lower_storage_extent(Arena *a, Symbol *root, int d, Loc loc)
{
    Node *e = ast_build_extent(a, root, d, loc);
    return lower_plus_halo(a, e, 2 * root->halo, loc);
}

/* Dimension d of grid access acc is in range: proven by the footprint, or by
 * pass_interior for the interior copy of the body. */
static bool inside(Lower *L, const Node *acc, int d)
{
    return (acc->u.access.inside >> d & 1u) || analyze_access_inside(L->k, L->fp, acc, d);
}

Node *lower_inside_cond(Lower *L, Node *acc)
{
    Arena *a = L->a;
    Symbol *root = symbol_root(acc->u.access.sym);
    Node *cond = NULL;
    for (int d = 0; d < acc->u.access.n; d++) {
        if (inside(L, acc, d))
            continue;
        Node *c = call3(a, "imcl_in", ast_copy(a, acc->u.access.ix[d]),
                        ast_build_extent(a, root, d, acc->loc), root->halo, acc->loc);
        c->u.call.x_inner = d == 0 && (acc->u.access.inner & 1u);
        cond = cond ? ast_build_binary(a, OP_AND, cond, c, acc->loc) : c;
        cond->type = type_scalar(TY_INT);
    }
    return cond;
}

Node *lower_boundary(Lower *L, Node *acc, Node **ix)
{
    Symbol *root = symbol_root(acc->u.access.sym);
    int n = acc->u.access.n;
    for (int d = 0; d < n; d++)
        ix[d] = acc->u.access.ix[d];
    if (ast_is_lvalue_use(acc) || root->bc == BC_NONE)
        return NULL;
    if (root->bc == BC_CONSTANT)
        return lower_inside_cond(L, acc);
    const char *fn = root->bc == BC_CLAMPED ? "imcl_clamp" : root->bc == BC_PERIODIC ? "imcl_wrap" : "imcl_mirror";
    for (int d = 0; d < n; d++)
        if (!inside(L, acc, d)) {
            ix[d] = call3(L->a, fn, ix[d], ast_build_extent(L->a, root, d, acc->loc), root->halo, acc->loc);
            ix[d]->u.call.x_inner = d == 0 && (acc->u.access.inner & 1u);
        }
    return NULL;
}

static Node *boundary_value(Lower *L, Symbol *root, Loc loc)
{
    Type *elem = root->type->elem;
    if (root->bc_value && root->bc_value->type == elem)
        return ast_copy(L->a, root->bc_value);
    if (root->bc_value)
        return ast_build_cast(L->a, elem, ast_copy(L->a, root->bc_value), loc);
    if (type_is_float(elem))
        return ast_build_float(L->a, 0.0, elem->kind == TY_FLOAT ? "0.0f" : "0.0", elem, loc);
    return ast_build_int(L->a, 0, loc);
}

Node *lower_guarded(Lower *L, Node *guard, Node *read, Symbol *root, Loc loc)
{
    if (!guard)
        return read;
    Node *c = ast_build_cond(L->a, guard, read, boundary_value(L, root, loc), loc);
    c->type = root->type->elem;
    return c;
}

/* ---- boxes ------------------------------------------------------------------------ */

Node *lower_coord(Arena *a, int d, long long off)
{
    const Build B = build_none(a);
    return b_offset(&B, b_builtin(&B, (Builtin)(BI_IDX + d)), off);
}

Box lower_box(Arena *a, const char *name, Symbol *view, Type *elem, int dims, const long long *lo,
              const long long *hi)
{
    const Build B = build_none(a);
    Box b = {a, NULL, view, elem, dims, {0}, {1, 1, 1}};
    int ext[3];
    for (int d = 0; d < dims; d++) {
        b.lo[d] = lo[d];
        b.n[d] = (int)(hi[d] - lo[d] + 1);
        ext[dims - 1 - d] = b.n[d];
    }
    b.sym = b_symbol(&B, name, SYM_LOCAL, type_array(a, elem, dims, ext));
    return b;
}

/* box[ix[dims - 1]]...[ix[0]] */
static Node *box_index(const Box *b, Node **ix)
{
    const Build B = build_none(b->a);
    Node *cur = b_var(&B, b->sym);
    for (int d = b->dims - 1; d >= 0; d--) {
        cur = b_index(&B, cur, ix[d]);
        cur->type = b->elem;
    }
    return cur;
}

Node *lower_box_at(const Box *b, const long long *off)
{
    const Build B = build_none(b->a);
    Node *ix[3];
    for (int d = 0; d < b->dims; d++)
        ix[d] = b_int(&B, off[d] - b->lo[d]);
    return box_index(b, ix);
}

/* The box's index in dimension d of a read whose index there is e: a literal when
 * the offset is a constant, else `e - idx - lo` with the coordinate taken out where
 * e is written `idx + e'` or `idx - e'`. */
static Node *box_dim_index(const Box *b, Node *e, int d)
{
    Arena *a = b->a;
    const Build B = build_none(a);
    Builtin bi = (Builtin)(BI_IDX + d);
    long long off;
    if (analyze_const_offset(e, bi, &off))
        return b_int(&B, off - b->lo[d]);
    Node *rel = NULL;
    if (e->kind == AST_BINARY && (e->u.binary.op == '+' || e->u.binary.op == '-')) {
        Node *l = e->u.binary.lhs, *r = e->u.binary.rhs;
        bool lb = l->kind == AST_BUILTIN && l->u.builtin.which == bi;
        bool rb = r->kind == AST_BUILTIN && r->u.builtin.which == bi;
        if (lb && e->u.binary.op == '+')
            rel = r;
        else if (lb)
            rel = b_iunary(&B, '-', r);
        else if (rb && e->u.binary.op == '+')
            rel = l;
    }
    if (!rel)
        rel = b_ibin(&B, '-', e, b_builtin(&B, bi));
    return b_offset(&B, rel, -b->lo[d]);
}

static Node *replace_read(Node *n, void *p)
{
    const Box *b = p;
    if (n->kind != AST_GRID_ACCESS || n->u.access.sym != b->view)
        return n;
    Node *ix[3];
    for (int d = 0; d < b->dims; d++)
        ix[d] = box_dim_index(b, n->u.access.ix[d], d);
    return box_index(b, ix);
}

void lower_box_replace_reads(const Box *b, Node *root)
{
    ast_mutate(root, replace_read, (void *)b);
}

Node *lower_linear(Arena *a, Symbol *root, Node **ix, int n, Loc loc)
{
    int h = root->halo;
    Node *lin = lower_plus_halo(a, ix[n - 1], h, loc);
    for (int d = n - 2; d >= 0; d--)
        lin = lower_add(a, lower_mul(a, lin, lower_storage_extent(a, root, d, loc), loc),
                        lower_plus_halo(a, ix[d], h, loc), loc);
    return lin;
}

/* 0 <= off + lin < storage size: element ix of the alias `view` lies in its root's
 * buffer. Reads through an alias may run on past its grid into the neighbouring
 * grids of a stacked buffer, so only the address can tell. */
static Node *alias_in_storage(Arena *a, Node *cond, Symbol *view, Node **ix, int dims)
{
    Symbol *root = symbol_root(view);
    Loc none = {0};
    Node *cix[3];
    for (int d = 0; d < dims; d++)
        cix[d] = ast_copy(a, ix[d]);
    Node *addr = lower_linear(a, root, cix, dims, none);
    for (Symbol *s = view; s && s->kind == SYM_ALIAS; s = s->alias_base)
        if (s->alias_offset)
            addr = lower_add(a, ast_copy(a, s->alias_offset), addr, none);
    Node *size = lower_storage_extent(a, root, 0, none);
    for (int d = 1; d < dims; d++)
        size = lower_mul(a, size, lower_storage_extent(a, root, d, none), none);
    const Build B = build_none(a);
    Node *lo = b_ibin(&B, OP_GE, addr, b_int(&B, 0));
    Node *hi = b_ibin(&B, '<', ast_copy(a, addr), size);
    cond = cond ? b_ibin(&B, OP_AND, cond, lo) : lo;
    return b_ibin(&B, OP_AND, cond, hi);
}

Node *lower_in_storage(Arena *a, Node *cond, Symbol *view, Node **ix, int dims, unsigned mask)
{
    const Build B = build_none(a);
    if (!mask)
        return cond;
    if (view->kind == SYM_ALIAS)
        return alias_in_storage(a, cond, view, ix, dims);
    Symbol *root = symbol_root(view);
    for (int d = 0; d < dims; d++) {
        if (!(mask & 1u << d))
            continue;
        Node *c = call3(a, "imcl_in", ast_copy(a, ix[d]), b_extent(&B, root, d), root->halo, (Loc){0});
        cond = cond ? b_ibin(&B, OP_AND, cond, c) : c;
    }
    return cond;
}

Node *lower_storage_guard(Arena *a, Node *read, Node **ix, unsigned mask)
{
    const Build B = build_none(a);
    Node *cond = lower_in_storage(a, NULL, read->u.access.sym, ix, read->u.access.n, mask);
    if (!cond)
        return read;
    Type *t = read->type;
    Node *zero = type_is_float(t) ? b_float(&B, 0.0, t->kind == TY_FLOAT ? "0.0f" : "0.0", t) : b_int(&B, 0);
    Node *r = b_cond(&B, cond, read, zero);
    r->type = t;
    return r;
}
