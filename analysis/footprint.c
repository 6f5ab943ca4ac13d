/* Footprints (thesis 3.1.4): for every access of an Image/Block, the set of
 * constant offsets from idx/idy/idz in each dimension, found by set-valued
 * constant propagation through local variables, branches and loops with constant
 * bounds. `for (int z = -1; z <= 1; z++) ... in[idx][idy][idz + z]` gives {-1,0,1}. */
#include "analysis.h"

#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#define SET_MAX 64

/* A set of integers, or TOP (any value). */
typedef struct VSet {
    bool top;
    int n;
    long long v[SET_MAX];
} VSet;

/* An index value: builtin `base` (-1: none) plus a set of constants of C type
 * `type` (int when there is a base). */
typedef struct Val {
    int base;
    TypeKind type;
    VSet off;
} Val;

typedef struct Binding {
    Symbol *sym;
    VSet set;
} Binding;

typedef struct Env {
    Binding *b;
    int n, cap;
} Env;

typedef struct FpCtx {
    Arena *a;
    Footprint *fp;
    int loop_limit;
} FpCtx;

static VSet top(void)
{
    VSet s;
    s.top = true;
    s.n = 0;
    return s;
}

static VSet single(long long v)
{
    VSet s;
    s.top = false;
    s.n = 1;
    s.v[0] = v;
    return s;
}

static void set_add(VSet *s, long long v)
{
    if (s->top)
        return;
    for (int i = 0; i < s->n; i++)
        if (s->v[i] == v)
            return;
    if (s->n == SET_MAX) {
        s->top = true;
        return;
    }
    s->v[s->n++] = v;
}

static VSet set_union(VSet a, const VSet *b)
{
    if (b->top)
        return top();
    for (int i = 0; i < b->n && !a.top; i++)
        set_add(&a, b->v[i]);
    return a;
}

/* x op y for every pair of values, as C computes it (consteval.c); any value that is
 * not exactly known (undefined, say) makes the whole set unknown. */
static VSet set_binop(const VSet *x, TypeKind tx, const VSet *y, TypeKind ty, int op)
{
    if (x->top || y->top)
        return top();
    VSet r = {false, 0, {0}};
    for (int i = 0; i < x->n; i++)
        for (int j = 0; j < y->n; j++) {
            ConstVal v = const_binary(op, const_int(tx, x->v[i]), const_int(ty, y->v[j]), NULL);
            if (v.status != CONST_OK)
                return top();
            set_add(&r, v.i);
            if (r.top)
                return r;
        }
    return r;
}

/* The values converted to type `to`, as an assignment or a cast does. */
static VSet set_convert(const VSet *x, TypeKind from, TypeKind to)
{
    if (x->top || !kind_is_integer(to))
        return top();
    VSet r = {false, 0, {0}};
    for (int i = 0; i < x->n; i++)
        set_add(&r, const_convert(const_int(from, x->v[i]), to, NULL).i);
    return r;
}

/* ---- environments ------------------------------------------------------------- */

static VSet *env_find(Env *e, Symbol *s)
{
    for (int i = 0; i < e->n; i++)
        if (e->b[i].sym == s)
            return &e->b[i].set;
    return NULL;
}

static void env_set(FpCtx *c, Env *e, Symbol *s, VSet v)
{
    VSet *p = env_find(e, s);
    if (p) {
        *p = v;
        return;
    }
    ARENA_GROW(c->a, e->b, e->n, e->cap);
    e->b[e->n].sym = s;
    e->b[e->n].set = v;
    e->n++;
}

static Env env_copy(FpCtx *c, const Env *e)
{
    /* Room for the bindings and a few more: a binding is large (compile speed). */
    Env r = {NULL, e->n, e->n + 4};
    r.b = arena_alloc(c->a, sizeof *r.b * (size_t)r.cap);
    if (e->n)
        memcpy(r.b, e->b, sizeof *r.b * (size_t)e->n);
    return r;
}

