/* pass_thread_mapping: grid point coordinates from thread and block indices,
 * with thread coarsening (thesis eq. 3.1-3.6).
 *
 * Without coarsening a thread computes one point:
 *     idx = group_x * B_x + thread_x
 * With coarsening C_x > 1 a thread computes C_x points along x; the block covers
 * B_x * C_x points, and point c (0 <= c < C_x) of a thread is
 *     interleaved (eq. 3.1-3.3): idx = group_x * B_x * C_x + c * B_x + thread_x
 *     blocked     (eq. 3.4-3.6): idx = group_x * B_x * C_x + thread_x * C_x + c
 * Interleaved points are a block apart, so neighbouring threads touch neighbouring
 * elements (coalesced); blocked points are adjacent. The wrappers launch
 * ceil(W / (B_x * C_x)) blocks (eq. 3.7-3.9), so points past the grid's edge are
 * skipped one by one, or, where a thread's points are all its block has in that
 * dimension (B = 1) and computing a point twice is harmless, clamped to the last
 * one, which the same thread computed before. */
#include "passes.h"
#include "build.h"
#include "backend.h"
#include "lower.h"
#include "params.h"
#include "unrolled.h"

#define NEXT_POINT "imcl_next_point"
/* The most points of one thread whose loops are marked for unrolling. */
#define UNROLLED_POINTS 8

typedef struct Mapping {
    Arena *a;
    Symbol *coord[3];
    bool used[3];
    bool coarsened;
    bool clamp[3];      /* points past the edge are the last one again (clamps()) */
    /* With coarsening: scalar parameters the kernel assigns, and the per-point
     * copies that replace them in the body. */
    Symbol *param[FUNCTION_MAX_PARAMS];
    Symbol *copy[FUNCTION_MAX_PARAMS];
    int ncopies;
    const char *label;  /* where a `return` of a coarsened thread's point goes */
} Mapping;

static bool find_uses(Node *n, void *p)
{
    Mapping *m = p;
    if (n->kind == AST_BUILTIN && n->u.builtin.which <= BI_IDZ)
        m->used[n->u.builtin.which] = true;
    return true;
}

/* idx/idy/idz become the mapping's locals; with several points per thread, a
 * `return` of the kernel ends only the current point. */
static Node *replace(Node *n, void *p)
{
    Mapping *m = p;
    if (n->kind == AST_BUILTIN && n->u.builtin.which <= BI_IDZ)
        return ast_build_var_ref(m->a, m->coord[n->u.builtin.which], n->loc);
    if (n->kind == AST_RETURN && m->coarsened)
        return ast_build_goto(m->a, m->label, n->loc);
    if (n->kind == AST_VAR)
        for (int i = 0; i < m->ncopies; i++)
            if (n->u.var.sym == m->param[i])
                return ast_build_var_ref(m->a, m->copy[i], n->loc);
    return n;
}

/* Scalar parameters the body assigns: each point must start from the value the
 * caller passed, so with several points per thread they become per-point copies. */
static void copy_assigned_params(Mapping *m, Function *k)
{
    for (int i = 0; i < k->nparams && m->ncopies < FUNCTION_MAX_PARAMS; i++) {
        Symbol *s = k->params[i];
        if (!type_is_scalar(s->type) || !ast_assigns(ast_point_body(k), s))
            continue;
        m->param[m->ncopies] = s;
        m->copy[m->ncopies++] = ast_build_symbol(m->a, arena_printf(m->a, "imcl_point_%s", s->name), SYM_LOCAL,
                                                 s->type, s->loc);
    }
}

/* The coordinate of dimension d for coarsening index `c` (NULL: no coarsening). */
static Node *coordinate(Arena *a, const TuneParams *tp, int d, Symbol *c)
{
    const Build B = build_none(a);
    int block = tp->block[d], C = tp->coarsen[d];
    /* work-groups that fit the grid (TuneParams.row_fit): their width and height are
     * the launch's (one point each) */
    Node *span = d < 2 && tp->row_fit && C == 1 ? b_builtin(&B, (Builtin)(BI_BLOCK_DIM_X + d))
                                                 : b_int(&B, (long long)block * C);
    Node *group = b_bin(&B, '*', b_builtin(&B, (Builtin)(BI_GROUP_X + d)), span);
    Node *thread = b_builtin(&B, (Builtin)(BI_THREAD_X + d));
    if (!c)
        return b_bin(&B, '+', group, thread);
    Node *cv = b_var(&B, c);
    if (d == 2 && tp->stream_z)  /* one thread per block in z walks its points */
        return b_bin(&B, '+', group, cv);
    Node *within = tp->interleaved
        ? b_bin(&B, '+', b_bin(&B, '*', cv, b_int(&B, block)), thread)
        : b_bin(&B, '+', b_bin(&B, '*', thread, b_int(&B, C)), cv);
    return b_bin(&B, '+', group, within);
}

