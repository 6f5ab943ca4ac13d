/* analysis/lanes.c: prints a row of points with the loop over x moved inside the
 * kernel's tap loops, so that compilers vectorise it, each point's operations in the
 * order written: the C reference's row function, the OpenCL CPU variant's walk.
 *
 * A body such as `acc = 0; for (k..) for (j..) for (i..) acc += w * in[..]; out = acc`
 * keeps the loop over x outermost: a C compiler vectorises only innermost loops, and
 * unrolls a nest of taps whole only when it is small (about 25-27 taps for GCC), so
 * boxes of 49 taps and more ran point by point, 5-14x slower than a hand loop that
 * accumulates a row of outputs one row of taps at a time (docs/performance.md, "The
 * AN5D set"). Here the row goes in chunks of LANES_CHUNK points: the tap loops (the
 * "outer" loops: bounds the same for every point of the row) run once per chunk, and
 * every run of the other statements is a loop over the chunk's points, the innermost
 * tap loop of at most 16 iterations inside it, where the compiler unrolls it. A local
 * that lives across runs becomes an array of the chunk's points. The points are
 * independent (a kernel computes each point from its own inputs), and each one's
 * operations keep their order: the results are bit for bit those of the point loop.
 * The OpenCL CPU variant's walk along a row (TuneParams.row_walk) is printed so too:
 * LLVM, unlike GCC, does not unroll the innermost tap loop inside the loop over the
 * points by itself, so the runs' loops carry the target's unroll hint (PoCL, box2d4r
 * float: 0.032 GStencil/s walking the points, 0.047 in lanes, 0.66 with the hint).
 * Only the printing depends on this plan; the AST is left as it is. */
#include <limits.h>
#include <string.h>

#include "analysis.h"
#include "lanes.h"

/* The innermost tap loops a compiler unrolls whole inside the loop over the points. */
#define LANES_INNER_TRIP 16
/* Nests of at most this many taps stay as they are: GCC unrolls them whole and
 * vectorises the loop over x (box2d2r, 25 taps, at the hand loop's speed; in lanes
 * box2d1r's 9 taps ran at 0.4x of it: bench/an5d, one thread). */
#define LANES_MIN_TAPS 32
/* Tap loops nested deeper are not moved (and the row stays as it is). */
#define LANES_MAX_DEPTH 8

typedef struct Local {
    const Symbol *sym;
    int run;          /* the run of statements that declares it */
    bool across;      /* used in another run */
} Local;

/* What is the same for every point of a row at a place in its body: the variables of
 * the outer loops around that place, and the scalars the body neither declares nor
 * writes (parameters; the walk's locals from before it, such as idy). */
typedef struct Scope {
    const Symbol *outer[LANES_MAX_DEPTH];
    int nouter;
    const Symbol **varying;  /* declared or written in the body, and x */
    int nvarying, cap;
} Scope;

typedef struct Varying {
    Arena *a;
    Scope *sc;
} Varying;

static void add_varying(Varying *c, const Symbol *s)
{
    ARENA_GROW(c->a, c->sc->varying, c->sc->nvarying, c->sc->cap);
    c->sc->varying[c->sc->nvarying++] = s;
}

static bool varying_visit(Node *n, void *ctx)
{
    if (n->kind == AST_DECL)
        add_varying(ctx, n->u.decl.sym);
    if (n->kind == AST_VAR && ast_is_lvalue_use(n))
        add_varying(ctx, n->u.var.sym);
    return true;
}

/* sc for body, no outer loop around yet */
static void scope_init(Arena *a, Scope *sc, Node *body, const Symbol *x)
{
    memset(sc, 0, sizeof *sc);
    Varying c = {a, sc};
    if (x)
        add_varying(&c, x);
    ast_walk(body, varying_visit, &c);
}

static bool among(const Symbol *const *v, int n, const Symbol *s)
{
    for (int i = 0; i < n; i++)
        if (v[i] == s)
            return true;
    return false;
}

static bool is_uniform_var(const Scope *sc, const Symbol *s)
{
    return among(sc->outer, sc->nouter, s) ||
           (type_is_scalar(s->type) && !among(sc->varying, sc->nvarying, s));
}

typedef struct Uniform {
    const Scope *sc;
    bool ok;
} Uniform;

/* An expression the same for every point of a row: constants, extents, idy, idz and
 * uniform variables (Scope), with operators without side effects and imcl_in. */
