/* Registers: the --liveness table and the register estimate of a configuration,
 * both from analyze_liveness (docs/tuning.md, "Registers"). */
#include "registers.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "backend.h"
#include "placement.h"

/* ---- peaks ------------------------------------------------------------------------ */

typedef struct Peaks {
    Arena *a;
    const Function **fn;   /* helpers whose peak is known */
    int *peak;
    int n, cap, capp;
    bool loads;            /* count the values each statement loads from arrays too */
} Peaks;

static int function_peak(Peaks *p, const Function *f, int *line);

typedef struct CallPeak {
    Peaks *p;
    const Node *root;
    int most;
} CallPeak;

/* The largest peak of a helper called in the expressions of statement cp->root (not
 * in the statements nested in it). */
static bool call_visit(Node *n, void *q)
{
    CallPeak *c = q;
    if (n != c->root && ast_is_stmt(n))
        return false;
    if (n->kind == AST_CALL && n->u.call.fn && n->u.call.fn->func) {
        int v = function_peak(c->p, n->u.call.fn->func, NULL);
        if (v > c->most)
            c->most = v;
    }
    return true;
}

typedef struct Loads {
    const Node *root;
    int regs;
} Loads;

/* The 32-bit registers of the array elements statement l->root reads in its own
 * expressions (not in the statements nested in it): a device compiler issues a
 * statement's loads together, ahead of the arithmetic, so they are live at once. */
static bool loads_visit(Node *n, void *q)
{
    Loads *l = q;
    if (n != l->root && ast_is_stmt(n))
        return false;
    const Node *up = n->parent;
    bool element = n->kind == AST_GRID_ACCESS ||
                   (n->kind == AST_INDEX && !(up && up->kind == AST_INDEX && up->u.index.base == n));
    bool stored = up && up->kind == AST_ASSIGN && up->u.binary.op == '=' && up->u.binary.lhs == n;
    if (element && !stored && n->type)
        l->regs += type_size(n->type) > 4 ? 2 : 1;
    return true;
}

static int statement_loads(const Node *stmt)
{
    Loads l = {stmt, 0};
    ast_walk((Node *)stmt, loads_visit, &l);
    return l.regs;
}

/* The 32-bit registers live at the busiest point of f: the larger of the sets
 * before and after each statement (with p->loads, plus the elements it loads),
 * plus the peak of a helper called there. */
static int peak_of(Peaks *p, const Function *f, const Liveness *lv, int *line)
{
    int best = liveness_regs(lv, lv->entry);
    if (line)
        *line = f->loc.line;
    for (int i = 0; i < lv->nstmts; i++) {
        const LiveStmt *s = &lv->stmts[i];
        if (s->stmt->kind == AST_BLOCK || s->stmt->kind == AST_DECL_LIST)
            continue;
        int in = liveness_regs(lv, s->in), out = liveness_regs(lv, s->out);
        int v = in > out ? in : out;
        if (p->loads)
            v += statement_loads(s->stmt);
        CallPeak c = {p, s->stmt, 0};
        ast_walk((Node *)s->stmt, call_visit, &c);
        if (c.most) {
            /* During a call: what is live both before and after the statement. */
            int across = 0;
            for (int k = 0; k < lv->nvars; k++)
                if (liveness_has_index(s->in, k) && liveness_has_index(s->out, k))
                    across += type_size(lv->vars[k]->type) > 4 ? 2 : 1;
            if (across + c.most > v)
                v = across + c.most;
        }
        if (v > best || (v == best && line && s->stmt->loc.line < *line)) {
            best = v;
            if (line)
                *line = s->stmt->loc.line;
        }
    }
    return best;
}

static int function_peak(Peaks *p, const Function *f, int *line)
{
    for (int i = 0; i < p->n; i++)
        if (p->fn[i] == f && !line)
            return p->peak[i];
    int v = peak_of(p, f, analyze_liveness(p->a, f), line);
    int cap = p->cap;
    ARENA_GROW(p->a, p->fn, p->n, p->cap);
    ARENA_GROW(p->a, p->peak, p->n, cap);
    p->fn[p->n] = f;
    p->peak[p->n++] = v;
    return v;
}

/* ---- unrolled copies ----------------------------------------------------------------- */

typedef struct Declared {
    const Liveness *lv;
    bool *in_body;
} Declared;