/* Whether kernel k may compute a point twice: it reads no array it writes (an alias
 * counts as its base array, and the arrays a caller passes never overlap:
 * docs/language.md), so the second time stores what the first did. */
static bool recompute_safe(const Function *k)
{
    const Node *p = ast_points(k);
    if (p->u.points.point_prologue->u.block.stmts.len || p->u.points.point_epilogue->u.block.stmts.len)
        return false;  /* pass_register_cache's lanes exchange values point by point */
    for (int i = 0; i < k->nparams; i++)
        if ((k->params[i]->access & ACC_WRITE) && (k->params[i]->access & ACC_READ))
            return false;
    return true;
}

/* The dimensions whose points past the edge of the grid are clamped to the last one
 * instead of being skipped: a thread's points are all its block has there (B = 1,
 * not a stream_z walk), so the last point is this thread's own, computed at an
 * earlier iteration, and the clamped store repeats it. A branch around each point's
 * store stops PoCL vectorising the work-group (sum7 at 256^3 with coarsen_z 2: 7%
 * slower; docs/performance.md). */
static void clamps(Mapping *m, const Function *k, const TuneParams *tp, Symbol **cvar)
{
    bool safe = recompute_safe(k);
    for (int d = 0; d < k->grid_dims; d++)
        m->clamp[d] = safe && cvar[d] && tp->block[d] == 1 && !(d == 2 && tp->stream_z);
}

/* An int-typed call of min(l, r). */
static Node *int_min(const Build *B, Node *l, Node *r)
{
    Node *call = b_call(B, "min");
    call->u.call.math = MATH_MIN;
    call->type = type_scalar(TY_INT);
    ast_append_arg(B->a, call, l);
    ast_append_arg(B->a, call, r);
    return call;
}

/* The limit of interior bound `b` of dimension d: the points before it are inside. */
static Node *bound_limit(const Build *B, const InteriorBound *b, int d)
{
    Node *limit = b->array ? b_extent(B, b->array, d) : b_builtin(B, (Builtin)(BI_W + d));
    limit->type = type_scalar(TY_INT);
    return b_offset(B, limit, b->off);
}

/* cond (NULL: none yet) extended, in dimension d, by pass_interior's tests: `first` at
 * or past the interior's lo, and `end` `op` (OP_LE or '<') each of its bounds. */
static Node *interior_tests(const Build *B, const Interior *in, int d, Node *first, Node *end, int op,
                            Node *cond)
{
    if (in->lo[d] > 0) {
        Node *c = b_ibin(B, OP_GE, first, b_int(B, in->lo[d]));
        cond = cond ? b_ibin(B, OP_AND, cond, c) : c;
    }
    for (int i = 0; i < in->nhi[d]; i++) {
        Node *c = b_ibin(B, op, ast_copy(B->a, end), bound_limit(B, &in->hi[d][i], d));
        cond = cond ? b_ibin(B, OP_AND, cond, c) : c;
    }
    return cond;
}

/* Whether the whole block lies in the kernel's interior (pass_interior): in each
 * dimension, its first point at or past lo and its last before every bound. */
static Node *block_interior(Arena *a, const Function *k, const TuneParams *tp)
{
    const Build B = build_none(a);
    Node *cond = NULL;
    for (int d = 0; d < k->grid_dims; d++) {
        long long span = (long long)tp->block[d] * tp->coarsen[d];
        Node *first = b_ibin(&B, '*', b_builtin(&B, (Builtin)(BI_GROUP_X + d)), b_int(&B, span));
        Node *next = b_ibin(&B, '+', b_builtin(&B, (Builtin)(BI_GROUP_X + d)), b_int(&B, 1));
        cond = interior_tests(&B, k->interior, d, first, b_ibin(&B, '*', next, b_int(&B, span)), OP_LE, cond);
    }
    return cond;
}