static bool uniform_visit(Node *n, void *ctx)
{
    Uniform *c = ctx;
    switch (n->kind) {
    case AST_INT_LIT: case AST_FLOAT_LIT: case AST_EXTENT: case AST_BINARY: case AST_COND:
    case AST_CAST:
        return true;
    case AST_UNARY:
        c->ok &= n->u.unary.op < OP_PREINC;
        return c->ok;
    case AST_CALL:
        c->ok &= strcmp(n->u.call.name, "imcl_in") == 0;
        return c->ok;
    case AST_BUILTIN:
        c->ok &= n->u.builtin.which != BI_IDX && n->u.builtin.which <= BI_D;
        return false;
    case AST_VAR:
        c->ok &= is_uniform_var(c->sc, n->u.var.sym);
        return false;
    default:
        c->ok = false;
        return false;
    }
}

static bool uniform(const Scope *sc, Node *e)
{
    Uniform c = {sc, true};
    ast_walk(e, uniform_visit, &c);
    return c.ok;
}

typedef struct Plan {
    Arena *a;
    Local *locals;
    int nlocals, cap;
    const Node **outer;
    int nouter, capouter;
    Scope sc;
    int run, nruns;
    long long taps;   /* the most iterations of a loop nest's innermost body */
    bool ok;
} Plan;

static bool loop_visit(Node *n, void *ctx)
{
    *(bool *)ctx |= n->kind == AST_FOR || n->kind == AST_WHILE || n->kind == AST_DO;
    return true;
}

typedef struct Nest {
    Arena *a;
    long long most;   /* LLONG_MAX: a loop of unknown trip count */
} Nest;

static long long nest_taps(Arena *a, Node *loop);

static bool nest_visit(Node *n, void *ctx)
{
    Nest *c = ctx;
    if (n->kind != AST_FOR && n->kind != AST_WHILE && n->kind != AST_DO)
        return true;
    long long t = nest_taps(c->a, n);
    if (t > c->most)
        c->most = t;
    return false;
}

/* The iterations of the innermost body of the loop nest at `loop`, at most. */
static long long nest_taps(Arena *a, Node *loop)
{
    LoopInfo li;
    if (loop->kind != AST_FOR)
        return LLONG_MAX;
    analyze_loop(a, loop, &li);
    if (!li.unrollable || !li.trip_known)
        return LLONG_MAX;
    Nest c = {a, 1};
    ast_walk(loop->u.loop.body, nest_visit, &c);
    return c.most > LLONG_MAX / (li.trip > 0 ? li.trip : 1) ? LLONG_MAX : c.most * li.trip;
}

/* Whether statement s is a tap loop run once per chunk, its variable in li->var. */
static bool outer_loop(Plan *p, Node *s, LoopInfo *li)
{
    if (s->kind != AST_FOR || p->sc.nouter == LANES_MAX_DEPTH)
        return false;
    analyze_loop(p->a, s, li);
    if (!li->unrollable || !li->declared || !uniform(&p->sc, li->init) || !uniform(&p->sc, li->bound))
        return false;
    bool nested = false;
    ast_walk(s->u.loop.body, loop_visit, &nested);
    return nested || !li->trip_known || li->trip > LANES_INNER_TRIP;
}

typedef struct Lane {
    Arena *a;
    bool ok;
} Lane;

/* What runs inside a loop over the points: nothing that leaves the body, and only
 * loops the compiler unrolls whole (else the loop over the points would not vectorise
 * and the locals in arrays would only cost: the row stays as it is). */
static bool lane_visit(Node *n, void *ctx)
{
    Lane *c = ctx;
    if (n->kind == AST_RETURN || n->kind == AST_GOTO || n->kind == AST_LABEL ||
        n->kind == AST_BARRIER || n->kind == AST_WHILE || n->kind == AST_DO)
        c->ok = false;
    if (n->kind == AST_FOR && nest_taps(c->a, n) > LANES_INNER_TRIP)
        c->ok = false;
    return c->ok;
}

static void declare(Plan *p, Node *d)
{
    if (d->kind == AST_DECL_LIST) {
        for (int i = 0; i < d->u.block.stmts.len; i++)
            declare(p, d->u.block.stmts.items[i]);
        return;
    }
    if (d->kind != AST_DECL)
        return;
    ARENA_GROW(p->a, p->locals, p->nlocals, p->cap);
    p->locals[p->nlocals++] = (Local){d->u.decl.sym, p->run, false};
}