/* After a branch: every variable may hold what either side left. */
static void env_join(FpCtx *c, Env *into, const Env *other)
{
    for (int i = 0; i < into->n; i++) {
        VSet *o = env_find((Env *)other, into->b[i].sym);
        into->b[i].set = o ? set_union(into->b[i].set, o) : top();
    }
    for (int i = 0; i < other->n; i++)
        if (!env_find(into, other->b[i].sym))
            env_set(c, into, other->b[i].sym, top());
}

/* Variables a statement may assign: they are unknown around loops. */
static bool forget_assigned(Node *n, void *p)
{
    Env *e = p;
    Node *target = NULL;
    if (n->kind == AST_ASSIGN)
        target = n->u.binary.lhs;
    if (n->kind == AST_UNARY && n->u.unary.op >= OP_PREINC && n->u.unary.op <= OP_POSTDEC)
        target = n->u.unary.operand;
    if (target && target->kind == AST_VAR) {
        VSet *s = env_find(e, target->u.var.sym);
        if (s)
            *s = top();
    }
    return true;
}

/* ---- expressions ----------------------------------------------------------------- */

static Val eval(FpCtx *c, Env *e, const Node *n);

static Val vconst(TypeKind type, VSet s)
{
    Val v = {-1, type, s};
    return v;
}

static Val unknown(void)
{
    return vconst(TY_VOID, top());
}

/* Any value of n's type. */
static Val any_of(const Node *n)
{
    return vconst(n->type && type_is_scalar(n->type) ? n->type->kind : TY_VOID, top());
}

static Val eval(FpCtx *c, Env *e, const Node *n)
{
    /* A constant expression has C's own value (consteval.c), casts to and from
     * float included; an undefined one is unknown. */
    if (n->kind != AST_VAR && n->kind != AST_BUILTIN) {
        ConstVal k = const_eval(n);
        if (k.status == CONST_OK && kind_is_integer(k.type))
            return vconst(k.type, single(k.i));
        if (k.status == CONST_UNDEFINED)
            return any_of(n);
    }
    switch (n->kind) {
    case AST_BUILTIN:
        if (n->u.builtin.which <= BI_IDZ) {
            Val v = {(int)n->u.builtin.which, TY_INT, single(0)};
            return v;
        }
        return any_of(n);
    case AST_VAR: {
        VSet *s = env_find(e, n->u.var.sym);
        return vconst(n->u.var.sym->type->kind, s ? *s : top());
    }
    case AST_CAST: {
        TypeKind to = n->type->kind;
        Val x = eval(c, e, n->u.cast.expr);
        if (!kind_is_integer(to) || !kind_is_integer(x.type))
            return any_of(n);
        if (x.base >= 0)
            return to == TY_INT ? x : any_of(n);
        return vconst(to, set_convert(&x.off, x.type, to));
    }
    case AST_UNARY:
        if (n->u.unary.op == '-' || n->u.unary.op == '+') {
            Val x = eval(c, e, n->u.unary.operand);
            if (x.base >= 0 || !kind_is_integer(x.type))
                return any_of(n);
            VSet zero = single(0);
            TypeKind t = kind_common(x.type, TY_INT);
            if (n->u.unary.op == '+')
                return vconst(t, set_convert(&x.off, x.type, t));
            return vconst(t, set_binop(&zero, t, &x.off, x.type, '-'));
        }
        return any_of(n);
    case AST_BINARY: {
        int op = n->u.binary.op;
        if (op != '+' && op != '-' && op != '*' && op != '/' && op != '%')
            return any_of(n);
        Val l = eval(c, e, n->u.binary.lhs), r = eval(c, e, n->u.binary.rhs);
        if ((l.base >= 0 && r.base >= 0) || !kind_is_integer(l.type) || !kind_is_integer(r.type))
            return any_of(n);
        if ((l.base >= 0 || r.base >= 0) && op != '+' && !(op == '-' && r.base < 0))
            return any_of(n);
        /* idx + c is an offset of idx only in int arithmetic (not uint's). */
        TypeKind t = kind_common(l.type, r.type);
        if ((l.base >= 0 || r.base >= 0) && t != TY_INT)
            return any_of(n);
        Val v = {l.base >= 0 ? l.base : r.base, t, set_binop(&l.off, l.type, &r.off, r.type, op)};
        return v;
    }
    default:
        return any_of(n);
    }
}