/* The interior split's comment; with Backend.split_reads_thread, why its test reads
 * the thread index. */
#define SPLIT "blocks far enough from every edge of the grid run the body without edge guards"
#define SPLIT_WHY SPLIT " (the thread index's test always holds: it keeps PoCL 3.1 from running " \
                  "the edge copy twice for the first work-item after the barrier)"

/* The CPU variant's test that the point lies in the storage of the grid's first
 * array in y (and z), always true past the edge test (the array's extents are the
 * grid's): measured on PoCL 3.1 (LLVM 15), a kernel whose array reads carry no guard
 * of their own (boundary `none`, miniAMR's stencil) loaded each row's elements with
 * gathers instead of vector loads, 3x slower; under this test it vectorises as the
 * guarded kernels do (docs/performance.md). NULL when the grid is not an array's. */
#define RANGE_WHY "always true (the grid array's storage holds every point): it lets the device " \
                  "compiler see each row's elements as consecutive and load them as vectors"
static Node *storage_range(Mapping *m, const Function *k)
{
    const Build B = build_none(m->a);
    if (k->grid_kind != GRID_ARRAYS || !k->ngrid_arrays || k->grid_dims < 2)
        return NULL;
    Node *ix[3];
    for (int d = 0; d < k->grid_dims; d++)
        ix[d] = b_var(&B, m->coord[d]);
    unsigned yz = (1u << k->grid_dims) - 2u;
    return lower_in_storage(m->a, NULL, k->grid_arrays[0], ix, k->grid_dims, yz);
}

#define CLAMP_WHY "a point past the edge of the grid is the last one again (min): this thread " \
                  "computed it already, the kernel reads no array it writes, and a store without a " \
                  "branch around it lets the device compiler vectorise"
/* The statements that run `stmts` (the kernel's body, mapped) at every point of
 * this thread: its coordinates (those in `need`), then with `edge` the test that
 * skips points past the edge of the grid, then the body; with coarsening one loop
 * per coarsened dimension around that, and `label` ending a point that returns. */