static bool declared_visit(Node *n, void *q)
{
    Declared *d = q;
    if (n->kind == AST_DECL) {
        int v = liveness_var(d->lv, n->u.decl.sym);
        if (v >= 0)
            d->in_body[v] = true;
    }
    return true;
}

/* The peak registers of the locals declared in loop's body, over its statements:
 * what each unrolled copy of the body holds of its own. */
static int body_locals_peak(Arena *a, const Liveness *lv, const Node *loop)
{
    Declared d = {lv, arena_alloc(a, sizeof(bool) * (size_t)(lv->nvars + 1))};
    ast_walk(loop->u.loop.body, declared_visit, &d);
    int best = 0;
    for (int i = 0; i < lv->nstmts; i++) {
        const Node *s = lv->stmts[i].stmt;
        const Node *up = s;
        while (up && up != loop->u.loop.body)
            up = up->parent;
        if (!up)
            continue;
        LiveSet sets[2] = {lv->stmts[i].in, lv->stmts[i].out};
        for (int k = 0; k < 2; k++) {
            int n = 0;
            for (int v = 0; v < lv->nvars; v++)
                if (d.in_body[v] && liveness_has_index(sets[k], v))
                    n += type_size(lv->vars[v]->type) > 4 ? 2 : 1;
            if (n > best)
                best = n;
        }
    }
    return best;
}

/* ---- the estimate -------------------------------------------------------------------- */

/* The most the coarsening term adds (docs/tuning.md, "Registers": measured, ptxas
 * adds 1 to 24 registers from 2 to 512 points per thread). */
#define REGISTERS_COARSEN_MAX 16

/* Registers that do not grow with the body: the point's coordinates and the thread's
 * base in each dimension, thread and block indices and 2 per array parameter (a
 * 64-bit address), imcl_blocks (the list of a batch's blocks) among them. The same
 * for every placement, so that the space's restriction needs no mem_ parameter. */
static int index_regs(const Function *k)
{
    int dims = k->grid_dims ? k->grid_dims : 2;
    int n = 2 * dims + 4 + (function_has_grid(k) ? 2 : 0);
    for (int i = 0; i < k->nparams; i++) {
        const Symbol *s = k->params[i];
        if (type_is_grid(s->type) || s->type->kind == TY_ARRAY)
            n += 2;
    }
    return n;
}

typedef struct MostLoads {
    int most;
} MostLoads;

static bool most_loads_visit(Node *n, void *q)
{
    MostLoads *m = q;
    if (ast_is_stmt(n) && n->kind != AST_BLOCK && n->kind != AST_DECL_LIST) {
        int v = statement_loads(n);
        if (v > m->most)
            m->most = v;
    }
    return true;
}

/* The 32-bit registers of array s's register cache (pass_register_cache): its
 * rows' registers and the values a point reads; 0 when it cannot have one. */
static int cache_regs(Arena *a, Function *k, Symbol *s)
{
    RegisterCache rc;
    const char *why;
    if (!placement_register_cache(a, k, s, &rc, &why))
        return 0;
    return (rc.registers + rc.values) * (int)((type_size(s->type->elem) + 3) / 4);
}

/* The 32-bit registers of the stream_z windows of k: of the arrays placed in
 * global memory (placed), or of every array that may have a window. */
static int window_regs(Arena *a, Function *k, bool placed)
{
    int regs = 0;
    if (k->grid_dims != 3)
        return 0;
    for (int i = 0; i < k->nparams; i++) {
        Symbol *s = k->params[i];
        StreamWindow w;
        const char *why;
        if ((placed && s->mem != MEM_GLOBAL) || !s->type || s->type->kind != TY_BLOCK ||
            !placement_stream_window(a, k, s, &w, &why))
            continue;
        regs += w.values * (int)((type_size(s->type->elem) + 3) / 4);
    }
    return regs;
}

