/* The ImageCL abstract syntax tree, with a rewriting API in the style of ROSE's
 * SageBuilder / SageInterface: builders (ast_build_*), queries (ast_query*),
 * replace / insert / remove, deep copy, a walker and a mutator.
 *
 * Every node has a common header (kind, location, type, parent) and one union arm
 * chosen by its kind; the comment on each kind names the arm. Builders and
 * inserters set parent links, so passes never do. All memory comes from the
 * Program's arena. */
#ifndef IMCL_AST_H
#define IMCL_AST_H

#include <stdbool.h>

#include "support.h"

/* ---- types ---------------------------------------------------------------- */

typedef enum TypeKind {
    TY_VOID,
    TY_CHAR,   /* signed 8-bit, as OpenCL's char */
    TY_UCHAR,
    TY_SHORT,
    TY_USHORT,
    TY_INT,
    TY_UINT,
    TY_FLOAT,
    TY_DOUBLE,
    TY_IMAGE,  /* 2D grid array: elem */
    TY_BLOCK,  /* 3D grid array: elem */
    TY_ARRAY,  /* fixed-size C array: elem, ndims, dims */
} TypeKind;

#define TYPE_MAX_DIMS 4
/* The most parameters a function may have (sema refuses more). */
#define FUNCTION_MAX_PARAMS 128

typedef struct Type {
    TypeKind kind;
    struct Type *elem;          /* TY_IMAGE, TY_BLOCK, TY_ARRAY: a scalar type */
    int ndims;                  /* TY_ARRAY */
    int dims[TYPE_MAX_DIMS];    /* TY_ARRAY: extents, outermost first (C order) */
} Type;

Type *type_scalar(TypeKind kind);  /* shared singletons of the scalar kinds */
Type *type_grid(Arena *a, TypeKind kind, Type *elem);
Type *type_array(Arena *a, Type *elem, int ndims, const int *dims);
bool type_is_scalar(const Type *t);
bool type_is_integer(const Type *t);
bool type_is_float(const Type *t);
bool type_is_grid(const Type *t);   /* Image or Block */
int type_grid_dims(const Type *t);  /* 2 for Image, 3 for Block */
int type_size(const Type *t);       /* bytes of a scalar */
int type_rank(const Type *t);       /* conversion rank of a scalar */
/* C's usual arithmetic conversions (char/short promote to int). */
Type *type_common(Type *a, Type *b);
Type *type_promote(Type *t);
/* The same on type kinds (scalar ones, or TY_VOID for "not known"). */
bool kind_is_integer(TypeKind k);
TypeKind kind_promote(TypeKind k);
TypeKind kind_common(TypeKind a, TypeKind b);
const char *type_name(const Type *t); /* ImageCL spelling, e.g. "Block<double>" */

/* ---- symbols -------------------------------------------------------------- */

typedef enum SymKind {
    SYM_LOCAL,   /* local scalar or local fixed-size array */
    SYM_PARAM,   /* kernel or helper parameter */
    SYM_ALIAS,   /* offset alias: Block<T> a = base + offset; */
    SYM_FUNC,    /* helper function */
} SymKind;

typedef enum Boundary {
    BC_CONSTANT, /* value bc_value (default 0) outside */
    BC_CLAMPED,
    BC_NONE,
    BC_PERIODIC,
    BC_MIRROR,   /* symmetric: -1 -> 0, n -> n-1 */
} Boundary;

typedef enum MemKind {
    MEM_GLOBAL,
    MEM_SHARED,
    MEM_TEXTURE,
    MEM_CONSTANT,
    MEM_REGISTER,
} MemKind;

enum { ACC_READ = 1, ACC_WRITE = 2 };

struct Node;
struct Function;

typedef struct Symbol {
    const char *name;
    SymKind kind;
    Type *type;
    Loc loc;
    int param_index;            /* SYM_PARAM: position in the parameter list */
    /* Grid arrays (Image/Block parameters); an alias shares its root's. */
    Boundary bc;
    struct Node *bc_value;      /* BC_CONSTANT: value expression, or NULL for 0 */
    int halo;                   /* ghost layer width from #pragma imcl halo */
    bool bc_given;              /* boundary_cond named this array */
    struct Symbol *alias_base;  /* SYM_ALIAS: the array it views (may be an alias) */
    struct Node *alias_offset;  /* SYM_ALIAS: element offset expression, or NULL */
    struct Symbol *offset_var;  /* SYM_ALIAS after lowering: int local holding the offset */
    unsigned access;            /* ACC_READ | ACC_WRITE, from analyze_access */
    bool fully_written;         /* analyze_access: every element written, none read first */
    MemKind mem;
    bool is_const;              /* const local: assignments are refused */
    struct Function *func;      /* SYM_FUNC */
} Symbol;