/* References to a local of an earlier run: it lives across runs. */
static bool refs_visit(Node *n, void *ctx)
{
    Plan *p = ctx;
    if (n->kind == AST_VAR)
        for (int i = 0; i < p->nlocals; i++)
            if (p->locals[i].sym == n->u.var.sym && p->locals[i].run != p->run)
                p->locals[i].across = true;
    return true;
}

static void plan_list(Plan *p, Node *list);

static void plan_stmt(Plan *p, Node *s, bool *in_run)
{
    LoopInfo li;
    if (outer_loop(p, s, &li)) {
        ARENA_GROW(p->a, p->outer, p->nouter, p->capouter);
        p->outer[p->nouter++] = s;
        if (!p->sc.nouter) {
            long long t = nest_taps(p->a, s);
            if (t > p->taps)
                p->taps = t;
        }
        p->sc.outer[p->sc.nouter++] = li.var;
        plan_list(p, s->u.loop.body);
        p->sc.nouter--;
        *in_run = false;
        return;
    }
    Lane c = {p->a, true};
    ast_walk(s, lane_visit, &c);
    p->ok &= c.ok;
    if (!*in_run)
        p->run = p->nruns++;
    *in_run = true;
    declare(p, s);
    ast_walk(s, refs_visit, p);
}

static void plan_list(Plan *p, Node *list)
{
    bool in_run = false;
    if (list->kind != AST_BLOCK) {
        plan_stmt(p, list, &in_run);
        return;
    }
    for (int i = 0; i < list->u.block.stmts.len; i++)
        plan_stmt(p, list->u.block.stmts.items[i], &in_run);
}

typedef struct Names {
    const Symbol *sym;
    const char *name;
    bool clash;
} Names;

/* Whether another symbol of the body prints as `name`: the array would hide it. */
static bool names_visit(Node *n, void *ctx)
{
    Names *c = ctx;
    const Symbol *s = n->kind == AST_VAR    ? n->u.var.sym
                      : n->kind == AST_DECL ? n->u.decl.sym
                                            : NULL;
    if (s && s != c->sym && strcmp(unparse_name(s), c->name) == 0)
        c->clash = true;
    return true;
}

static bool plan(Arena *a, Node *body, const Symbol *x, long long min_taps, Lanes *out)
{
    Plan p = {.a = a, .ok = true};
    memset(out, 0, sizeof *out);
    out->x = x;
    scope_init(a, &p.sc, body, x);
    plan_list(&p, body);
    if (!p.ok || !p.nouter || p.taps <= min_taps)
        return false;
    out->locals = arena_alloc(a, sizeof *out->locals * (size_t)(p.nlocals + 1));
    for (int i = 0; i < p.nlocals; i++) {
        if (!p.locals[i].across)
            continue;
        const Symbol *s = p.locals[i].sym;
        Names c = {s, unparse_name(s), false};
        ast_walk(body, names_visit, &c);
        if (!type_is_scalar(s->type) || c.clash)
            return false;
        out->locals[out->nlocals++] = s;
    }
    out->outer = p.outer;
    out->nouter = p.nouter;
    out->varying = p.sc.varying;
    out->nvarying = p.sc.nvarying;
    return true;
}

bool lanes_plan(Arena *a, Node *body, const Symbol *x, Lanes *out)
{
    return plan(a, body, x, LANES_MIN_TAPS, out);
}

bool lanes_plan_any(Arena *a, Node *body, const Symbol *x, Lanes *out)
{
    return plan(a, body, x, 0, out);
}

/* ---- printing --------------------------------------------------------------------- */

static bool is_outer(const Lanes *l, const Node *s)
{
    for (int i = 0; i < l->nouter; i++)
        if (l->outer[i] == s)
            return true;
    return false;
}

typedef struct Run {
    const Symbol *x;
    bool idx;         /* the run reads the row's coordinate */
} Run;

static bool run_visit(Node *n, void *ctx)
{
    Run *c = ctx;
    c->idx |= c->x ? n->kind == AST_VAR && n->u.var.sym == c->x
                   : n->kind == AST_BUILTIN && n->u.builtin.which == BI_IDX;
    return !c->idx;
}

/* Unparser.unroll_of inside the runs: the trip count of a loop the compiler is to
 * unroll whole there (lane_visit let only such loops in). */
static int small_trip(Unparser *u, const Node *loop)
{
    LoopInfo li;
    analyze_loop(u->a, (Node *)loop, &li);
    return li.unrollable && li.trip_known && li.trip > 1 && li.trip <= LANES_INNER_TRIP ? (int)li.trip : 0;
}