void registers_terms(Arena *a, Function *k, RegTerms *t)
{
    if (k->reg_terms) {
        *t = *k->reg_terms;
        return;
    }
    memset(t, 0, sizeof *t);
    Liveness *lv = analyze_liveness(a, k);
    Peaks p = {a, NULL, NULL, 0, 0, 0, false};
    t->live = peak_of(&p, k, lv, NULL);
    Peaks pl = {a, NULL, NULL, 0, 0, 0, true};
    t->loaded = peak_of(&pl, k, lv, NULL) - t->live;
    t->index = index_regs(k);
    MostLoads m = {0};
    ast_walk(ast_point_body(k), most_loads_visit, &m);
    /* ptxas starts only some of the next point's loads early, as registers allow
     * (measured: 1 to 24 more registers with coarsening, docs/tuning.md). */
    t->coarsen = m.most < REGISTERS_COARSEN_MAX ? m.most : REGISTERS_COARSEN_MAX;
    t->window = window_regs(a, k, false);
    /* The loop over a batch's blocks (batch_loop): ptxas keeps the addresses and index
     * values the body derives from the thread's position, which no block changes,
     * across the loop. Measured (sm_90, the default block): 4 to 48 more registers
     * than batch_loop 0 on the samples, 26 on average; twice the index term (24 to 28)
     * is the estimate (docs/tuning.md, "Registers"). */
    t->batch = function_has_grid(k) ? 2 * t->index : 0;
    t->cache = arena_alloc(a, sizeof(int) * (size_t)(k->nparams + 1));
    for (int i = 0; i < k->nparams; i++)
        t->cache[i] = cache_regs(a, k, k->params[i]);
    LoopTable loops = analyze_loops(a, k);
    t->lines = arena_alloc(a, sizeof(int) * (size_t)(loops.n + 1));
    t->names = arena_alloc(a, sizeof(char *) * (size_t)(loops.n + 1));
    t->loops = loops.items;
    t->unroll = arena_alloc(a, sizeof(int) * (size_t)(loops.n + 1));
    t->nloops = loops.n;
    for (int i = 0; i < loops.n; i++) {
        t->lines[i] = loops.items[i].line;
        t->names[i] = params_loop_name(a, &loops.items[i]);
        int body = loops.items[i].unrollable ? body_locals_peak(a, lv, loops.items[i].loop) : 0;
        t->unroll[i] = (body + 1) / 2;
    }
}

void registers_cache(Arena *a, Function *k)
{
    RegTerms *t = ARENA_NEW(a, RegTerms);
    registers_terms(a, k, t);
    k->reg_terms = t;
}

RegEstimate registers_estimate(Arena *a, Function *k, const TuneParams *tp)
{
    RegEstimate e = {0};
    RegTerms t;
    registers_terms(a, k, &t);
    e.index = t.index;
    e.live = t.live;
    e.loaded = t.loaded;
    e.points = tp->coarsen[0] * tp->coarsen[1] * tp->coarsen[2];
    e.coarsen = e.points > 1 ? t.coarsen : 0;
    e.window = tp->stream_z ? window_regs(a, k, true) : 0;
    e.batch = tp->batch_loop ? t.batch : 0;
    for (int i = 0; i < k->nparams; i++)
        if (k->params[i]->mem == MEM_REGISTER)
            e.cache += t.cache[i];
    for (int i = 0; i < t.nloops; i++)
        if (params_unroll_factor(tp, &t.loops[i]) > 1)
            e.unrolled += t.unroll[i];
    e.total = e.index + e.live + e.loaded + e.coarsen + e.unrolled + e.window + e.cache + e.batch;
    return e;
}

/* ---- the budget ------------------------------------------------------------------------ */

/* The most registers any configuration of the space can need, and the least. */
static int most_of(const RegTerms *t, const Function *k, bool shuffles)
{
    int v = t->index + t->live + t->loaded + t->coarsen + t->window + t->batch;
    for (int i = 0; shuffles && i < k->nparams; i++)
        v += t->cache[i];
    for (int i = 0; i < t->nloops; i++)
        v += t->unroll[i];
    return v;
}

static int least_of(const RegTerms *t)
{
    return t->index + t->live + t->loaded;
}

/* The estimate as a Python expression over the tuning parameters: a number per
 * kernel, plus a term for coarsening and one per unrollable loop. A term that applies
 * only where a count x >= 1 is above 1 is `N * (1 - 1 // x)` (x's floor division makes
 * 1 // x 1 for x = 1, 0 above): no comparison and no conditional expression inside,
 * because python-constraint's parser, which builds Kernel Tuner's search space, splits
 * a restriction at every comparison (`a < b <= c`) and cannot read `if`. */
