/* The unparser: prints a (lowered) AST as indented C-family source. The three
 * backends share it and differ only in a small table of hooks (Target): type
 * spellings, thread indices, math function names and helper qualifiers. */
#ifndef IMCL_UNPARSE_H
#define IMCL_UNPARSE_H

#include "ast.h"

typedef struct Unparser Unparser;

/* Compiler helpers the printed code may call; emitted on demand. */
enum {
    HELPER_IN = 1u << 0,      /* imcl_in(i, n, h): -h <= i < n + h */
    HELPER_CLAMP = 1u << 1,   /* imcl_clamp(i, n, h) */
    HELPER_WRAP = 1u << 2,    /* imcl_wrap(i, n, h) */
    HELPER_MIRROR = 1u << 3,  /* imcl_mirror(i, n, h) */
    HELPER_SHFL = 1u << 4,    /* imcl_shfl(v, lane): v of another lane of the warp (CUDA) */
};

typedef struct Target {
    const char *name;                                /* "c", "cuda", "opencl" */
    const char *(*scalar_type)(TypeKind k);          /* spelling of a scalar type */
    void (*builtin)(Unparser *u, Builtin b);         /* thread/group indices */
    void (*math_call)(Unparser *u, const Node *call);
    const char *function_qualifier;                  /* for helpers: "static", "__device__ static" */
    const char *shared_qualifier;                    /* "__shared__ ", "__local "; NULL for C */
    /* A texture read (AST_BUF_ACCESS with n > 1, see pass_texture_memory); NULL
     * for targets without textures. Its text may start with a cast. */
    void (*texture_read)(Unparser *u, const Node *read);
    /* The name a buffer access uses for array s; NULL: unparse_name(s). */
    const char *(*buffer_name)(Unparser *u, const Symbol *s);
    /* The statement that waits for every thread of a block; NULL: no blocks. */
    const char *barrier;
    /* The line before a loop to unroll whole (a printf format taking the trip count);
     * NULL: none printed. */
    const char *unroll_hint;
    /* The line before a loop whose vectorised iterations should run side by side (a
     * printf format taking their number: Node.u.loop.interleave); NULL: none printed. */
    const char *interleave_hint;
} Target;

struct Unparser {
    StrBuf *out;
    int indent;
    const Target *t;
    unsigned helpers;        /* HELPER_* used so far */
    unsigned minmax_types;   /* C backend: bit (kind) for each min/max/clamp type used */
    int depth;               /* brackets open at this point of the output */
    int max_depth;           /* the most brackets ever open, and where */
    const Node *deepest;
    const Function *k;       /* the kernel printed, for hooks naming its file-scope objects */
    /* C reference: print the grid accesses that carry storage coordinates as reads of
     * a row table, a[z][y][x] (AST_BUF_ACCESS.at), instead of a[linear] */
    bool tables;
    /* GPU kernels that run a batch of blocks (host_kernel_body): the work-group's z
     * index within its block is imcl_group_z, not the launch's */
    bool batch;
    /* A kernel body inside the loop over a batch's blocks (batch_loop): its returns
     * go to this label, the next block, instead; NULL otherwise */
    const char *return_label;
    /* A row printed in lanes (analysis/lanes.c): the locals kept as arrays of a
     * chunk's points, printed `name[imcl_l]`, their declarations as assignments */
    const Symbol *const *lane_locals;
    int nlane_locals;
    /* Prints a walk along a row (a for loop with loop.walk) its own way, or returns
     * false to leave it to the unparser; NULL: none. `a` holds what it makes. */
    bool (*print_walk)(Unparser *u, const Node *loop);
    Arena *a;
    /* The unroll hint of a for loop without loop.unroll (0: none), where the target
     * has hints (Target.unroll_hint); NULL: none */
    int (*unroll_of)(Unparser *u, const Node *loop);
};

/* Compilers refuse deeper bracket nesting (clang's limit is 256). */
#define UNPARSE_MAX_DEPTH 200

/* Reports an expression nested deeper than UNPARSE_MAX_DEPTH; returns errors. */
int unparse_check_depth(const Unparser *u, Diag *diag, const char *backend);

/* C's spelling of a scalar type (`signed char` ... `double`), as host code declares it. */
const char *unparse_c_type(TypeKind k);
/* The target of expressions over scalar parameters and operators only, printed as host
 * C (a grid_size expression): no built-in, no math call. */
extern const Target unparse_target_scalars;

void unparse_init(Unparser *u, StrBuf *out, const Target *t);
void unparse_expr(Unparser *u, const Node *n);
void unparse_stmt(Unparser *u, const Node *n);
/* Prints the statements of a block at the current indent, without braces. */
void unparse_stmts(Unparser *u, const Node *block);
/* Prints the indent and `for (init; cond; step) ` of a for loop, without its body. */
void unparse_for_head(Unparser *u, const Node *loop);
void unparse_line(Unparser *u, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void unparse_indent(Unparser *u);
/* Prints `f(x, y)` with each argument converted to type t when it differs. */
/* Prints n as an operand of a binary + (parenthesised when it binds less tightly). */
void unparse_additive(Unparser *u, const Node *n);
void unparse_call_converted(Unparser *u, const char *name, const Node *call, Type *t);

/* A math call in C library spelling (sqrtf for float, sqrt for double, abs for
 * int), shared by the C and CUDA backends; returns false for min/max/clamp,
 * whose spelling differs between them. */
bool unparse_libm_call(Unparser *u, const Node *call);

/* Name of a symbol in generated code: the source name, or `imcl_v_<name>` when
 * that is a reserved word or a library name of C, C++, CUDA or OpenCL C; helper
 * functions are always `imcl_fn_<name>` (no library can clash with them). Names
 * starting with imcl_ are refused in sources, so none of these can collide. */
const char *unparse_name(const Symbol *s);
/* The OpenCL name of a kernel: its own, or `imcl_k_<name>` when reserved. */
const char *unparse_kernel_name(const Function *k);
const char *unparse_extent_suffix(int dim);  /* "_width", "_height", "_depth" */

/* Definitions of the boundary helpers used (after printing the code that uses
 * them), each preceded by `qualifier`. */
void unparse_helper_defs(StrBuf *out, unsigned helpers, const char *qualifier);

/* Prototype `ret name(T a, T b)` of a helper function, with the target's types. */
void unparse_function_head(Unparser *u, const Function *f);

#endif