/* What an assignment to s stores: the values converted to s's type. */
static VSet stored(const Val *v, const Symbol *s)
{
    if (v->base >= 0 || !kind_is_integer(v->type))
        return top();
    return set_convert(&v->off, v->type, s->type->kind);
}

/* ---- statements ---------------------------------------------------------------------- */

static void stmt(FpCtx *c, Env *e, Node *n);

static void record(FpCtx *c, Env *e, Node *acc)
{
    Footprint *fp = c->fp;
    ARENA_GROW(c->a, fp->items, fp->n, fp->cap);
    AccessFootprint *af = &fp->items[fp->n++];
    memset(af, 0, sizeof *af);
    af->access = acc;
    for (int d = 0; d < acc->u.access.n; d++) {
        Val v = eval(c, e, acc->u.access.ix[d]);
        af->known[d] = v.base == d && !v.off.top && v.off.n > 0;
        if (!af->known[d]) {
            af->why[d] = v.base >= 0 && v.base != d ? "indexed by another coordinate"
                       : v.base < 0 ? "not an offset of the grid coordinate"
                       : "the offset is not a compile-time constant";
            continue;
        }
        af->min[d] = af->max[d] = v.off.v[0];
        for (int i = 1; i < v.off.n; i++) {
            if (v.off.v[i] < af->min[d])
                af->min[d] = v.off.v[i];
            if (v.off.v[i] > af->max[d])
                af->max[d] = v.off.v[i];
        }
        af->count[d] = v.off.n;
    }
}

/* Accesses inside an expression, then the effect of its assignments. */
static bool visit_expr(Node *n, void *p)
{
    void **args = p;
    FpCtx *c = args[0];
    Env *e = args[1];
    if (n->kind == AST_GRID_ACCESS)
        record(c, e, n);
    return true;
}

static void expr(FpCtx *c, Env *e, Node *n)
{
    if (!n)
        return;
    void *args[2] = {c, e};
    ast_walk(n, visit_expr, args);
    /* Assignments to scalar locals, in evaluation order of a statement's top. */
    if (n->kind == AST_BINARY && n->u.binary.op == ',') {
        expr(c, e, n->u.binary.lhs);
        expr(c, e, n->u.binary.rhs);
        return;
    }
    if (n->kind == AST_ASSIGN && n->u.binary.lhs->kind == AST_VAR) {
        Symbol *s = n->u.binary.lhs->u.var.sym;
        Val r = eval(c, e, n->u.binary.rhs);
        if (n->u.binary.op != '=') {
            VSet *old = env_find(e, s);
            Val prior = vconst(s->type->kind, old ? *old : top());
            r = r.base >= 0 || !kind_is_integer(r.type) ? unknown()
              : vconst(kind_common(prior.type, r.type),
                       set_binop(&prior.off, prior.type, &r.off, r.type, n->u.binary.op));
        }
        env_set(c, e, s, stored(&r, s));
        return;
    }
    if (n->kind == AST_UNARY && n->u.unary.op >= OP_PREINC && n->u.unary.op <= OP_POSTDEC &&
        n->u.unary.operand->kind == AST_VAR) {
        Symbol *s = n->u.unary.operand->u.var.sym;
        VSet *old = env_find(e, s);
        VSet one = single(1);
        int op = n->u.unary.op == OP_PREINC || n->u.unary.op == OP_POSTINC ? '+' : '-';
        Val r = vconst(kind_common(s->type->kind, TY_INT),
                       old ? set_binop(old, s->type->kind, &one, TY_INT, op) : top());
        env_set(c, e, s, stored(&r, s));
        return;
    }
    ast_walk(n, forget_assigned, e);
}

