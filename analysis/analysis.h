/* Analyses: compute facts about a kernel, never edit its AST. */
#ifndef IMCL_ANALYSIS_H
#define IMCL_ANALYSIS_H

#include "ast.h"

/* Classifies every array parameter of kernel k as read and/or written (seen through
 * offset aliases) and finds the arrays that the kernel provably overwrites in full
 * before reading, whose old contents need not be copied to the device. */
void analyze_access(Arena *a, Function *k);

/* The footprint of one grid access: in each dimension, whether its offsets from
 * the grid coordinate are known constants, their range and how many there are. */
typedef struct AccessFootprint {
    Node *access;
    bool known[3];
    long long min[3], max[3];
    int count[3];
    const char *why[3];   /* when not known: the reason */
} AccessFootprint;

typedef struct Footprint {
    Function *k;
    AccessFootprint *items;
    int n, cap;
    int *index;     /* open addressing over the accesses: the first item of each, or -1 */
    int nindex;     /* a power of two above twice n */
} Footprint;

/* The footprint of every grid access of kernel k (thesis 3.1.4): set-valued
 * constant propagation through locals, branches and loops with constant bounds. */
Footprint *analyze_footprint(Arena *a, Function *k);
const AccessFootprint *footprint_of(const Footprint *fp, const Node *access);

/* The constant offset c of an index expression of the form `b + c`, `b - c`,
 * `c + b` or `b` (b one of idx/idy/idz). */
bool analyze_const_offset(const Node *ix, Builtin b, long long *offset);

/* True when access `acc` (a grid access of its root array) provably lies inside the
 * array's storage (extent plus halo) in dimension dim, so needs no guard. */
bool analyze_access_inside(const Function *k, const Footprint *fp, const Node *acc, int dim);

/* Where kernel k's guard-free interior lies (Interior in ast.h): NULL when no
 * guard or index function of its grid accesses could be proven away there;
 * else *proven (when not NULL) has, for each access of ast_query(AST_GRID_ACCESS) in
 * order, bit d set where the interior proves dimension d in range. */
Interior *analyze_interior(Arena *a, Function *k, unsigned **proven);

/* The offsets of grid access `acc` in dimension dim are known constants (its
 * footprint), on an array parameter itself (not through an alias, whose offset is
 * only known at run time): *min and *max are their range. */
bool analyze_access_known(const Footprint *fp, const Node *acc, int dim, long long *min, long long *max);

/* The radius R of kernel k's iterate pragma in its last grid dimension (z, or y in 2D):
 * every read of the input A is at a constant offset there, from -R to R, and every
 * write of the output B at offset 0, so that the steps of PK_plan_iterate may run as a
 * wavefront over that dimension, each R behind the step before (time_tile). -1, with
 * *why (words that follow "steps cannot be fused: "), when not so. */
#define ANALYZE_MAX_ITERATE_RADIUS 64
int analyze_iterate(Arena *a, Function *k, const char **why);

/* The cost of one grid point of a kernel (analysis/cost.c, imcl --analyze). */
typedef struct KernelCost {
    double flops;           /* + - * / and math calls on float/double, costliest path */
    double loads;           /* grid reads as written, loops times their trip counts */
    double bytes_read;      /* compulsory bytes per point: neighbours share their reads */
    double bytes_written;
    bool exact;             /* false: a loop of unknown trip count was counted once */
    bool no_reuse;          /* some array's accesses have no known footprint: its bytes
                             * count every access (an upper bound) */
} KernelCost;

/* The floating-point operations and compulsory memory traffic of one grid point of
 * kernel k (helpers included), along the costliest path of its body. */
KernelCost analyze_cost(Arena *a, Function *k);

/* A `for` loop as loop unrolling sees it (analysis/loops.c). It is unrollable when
 * it has the canonical form `for (i = a; i OP b; STEP) body`: the init declares or
 * assigns one integer variable i; OP is <, <=, > or >= (b OP i too); STEP is i++,
 * ++i, i--, --i, i += c or i -= c with c a nonzero constant going towards b; the body
 * does not assign i and has no break or continue of this loop and no return; b has
 * no side effects and reads nothing the body writes. */