/* The array a grid symbol finally views: itself, or the root of an alias chain. */
Symbol *symbol_root(Symbol *s);

/* ---- nodes ---------------------------------------------------------------- */

typedef enum NodeKind {
    /* expressions */
    AST_INT_LIT,     /* lit */
    AST_FLOAT_LIT,   /* lit */
    AST_VAR,         /* var: a scalar, fixed-size array or grid array name */
    AST_BUILTIN,     /* builtin: idx/idy/idz, W/H/D, thread/group ids, block sizes */
    AST_EXTENT,      /* extent: A.width / A.height / A.depth */
    AST_GRID_ACCESS, /* access: A[x][y] or A[x][y][z] of an Image/Block (or alias) */
    AST_BUF_ACCESS,  /* access: buf[linear], a lowered grid access (n = 1, ix[0] = index); or
                      * a texture read (n = 2 or 3, ix[d] = int coordinate in storage) */
    AST_INDEX,       /* index: C subscript of a fixed-size or local array */
    AST_UNARY,       /* unary */
    AST_BINARY,      /* binary (also the comma operator, op ',') */
    AST_ASSIGN,      /* binary: op is '=' or the operator of a compound assignment */
    AST_COND,        /* cond */
    AST_CALL,        /* call */
    AST_CAST,        /* cast: to is node->type */
    /* statements */
    AST_BLOCK,       /* block */
    AST_DECL,        /* decl: one declarator */
    AST_DECL_LIST,   /* block: several AST_DECL sharing a type (for-loop init) */
    AST_EXPR_STMT,   /* expr_stmt */
    AST_IF,          /* if_ */
    AST_FOR,         /* loop */
    AST_WHILE,       /* loop */
    AST_DO,          /* loop */
    AST_BREAK,       /* (none) */
    AST_CONTINUE,    /* (none) */
    AST_RETURN,      /* ret */
    AST_EMPTY,       /* (none) */
    AST_COMMENT,     /* comment: a line the compiler adds for readers */
    AST_BARRIER,     /* (none): work-group barrier on local memory */
    AST_GOTO,        /* comment: jump to the label named by text (added by passes) */
    AST_LABEL,       /* comment: the label named by text, on an empty statement */
    AST_POINTS,      /* points: a GPU kernel's point loop, until pass_thread_mapping */
    AST_KIND_COUNT
} NodeKind;

typedef enum Builtin {
    BI_IDX, BI_IDY, BI_IDZ,          /* grid point coordinates */
    BI_W, BI_H, BI_D,                /* grid extent */
    BI_THREAD_X, BI_THREAD_Y, BI_THREAD_Z, /* thread index inside its block */
    BI_GROUP_X, BI_GROUP_Y, BI_GROUP_Z,    /* block (work-group) index */
    BI_NUM_GROUPS_X, BI_NUM_GROUPS_Y, BI_NUM_GROUPS_Z,
    BI_BLOCK_DIM_X, BI_BLOCK_DIM_Y,  /* the block's width and height, chosen at launch (row_fit) */
    /* pass_interior: true at the points where every read and write whose offsets
     * are known lies inside its array's storage (Function.interior says where);
     * pass_thread_mapping turns it into a test of the block. */
    BI_INTERIOR,
    /* The first and the past-the-last row (2D) or plane (3D) a launch computes, kernel
     * parameters imcl_from and imcl_to: the CPU variant's row walk of an iterated kernel
     * whose steps fuse, which PK_plan_iterate launches over the parts of a wavefront
     * (params_cpu_parts). Printed as named. */
    BI_PART_FROM, BI_PART_TO,
} Builtin;

/* Unary operators beyond the single characters '-', '+', '!', '~'. */
enum { OP_PREINC = 256, OP_PREDEC, OP_POSTINC, OP_POSTDEC };
/* Binary operators beyond single characters (+ - * / % < > & | ^ = ,). */
enum { OP_LE = 300, OP_GE, OP_EQ, OP_NE, OP_AND, OP_OR, OP_SHL, OP_SHR };

typedef struct NodeList {
    struct Node **items;
    int len, cap;
} NodeList;

