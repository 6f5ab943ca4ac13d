/* The cost of one grid point (imcl --analyze): the floating-point operations of the
 * costliest path through the kernel's body and the compulsory memory traffic of its
 * grid arrays, from the AST before any pass; the roofline model turns them into a
 * bound on grid points per second (docs/performance.md, "Roofline"). */
#include "analysis.h"

#include <string.h>

typedef struct CostWalk {
    Arena *a;
    const LoopTable *loops;
    /* Per array parameter (by param_index, aliases counted on their root), the grid
     * reads and writes as written, times the trip counts of their loops. */
    double *loads, *stores;
    int narrays;
    bool exact;
    int depth;              /* helper calls being walked (no recursion in ImageCL) */
} CostWalk;

/* The counters of the costliest path: a branch keeps, per array, the larger side. */
typedef struct Counts {
    double *loads, *stores;
} Counts;

static Counts counts_save(Arena *a, const CostWalk *w)
{
    Counts c = {arena_alloc(a, sizeof(double) * (size_t)(w->narrays + 1)),
                arena_alloc(a, sizeof(double) * (size_t)(w->narrays + 1))};
    memcpy(c.loads, w->loads, sizeof(double) * (size_t)w->narrays);
    memcpy(c.stores, w->stores, sizeof(double) * (size_t)w->narrays);
    return c;
}

static void counts_restore(CostWalk *w, const Counts *c)
{
    memcpy(w->loads, c->loads, sizeof(double) * (size_t)w->narrays);
    memcpy(w->stores, c->stores, sizeof(double) * (size_t)w->narrays);
}

static void count(CostWalk *w, const Node *access, bool store)
{
    int i = symbol_root(access->u.access.sym)->param_index;
    if (i >= 0 && i < w->narrays)
        (store ? w->stores : w->loads)[i]++;
}

static bool is_float(const Type *t)
{
    return t && (t->kind == TY_FLOAT || t->kind == TY_DOUBLE);
}

static double flops_of(CostWalk *w, const Node *n);

static double flops_of_list(CostWalk *w, const NodeList *l)
{
    double f = 0;
    for (int i = 0; i < l->len; i++)
        f += flops_of(w, l->items[i]);
    return f;
}

/* The trip count of loop n: its constant count, else 1 (and the cost is a lower bound). */
static double trips(CostWalk *w, const Node *n)
{
    if (n->kind == AST_FOR)
        for (int i = 0; i < w->loops->n; i++)
            if (w->loops->items[i].loop == n && w->loops->items[i].trip_known)
                return (double)w->loops->items[i].trip;
    w->exact = false;
    return 1;
}

/* The flops of n; grid reads are counted into w->loads on the way. A loop multiplies
 * its body by its trip count, a branch takes the costlier side (and so does the
 * count of loads under it: the costliest path). */