static const char *estimate_expr(Arena *a, const RegTerms *t, const Function *k, bool shuffles)
{
    StrBuf sb = {0};
    sb_printf(&sb, "%d", least_of(t));
    if (t->coarsen)
        sb_printf(&sb, " + %d * (1 - 1 // (%s%s))", t->coarsen, params_points(a),
                  t->window ? arena_printf(a, " + %s", PARAM_NAME(stream_z)) : "");
    if (t->window)
        sb_printf(&sb, " + %d * (1 - 1 // (%s + 1))", t->window, PARAM_NAME(stream_z));
    if (t->batch)
        sb_printf(&sb, " + %d * %s", t->batch, PARAM_NAME(batch_loop));
    for (int i = 0; shuffles && i < k->nparams; i++)
        if (t->cache[i])
            sb_printf(&sb, " + %d * (%s)", t->cache[i],
                      params_mem_test(a, k->params[i]->name, "==", MEM_REGISTER));
    for (int i = 0; i < t->nloops; i++)
        if (t->unroll[i])
            sb_printf(&sb, " + %d * (1 - 1 // %s)", t->unroll[i], t->names[i]);
    const char *r = arena_strdup(a, sb_str(&sb));
    sb_free(&sb);
    return r;
}

int registers_room(Arena *a, Function *k, const SpaceOptions *o, RegTerms *t)
{
    registers_terms(a, k, t);
    /* no restriction on the CPU, nor where even the least is over the budget */
    if (!o->backend->gpu || least_of(t) > REGISTERS_PER_THREAD)
        return INT_MAX;
    return REGISTERS_PER_THREAD - least_of(t);
}

/* t with each term the space lists no value for (over room, registers_room) set to 0,
 * so that the restrictions name only parameters and values it lists: the windows go
 * with stream_z, which adds the coarsening term too. */
static void drop_unlisted(Arena *a, RegTerms *t, const Function *k, int room)
{
    if (t->coarsen + t->window > room)
        t->window = 0;
    if (t->coarsen > room)
        t->coarsen = 0;
    if (t->batch > room)
        t->batch = 0;
    int *cache = arena_alloc(a, sizeof(int) * (size_t)(k->nparams + 1));
    int *unroll = arena_alloc(a, sizeof(int) * (size_t)(t->nloops + 1));
    for (int i = 0; i < k->nparams; i++)
        cache[i] = t->cache[i] > room ? 0 : t->cache[i];
    for (int i = 0; i < t->nloops; i++)
        unroll[i] = t->unroll[i] > room ? 0 : t->unroll[i];
    t->cache = cache;
    t->unroll = unroll;
}

int registers_restrictions(Arena *a, Function *k, const SpaceOptions *o, int max_threads, const char **out)
{
    RegTerms t;
    int room = registers_room(a, k, o, &t), n = 0;
    /* (a kernel that needs more than a thread may have spills in every configuration:
     * nothing to choose between, nothing left out) */
    if (room == INT_MAX)
        return 0;
    drop_unlisted(a, &t, k, room);
    int most = most_of(&t, k, o->backend->warp_shuffles);
    const char *e = estimate_expr(a, &t, k, o->backend->warp_shuffles);
    bool sum = strchr(e, '+') != NULL;
    if (most > REGISTERS_PER_THREAD)
        out[n++] = arena_printf(a, "%s <= %d", e, REGISTERS_PER_THREAD);
    if ((long long)most * max_threads > REGISTERS_PER_BLOCK)
        out[n++] = arena_printf(a, "%s * %s%s%s <= %d", params_threads(a), sum ? "(" : "", e, sum ? ")" : "",
                                REGISTERS_PER_BLOCK);
    return n;
}

void registers_default_block(const Function *k, const SpaceOptions *o, int block[3])
{
    block[0] = block[1] = 8;
    block[2] = k->grid_dims == 3 ? 8 : 1;
    if (!o->backend->gpu)
        return;
    /* GPU backends: a warp's 32 threads along x, so that a warp's load is one contiguous
     * run of a row, and 4 rows of one plane (128 threads). On an H100 the 7-point double
     * stencil at 256^3 runs at 0.91-0.93 of the copy bandwidth so, 0.79 with 8x8x8
     * (docs/performance.md, "On a GPU"). 128 threads of REGISTERS_PER_THREAD registers
     * each stay within REGISTERS_PER_BLOCK: every kernel whose one point fits a thread
     * fits this block. */
    _Static_assert(128 * REGISTERS_PER_THREAD <= REGISTERS_PER_BLOCK, "the default block fits any kernel");
    block[0] = 32;
    block[1] = 4;
    block[2] = 1;
}