static Node *points(Mapping *m, Function *k, const TuneParams *tp, Symbol **cvar, Node *stmts, bool edge,
                    const bool need[3], const char *label, bool returns)
{
    Arena *a = m->a;
    const Build B = build_none(a);
    Node *point = b_block(&B);
    ast_append_stmt(a, point, b_comment(&B, m->coarsened ? "the grid point of this iteration"
                                                         : "the grid point of this thread"));
    Node *guard = NULL;
    bool clamped = false;
    for (int d = 0; d < 3; d++) {
        if (!m->used[d] || !need[d])
            continue;
        Node *init;
        if (d < k->grid_dims && edge && m->clamp[d]) {
            Node *last = b_ibin(&B, '-', b_builtin(&B, (Builtin)(BI_W + d)), b_int(&B, 1));
            init = int_min(&B, coordinate(a, tp, d, cvar[d]), last);
            if (!clamped)
                ast_append_stmt(a, point, b_comment(&B, CLAMP_WHY));
            clamped = true;
        } else if (d < k->grid_dims) {
            init = coordinate(a, tp, d, cvar[d]);
            Node *past = b_bin(&B, OP_GE, b_var(&B, m->coord[d]), b_builtin(&B, (Builtin)(BI_W + d)));
            guard = guard ? b_bin(&B, OP_OR, guard, past) : past;
        } else {
            init = b_int(&B, 0);
        }
        Node *decl = b_decl(&B, m->coord[d], init);
        decl->u.decl.is_const = true;
        ast_append_stmt(a, point, decl);
    }
    const Node *pl = ast_points(k);
    if (pl->u.points.point_prologue->u.block.stmts.len) {
        /* every thread, inside the grid or not (pass_register_cache's shuffles) */
        Node *pp = ast_mutate(ast_copy(a, pl->u.points.point_prologue), replace, m);
        ast_fix_parents(pp);
        for (int i = 0; i < pp->u.block.stmts.len; i++)
            ast_append_stmt(a, point, pp->u.block.stmts.items[i]);
    }
    if (!m->coarsened) {
        if (edge) {
            ast_append_stmt(a, point, b_comment(&B, "threads past the edge of the grid have no point"));
            ast_append_stmt(a, point, b_if(&B, guard, b_return(&B, NULL), NULL));
        }
        Node *range = tp->cpu_variant ? storage_range(m, k) : NULL;
        if (range) {
            ast_append_stmt(a, point, b_comment(&B, RANGE_WHY));
            Node *only = stmts->u.block.stmts.len == 1 ? stmts->u.block.stmts.items[0] : NULL;
            if (only && only->kind == AST_IF && !only->u.if_.els && only->loc.line == 0) {
                /* the body is the guard of its writes: one test for both */
                Node **leaf = &only->u.if_.cond;
                while ((*leaf)->kind == AST_BINARY && (*leaf)->u.binary.op == OP_AND)
                    leaf = &(*leaf)->u.binary.lhs;
                *leaf = b_bin(&B, OP_AND, range, *leaf);
                (*leaf)->type = type_scalar(TY_INT);
                ast_fix_parents(only);
                ast_append_stmt(a, point, only);
            } else {
                ast_append_stmt(a, point, b_if(&B, range, stmts, NULL));
            }
            return point;
        }
        for (int i = 0; i < stmts->u.block.stmts.len; i++)
            ast_append_stmt(a, point, stmts->u.block.stmts.items[i]);
        return point;
    }
    if (edge && guard) {
        ast_append_stmt(a, point, b_comment(&B, "points past the edge of the grid are skipped"));
        ast_append_stmt(a, point, b_if(&B, guard, b_node(&B, AST_CONTINUE), NULL));
    }
    if (m->ncopies)
        ast_append_stmt(a, point, b_comment(&B, "parameters the kernel changes start afresh at every point"));
    for (int i = 0; i < m->ncopies; i++)
        ast_append_stmt(a, point, b_decl(&B, m->copy[i], b_var(&B, m->param[i])));
    if (returns) {
        /* The kernel's own block, so that its `return`s (now jumps to the end of
         * this point) leave the scope of its declarations. */
        ast_append_stmt(a, point, stmts);
        ast_append_stmt(a, point, b_label(&B, label));
    } else {
        for (int i = 0; i < stmts->u.block.stmts.len; i++)
            ast_append_stmt(a, point, stmts->u.block.stmts.items[i]);
    }
    if (pl->u.points.point_epilogue->u.block.stmts.len) {
        Node *ep = ast_copy(a, pl->u.points.point_epilogue);
        for (int i = 0; i < ep->u.block.stmts.len; i++)
            ast_append_stmt(a, point, ep->u.block.stmts.items[i]);
    }
    /* One loop per coarsened dimension, x innermost; with stream_z, z innermost,
     * so that a window walks one column at a time. */
    Node *loop = point;
    static const int order[2][3] = {{0, 1, 2}, {2, 0, 1}};
    /* The points of a thread are unrolled (Node.u.loop.unroll) when there are few and
     * they are small: a device compiler handed hundreds of copies of a body (the space
     * allows 8x8x8) compiles for minutes (PoCL, sum27 at 5x7x7: over 300 s), and so it
     * does with 4 copies of a body whose loops are unrolled whole (box3d4r float: 2x2x1,
     * 125 s; docs/tuning.md, "How large the unrolled code gets"). */
    int points = 1;
    for (int d = 0; d < k->grid_dims; d++)
        if (cvar[d] && !(d == 2 && tp->stream_z))
            points *= tp->coarsen[d];
    bool hinted = points <= UNROLLED_POINTS && points * tp->unrolled_size <= UNROLLED_MAX_SIZE;
    for (int i = 0; i < k->grid_dims; i++) {
        int d = order[tp->stream_z ? 1 : 0][i];
        if (!cvar[d])
            continue;
        Node *init = b_decl(&B, cvar[d], b_int(&B, 0));
        Node *cond = b_bin(&B, '<', b_var(&B, cvar[d]), b_int(&B, tp->coarsen[d]));
        Node *step = b_unary(&B, OP_POSTINC, b_var(&B, cvar[d]));
        loop = b_for(&B, init, cond, step, loop);
        /* the points of a thread unrolled, but a walk up the column (stream_z) */
        loop->u.loop.unroll = (d == 2 && tp->stream_z) || !hinted ? 0 : tp->coarsen[d];
    }
    StrBuf what = {0};
    sb_printf(&what, "this thread computes %d", tp->coarsen[0]);
    for (int d = 1; d < k->grid_dims; d++)
        sb_printf(&what, " x %d", tp->coarsen[d]);
    if (tp->stream_z && tp->coarsen[0] * tp->coarsen[1] == 1)
        sb_printf(&what, " points, walking up its column (%s)", PARAM_NAME(stream_z));
    else
        sb_printf(&what, " points, %s (thesis eq. %s)%s",
                  tp->interleaved ? "a block apart in each dimension" : "next to each other",
                  tp->interleaved ? "3.1-3.3" : "3.4-3.6",
                  tp->stream_z ? arena_printf(a, ", each column walked up (%s)", PARAM_NAME(stream_z)) : "");
    Node *block = b_block(&B);
    ast_append_stmt(a, block, b_comment(&B, sb_str(&what)));
    sb_free(&what);
    ast_append_stmt(a, block, loop);
    return block;
}