typedef enum MathKind { MK_FLOAT, MK_ANY, MK_ABS } MathKind;

typedef enum MathFn {
    MATH_NONE,
#define MATH(id, name, arity, kind) id,
#include "math_fns.def"
#undef MATH
    MATH_COUNT
} MathFn;

typedef struct MathInfo {
    const char *name;
    int arity;
    MathKind kind;
} MathInfo;

const MathInfo *math_info(MathFn f);
MathFn math_lookup(const char *name); /* MATH_NONE if not a math function */

typedef struct Node {
    NodeKind kind;
    Loc loc;
    Type *type;          /* expressions: set by sema; AST_CAST: the target type */
    struct Node *parent;
    union {
        struct { long long ival; double fval; const char *text; } lit;
        struct { Symbol *sym; } var;
        struct { Builtin which; } builtin;
        struct { Symbol *sym; int dim; } extent;       /* dim 0 width, 1 height, 2 depth */
        /* inside: bit d set where pass_interior proved dimension d in range; inner: on
         * the guarded copy of its split, the bits the interior copy has in `inside` */
        /* at: a lowered grid access of the C reference, its storage coordinates
         * (x + halo, ...; nat of them), for printing the access into an array given as
         * a row table (Unparser.tables); nat 0 for an access through an alias */
        struct {
            Symbol *sym;
            struct Node *ix[3];
            int n;
            unsigned inside, inner;
            struct Node *at[3];
            int nat;
        } access;
        struct { struct Node *base, *index; } index;
        struct { int op; struct Node *operand; } unary;
        struct { int op; struct Node *lhs, *rhs; } binary;
        struct { struct Node *cond, *then, *els; } cond;
        /* x_inner: the lowering's imcl_in, imcl_clamp, imcl_wrap or imcl_mirror of an
         * access's x coordinate that holds (or changes nothing) wherever x lies in the
         * interior's range (access.inner bit 0) */
        struct { const char *name; Symbol *fn; MathFn math; NodeList args; bool x_inner; } call;
        struct { struct Node *expr; } cast;
        struct { NodeList stmts; } block;
        struct { Symbol *sym; struct Node *init; bool is_const; } decl;
        struct { struct Node *expr; } expr_stmt;
        struct { struct Node *cond, *then, *els; } if_;
        /* label: a for loop's C label (`taps: for (...)`, unroll_taps), or NULL; unroll:
         * the constant trip count of a loop the compiler made (coarsening), printed as
         * a hint to unroll it whole where the target has one (Target.unroll_hint), or 0;
         * walk: the CPU variant's walk along a row, `for (; x < end; x++)` over the
         * points (TuneParams.row_walk), which a backend may print in lanes
         * (Unparser.print_walk); interleave: independent iterations the compiler
         * should run side by side after vectorising (Target.interleave_hint), or 0 */
        struct {
            struct Node *init, *cond, *step, *body;
            const char *label;
            int unroll;
            int interleave;
            bool walk;
        } loop;
        struct { struct Node *value; } ret;
        struct { const char *text; } comment;
        /* The point loop of a kernel on a GPU backend (ast_build_points): every thread
         * runs `prologue` once (tile loads and their barrier: every thread of the block
         * takes part), then, at each grid point it computes, `point_prologue` (before the
         * test that skips points past the edge: every lane of a warp shuffles), `body`
         * and `point_epilogue` (after the body, even one that returns). Each part is a
         * block; the prologue's declarations are in scope in the three others, the point
         * prologue's in the last two. pass_thread_mapping lowers it into thread indices
         * and coarsening loops. */
        struct { struct Node *prologue, *point_prologue, *body, *point_epilogue; } points;
    } u;
} Node;

/* ---- functions and the program ------------------------------------------- */

typedef enum GridKind { GRID_NONE, GRID_ARRAYS, GRID_SIZE } GridKind;

/* One item of a `#pragma imcl` line as parsed, before sema resolves its names. */
typedef enum PragmaKind { PRAGMA_GRID, PRAGMA_GRID_SIZE, PRAGMA_BOUNDARY, PRAGMA_HALO, PRAGMA_INDEX_ORDER,
               PRAGMA_ITERATE } PragmaKind;

typedef struct PragmaItem {
    struct PragmaItem *next;
    PragmaKind kind;
    Loc loc;            /* of the array name (or of the expression) */
    const char *name;   /* array name; NULL for grid_size items */
    const char *bc;     /* PRAGMA_BOUNDARY: kind spelling; PRAGMA_ITERATE: the second array */
    Loc bc_loc;
    Node *expr;         /* grid_size extent, constant(v) value, halo width */
} PragmaItem;