static double flops_of(CostWalk *w, const Node *n)
{
    if (!n)
        return 0;
    switch (n->kind) {
    case AST_BINARY: {
        int op = n->u.binary.op;
        double f = (op == '+' || op == '-' || op == '*' || op == '/') && is_float(n->type);
        return f + flops_of(w, n->u.binary.lhs) + flops_of(w, n->u.binary.rhs);
    }
    case AST_ASSIGN: {
        /* the target is written, not read: a compound assignment reads it too */
        const Node *lhs = n->u.binary.lhs;
        double f = n->u.binary.op != '=' && is_float(n->type);
        if (lhs->kind == AST_GRID_ACCESS) {
            count(w, lhs, true);
            if (n->u.binary.op != '=')
                count(w, lhs, false);
            for (int d = 0; d < lhs->u.access.n; d++)
                f += flops_of(w, lhs->u.access.ix[d]);
        } else {
            f += lhs->kind == AST_VAR ? 0 : flops_of(w, lhs);
        }
        return f + flops_of(w, n->u.binary.rhs);
    }
    case AST_GRID_ACCESS: {
        count(w, n, false);
        double f = 0;
        for (int d = 0; d < n->u.access.n; d++)
            f += flops_of(w, n->u.access.ix[d]);
        return f;
    }
    case AST_UNARY:
        return flops_of(w, n->u.unary.operand);
    case AST_CAST:
        return flops_of(w, n->u.cast.expr);
    case AST_INDEX:
        return flops_of(w, n->u.index.base) + flops_of(w, n->u.index.index);
    case AST_CALL: {
        double f = flops_of_list(w, &n->u.call.args);
        if (n->u.call.math)
            return f + is_float(n->type);   /* a math function: one operation */
        const Function *h = n->u.call.fn ? n->u.call.fn->func : NULL;
        if (h && w->depth < 64) {
            w->depth++;
            f += flops_of(w, h->body);
            w->depth--;
        }
        return f;
    }
    case AST_COND:
    case AST_IF: {
        const Node *c = n->kind == AST_IF ? n->u.if_.cond : n->u.cond.cond;
        const Node *t = n->kind == AST_IF ? n->u.if_.then : n->u.cond.then;
        const Node *e = n->kind == AST_IF ? n->u.if_.els : n->u.cond.els;
        double f = flops_of(w, c);
        Counts before = counts_save(w->a, w);
        double ft = flops_of(w, t);
        Counts then = counts_save(w->a, w);
        counts_restore(w, &before);
        double fe = flops_of(w, e);
        for (int i = 0; i < w->narrays; i++) {
            w->loads[i] = w->loads[i] > then.loads[i] ? w->loads[i] : then.loads[i];
            w->stores[i] = w->stores[i] > then.stores[i] ? w->stores[i] : then.stores[i];
        }
        return f + (ft > fe ? ft : fe);
    }
    case AST_FOR:
    case AST_WHILE:
    case AST_DO: {
        double init = flops_of(w, n->u.loop.init);
        Counts before = counts_save(w->a, w);
        double f = flops_of(w, n->u.loop.cond) + flops_of(w, n->u.loop.step) + flops_of(w, n->u.loop.body);
        double k = trips(w, n);
        for (int i = 0; i < w->narrays; i++) {
            w->loads[i] = before.loads[i] + (w->loads[i] - before.loads[i]) * k;
            w->stores[i] = before.stores[i] + (w->stores[i] - before.stores[i]) * k;
        }
        return init + f * k;
    }
    case AST_BLOCK:
    case AST_DECL_LIST:
        return flops_of_list(w, &n->u.block.stmts);
    case AST_DECL:
        return flops_of(w, n->u.decl.init);
    case AST_EXPR_STMT:
        return flops_of(w, n->u.expr_stmt.expr);
    case AST_RETURN:
        return flops_of(w, n->u.ret.value);
    default:
        return 0;
    }
}

KernelCost analyze_cost(Arena *a, Function *k)
{
    LoopTable loops = analyze_loops(a, k);
    int n = k->nparams;
    CostWalk w = {a, &loops, arena_alloc(a, sizeof(double) * (size_t)(n + 1)),
                  arena_alloc(a, sizeof(double) * (size_t)(n + 1)), n, true, 0};
    memset(w.loads, 0, sizeof(double) * (size_t)(n + 1));
    memset(w.stores, 0, sizeof(double) * (size_t)(n + 1));
    KernelCost c = {0};
    c.flops = flops_of(&w, ast_point_body(k));
    c.exact = w.exact;
    /* Compulsory traffic: over a sweep of the grid, neighbouring points share their
     * reads (through the caches, or shared memory), so an array whose every access
     * has a known footprint (constant offsets from the point, on the array itself)
     * costs one element read per point, and one stored when written. Any other
     * access pattern (through an alias, or an offset unknown at compile time) gets no
     * reuse: each access counts, an upper bound. */
    Footprint *fp = analyze_footprint(a, k);
    bool *reuse = arena_alloc(a, sizeof(bool) * (size_t)(n + 1));
    for (int i = 0; i < n; i++)
        reuse[i] = true;
    for (int i = 0; i < fp->n; i++) {
        const AccessFootprint *af = &fp->items[i];
        const Symbol *s = af->access->u.access.sym;
        bool known = symbol_root((Symbol *)s) == s;
        for (int d = 0; d < af->access->u.access.n; d++)
            known &= af->known[d];
        int p = symbol_root((Symbol *)s)->param_index;
        if (!known && p >= 0 && p < n)
            reuse[p] = false;
    }
    for (int i = 0; i < n; i++) {
        const Symbol *s = k->params[i];
        c.loads += w.loads[i];
        if (!type_is_grid(s->type))
            continue;
        int size = type_size(s->type->elem);
        /* an array written in full before any read comes from the kernel's own stores
         * (analyze_access), and so do the reads that follow them */
        double rd = s->fully_written ? 0 : reuse[i] ? (w.loads[i] > 0) : w.loads[i];
        double wr = reuse[i] ? (w.stores[i] > 0) : w.stores[i];
        c.bytes_read += rd * size;
        c.bytes_written += wr * size;
        c.no_reuse |= !reuse[i];
    }
    return c;
}