/* A walk of the row along x from idx up to `end` (idx++), running `stmts` at each
 * point: the copies of the parameters the kernel changes, the body, and `label`
 * ending a point that returns. */
static Node *walk_loop(Mapping *m, Node *stmts, Node *end, const char *label, bool returns)
{
    const Build B = build_none(m->a);
    Node *point = b_block(&B);
    for (int i = 0; i < m->ncopies; i++)
        ast_append_stmt(m->a, point, b_decl(&B, m->copy[i], b_var(&B, m->param[i])));
    /* one list of statements (the copies are imcl_point_<name>: no clash), as the
     * printer's lanes take it (analysis/lanes.c) */
    if (stmts->kind == AST_BLOCK)
        for (int i = 0; i < stmts->u.block.stmts.len; i++)
            ast_append_stmt(m->a, point, stmts->u.block.stmts.items[i]);
    else
        ast_append_stmt(m->a, point, stmts);
    if (returns)
        ast_append_stmt(m->a, point, b_label(&B, label));
    Node *cond = b_ibin(&B, '<', b_var(&B, m->coord[0]), end);
    Node *loop = b_for(&B, NULL, cond, b_unary(&B, OP_POSTINC, b_var(&B, m->coord[0])), point);
    loop->u.loop.walk = true;
    return loop;
}

#define WALK_WHY "this work-item walks one row of the grid along x (the CPU variant, " \
                 "TuneParams.row_walk): the device compiler vectorises the walk"
#define PARTS_WHY "the launch computes %s imcl_from to imcl_to - 1: all of them, or a part of " \
                  "PK_plan_iterate's wavefront (docs/iterate.md)"
#define WALK_SPLIT "the points imcl_lo <= idx < imcl_hi of a row inside the interior in y and z run " \
                   "the body without edge guards (two vectors of them side by side, interleave_count: " \
                   "a point's taps are one chain of additions); the walk takes the guarded body " \
                   "before and after"
/* The CPU variant's mapping (TuneParams.row_walk): a work-item per row of the grid (y,
 * and z in 3D), walking it along x, so that the device compiler, which vectorises the
 * innermost loop of a work-item, gets the row as a loop; with pass_interior's split,
 * `inner` (the body without edge guards) runs the row's interior points and `edge`
 * the rest (inner NULL: no split). inner and edge are the mapped parts, each with
 * whether it returns, as points() takes them; the walk's statements go into `walk`. */