/* Where the guard-free interior of a kernel lies (pass_interior): in dimension d,
 * the points with lo[d] <= coordinate and coordinate < extent(bound) + off for
 * every bound of that dimension (the grid's own extent among them). */
typedef struct InteriorBound {
    Symbol *array;      /* whose extent d; NULL: the grid's (W, H or D) */
    long long off;
} InteriorBound;

typedef struct Interior {
    long long lo[3];
    InteriorBound *hi[3];   /* in the arena */
    int nhi[3], caphi[3];
} Interior;

/* A pointer of the C reference's row function: to element (0, idy + dy, idz + dz) of
 * array parameter `array`, so that every read and write of the row body is
 * sym[idx + a], whatever the array's layout (Function.rows). */
typedef struct RowPtr {
    struct Symbol *array;
    int dy, dz;
    struct Symbol *sym;
} RowPtr;

typedef struct Function {
    const char *name;
    Loc loc;
    Type *ret;
    Symbol **params;
    int nparams;
    /* AST_BLOCK; on a GPU backend, until pass_thread_mapping, a kernel's holds its point
     * loop (AST_POINTS) and nothing else: ast_points, ast_point_body */
    Node *body;
    /* pass_interior: the body is `if (BI_INTERIOR) interior copy else body`, and
     * this is where the interior lies; NULL when the kernel has no such split. */
    Interior *interior;
    /* pass_global_memory on a backend with row pointers (the C reference): the
     * pointers through which the row body reads and writes its arrays, one per array
     * and row it reaches (RowPtr), in parameter order, then dz, then dy; nrows is 0
     * when the kernel has no row body. The row body is the interior copy, or the whole
     * body without a split. */
    struct RowPtr *rows;
    int nrows;
    bool is_kernel;         /* preceded by grid or grid_size */
    /* registers_cache (tune/registers.c): the kernel's register terms, computed once
     * for the source in the arena that holds it; NULL in copies the passes rewrite. */
    struct RegTerms *reg_terms;
    /* The for loops dead_code_program took out (they computed nothing): their
     * unroll parameters are still accepted, and change nothing. */
    NodeList removed_loops;
    /* Kernels only. */
    GridKind grid_kind;
    Loc grid_loc;
    Symbol *grid_arrays[8]; /* GRID_ARRAYS: extent of the first; the others must match */
    int ngrid_arrays;
    Node *grid_size[3];     /* GRID_SIZE: X, Y, Z expressions (missing ones are 1) */
    int grid_dims;          /* 2 or 3: dimensionality of the grid */
    /* #pragma imcl index_order(c): A[z][y][x] is the spelling of grid reads and
     * writes (last index fastest, as C arrays); sema stores them x first. */
    bool index_c;
    /* #pragma imcl iterate(A, B): one step computes B from A, and the two trade roles
     * before the next (PK_plan_iterate); NULL, NULL without the pragma. */
    Symbol *iterate[2];
    Loc iterate_loc;
    /* analyze_iterate, run once on the source (driver_load): the radius of the wavefront
     * of fused steps (time_tile), or -1 with the reason in iterate_why. */
    int iterate_radius;
    const char *iterate_why;
    Symbol *self;           /* SYM_FUNC symbol of a helper */
    PragmaItem *pragmas;    /* as parsed, in source order */
    int nlocals;            /* locals declared in the body (sema) */
    Symbol **locals;
    /* imcl --mpi (passes/distribute.c): how the kernel runs over MPI ranks, or NULL. */
    struct DistInfo *dist;
} Function;

/* A kernel distributed over MPI ranks (imcl --mpi, docs/mpi.md): each rank holds a
 * part of the grid and a ghost layer around it, and the kernel's local variant
 * computes a box of that part. */
#define DIST_MAX_GHOST 64
typedef struct DistInfo {
    /* The kernel PK_imcl_local: the body in the grid's coordinates (idx + imcl_gx, ...),
     * every distributed array read and written at storage coordinates (x - imcl_bx, ...)
     * with no boundary check, over a grid of imcl_nx x imcl_ny x imcl_nz points; W, H,
     * D and the distributed arrays' extents are the whole grid's (imcl_gw, ...). */
    Function *local;
    int ghost[3];           /* the ghost layer's width in each dimension */
    /* The neighbours whose ghost cells the kernel reads: bit (dx + 1) + 3 (dy + 1) +
     * 9 (dz + 1) for the neighbour in direction (dx, dy, dz) */
    unsigned dirs;
    bool *distributed;      /* by parameter: an Image or Block of the grid's dimensions */
    bool *exchanged;        /* ... read at an offset, so its ghost layer is exchanged */
} DistInfo;