/* `for (i = a; i < b; i += s)` with constants: the values i takes, or false. */
static bool loop_values(FpCtx *c, Env *e, Node *loop, Symbol **var, VSet *vals)
{
    Node *init = loop->u.loop.init, *cond = loop->u.loop.cond, *step = loop->u.loop.step;
    Symbol *s = NULL;
    Node *start = NULL;
    if (init && init->kind == AST_DECL_LIST && init->u.block.stmts.len == 1)
        init = init->u.block.stmts.items[0];
    if (init && init->kind == AST_DECL) {
        s = init->u.decl.sym;
        start = init->u.decl.init;
    } else if (init && init->kind == AST_EXPR_STMT && init->u.expr_stmt.expr->kind == AST_ASSIGN &&
               init->u.expr_stmt.expr->u.binary.op == '=' &&
               init->u.expr_stmt.expr->u.binary.lhs->kind == AST_VAR) {
        s = init->u.expr_stmt.expr->u.binary.lhs->u.var.sym;
        start = init->u.expr_stmt.expr->u.binary.rhs;
    }
    if (!s || !start || !cond || !step || cond->kind != AST_BINARY)
        return false;
    if (!kind_is_integer(s->type->kind))
        return false;
    Val v0 = eval(c, e, start);
    VSet first = stored(&v0, s);
    if (first.top || first.n != 1)
        return false;
    if (cond->u.binary.lhs->kind != AST_VAR || cond->u.binary.lhs->u.var.sym != s)
        return false;
    Val lim = eval(c, e, cond->u.binary.rhs);
    if (lim.base >= 0 || lim.off.top || lim.off.n != 1 || !kind_is_integer(lim.type))
        return false;
    /* The step: i = i op inc, in C's types. */
    int op;
    ConstVal inc;
    if (step->kind == AST_UNARY && step->u.unary.operand->kind == AST_VAR && step->u.unary.operand->u.var.sym == s &&
        step->u.unary.op >= OP_PREINC) {
        op = step->u.unary.op == OP_PREINC || step->u.unary.op == OP_POSTINC ? '+' : '-';
        inc = const_int(TY_INT, 1);
    } else if (step->kind == AST_ASSIGN && step->u.binary.lhs->kind == AST_VAR &&
               step->u.binary.lhs->u.var.sym == s && (step->u.binary.op == '+' || step->u.binary.op == '-')) {
        op = step->u.binary.op;
        inc = const_eval(step->u.binary.rhs);
        if (inc.status != CONST_OK || !kind_is_integer(inc.type) || inc.i == 0)
            return false;
    } else {
        return false;
    }
    int rel = cond->u.binary.op;
    if (rel != '<' && rel != OP_LE && rel != '>' && rel != OP_GE && rel != OP_NE)
        return false;
    /* The body must not assign the loop variable. */
    Env probe = {0};
    env_set(c, &probe, s, single(0));
    ast_walk(loop->u.loop.body, forget_assigned, &probe);
    if (env_find(&probe, s)->top)
        return false;
    TypeKind vt = s->type->kind;
    ConstVal i = const_int(vt, first.v[0]), b = const_int(lim.type, lim.off.v[0]);
    VSet r = {false, 0, {0}};
    for (int iter = 0; iter <= c->loop_limit; iter++) {
        ConstVal go = const_binary(rel, i, b, NULL);
        if (go.status != CONST_OK)
            return false;
        if (!go.i) {
            *var = s;
            *vals = r;
            return r.n > 0;
        }
        set_add(&r, i.i);
        i = const_convert(const_binary(op, i, inc, NULL), vt, NULL);
        if (i.status != CONST_OK)
            return false;
    }
    return false;
}