static void row_walk(Mapping *m, Function *k, const TuneParams *tp, Node *walk, Node *inner, bool inner_returns,
                     Node *edge, bool edge_returns)
{
    Arena *a = m->a;
    const Build B = build_none(a);
    ast_append_stmt(a, walk, b_comment(&B, WALK_WHY));
    /* the rows or planes of a part of PK_plan_iterate's wavefront (params_cpu_parts) */
    const int last = params_cpu_parts(tp) ? k->grid_dims - 1 : -1;
    if (last > 0)
        ast_append_stmt(a, walk, b_comment(&B, arena_printf(a, PARTS_WHY, last == 2 ? "planes" : "rows")));
    Node *past = NULL;
    for (int d = 1; d < 3; d++) {
        if (d >= k->grid_dims && !m->used[d])
            continue;
        /* a coordinate past the grid's dimensions is 0, as in points() */
        Node *at = d < k->grid_dims ? coordinate(a, tp, d, NULL) : b_int(&B, 0);
        if (d == last)
            at = b_ibin(&B, '+', b_builtin(&B, BI_PART_FROM), at);
        Node *decl = b_decl(&B, m->coord[d], at);
        decl->u.decl.is_const = true;
        ast_append_stmt(a, walk, decl);
        if (d >= k->grid_dims)
            continue;
        Node *end = b_builtin(&B, d == last ? BI_PART_TO : (Builtin)(BI_W + d));
        Node *p = b_ibin(&B, OP_GE, b_var(&B, m->coord[d]), end);
        past = past ? b_ibin(&B, OP_OR, past, p) : p;
    }
    ast_append_stmt(a, walk, b_comment(&B, "work-items past the edge of the grid have no row"));
    ast_append_stmt(a, walk, b_if(&B, past, b_return(&B, NULL), NULL));
    ast_append_stmt(a, walk, b_decl(&B, m->coord[0], b_int(&B, 0)));
    Node *W = b_builtin(&B, BI_W);
    W->type = type_scalar(TY_INT);
    if (!inner) {
        ast_append_stmt(a, walk, walk_loop(m, edge, W, NEXT_POINT, edge_returns));
        return;
    }
    /* the row's interior: inside in y and z, and from lo to the first bound in x */
    const Interior *in = k->interior;
    Node *row_in = NULL;
    for (int d = 1; d < k->grid_dims; d++)
        row_in = interior_tests(&B, in, d, b_var(&B, m->coord[d]), b_var(&B, m->coord[d]), '<', row_in);
    Node *hi = ast_copy(a, W);
    for (int i = 0; i < in->nhi[0]; i++)
        hi = int_min(&B, hi, bound_limit(&B, &in->hi[0][i], 0));
    Node *lo = int_min(&B, b_int(&B, in->lo[0]), ast_copy(a, W));
    if (row_in) {
        lo = b_cond(&B, row_in, lo, ast_copy(a, W));
        lo->type = type_scalar(TY_INT);
    }
    Symbol *slo = b_symbol(&B, "imcl_lo", SYM_LOCAL, type_scalar(TY_INT));
    /* a row outside the interior has imcl_lo == W, and then no interior run */
    hi = b_cond(&B, b_ibin(&B, '<', b_var(&B, slo), ast_copy(a, W)), hi, ast_copy(a, W));
    hi->type = type_scalar(TY_INT);
    Symbol *shi = b_symbol(&B, "imcl_hi", SYM_LOCAL, type_scalar(TY_INT));
    Symbol *send = b_symbol(&B, "imcl_end", SYM_LOCAL, type_scalar(TY_INT));
    ast_append_stmt(a, walk, b_comment(&B, WALK_SPLIT));
    Node *dlo = b_decl(&B, slo, lo), *dhi = b_decl(&B, shi, hi);
    dlo->u.decl.is_const = dhi->u.decl.is_const = true;
    ast_append_stmt(a, walk, dlo);
    ast_append_stmt(a, walk, dhi);
    /* while (idx < W): the interior run where idx is in it, else the guarded points up
     * to imcl_lo (before it) or W (past it) */
    Node *x = b_var(&B, m->coord[0]);
    Node *at_in = b_ibin(&B, OP_AND, b_ibin(&B, OP_GE, x, b_var(&B, slo)),
                         b_ibin(&B, '<', ast_copy(a, x), b_var(&B, shi)));
    Node *edge_run = b_block(&B);
    Node *end = b_cond(&B, b_ibin(&B, '<', ast_copy(a, x), b_var(&B, slo)), b_var(&B, slo), ast_copy(a, W));
    end->type = type_scalar(TY_INT);
    Node *dend = b_decl(&B, send, end);
    dend->u.decl.is_const = true;
    ast_append_stmt(a, edge_run, dend);
    ast_append_stmt(a, edge_run, walk_loop(m, edge, b_var(&B, send), NEXT_POINT, edge_returns));
    Node *inner_run = b_block(&B);
    Node *inner_walk = walk_loop(m, inner, b_var(&B, shi), "imcl_next_inner_point", inner_returns);
    inner_walk->u.loop.interleave = PARAMS_CPU_INTERLEAVE;
    ast_append_stmt(a, inner_run, inner_walk);
    Node *loop = ast_build_while(a, b_ibin(&B, '<', ast_copy(a, x), ast_copy(a, W)),
                                 b_if(&B, at_in, inner_run, edge_run), B.loc);
    ast_append_stmt(a, walk, loop);
}

