/* The size of a kernel's unrolled code: one walk over the point's body gives it for
 * given unroll factors, or as a Python expression over the unroll parameters (unrolled.h). */
#include "unrolled.h"

#include "analysis.h"
#include "space.h"

typedef struct Sizer {
    const LoopTable *loops;
    const int *factor;  /* per loop of the table; NULL: the expression over the parameters */
    const bool *named;  /* with factor NULL: the loops the expression names */
    long long *whole;   /* per loop: its size where the compiler unrolls it (-1: it does
                         * not, -2: not known yet), shared by the walk and its probes */
    const int *ones;    /* 1 per loop */
    bool probe;         /* a walk of by_compiler: it ends at the first loop... */
    bool other_loop;    /* ...the compiler does not unroll */
    Arena *a;
    int depth;          /* helper calls being walked (no recursion in ImageCL) */
} Sizer;

static int loop_index(const Sizer *s, const Node *n)
{
    for (int i = 0; n->kind == AST_FOR && i < s->loops->n; i++)
        if (s->loops->items[i].loop == n)
            return i;
    return -1;
}

static long long size_of(Sizer *s, Node *n, StrBuf *expr);

/* The size of loop i where the device compiler unrolls it whole whatever its factor
 * (UNROLLED_BY_COMPILER), else -1. */
static long long by_compiler(Sizer *s, int i)
{
    const LoopInfo *li = &s->loops->items[i];
    if (s->whole[i] == -2) {
        Sizer probe = *s;
        probe.factor = s->ones;
        probe.probe = true;
        probe.other_loop = false;
        long long body = li->trip_known ? size_of(&probe, li->loop->u.loop.body, NULL) : 0;
        bool small = li->trip_known && !probe.other_loop && li->trip * body <= UNROLLED_BY_COMPILER;
        s->whole[i] = small ? li->trip * body : -1;
    }
    return s->whole[i];
}

/* The size of the tree under n: the part that no unroll parameter multiplies is
 * returned; with s->factor NULL, the rest is appended to expr as terms
 * ` + unroll_L<line> * (...)`. */
static long long size_of(Sizer *s, Node *n, StrBuf *expr)
{
    if (!n || (s->probe && s->other_loop))
        return 0;
    long long c = n->kind == AST_GRID_ACCESS ? UNROLLED_ACCESS_WEIGHT : 1;
    if (n->kind == AST_BLOCK || n->kind == AST_DECL_LIST) {
        for (int i = 0; i < n->u.block.stmts.len; i++)
            c += size_of(s, n->u.block.stmts.items[i], expr);
        return c;
    }
    if (n->kind == AST_CALL) {
        for (int i = 0; i < n->u.call.args.len; i++)
            c += size_of(s, n->u.call.args.items[i], expr);
        /* a helper's body is inlined at each call */
        const Function *h = n->u.call.fn ? n->u.call.fn->func : NULL;
        if (h && s->depth < 64) {
            s->depth++;
            c += size_of(s, h->body, expr);
            s->depth--;
        }
        return c;
    }
    int li = loop_index(s, n);
    long long whole = li >= 0 ? by_compiler(s, li) : -1;
    if (n->kind == AST_FOR || n->kind == AST_WHILE || n->kind == AST_DO)
        s->other_loop |= whole < 0;
    Node **slots[8];
    int k = ast_children(n, slots, 8);
    for (int i = 0; i < k; i++) {
        Node *child = *slots[i];
        if (li < 0 || child != n->u.loop.body) {
            c += size_of(s, child, expr);
        } else if (whole >= 0) {
            c += whole;
        } else if (s->factor) {
            c += s->factor[li] * size_of(s, child, NULL);
        } else if (!s->named[li]) {
            c += size_of(s, child, expr);
        } else {
            StrBuf inner = {0};
            long long body = size_of(s, child, &inner);
            sb_printf(expr, " + %s * (%lld%s)", params_loop_name(s->a, &s->loops->items[li]), body,
                      sb_str(&inner));
            sb_free(&inner);
        }
    }
    return c;
}

/* A walk over k's loops: with named, the expression over the loops it names; else
 * the size at factors (NULL: 1 for every loop). */
static Sizer sizer(Arena *a, const LoopTable *loops, const int *factors, const bool *named)
{
    long long *whole = arena_alloc(a, sizeof(long long) * (size_t)(loops->n + 1));
    int *ones = arena_alloc(a, sizeof(int) * (size_t)(loops->n + 1));
    for (int i = 0; i < loops->n; i++) {
        whole[i] = -2;
        ones[i] = 1;
    }
    return (Sizer){loops, named ? NULL : factors ? factors : ones, named, whole, ones, false, false, a, 0};
}

long long unrolled_size_at(Arena *a, Function *k, const int *factors, bool interior)
{
    LoopTable loops = analyze_loops(a, k);
    Sizer s = sizer(a, &loops, factors, NULL);
    return size_of(&s, ast_point_body(k), NULL) * (interior ? 2 : 1);
}

long long unrolled_size(Arena *a, Function *k, const TuneParams *tp)
{
    LoopTable loops = analyze_loops(a, k);
    int *factors = arena_alloc(a, sizeof(int) * (size_t)(loops.n + 1));
    for (int i = 0; i < loops.n; i++)
        factors[i] = params_unroll_factor(tp, &loops.items[i]);
    /* (the copy is made where some guard can go) */
    return unrolled_size_at(a, k, factors, tp->interior && analyze_interior(a, k, NULL));
}

const char *unrolled_restriction(Arena *a, Function *k, const int *factors, bool interior)
{
    if (unrolled_size_at(a, k, factors, interior) <= UNROLLED_MAX_SIZE ||
        unrolled_size_at(a, k, NULL, false) > UNROLLED_MAX_SIZE)
        return NULL;
    LoopTable loops = analyze_loops(a, k);
    bool *named = arena_alloc(a, sizeof(bool) * (size_t)(loops.n + 1));
    for (int i = 0; i < loops.n; i++)
        named[i] = factors[i] > 1;
    Sizer s = sizer(a, &loops, NULL, named);
    StrBuf expr = {0};
    long long c = size_of(&s, ast_point_body(k), &expr);
    const char *copy = interior ? arena_printf(a, "(1 + %s) * (", PARAM_NAME(interior)) : "";
    const char *r = arena_printf(a, "%s%lld%s%s <= %d", copy, c, sb_str(&expr), interior ? ")" : "",
                                 UNROLLED_MAX_SIZE);
    sb_free(&expr);
    return r;
}

bool unrolled_check(Arena *a, Function *k, TuneParams *tp, const SpaceOptions *o, Diag *d)
{
    if (!o->backend->gpu)
        return true;
    long long size = tp->unrolled_size = unrolled_size(a, k, tp);
    if (size <= UNROLLED_MAX_SIZE || unrolled_size_at(a, k, NULL, false) > UNROLLED_MAX_SIZE)
        return true;
    /* interior 1 is only the default: it gives way where the copy would not fit */
    if (tp->interior && !tp->interior_given) {
        tp->interior = 0;
        if ((size = tp->unrolled_size = unrolled_size(a, k, tp)) <= UNROLLED_MAX_SIZE)
            return true;
        tp->interior = 1;
        tp->unrolled_size = unrolled_size(a, k, tp);
    }
    diag_plain_error(d, "kernel '%s' unrolls to a size of %lld with these unroll factors%s (imcl --analyze "
                        "shows its sizes), more than the %d a device compiler takes in reasonable time",
                     k->name, size, tp->interior ? " and interior 1" : "", UNROLLED_MAX_SIZE);
    return false;
}