void registers_default_coarsen(Arena *a, Function *k, const SpaceOptions *o, int coarsen[3])
{
    coarsen[0] = coarsen[1] = coarsen[2] = 1;
    const int axis = k->grid_dims - 1;
    if (!o->backend->gpu || k->grid_dims < 2 || analyze_cost(a, k).loads > REGISTERS_COARSEN_LOADS)
        return;
    /* With --size, an odd extent along the axis would leave a ragged last tile (the
     * space's prune leaves such factors out): one point per thread there. */
    if (o->size && axis < o->size_dims && o->size[axis] % 2 != 0)
        return;
    /* Measured on an H100 over the AN5D set (docs/performance.md, "The AN5D set on a
     * GPU"): one point per thread leaves the float stencils at 0.56 of the copy
     * bandwidth, two points along the slowest axis (a block apart: interleaved) at
     * 0.72-0.84; doubles gain 1-8%. A point that reads many values (the 3D boxes of
     * radius 2 and more) keeps one: its registers are the limit there. */
    TuneParams tp;
    memset(&tp, 0, sizeof tp);
    registers_default_block(k, o, tp.block);
    tp.coarsen[0] = tp.coarsen[1] = tp.coarsen[2] = 1;
    tp.coarsen[axis] = 2;
    tp.interleaved = 1;
    Diag quiet;
    diag_init(&quiet, a, NULL);
    if (registers_check(a, k, &tp, o, &quiet))
        coarsen[axis] = 2;
}

bool registers_check(Arena *a, Function *k, const TuneParams *tp, const SpaceOptions *o, Diag *d)
{
    if (!o->backend->gpu)
        return true;
    RegTerms t;
    registers_terms(a, k, &t);
    if (least_of(&t) > REGISTERS_PER_THREAD)
        return true;
    RegEstimate e = registers_estimate(a, k, tp);
    long long threads = (long long)tp->block[0] * tp->block[1] * tp->block[2];
    if (e.total > REGISTERS_PER_THREAD) {
        diag_plain_error(d, "kernel '%s' needs about %d registers per thread with this coarsening and unrolling "
                            "(%s = %d; imcl --liveness -t shows the estimate), more "
                            "than the %d a thread may have: its values would spill to local memory",
                         k->name, e.total, params_points(a), e.points, REGISTERS_PER_THREAD);
        return false;
    }
    if (threads * e.total > REGISTERS_PER_BLOCK) {
        diag_plain_error(d, "kernel '%s' needs about %d registers per thread (imcl --liveness -t shows the "
                            "estimate), and a block of %s = %lld threads "
                            "may use at most %lld each (%d registers per block): its values would spill to "
                            "local memory",
                         k->name, e.total, params_threads(a), threads, REGISTERS_PER_BLOCK / threads,
                         REGISTERS_PER_BLOCK);
        return false;
    }
    return true;
}

/* ---- the table ----------------------------------------------------------------------- */

static bool same_file(const char *x, const char *y)
{
    return x && y && strcmp(x, y) == 0;
}

typedef struct Table {
    const Function *f;
    const Liveness *lv;
    LiveSet *at;        /* per line: what is live after it (NULL: no statement) */
    int nlines;
} Table;

static void put(Table *t, const Node *n, int line, LiveSet set)
{
    if (set && line > 0 && line < t->nlines && same_file(n->loc.file, t->f->loc.file))
        t->at[line] = set;
}

static bool is_loop_part(const Node *n)
{
    const Node *p = n->parent;
    return p && (p->kind == AST_FOR || p->kind == AST_WHILE || p->kind == AST_DO) &&
           (p->u.loop.init == n || p->u.loop.step == n);
}

/* The point after each line, in the order the lines read: a statement's end, a
 * condition's test (a do loop's at its `while`, after the body). */
static void fill(Table *t, const Node *n)
{
    if (!n)
        return;
    const LiveStmt *s = liveness_stmt(t->lv, n);
    switch (n->kind) {
    case AST_BLOCK:
    case AST_DECL_LIST:
        for (int i = 0; i < n->u.block.stmts.len; i++)
            fill(t, n->u.block.stmts.items[i]);
        return;
    case AST_IF:
        put(t, n, n->loc.line, s ? s->after_cond : NULL);
        fill(t, n->u.if_.then);
        fill(t, n->u.if_.els);
        return;
    case AST_FOR:
    case AST_WHILE:
        put(t, n, n->loc.line, s ? s->after_cond : NULL);
        fill(t, n->u.loop.body);
        return;
    case AST_DO:
        fill(t, n->u.loop.body);
        if (n->u.loop.cond)
            put(t, n->u.loop.cond, n->u.loop.cond->loc.line, s ? s->after_cond : NULL);
        return;
    case AST_DECL:
    case AST_EXPR_STMT:
    case AST_RETURN:
    case AST_BREAK:
    case AST_CONTINUE:
        if (!is_loop_part(n))
            put(t, n, n->loc.line, s ? s->out : NULL);
        return;
    default:
        return;
    }
}