int pass_thread_mapping(const PassCtx *c, Function *k)
{
    Arena *a = c->a;
    const Build B = build_none(a);
    const TuneParams *tp = c->tp;
    static const char *names[] = {"idx", "idy", "idz"};
    static const char *cnames[] = {"imcl_cx", "imcl_cy", "imcl_cz"};
    Mapping m = {.a = a, .label = NEXT_POINT};
    Symbol *cvar[3] = {NULL, NULL, NULL};
    for (int d = 0; d < k->grid_dims; d++)
        if (tp->coarsen[d] > 1) {
            cvar[d] = b_symbol(&B, cnames[d], SYM_LOCAL, type_scalar(TY_INT));
            m.coarsened = true;
        }
    Node *pts = ast_points(k);
    Node *pro = pts->u.points.prologue, *pp = pts->u.points.point_prologue, *ep = pts->u.points.point_epilogue;
    ast_walk(pts->u.points.body, find_uses, &m);
    ast_walk(pp, find_uses, &m);
    /* The guard below reads idx and idy (and idz in 3D) whatever the body uses. */
    m.used[0] = m.used[1] = true;
    if (k->grid_dims == 3)
        m.used[2] = true;
    for (int d = 0; d < 3; d++)
        if (m.used[d])
            m.coord[d] = b_symbol(&B, names[d], SYM_LOCAL, type_scalar(TY_INT));
    /* a row walk runs several points per work-item, as coarsening does */
    m.coarsened |= tp->row_walk;
    if (m.coarsened) {
        copy_assigned_params(&m, k);
        clamps(&m, k, tp, cvar);
    }

    Node *body = b_block(&B);
    for (int i = 0; i < pro->u.block.stmts.len; i++)
        ast_append_stmt(a, body, pro->u.block.stmts.items[i]);
    /* pass_interior's split: blocks wholly inside the interior run its copy of the
     * body, without edge guards and without the test for points past the grid. */
    Node *split = pass_interior_split(k);
    Node *parts[2] = {split ? split->u.if_.then : pts->u.points.body, split ? split->u.if_.els : NULL};
    static const char *labels[2] = {"imcl_next_inner_point", NEXT_POINT};
    Node *mapped[2] = {NULL, NULL};
    bool returns[2] = {false, false};
    for (int i = 0; i < 2; i++) {
        if (!parts[i])
            continue;
        returns[i] = ast_has_return(parts[i]);
        /* the coordinates this part reads; the edge test reads all of them */
        bool edge = !split || i == 1;
        Mapping uses = {.used = {edge, edge, edge && k->grid_dims == 3}};
        ast_walk(parts[i], find_uses, &uses);
        ast_walk(pp, find_uses, &uses);
        ast_walk(ep, find_uses, &uses);
        m.label = split && i == 0 ? labels[0] : labels[1];
        parts[i] = ast_mutate(parts[i], replace, &m);
        ast_fix_parents(parts[i]);
        if (!tp->row_walk)
            mapped[i] = points(&m, k, tp, cvar, parts[i], edge, uses.used, m.label, returns[i]);
    }
    if (tp->row_walk) {
        if (split)
            row_walk(&m, k, tp, body, parts[0], returns[0], parts[1], returns[1]);
        else
            row_walk(&m, k, tp, body, NULL, false, parts[0], returns[0]);
    } else if (split) {
        Node *inner = block_interior(a, k, tp);
        bool lane = c->backend->split_reads_thread && ast_has_kind(body, AST_BARRIER);
        if (lane)
            inner = b_bin(&B, OP_AND, inner, b_bin(&B, OP_GE, b_builtin(&B, BI_THREAD_X), b_int(&B, 0)));
        ast_append_stmt(a, body, b_comment(&B, lane ? SPLIT_WHY : SPLIT));
        ast_append_stmt(a, body, b_if(&B, inner, mapped[0], mapped[1]));
    } else {
        for (int i = 0; i < mapped[0]->u.block.stmts.len; i++)
            ast_append_stmt(a, body, mapped[0]->u.block.stmts.items[i]);
    }
    k->body = body;
    ast_fix_parents(k->body);
    return 0;
}