/* ---- guards the same for every point of a run ---------------------------------------
 * Near an edge a read is guarded, `imcl_in(idx + i, ..) && imcl_in(idy + j, ..) &&
 * imcl_in(idz + k, ..) ? in[..] : 0` for a box, and a write sits in an `if` of its own.
 * Inside the tap loops the conjuncts over idy + j and idz + k are the same for every
 * point of the run: the run is printed once with them true (the guard keeps its other
 * conjuncts, or goes) and once false (the guard's other side: the boundary value, no
 * write), under an `if` on them, so that the rows near an edge in y or z take no branch
 * per point and vectorise (box3d2r double, C reference at 256^3: those 3% of the rows
 * took 30% of the time). Guards are pure: testing their conjuncts in another order
 * changes no value. */

/* Guards of a run unswitched, at most; more stay in the loop over the points. */
#define LANES_MAX_GUARDS 2

typedef struct Guards {
    Unparser *u;
    const Scope *sc;
    const char *text[LANES_MAX_GUARDS]; /* each guard's uniform conjuncts, as printed */
    Node *cond[LANES_MAX_GUARDS];       /* and as a condition */
    int n;
    unsigned value;                     /* bit i: text[i] holds, in the copy made (decide) */
} Guards;

static const char *expr_text(Unparser *u, const Node *e)
{
    StrBuf sb = {0};
    Unparser t = *u;
    t.out = &sb;
    t.indent = 0;
    unparse_expr(&t, e);
    const char *text = arena_strdup(u->a, sb_str(&sb));
    sb_free(&sb);
    return text;
}

static bool trap_visit(Node *n, void *ctx)
{
    if (n->kind == AST_BINARY && (n->u.binary.op == '/' || n->u.binary.op == '%' ||
                                  n->u.binary.op == OP_SHL || n->u.binary.op == OP_SHR))
        *(bool *)ctx = true;
    return true;
}

/* A conjunct tested once before the run: the same for all its points, and safe to
 * evaluate where the guard's other conjuncts would have skipped it (no division, no
 * shift). */
static bool hoistable(const Scope *sc, Node *e)
{
    bool trap = false;
    ast_walk(e, trap_visit, &trap);
    return !trap && uniform(sc, e);
}

static void conjuncts(Node *e, NodeList *out, Arena *a)
{
    if (e->kind == AST_BINARY && e->u.binary.op == OP_AND) {
        conjuncts(e->u.binary.lhs, out, a);
        conjuncts(e->u.binary.rhs, out, a);
        return;
    }
    nodelist_push(a, out, e);
}

/* The conjuncts of guard `cond` tested before the run (into *uni, joined) and the
 * others (into *rest, joined; NULL: none). */
static void split_guard(const Guards *g, Node *cond, Node **uni, Node **rest)
{
    Arena *a = g->u->a;
    NodeList all = {0};
    conjuncts(cond, &all, a);
    *uni = *rest = NULL;
    for (int i = 0; i < all.len; i++) {
        Node **to = hoistable(g->sc, all.items[i]) ? uni : rest;
        *to = *to ? ast_build_binary(a, OP_AND, *to, all.items[i], cond->loc) : all.items[i];
        (*to)->type = type_scalar(TY_INT);
    }
}

static Node **guard_slot(Node *n)
{
    return n->kind == AST_COND ? &n->u.cond.cond : n->kind == AST_IF ? &n->u.if_.cond : NULL;
}

static bool guards_visit(Node *n, void *ctx)
{
    Guards *g = ctx;
    Node **slot = guard_slot(n);
    if (!slot || g->n == LANES_MAX_GUARDS)
        return true;
    Node *uni, *rest;
    split_guard(g, ast_copy(g->u->a, *slot), &uni, &rest);
    if (!uni)
        return true;
    const char *text = expr_text(g->u, uni);
    for (int i = 0; i < g->n; i++)
        if (strcmp(g->text[i], text) == 0)
            return true;
    g->text[g->n] = text;
    g->cond[g->n++] = uni;
    return true;
}

/* A guard of the copy with its uniform conjuncts decided by g->value. */
static Node *decide(Node *n, void *ctx)
{
    Guards *g = ctx;
    Node **slot = guard_slot(n);
    if (!slot)
        return n;
    Node *uni, *rest;
    split_guard(g, *slot, &uni, &rest);
    if (!uni)
        return n;
    const char *text = expr_text(g->u, uni);
    for (int i = 0; i < g->n; i++) {
        if (strcmp(g->text[i], text) != 0)
            continue;
        bool holds = g->value >> i & 1u;
        if (holds && rest) {
            *slot = rest;
            return n;
        }
        Node *side = n->kind == AST_COND ? (holds ? n->u.cond.then : n->u.cond.els)
                                         : (holds ? n->u.if_.then : n->u.if_.els);
        return side ? side : ast_new(g->u->a, AST_EMPTY, n->loc);
    }
    return n;
}