static int max_line(const Node *n)
{
    int m = n->loc.line;
    Node **slots[8];
    if (n->kind == AST_BLOCK || n->kind == AST_DECL_LIST) {
        for (int i = 0; i < n->u.block.stmts.len; i++) {
            int v = max_line(n->u.block.stmts.items[i]);
            m = v > m ? v : m;
        }
        return m;
    }
    int k = ast_children((Node *)n, slots, 8);
    for (int i = 0; i < k; i++) {
        int v = max_line(*slots[i]);
        m = v > m ? v : m;
    }
    return m;
}

/* A variable's name, with the line of its declaration when another tracked variable
 * has the same name (shadowing). */
static void print_var(FILE *out, const Liveness *lv, int v)
{
    const Symbol *s = lv->vars[v];
    bool twin = false;
    for (int i = 0; i < lv->nvars; i++)
        twin |= i != v && strcmp(lv->vars[i]->name, s->name) == 0;
    if (twin)
        fprintf(out, " %s@%d", s->name, s->loc.line);
    else
        fprintf(out, " %s", s->name);
}

static void print_function(FILE *out, Arena *a, Peaks *p, const Function *f)
{
    const Liveness *lv = analyze_liveness(a, f);
    Table t = {f, lv, NULL, max_line(ast_point_body(f)) + 2};
    t.at = arena_alloc(a, sizeof(LiveSet) * (size_t)t.nlines);
    fill(&t, ast_point_body(f));
    fprintf(out, "liveness of %s '%s' (scalars live after each line, [32-bit registers]):\n",
            f->is_kernel ? "kernel" : "helper", f->name);
    for (int line = 0; line < t.nlines; line++) {
        if (!t.at[line])
            continue;
        fprintf(out, "  line %d [%d]:", line, liveness_regs(lv, t.at[line]));
        int any = 0;
        for (int v = 0; v < lv->nvars; v++)
            if (liveness_has_index(t.at[line], v)) {
                print_var(out, lv, v);
                any++;
            }
        fputs(any ? "\n" : " (none)\n", out);
    }
    int line;
    int peak = function_peak(p, f, &line);
    fprintf(out, "  peak: %d register%s, at line %d\n", peak, peak == 1 ? "" : "s", line);
}

typedef struct Reach {
    const Program *prog;
    bool *reached;
} Reach;

static bool reach_visit(Node *n, void *q)
{
    Reach *r = q;
    if (n->kind == AST_CALL && n->u.call.fn && n->u.call.fn->func)
        for (int i = 0; i < r->prog->nfuncs; i++)
            if (r->prog->funcs[i] == n->u.call.fn->func && !r->reached[i]) {
                r->reached[i] = true;
                ast_walk(r->prog->funcs[i]->body, reach_visit, r);
            }
    return true;
}

void registers_print_liveness(FILE *out, Arena *a, const Program *prog, Function *k, const TuneParams *tp)
{
    Peaks p = {a, NULL, NULL, 0, 0, 0, false};
    print_function(out, a, &p, k);
    if (tp) {
        RegEstimate e = registers_estimate(a, k, tp);
        fprintf(out, "  registers per thread (estimate): %d = %d index + %d live + %d loaded + %d coarsening (%d point%s) + %d unrolled",
                e.total, e.index, e.live, e.loaded, e.coarsen, e.points, e.points == 1 ? "" : "s", e.unrolled);
        if (e.window)
            fprintf(out, " + %d window%s (%s)", e.window, e.window == 1 ? "" : "s", PARAM_NAME(stream_z));
        if (e.cache)
            fprintf(out, " + %d register cache", e.cache);
        if (e.batch)
            fprintf(out, " + %d batch loop", e.batch);
        fputc('\n', out);
    }
    Reach r = {prog, arena_alloc(a, sizeof(bool) * (size_t)(prog->nfuncs + 1))};
    ast_walk(ast_point_body(k), reach_visit, &r);
    for (int i = 0; i < prog->nfuncs; i++)
        if (r.reached[i])
            print_function(out, a, &p, prog->funcs[i]);
}