typedef struct Program {
    Arena *arena;
    const char *file;       /* the main source file name */
    Function **funcs;
    int nfuncs, capfuncs;
    /* Every file the source was read from: the main file, then each file it includes
     * (named by the preprocessor's line markers), once each (imcl --depfile). */
    const char **files;
    int nfiles, capfiles;
} Program;

/* ---- builders: every builder sets loc and parent links of its children ---- */

Node *ast_new(Arena *a, NodeKind kind, Loc loc);
Node *ast_build_int(Arena *a, long long v, Loc loc);
Node *ast_build_float(Arena *a, double v, const char *text, Type *type, Loc loc);
Node *ast_build_var_ref(Arena *a, Symbol *s, Loc loc);
Node *ast_build_builtin(Arena *a, Builtin b, Loc loc);
Node *ast_build_extent(Arena *a, Symbol *s, int dim, Loc loc);
Node *ast_build_grid_access(Arena *a, Symbol *s, Node **ix, int n, Loc loc);
Node *ast_build_buf_access(Arena *a, Symbol *s, Node *linear, Loc loc);
Node *ast_build_index(Arena *a, Node *base, Node *index, Loc loc);
Node *ast_build_unary(Arena *a, int op, Node *operand, Loc loc);
Node *ast_build_binary(Arena *a, int op, Node *lhs, Node *rhs, Loc loc);
Node *ast_build_assign(Arena *a, int op, Node *lhs, Node *rhs, Loc loc);
Node *ast_build_cond(Arena *a, Node *c, Node *t, Node *e, Loc loc);
Node *ast_build_call(Arena *a, const char *name, Loc loc);  /* then ast_append_arg */
Node *ast_build_cast(Arena *a, Type *to, Node *expr, Loc loc);
Node *ast_build_block(Arena *a, Loc loc);
Node *ast_build_decl(Arena *a, Symbol *s, Node *init, Loc loc);
Node *ast_build_expr_stmt(Arena *a, Node *e, Loc loc);
Node *ast_build_if(Arena *a, Node *c, Node *t, Node *e, Loc loc);
Node *ast_build_for(Arena *a, Node *init, Node *c, Node *step, Node *body, Loc loc);
Node *ast_build_while(Arena *a, Node *c, Node *body, Loc loc);
Node *ast_build_do(Arena *a, Node *body, Node *c, Loc loc);
Node *ast_build_return(Arena *a, Node *value, Loc loc);
Node *ast_build_comment(Arena *a, const char *text, Loc loc);
Node *ast_build_goto(Arena *a, const char *label, Loc loc);
Node *ast_build_label(Arena *a, const char *label, Loc loc);
/* A point loop around body, its other parts empty blocks. */
Node *ast_build_points(Arena *a, Node *body, Loc loc);
Symbol *ast_build_symbol(Arena *a, const char *name, SymKind kind, Type *type, Loc loc);

void nodelist_push(Arena *a, NodeList *l, Node *n);
void ast_append_arg(Arena *a, Node *call, Node *arg);
void ast_append_stmt(Arena *a, Node *block, Node *stmt);
void ast_prepend_stmt(Arena *a, Node *block, Node *stmt);
void program_add_function(Program *p, Function *f);
void program_add_file(Program *p, const char *file); /* once per name */

/* ---- interface: edit the tree in place ----------------------------------- */

/* Replaces old by new in old's parent (an expression or a statement). */
void ast_replace(Node *old, Node *new_node);
/* Inserts stmt before / after `at`, a statement whose parent is a block. */
void ast_insert_before(Arena *a, Node *at, Node *stmt);
void ast_insert_after(Arena *a, Node *at, Node *stmt);
/* Removes a statement from its parent block. */
void ast_remove_stmt(Node *stmt);
/* Deep copy; symbols are shared, parent of the copy is NULL. */
Node *ast_copy(Arena *a, const Node *n);

/* Children of a node in evaluation order, NULLs skipped. */
int ast_children(Node *n, Node ***slots, int max);
/* Sets parent links of the whole subtree under n. */
void ast_fix_parents(Node *n);