typedef struct LoopInfo {
    Node *loop;
    int line;              /* loop->loc.line, the key of unroll_L<line> */
    const char *label;     /* its C label (`taps: for`), the key of unroll_<label>; or NULL */
    bool unrollable;
    const char *why;       /* when not unrollable: the reason ("its body assigns 'i'") */
    /* Unrollable loops only. */
    Symbol *var;           /* i */
    Node *init;            /* a */
    bool declared;         /* the init declares i (for (int i = a; ...)) */
    int op;                /* normalized to `i op b`: '<', OP_LE, '>' or OP_GE */
    Node *bound;           /* b */
    long long step;        /* c: > 0 for < and <=, < 0 for > and >= */
    bool trip_known;       /* a and b are constants: the loop runs `trip` times */
    long long trip;
    long long first;       /* a, when trip_known */
} LoopInfo;

/* One entry per source line on which a for loop of kernel k starts, in pre-order.
 * A line on which several for loops start is not unrollable. */
typedef struct LoopTable {
    LoopInfo *items;
    int n;
} LoopTable;

void analyze_loop(Arena *a, Node *loop, LoopInfo *out);
LoopTable analyze_loops(Arena *a, const Function *k);
const LoopInfo *loops_find(const LoopTable *t, int line);
/* The loop labelled `label`, or NULL. */
const LoopInfo *loops_find_label(const LoopTable *t, const char *label);

/* Largest unroll factor imcl lists. */
#define LOOPS_MAX_FACTOR 64
/* The unroll factors the tuning space lists for a loop, ascending, 1 first; at
 * most `max` (>= 1) of them. Not unrollable: [1]. Unknown trip count: 1, 2, 4, 8.
 * Trip count N: the divisors of N up to LOOPS_MAX_FACTOR (so N itself when
 * N <= 64), and for N > 64 the powers of two up to 64 as well (they leave a
 * remainder). Every factor from 1 to the largest listed one is accepted. */
int loops_unroll_factors(const LoopInfo *li, int *out, int max);

/* Liveness (analysis/liveness.c). A set of variables is a bit set over
 * Liveness.vars: bit i of word i / 64 stands for vars[i]. */
typedef const unsigned long long *LiveSet;

typedef struct LiveStmt {
    const Node *stmt;
    LiveSet in;          /* live before the statement */
    LiveSet out;         /* live where control goes after it: the next statement, or
                          * the target of a break / continue / return */
    LiveSet after_cond;  /* if, for, while, do: live after the condition is tested;
                          * NULL for other statements */
} LiveStmt;

typedef struct Liveness {
    const Function *f;
    Symbol **vars;       /* the tracked scalars: scalar parameters, then the scalar
                          * locals in order of declaration */
    int nvars, capvars;
    int words;           /* words of a LiveSet */
    LiveStmt *stmts;     /* every statement of the body, blocks included */
    int nstmts, capstmts;
    LiveSet entry;       /* live on entry to the function */
    struct LiveVars *vars_map, *stmt_index;
} Liveness;

/* The scalar variables (locals and scalar parameters, never arrays or aliases)
 * live before and after every statement of function f (a kernel or a helper; a
 * kernel's point body when it has a point loop): backward dataflow to the least fixed point
 * through if/else, loops, break, continue and return, nothing being live after the
 * function ends. */
Liveness *analyze_liveness(Arena *a, const Function *f);
const LiveStmt *liveness_stmt(const Liveness *lv, const Node *stmt);
/* The position of s in lv->vars, or -1 when s is not tracked. */
int liveness_var(const Liveness *lv, const Symbol *s);
bool liveness_has(const Liveness *lv, LiveSet set, const Symbol *s);
bool liveness_has_index(LiveSet set, int i);
/* The 32-bit registers the variables of `set` take: a double counts 2. */
int liveness_regs(const Liveness *lv, LiveSet set);

#endif