static void print_list(Unparser *u, const Lanes *l, Scope *sc, Node *list);

/* n statements of a run: one loop over the chunk's points */
static void print_points(Unparser *u, const Lanes *l, Node **stmts, int n)
{
    Run c = {l->x, false};
    for (int i = 0; i < n; i++)
        ast_walk(stmts[i], run_visit, &c);
    unparse_line(u, "for (int imcl_l = 0; imcl_l < imcl_n; imcl_l++) {");
    u->indent++;
    if (c.idx)
        unparse_line(u, "const int %s = imcl_x + imcl_l;", l->x ? unparse_name(l->x) : "idx");
    for (int i = 0; i < n; i++)
        unparse_stmt(u, stmts[i]);
    u->indent--;
    unparse_line(u, "}");
}

/* The run's statements under each outcome of its guards: bit i of the outcome says
 * whether guard i holds. */
typedef struct Outcomes {
    Node **copy[1u << LANES_MAX_GUARDS];
    bool any[1u << LANES_MAX_GUARDS];   /* the copy does something */
} Outcomes;

static void outcomes(Unparser *u, Guards *g, Node **stmts, int n, Outcomes *o)
{
    for (unsigned v = 0; v < 1u << g->n; v++) {
        g->value = v;
        o->copy[v] = arena_alloc(u->a, sizeof *o->copy[v] * (size_t)n);
        o->any[v] = false;
        for (int j = 0; j < n; j++) {
            o->copy[v][j] = ast_mutate(ast_copy(u->a, stmts[j]), decide, g);
            ast_fix_parents(o->copy[v][j]);
            o->any[v] |= o->copy[v][j]->kind != AST_EMPTY;
        }
    }
}

/* Whether an outcome that agrees with `value` on guards 0..i does something */
static bool some(const Guards *g, const Outcomes *o, int i, unsigned value)
{
    unsigned mask = (2u << i) - 1;
    for (unsigned v = 0; v < 1u << g->n; v++)
        if ((v & mask) == (value & mask) && o->any[v])
            return true;
    return false;
}

/* The run under the tests of guards i.. (`value` says those before i): `if (guard)
 * {..} else {..}`, a side that does nothing left out. */
static void print_decided(Unparser *u, const Lanes *l, const Guards *g, const Outcomes *o, int i,
                          unsigned value, int n)
{
    if (i >= g->n || i >= LANES_MAX_GUARDS) {
        if (o->any[value])
            print_points(u, l, o->copy[value], n);
        return;
    }
    bool side[2] = {some(g, o, i, value), some(g, o, i, value | 1u << i)};
    if (!side[0] && !side[1])
        return;
    Node *cond = g->cond[i];
    if (!side[1]) {
        cond = ast_build_unary(u->a, '!', ast_copy(u->a, cond), cond->loc);
        cond->type = type_scalar(TY_INT);
    }
    unparse_indent(u);
    sb_puts(u->out, "if (");
    unparse_expr(u, cond);
    sb_puts(u->out, ") {\n");
    for (int v = 1; v >= 0; v--) {
        if (!side[v])
            continue;
        if (v == 0 && side[1])
            unparse_line(u, "} else {");
        u->indent++;
        print_decided(u, l, g, o, i + 1, v ? value | 1u << i : value, n);
        u->indent--;
    }
    unparse_line(u, "}");
}

typedef struct Unread {
    const Lanes *l;
    NodeList decls;
    const Symbol *sym;
    bool read;
    Arena *a;
} Unread;

static bool unread_visit(Node *n, void *ctx)
{
    Unread *c = ctx;
    if (c->sym)
        c->read |= n->kind == AST_VAR && n->u.var.sym == c->sym && !ast_is_lvalue_use(n);
    else if (n->kind == AST_DECL && !among(c->l->locals, c->l->nlocals, n->u.decl.sym))
        nodelist_push(c->a, &c->decls, n);
    return true;
}

/* Whether some outcome of the guards leaves a local of the run that nothing reads (the
 * write or read that used it decided away): a compiler would warn of it. */