static void stmt(FpCtx *c, Env *e, Node *n)
{
    if (!n)
        return;
    switch (n->kind) {
    case AST_BLOCK:
    case AST_DECL_LIST:
        for (int i = 0; i < n->u.block.stmts.len; i++)
            stmt(c, e, n->u.block.stmts.items[i]);
        break;
    case AST_DECL:
        if (n->u.decl.init) {
            expr(c, e, n->u.decl.init);
            Val v = eval(c, e, n->u.decl.init);
            env_set(c, e, n->u.decl.sym, stored(&v, n->u.decl.sym));
        } else {
            env_set(c, e, n->u.decl.sym, top());
        }
        break;
    case AST_EXPR_STMT:
        expr(c, e, n->u.expr_stmt.expr);
        break;
    case AST_IF: {
        expr(c, e, n->u.if_.cond);
        Env other = env_copy(c, e);
        stmt(c, e, n->u.if_.then);
        stmt(c, &other, n->u.if_.els);
        env_join(c, e, &other);
        break;
    }
    case AST_FOR: {
        Symbol *var;
        VSet vals;
        Env inner = env_copy(c, e);
        if (loop_values(c, e, n, &var, &vals)) {
            ast_walk(n->u.loop.body, forget_assigned, &inner);
            env_set(c, &inner, var, vals);
            stmt(c, &inner, n->u.loop.body);
        } else {
            stmt(c, &inner, n->u.loop.init);
            ast_walk(n, forget_assigned, &inner);
            expr(c, &inner, n->u.loop.cond);
            stmt(c, &inner, n->u.loop.body);
            expr(c, &inner, n->u.loop.step);
        }
        ast_walk(n, forget_assigned, e);
        break;
    }
    case AST_WHILE:
    case AST_DO: {
        Env inner = env_copy(c, e);
        ast_walk(n, forget_assigned, &inner);
        expr(c, &inner, n->u.loop.cond);
        stmt(c, &inner, n->u.loop.body);
        ast_walk(n, forget_assigned, e);
        break;
    }
    case AST_RETURN:
        expr(c, e, n->u.ret.value);
        break;
    default:
        break;
    }
}

/* The first slot of access n in fp's index. */
static size_t slot_of(const Footprint *fp, const Node *n)
{
    uint64_t h = (uint64_t)(uintptr_t)n * 0x9E3779B97F4A7C15u;
    return (size_t)(h >> 32) & (size_t)(fp->nindex - 1);
}

Footprint *analyze_footprint(Arena *a, Function *k)
{
    Footprint *fp = ARENA_NEW(a, Footprint);
    fp->k = k;
    FpCtx c = {a, fp, 4096};
    Env e = {0};
    stmt(&c, &e, ast_point_body(k));
    /* An index by access: footprint_of is asked once per access by the passes, so a
     * search through the items would make a large kernel quadratic. */
    fp->nindex = 16;
    while (fp->nindex < 2 * fp->n + 1)
        fp->nindex *= 2;
    fp->index = arena_alloc(a, sizeof(int) * (size_t)fp->nindex);
    for (int i = 0; i < fp->nindex; i++)
        fp->index[i] = -1;
    for (int i = 0; i < fp->n; i++) {
        size_t h = slot_of(fp, fp->items[i].access);
        while (fp->index[h] >= 0 && fp->items[fp->index[h]].access != fp->items[i].access)
            h = (h + 1) & (size_t)(fp->nindex - 1);
        if (fp->index[h] < 0)
            fp->index[h] = i;
    }
    return fp;
}

const AccessFootprint *footprint_of(const Footprint *fp, const Node *acc)
{
    if (!fp || !fp->index)
        return NULL;
    for (size_t h = slot_of(fp, acc); fp->index[h] >= 0; h = (h + 1) & (size_t)(fp->nindex - 1))
        if (fp->items[fp->index[h]].access == acc)
            return &fp->items[fp->index[h]];
    return NULL;
}

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
    if (l->kind == AST_BUILTIN && l->u.builtin.which == b && ast_const_offset(r, &c)) {
        *offset = ix->u.binary.op == '+' ? c : -c;
        return true;
    }
    if (ix->u.binary.op == '+' && r->kind == AST_BUILTIN && r->u.builtin.which == b &&
        ast_const_offset(l, &c)) {
        *offset = c;
        return true;
    }
    return false;
}

bool analyze_access_inside(const Function *k, const Footprint *fp, const Node *acc, int dim)
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
    const AccessFootprint *af = footprint_of(fp, acc);
    if (af)
        return af->known[dim] && af->min[dim] >= -s->halo && af->max[dim] <= s->halo;
    long long off;
    if (!analyze_const_offset(acc->u.access.ix[dim], (Builtin)(BI_IDX + dim), &off))
        return false;
    return off >= -s->halo && off <= s->halo;
}

bool analyze_access_known(const Footprint *fp, const Node *acc, int dim, long long *min, long long *max)
{
    if (acc->u.access.sym->kind != SYM_PARAM)
        return false;
    const AccessFootprint *af = footprint_of(fp, acc);
    if (!af || !af->known[dim])
        return false;
    *min = af->min[dim];
    *max = af->max[dim];
    return true;
}