/* ---- queries -------------------------------------------------------------- */

/* Pre-order walk: visit returns false to skip the node's children. */
typedef bool (*AstVisit)(Node *n, void *ctx);
void ast_walk(Node *n, AstVisit visit, void *ctx);

/* Post-order rewrite: mutate returns the replacement for n (n itself to keep it). */
typedef Node *(*AstMutate)(Node *n, void *ctx);
Node *ast_mutate(Node *n, AstMutate mutate, void *ctx);

/* All nodes of a kind under root, in pre-order. */
NodeList ast_query(Arena *a, Node *root, NodeKind kind);
/* All grid accesses under root whose array (after alias resolution) is `array`. */
NodeList ast_query_accesses(Arena *a, Node *root, Symbol *array);
/* The innermost enclosing statement of an expression node. */
Node *ast_enclosing_stmt(Node *n);
bool ast_is_stmt(const Node *n);
bool ast_is_lvalue_use(const Node *n);      /* n is written (assigned or ++/--) */
bool ast_is_read_use(const Node *n);        /* n's old value is read */
/* True when the tree under root assigns variable s (=, op=, ++ or --). */
bool ast_assigns(Node *root, const Symbol *s);
/* True when the tree under root names s: a variable, or an access of the array. */
bool ast_uses_symbol(Node *root, const Symbol *s);
/* True when kernel k has an Image or Block parameter. */
bool function_has_grid(const Function *k);
/* f's point loop (AST_POINTS), or NULL: f is not a kernel on a GPU backend before
 * pass_thread_mapping. */
Node *ast_points(const Function *f);
/* The statements of one grid point: the point loop's body, or without one f's body. */
Node *ast_point_body(const Function *f);
void ast_set_point_body(Function *f, Node *body);
/* True when the tree under root holds a node of that kind; a return statement. */
bool ast_has_kind(Node *root, NodeKind kind);
bool ast_has_return(Node *root);
bool ast_has_side_effects(const Node *n);

/* ---- constant expressions (consteval.c) ------------------------------------ */

typedef enum ConstStatus {
    CONST_OK,        /* the value is known exactly */
    CONST_UNKNOWN,   /* not a constant, or not one imcl evaluates exactly */
    CONST_UNDEFINED, /* C leaves it undefined: where and why say what */
} ConstStatus;

/* A value of a scalar C type, evaluated as C does (consteval.c says how exactly). */
typedef struct ConstVal {
    ConstStatus status;
    TypeKind type;      /* the C type of the expression (TY_VOID when not known) */
    long long i;        /* integer types: the value, within the type's range */
    double f;           /* float (a float value) and double */
    bool product;       /* an inexact float product a device may fuse with an add */
    const Node *where;  /* CONST_UNDEFINED: the operation */
    char why[96];       /* CONST_UNDEFINED: what is undefined, e.g. "division by zero" */
} ConstVal;

ConstVal const_eval(const Node *n);
/* A known value i of integer type `type` (within its range). */
ConstVal const_int(TypeKind type, long long i);
/* C's conversions and operators on known values (`where` locates an undefined one). */
ConstVal const_convert(ConstVal v, TypeKind to, const Node *where);
ConstVal const_unary(int op, ConstVal a, const Node *where);
ConstVal const_binary(int op, ConstVal a, ConstVal b, const Node *where);
/* The range of an integer type (int's for other kinds). */
void type_range(TypeKind k, long long *lo, long long *hi);
/* n is an integer constant expression: its value, in n's own type. */
bool ast_const_int(const Node *n, long long *out);
/* ... whose type promotes to int, so that `x + n` with an int x is int arithmetic. */
bool ast_const_offset(const Node *n, long long *out);

/* ---- invariants ------------------------------------------------------------ */

/* The tree check (ast/verify.c): parent links, expression types, nothing of the
 * grid left once lowered, every name declared in scope before its use; false after
 * an internal error in d that names the pass, the kernel and what broke. */
bool verify_function(Diag *d, const Function *f, const char *after_pass, bool lowered);

/* ---- printing --------------------------------------------------------------- */

/* A readable tree dump for --emit-ast. */
void ast_dump_function(FILE *out, const Function *f);
const char *ast_kind_name(NodeKind k);
const char *ast_op_spelling(int op);
const char *builtin_spelling(Builtin b);  /* ImageCL spelling: idx, W, ... */

#endif