static bool leaves_unread(Unparser *u, const Lanes *l, const Guards *g, const Outcomes *o, int n)
{
    for (unsigned v = 0; v < 1u << g->n; v++) {
        Node **copy = o->copy[v];
        Unread c = {.l = l, .a = u->a};
        for (int i = 0; i < n; i++)
            ast_walk(copy[i], unread_visit, &c);
        for (int d = 0; d < c.decls.len; d++) {
            c.sym = c.decls.items[d]->u.decl.sym;
            c.read = false;
            for (int i = 0; i < n && !c.read; i++)
                ast_walk(copy[i], unread_visit, &c);
            if (!c.read)
                return true;
        }
    }
    return false;
}

/* n statements of a run */
static void print_run(Unparser *u, const Lanes *l, const Scope *sc, Node **stmts, int n)
{
    Guards g = {.u = u, .sc = sc};
    for (int i = 0; i < n; i++)
        ast_walk(stmts[i], guards_visit, &g);
    Outcomes o;
    if (g.n) {
        outcomes(u, &g, stmts, n, &o);
        if (leaves_unread(u, l, &g, &o, n))
            g.n = 0;
    }
    if (!g.n) {
        print_points(u, l, stmts, n);
        return;
    }
    print_decided(u, l, &g, &o, 0, 0, n);
}

static void print_list(Unparser *u, const Lanes *l, Scope *sc, Node *list)
{
    Node **stmts = list->kind == AST_BLOCK ? list->u.block.stmts.items : &list;
    int n = list->kind == AST_BLOCK ? list->u.block.stmts.len : 1;
    for (int i = 0; i < n;) {
        if (is_outer(l, stmts[i])) {
            LoopInfo li;
            analyze_loop(u->a, stmts[i], &li);
            unparse_for_head(u, stmts[i]);
            sb_puts(u->out, "{\n");
            u->indent++;
            sc->outer[sc->nouter++] = li.var;
            print_list(u, l, sc, stmts[i]->u.loop.body);
            sc->nouter--;
            u->indent--;
            unparse_line(u, "}");
            i++;
            continue;
        }
        int j = i;
        while (j < n && !is_outer(l, stmts[j]))
            j++;
        print_run(u, l, sc, stmts + i, j - i);
        i = j;
    }
}

void lanes_print(Unparser *u, const Lanes *l, Node *body)
{
    unparse_line(u, "/* the row in chunks of %d points: the loops over taps run once per chunk,",
                 LANES_CHUNK);
    unparse_line(u, " * the chunk's points inside them, so that the loops over x vectorise */");
    unparse_line(u, "for (int imcl_x = imcl_x0; imcl_x < imcl_x1; imcl_x += %d) {", LANES_CHUNK);
    u->indent++;
    unparse_line(u, "const int imcl_n = imcl_x1 - imcl_x < %d ? imcl_x1 - imcl_x : %d;",
                 LANES_CHUNK, LANES_CHUNK);
    for (int i = 0; i < l->nlocals; i++)
        unparse_line(u, "%s %s[%d];", u->t->scalar_type(l->locals[i]->type->kind),
                     unparse_name(l->locals[i]), LANES_CHUNK);
    u->lane_locals = l->locals;
    u->nlane_locals = l->nlocals;
    u->unroll_of = small_trip;
    Scope sc = {.varying = l->varying, .nvarying = l->nvarying};
    print_list(u, l, &sc, body);
    u->lane_locals = NULL;
    u->nlane_locals = 0;
    u->unroll_of = NULL;
    u->indent--;
    unparse_line(u, "}");
}

bool lanes_print_walk(Unparser *u, const Node *loop)
{
    const Node *cond = loop->u.loop.cond;
    if (!u->a || loop->u.loop.init || !cond || cond->kind != AST_BINARY || cond->u.binary.lhs->kind != AST_VAR)
        return false;
    const Symbol *x = cond->u.binary.lhs->u.var.sym;
    Lanes l;
    Node *body = (Node *)loop->u.loop.body;
    if (!lanes_plan(u->a, body, x, &l))
        return false;
    unparse_line(u, "{");
    u->indent++;
    unparse_indent(u);
    sb_puts(u->out, "const int imcl_x0 = ");
    unparse_expr(u, cond->u.binary.lhs);
    sb_puts(u->out, ", imcl_x1 = ");
    unparse_expr(u, cond->u.binary.rhs);
    sb_puts(u->out, ";\n");
    lanes_print(u, &l, body);
    unparse_line(u, "%s = imcl_x1;", unparse_name(x));
    u->indent--;
    unparse_line(u, "}");
    return true;
}
