/* The shared unparser: precedence-aware expressions, braced statements. */
#include "unparse.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

const char *unparse_c_type(TypeKind k)
{
    switch (k) {
    case TY_VOID: return "void";
    case TY_CHAR: return "signed char";
    case TY_UCHAR: return "unsigned char";
    case TY_SHORT: return "short";
    case TY_USHORT: return "unsigned short";
    case TY_INT: return "int";
    case TY_UINT: return "unsigned int";
    case TY_FLOAT: return "float";
    case TY_DOUBLE: return "double";
    default: UNREACHABLE();
    }
}

static void no_builtin(Unparser *u, Builtin b)
{
    (void)u;
    (void)b;
    UNREACHABLE();
}

static void no_math(Unparser *u, const Node *call)
{
    (void)u;
    (void)call;
    UNREACHABLE();
}

const Target unparse_target_scalars = {
    .name = "host",
    .scalar_type = unparse_c_type,
    .builtin = no_builtin,
    .math_call = no_math,
    .function_qualifier = "static",
};

void unparse_init(Unparser *u, StrBuf *out, const Target *t)
{
    memset(u, 0, sizeof *u);
    u->out = out;
    u->t = t;
}

void unparse_indent(Unparser *u)
{
    for (int i = 0; i < u->indent; i++)
        sb_puts(u->out, "    ");
}

void unparse_line(Unparser *u, const char *fmt, ...)
{
    unparse_indent(u);
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(u->out, fmt, ap);
    va_end(ap);
    sb_putc(u->out, '\n');
}

/* ---- names --------------------------------------------------------------------- */

static const char *const reserved[] = {
    /* C and C++ */
    "auto", "register", "static", "extern", "volatile", "typedef", "union", "enum", "goto",
    "switch", "case", "default", "sizeof", "inline", "restrict", "long", "bool", "class",
    "new", "delete", "this", "template", "namespace", "operator", "public", "private",
    "protected", "virtual", "friend", "try", "catch", "throw", "using", "typename", "true",
    "false", "nullptr", "and", "or", "not", "xor", "explicit", "mutable", "export", "asm",
    "constexpr", "decltype", "noexcept", "alignas", "alignof", "static_assert", "thread_local",
    "bitand", "bitor", "compl", "and_eq", "or_eq", "xor_eq", "not_eq", "char16_t", "char32_t",
    "const_cast", "static_cast", "dynamic_cast", "reinterpret_cast", "typeid", "override",
    "final", "concept", "requires", "co_await", "co_yield", "co_return", "consteval",
    "constinit", "char8_t", "import", "module", "register", "_Bool", "_Complex", "_Atomic",
    "_Generic", "_Noreturn", "_Alignas", "_Alignof", "_Static_assert", "_Thread_local",
    "main", "NULL", "int8_t", "size_t", "ptrdiff_t", "intptr_t", "uintptr_t", "wchar_t",
    /* CUDA */
    "threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize", "dim3", "__global__",
    "__device__", "__shared__", "__constant__", "texture", "surface",
    /* OpenCL C */
    "kernel", "global", "local", "constant", "read_only", "write_only", "read_write",
    "image1d_t", "image2d_t", "image3d_t", "sampler_t", "event_t", "half", "complex",
    "imaginary", "char2", "char3", "char4", "char8", "char16", "uchar2", "uchar4", "short2",
    "short4", "ushort2", "ushort4", "int2", "int3", "int4", "int8", "int16", "uint2", "uint4",
    "float2", "float3", "float4", "float8", "float16", "double2", "double3", "double4",
    "double8", "double16", "barrier", "as_double", "as_int2", "as_float",
    "get_global_id", "get_local_id", "get_group_id", "get_local_size", "get_num_groups",
    "get_global_size", "read_imagef", "read_imagei", "read_imageui", "write_imagef",
    /* Math names used by the backends */
    "rsqrt", "mad", "fma", "erf", "erfc", "lgamma", "tgamma", "exp10", "expm1", "log1p",
    "logb", "ilogb", "ldexp", "frexp", "modf", "nan", "nextafter", "remainder", "remquo",
    "rint", "lrint", "lround", "copysign", "fdim", "signbit", "isnan", "isinf", "isfinite",
    "sincos", "sinpi", "cospi", "tanpi", "asinh", "acosh", "atanh", "pown", "powr", "rootn",
    "native_sqrt", "native_exp", "native_log", "native_sin", "native_cos", "half_sqrt",
    "dot", "cross", "length", "distance", "normalize", "mix", "step", "smoothstep", "sign",
    "degrees", "radians", "select", "any", "all", "clz", "popcount", "rotate", "upsample",
    "hadd", "rhadd", "mul24", "mad24", "mad_sat", "add_sat", "sub_sat", "abs_diff", "printf",
    "div", "ldiv", "labs", "llabs", "rand", "srand", "exit", "abort", "free", "malloc", "calloc",
    "realloc", "memcpy", "memset", "strlen", "assert", "errno", "stdin", "stdout", "stderr",
    "min", "max", "clamp", "vload", "vstore", "prefetch", "wait_group_events", "mem_fence",
    "work_dim", "get_work_dim", "get_global_offset", "atomic_add", "atom_add", "cl_int",
    "uchar", "ushort", "uint", "ulong", "signed", "unsigned", "char", "short", "int", "float",
    "double", "void", "const", "if", "else", "for", "while", "do", "break", "continue", "return",
};

#define NRESERVED (sizeof reserved / sizeof reserved[0])

/* The exact reserved names in a hash set, built on first use: the reserved words,
 * the math functions and their float spellings (sqrtf). Every printed name is looked
 * up (compile speed). */
#define NAME_SLOTS 2048

static unsigned name_hash(const char *s)
{
    unsigned h = 2166136261u; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

static void name_insert(const char **slots, const char *name)
{
    unsigned i = name_hash(name) & (NAME_SLOTS - 1);
    while (slots[i] && strcmp(slots[i], name) != 0)
        i = (i + 1) & (NAME_SLOTS - 1);
    slots[i] = name;
}

static const char *const *reserved_set(void)
{
    static const char *slots[NAME_SLOTS];
    static char float_names[MATH_COUNT][32];
    static bool ready;
    if (!ready) {
        for (size_t i = 0; i < NRESERVED; i++)
            name_insert(slots, reserved[i]);
        for (int m = 1; m < MATH_COUNT; m++) {
            const char *mn = math_info((MathFn)m)->name;
            snprintf(float_names[m], sizeof float_names[m], "%sf", mn);
            name_insert(slots, mn);
            name_insert(slots, float_names[m]);
        }
        ready = true;
    }
    return slots;
}

static bool is_reserved(const char *name)
{
    const char *const *slots = reserved_set();
    for (unsigned i = name_hash(name) & (NAME_SLOTS - 1); slots[i]; i = (i + 1) & (NAME_SLOTS - 1))
        if (strcmp(slots[i], name) == 0)
            return true;
    /* The vector types of OpenCL (float2 ... double16): a scalar type's name and a
     * digit from 1, the first digit of the name. */
    size_t n = strcspn(name, "0123456789");
    if (name[n] >= '1' && name[n] <= '9') {
        static const char *const vec[] = {"char", "uchar", "short", "ushort", "int", "uint", "long",
                                          "ulong", "float", "double", "half"};
        for (size_t i = 0; i < sizeof vec / sizeof vec[0]; i++)
            if (strlen(vec[i]) == n && strncmp(name, vec[i], n) == 0)
                return true;
    }
    return strncmp(name, "__", 2) == 0;
}

const char *unparse_name(const Symbol *s)
{
    static char buf[8][300];
    static int next;
    char *b = buf[next++ % 8];
    if (s->kind == SYM_FUNC)
        snprintf(b, sizeof buf[0], "imcl_fn_%s", s->name);
    else if (is_reserved(s->name))
        snprintf(b, sizeof buf[0], "imcl_v_%s", s->name);
    else
        return s->name;
    return b;
}

const char *unparse_kernel_name(const Function *k)
{
    static char buf[300];
    if (!is_reserved(k->name))
        return k->name;
    snprintf(buf, sizeof buf, "imcl_k_%s", k->name);
    return buf;
}

const char *unparse_extent_suffix(int dim)
{
    return dim == 0 ? "_width" : dim == 1 ? "_height" : "_depth";
}

/* ---- expressions ------------------------------------------------------------------ */

enum {
    PREC_COMMA = 1, PREC_ASSIGN, PREC_COND, PREC_OR, PREC_AND, PREC_BITOR, PREC_BITXOR,
    PREC_BITAND, PREC_EQ, PREC_REL, PREC_SHIFT, PREC_ADD, PREC_MUL, PREC_UNARY, PREC_POSTFIX,
    PREC_PRIMARY,
};

static int binary_prec(int op)
{
    switch (op) {
    case ',': return PREC_COMMA;
    case OP_OR: return PREC_OR;
    case OP_AND: return PREC_AND;
    case '|': return PREC_BITOR;
    case '^': return PREC_BITXOR;
    case '&': return PREC_BITAND;
    case OP_EQ: case OP_NE: return PREC_EQ;
    case '<': case '>': case OP_LE: case OP_GE: return PREC_REL;
    case OP_SHL: case OP_SHR: return PREC_SHIFT;
    case '+': case '-': return PREC_ADD;
    default: return PREC_MUL;
    }
}

static int prec(const Node *n)
{
    switch (n->kind) {
    case AST_BINARY:
        return binary_prec(n->u.binary.op);
    case AST_ASSIGN:
        return PREC_ASSIGN;
    case AST_COND:
        return PREC_COND;
    case AST_UNARY:
        return n->u.unary.op == OP_POSTINC || n->u.unary.op == OP_POSTDEC ? PREC_POSTFIX : PREC_UNARY;
    case AST_CAST:
        return PREC_UNARY;
    case AST_INT_LIT:
        return n->u.lit.ival < 0 ? PREC_UNARY : PREC_PRIMARY;
    case AST_BUF_ACCESS:
        return n->u.access.n > 1 ? PREC_UNARY : PREC_POSTFIX;  /* a texture read may be a cast */
    case AST_INDEX:
    case AST_CALL:
        return PREC_POSTFIX;
    default:
        return PREC_PRIMARY;
    }
}

/* Parentheses a reader (and gcc -Wparentheses) would want although precedence
 * does not need them: mixed logical or bitwise operators. */
static bool clarity_parens(const Node *parent, const Node *child)
{
    if (parent->kind != AST_BINARY)
        return false;
    int pp = binary_prec(parent->u.binary.op);
    bool parent_cmp = pp == PREC_EQ || pp == PREC_REL;
    /* `(!x) == y`, and comparisons of comparisons: C parses them, readers misread them. */
    if (parent_cmp && child->kind == AST_UNARY && child->u.unary.op == '!')
        return true;
    if (child->kind != AST_BINARY)
        return false;
    int cp = binary_prec(child->u.binary.op);
    if (parent_cmp && (cp == PREC_EQ || cp == PREC_REL))
        return true;
    int p = binary_prec(parent->u.binary.op), c = binary_prec(child->u.binary.op);
    if (parent->u.binary.op == child->u.binary.op)
        return false;
    if (p == PREC_OR || (p >= PREC_BITOR && p <= PREC_BITAND) || p == PREC_SHIFT)
        return c > PREC_ASSIGN && c != PREC_MUL && !(p == PREC_OR && c == PREC_EQ) && c != PREC_REL;
    return false;
}

static void open_bracket(Unparser *u, const Node *n, char c)
{
    sb_putc(u->out, c);
    if (++u->depth > u->max_depth) {
        u->max_depth = u->depth;
        u->deepest = n;
    }
}

static void close_bracket(Unparser *u, char c)
{
    sb_putc(u->out, c);
    u->depth--;
}

static void sub(Unparser *u, const Node *parent, const Node *child, int min_prec)
{
    bool paren = prec(child) < min_prec || clarity_parens(parent, child);
    if (paren)
        open_bracket(u, child, '(');
    unparse_expr(u, child);
    if (paren)
        close_bracket(u, ')');
}

void unparse_additive(Unparser *u, const Node *n)
{
    bool paren = prec(n) < PREC_ADD;
    if (paren)
        open_bracket(u, n, '(');
    unparse_expr(u, n);
    if (paren)
        close_bracket(u, ')');
}

int unparse_check_depth(const Unparser *u, Diag *diag, const char *backend)
{
    if (u->max_depth <= UNPARSE_MAX_DEPTH)
        return 0;
    const Node *n = u->deepest;
    while (n && n->loc.line == 0)
        n = n->parent;
    diag_error(diag, n ? n->loc : (Loc){0},
               "expression nested too deeply for the %s compiler (%d levels of brackets, at most %d); split it with local variables",
               backend, u->max_depth, UNPARSE_MAX_DEPTH);
    return 1;
}

static void print_float(Unparser *u, const Node *n)
{
    if (n->u.lit.text) {
        sb_puts(u->out, n->u.lit.text);
        return;
    }
    char buf[64];
    snprintf(buf, sizeof buf, "%.17g", n->u.lit.fval);
    if (!strpbrk(buf, ".eEni"))
        strcat(buf, ".0");
    sb_puts(u->out, buf);
    if (n->type && n->type->kind == TY_FLOAT)
        sb_putc(u->out, 'f');
}

/* Whether s is kept as an array of a chunk's points (Unparser.lane_locals). */
static bool lane_local(const Unparser *u, const Symbol *s)
{
    for (int i = 0; i < u->nlane_locals; i++)
        if (u->lane_locals[i] == s)
            return true;
    return false;
}

static void note_helper(Unparser *u, const char *name)
{
    if (strcmp(name, "imcl_in") == 0)
        u->helpers |= HELPER_IN;
    else if (strcmp(name, "imcl_clamp") == 0)
        u->helpers |= HELPER_CLAMP;
    else if (strcmp(name, "imcl_wrap") == 0)
        u->helpers |= HELPER_WRAP;
    else if (strcmp(name, "imcl_mirror") == 0)
        u->helpers |= HELPER_MIRROR;
    else if (strcmp(name, "imcl_shfl") == 0)
        u->helpers |= HELPER_SHFL;
}

void unparse_call_converted(Unparser *u, const char *name, const Node *call, Type *t)
{
    sb_puts(u->out, name);
    open_bracket(u, call, '(');
    for (int i = 0; i < call->u.call.args.len; i++) {
        const Node *arg = call->u.call.args.items[i];
        if (i)
            sb_puts(u->out, ", ");
        Type *to = t;
        /* a floating argument to an integer parameter of a helper: the conversion C
         * makes anyway, written out, as clang warns about it (-Wliteral-conversion) */
        if (!t && call->u.call.fn && i < call->u.call.fn->func->nparams) {
            Type *p = call->u.call.fn->func->params[i]->type;
            if (type_is_float(arg->type) && type_is_integer(p))
                to = p;
        }
        if (to && arg->type && arg->type->kind != to->kind && type_is_scalar(to)) {
            sb_printf(u->out, "(%s)", u->t->scalar_type(to->kind));
            sub(u, call, arg, PREC_UNARY);
        } else {
            unparse_expr(u, arg);
        }
    }
    close_bracket(u, ')');
}

bool unparse_libm_call(Unparser *u, const Node *call)
{
    const MathInfo *m = math_info(call->u.call.math);
    Type *t = call->type;
    char name[64];
    switch (m->kind) {
    case MK_FLOAT:
        snprintf(name, sizeof name, "%s%s", m->name, t->kind == TY_FLOAT ? "f" : "");
        unparse_call_converted(u, name, call, t);
        return true;
    case MK_ABS:
        unparse_call_converted(u, "abs", call, type_scalar(TY_INT));
        return true;
    default:
        return false;
    }
}

void unparse_expr(Unparser *u, const Node *n)
{
    StrBuf *o = u->out;
    switch (n->kind) {
    case AST_INT_LIT:
        if (n->u.lit.text)
            sb_puts(o, n->u.lit.text);
        else
            sb_printf(o, "%lld%s", n->u.lit.ival, n->type && n->type->kind == TY_UINT ? "u" : "");
        break;
    case AST_FLOAT_LIT:
        print_float(u, n);
        break;
    case AST_VAR:
        sb_puts(o, unparse_name(n->u.var.sym));
        if (lane_local(u, n->u.var.sym))
            sb_puts(o, "[imcl_l]");
        break;
    case AST_BUILTIN:
        if (n->u.builtin.which <= BI_D || n->u.builtin.which >= BI_PART_FROM)
            sb_puts(o, builtin_spelling(n->u.builtin.which));
        else
            u->t->builtin(u, n->u.builtin.which);
        break;
    case AST_EXTENT:
        sb_printf(o, "%s%s", unparse_name(n->u.extent.sym), unparse_extent_suffix(n->u.extent.dim));
        break;
    case AST_GRID_ACCESS:
        /* Only unlowered trees (--emit-ast before passes) reach here. */
        sb_puts(o, unparse_name(n->u.access.sym));
        for (int i = 0; i < n->u.access.n; i++) {
            sb_putc(o, '[');
            unparse_expr(u, n->u.access.ix[i]);
            sb_putc(o, ']');
        }
        break;
    case AST_BUF_ACCESS:
        if (n->u.access.n > 1) {
            u->t->texture_read(u, n);
            break;
        }
        sb_puts(o, u->t->buffer_name ? u->t->buffer_name(u, n->u.access.sym) : unparse_name(n->u.access.sym));
        if (u->tables && n->u.access.nat) {
            for (int d = n->u.access.nat - 1; d >= 0; d--) {
                open_bracket(u, n, '[');
                unparse_expr(u, n->u.access.at[d]);
                close_bracket(u, ']');
            }
            break;
        }
        open_bracket(u, n, '[');
        unparse_expr(u, n->u.access.ix[0]);
        close_bracket(u, ']');
        break;
    case AST_INDEX:
        sub(u, n, n->u.index.base, PREC_POSTFIX);
        open_bracket(u, n, '[');
        unparse_expr(u, n->u.index.index);
        close_bracket(u, ']');
        break;
    case AST_UNARY: {
        int op = n->u.unary.op;
        if (op == OP_POSTINC || op == OP_POSTDEC) {
            sub(u, n, n->u.unary.operand, PREC_POSTFIX);
            sb_puts(o, ast_op_spelling(op));
        } else {
            sb_puts(o, ast_op_spelling(op));
            /* `- -x` and `- -1` must not print as `--x`. */
            const Node *c = n->u.unary.operand;
            if ((op == '-' || op == '+') &&
                ((c->kind == AST_UNARY && (c->u.unary.op == op || c->u.unary.op == (op == '-' ? OP_PREDEC : OP_PREINC))) ||
                 (c->kind == AST_INT_LIT && c->u.lit.ival < 0 && op == '-')))
                sb_putc(o, ' ');
            sub(u, n, c, PREC_UNARY);
        }
        break;
    }
    case AST_BINARY: {
        int p = binary_prec(n->u.binary.op);
        sub(u, n, n->u.binary.lhs, p);
        if (n->u.binary.op == ',')
            sb_puts(o, ", ");
        else
            sb_printf(o, " %s ", ast_op_spelling(n->u.binary.op));
        sub(u, n, n->u.binary.rhs, p + 1);
        break;
    }
    case AST_ASSIGN:
        sub(u, n, n->u.binary.lhs, PREC_UNARY);
        if (n->u.binary.op == '=')
            sb_puts(o, " = ");
        else
            sb_printf(o, " %s= ", ast_op_spelling(n->u.binary.op));
        sub(u, n, n->u.binary.rhs, PREC_ASSIGN);
        break;
    case AST_COND:
        /* A conditional inside another one is parenthesised: a ? (b ? c : d) : e. */
        sub(u, n, n->u.cond.cond, PREC_OR);
        sb_puts(o, " ? ");
        sub(u, n, n->u.cond.then, PREC_COND + 1);
        sb_puts(o, " : ");
        sub(u, n, n->u.cond.els, PREC_COND + 1);
        break;
    case AST_CALL:
        if (n->u.call.math != MATH_NONE && !n->u.call.fn) {
            u->t->math_call(u, n);
        } else {
            note_helper(u, n->u.call.name);
            const char *name = n->u.call.fn ? unparse_name(n->u.call.fn) : n->u.call.name;
            unparse_call_converted(u, name, n, NULL);
        }
        break;
    case AST_CAST:
        sb_printf(o, "(%s)", u->t->scalar_type(n->type->kind));
        sub(u, n, n->u.cast.expr, PREC_UNARY);
        break;
    default:
        UNREACHABLE();
    }
}

/* ---- statements -------------------------------------------------------------------- */

/* Prints e, and when it would make the line longer than 100 columns and e is a
 * sum, one term per line (the operator first), as a person would write it. */
static void wrapped(Unparser *u, const Node *parent, const Node *e, int min_prec, size_t line_start)
{
    StrBuf tmp = {0};
    StrBuf *saved = u->out;
    u->out = &tmp;
    sub(u, parent, e, min_prec);
    u->out = saved;
    size_t col = saved->len - line_start;
    bool sum = e->kind == AST_BINARY && (e->u.binary.op == '+' || e->u.binary.op == '-') &&
               prec(e) >= min_prec;
    if (col + tmp.len <= 100 || !sum) {
        sb_puts(saved, sb_str(&tmp));
        sb_free(&tmp);
        return;
    }
    sb_free(&tmp);
    const Node *terms[256];
    int ops[256], n = 0;
    const Node *cur = e;
    while (n < 255 && cur->kind == AST_BINARY && (cur->u.binary.op == '+' || cur->u.binary.op == '-')) {
        ops[n] = cur->u.binary.op;
        terms[n++] = cur->u.binary.rhs;
        cur = cur->u.binary.lhs;
    }
    sub(u, e, cur, PREC_ADD);
    u->indent++;
    for (int i = n - 1; i >= 0; i--) {
        sb_putc(u->out, '\n');
        unparse_indent(u);
        sb_printf(u->out, "%c ", ops[i]);
        sub(u, e, terms[i], PREC_ADD + 1);
    }
    u->indent--;
}

static size_t line_start(const Unparser *u)
{
    const char *d = sb_str(u->out);
    size_t i = u->out->len;
    while (i > 0 && d[i - 1] != '\n')
        i--;
    return i;
}

static void decl_text(Unparser *u, const Node *d, bool with_type)
{
    const Symbol *s = d->u.decl.sym;
    const Type *t = s->type;
    const Type *elem = t->kind == TY_ARRAY ? t->elem : t;
    if (with_type && s->mem == MEM_SHARED)
        sb_puts(u->out, u->t->shared_qualifier);
    if (with_type)
        sb_printf(u->out, "%s%s ", d->u.decl.is_const ? "const " : "", u->t->scalar_type(elem->kind));
    sb_puts(u->out, unparse_name(s));
    if (t->kind == TY_ARRAY)
        for (int i = 0; i < t->ndims; i++)
            sb_printf(u->out, "[%d]", t->dims[i]);
    if (d->u.decl.init) {
        sb_puts(u->out, " = ");
        wrapped(u, d, d->u.decl.init, PREC_ASSIGN, line_start(u));
    }
}

/* A condition: an assignment keeps the parentheses that say it is meant. */
static void condition(Unparser *u, const Node *e)
{
    if (e->kind == AST_ASSIGN) {
        open_bracket(u, e, '(');
        unparse_expr(u, e);
        close_bracket(u, ')');
    } else {
        unparse_expr(u, e);
    }
}

/* A statement as the body of if/for/while: always braced. */
/* True when block n declares something in its own scope. */
static bool declares(const Node *n)
{
    for (int i = 0; i < n->u.block.stmts.len; i++) {
        NodeKind k = n->u.block.stmts.items[i]->kind;
        if (k == AST_DECL || k == AST_DECL_LIST || k == AST_LABEL)
            return true;
    }
    return false;
}

static void body(Unparser *u, const Node *n)
{
    sb_puts(u->out, "{\n");
    u->indent++;
    if (n && n->kind == AST_BLOCK)
        unparse_stmts(u, n);
    else if (n)
        unparse_stmt(u, n);
    u->indent--;
    unparse_indent(u);
    sb_putc(u->out, '}');
}

static void for_init(Unparser *u, const Node *init)
{
    if (!init)
        return;
    if (init->kind == AST_EXPR_STMT) {
        unparse_expr(u, init->u.expr_stmt.expr);
    } else if (init->kind == AST_DECL) {
        decl_text(u, init, true);
    } else if (init->kind == AST_DECL_LIST) {
        for (int i = 0; i < init->u.block.stmts.len; i++) {
            if (i)
                sb_puts(u->out, ", ");
            decl_text(u, init->u.block.stmts.items[i], i == 0);
        }
    }
}

void unparse_stmt(Unparser *u, const Node *n)
{
    StrBuf *o = u->out;
    switch (n->kind) {
    case AST_BLOCK:
        /* A block inside a block needs its braces only to scope declarations:
         * without any, its statements are printed in place (no `{ { } }`). */
        if (!declares(n)) {
            unparse_stmts(u, n);
            break;
        }
        unparse_indent(u);
        body(u, n);
        sb_putc(o, '\n');
        break;
    case AST_DECL:
        if (lane_local(u, n->u.decl.sym)) {
            /* declared at the top of the chunk (analysis/lanes.c): its value only */
            if (n->u.decl.init) {
                unparse_indent(u);
                sb_printf(o, "%s[imcl_l] = ", unparse_name(n->u.decl.sym));
                wrapped(u, n, n->u.decl.init, PREC_ASSIGN, line_start(u));
                sb_puts(o, ";\n");
            }
            break;
        }
        unparse_indent(u);
        decl_text(u, n, true);
        sb_puts(o, ";\n");
        break;
    case AST_DECL_LIST:
        for (int i = 0; i < n->u.block.stmts.len; i++)
            unparse_stmt(u, n->u.block.stmts.items[i]);
        break;
    case AST_EXPR_STMT: {
        unparse_indent(u);
        const Node *e = n->u.expr_stmt.expr;
        if (e->kind == AST_ASSIGN) {
            size_t start = line_start(u);
            sub(u, e, e->u.binary.lhs, PREC_UNARY);
            if (e->u.binary.op == '=')
                sb_puts(o, " = ");
            else
                sb_printf(o, " %s= ", ast_op_spelling(e->u.binary.op));
            wrapped(u, e, e->u.binary.rhs, PREC_ASSIGN, start);
        } else {
            unparse_expr(u, e);
        }
        sb_puts(o, ";\n");
        break;
    }
    case AST_IF:
        unparse_indent(u);
        for (;;) {
            sb_puts(o, "if (");
            condition(u, n->u.if_.cond);
            sb_puts(o, ") ");
            body(u, n->u.if_.then);
            const Node *e = n->u.if_.els;
            if (!e)
                break;
            sb_puts(o, " else ");
            if (e->kind == AST_IF) {
                n = e;
                continue;
            }
            body(u, e);
            break;
        }
        sb_putc(o, '\n');
        break;
    case AST_FOR:
        if (n->u.loop.walk && u->print_walk && u->print_walk(u, n))
            break;
        if (u->t->unroll_hint) {
            int unroll = n->u.loop.unroll > 0 ? n->u.loop.unroll : u->unroll_of ? u->unroll_of(u, n) : 0;
            if (unroll > 0) {
                unparse_indent(u);
                sb_printf(o, u->t->unroll_hint, unroll);
                sb_putc(o, '\n');
            }
        }
        if (u->t->interleave_hint && n->u.loop.interleave > 1) {
            unparse_indent(u);
            sb_printf(o, u->t->interleave_hint, n->u.loop.interleave);
            sb_putc(o, '\n');
        }
        unparse_for_head(u, n);
        body(u, n->u.loop.body);
        sb_putc(o, '\n');
        break;
    case AST_WHILE:
        unparse_indent(u);
        sb_puts(o, "while (");
        condition(u, n->u.loop.cond);
        sb_puts(o, ") ");
        body(u, n->u.loop.body);
        sb_putc(o, '\n');
        break;
    case AST_DO:
        unparse_indent(u);
        sb_puts(o, "do ");
        body(u, n->u.loop.body);
        sb_puts(o, " while (");
        condition(u, n->u.loop.cond);
        sb_puts(o, ");\n");
        break;
    case AST_BREAK:
        unparse_line(u, "break;");
        break;
    case AST_CONTINUE:
        unparse_line(u, "continue;");
        break;
    case AST_RETURN:
        if (u->return_label) {
            unparse_line(u, "goto %s;", u->return_label);
            break;
        }
        unparse_indent(u);
        sb_puts(o, "return");
        if (n->u.ret.value) {
            sb_putc(o, ' ');
            unparse_expr(u, n->u.ret.value);
        }
        sb_puts(o, ";\n");
        break;
    case AST_EMPTY:
        break;
    case AST_COMMENT:
        unparse_line(u, "/* %s */", n->u.comment.text);
        break;
    case AST_BARRIER:
        unparse_line(u, "%s", u->t->barrier);
        break;
    case AST_GOTO:
        unparse_line(u, "goto %s;", n->u.comment.text);
        break;
    case AST_LABEL:
        /* labels sit at the left margin, as in hand-written C */
        sb_printf(o, "%s:;\n", n->u.comment.text);
        break;
    default:
        UNREACHABLE();
    }
}

void unparse_for_head(Unparser *u, const Node *n)
{
    StrBuf *o = u->out;
    unparse_indent(u);
    sb_puts(o, "for (");
    for_init(u, n->u.loop.init);
    sb_puts(o, "; ");
    if (n->u.loop.cond)
        condition(u, n->u.loop.cond);
    sb_puts(o, "; ");
    if (n->u.loop.step)
        unparse_expr(u, n->u.loop.step);
    sb_puts(o, ") ");
}

void unparse_stmts(Unparser *u, const Node *block)
{
    for (int i = 0; i < block->u.block.stmts.len; i++)
        unparse_stmt(u, block->u.block.stmts.items[i]);
}

/* ---- helpers ------------------------------------------------------------------------- */

void unparse_helper_defs(StrBuf *out, unsigned helpers, const char *q)
{
    if (helpers & HELPER_IN)
        sb_printf(out,
                  "/* Is index i inside an extent n with a halo of h cells on each side? */\n"
                  "%s int imcl_in(int i, int n, int h)\n{\n"
                  "    return i >= -h && i < n + h;\n}\n\n", q);
    if (helpers & HELPER_CLAMP)
        sb_printf(out,
                  "/* Clamped boundary: the nearest index of [-h, n + h). */\n"
                  "%s int imcl_clamp(int i, int n, int h)\n{\n"
                  "    return i < -h ? -h : i >= n + h ? n + h - 1 : i;\n}\n\n", q);
    if (helpers & HELPER_WRAP)
        sb_printf(out,
                  "/* Periodic boundary: i wrapped into [-h, n + h). */\n"
                  "%s int imcl_wrap(int i, int n, int h)\n{\n"
                  "    int p = n + 2 * h;\n"
                  "    int r = (i + h) %% p;\n"
                  "    return (r < 0 ? r + p : r) - h;\n}\n\n", q);
    if (helpers & HELPER_MIRROR)
        sb_printf(out,
                  "/* Mirror boundary, edge repeated: -1 -> 0, n -> n - 1 (over [-h, n + h)). */\n"
                  "%s int imcl_mirror(int i, int n, int h)\n{\n"
                  "    int p = n + 2 * h;\n"
                  "    int r = (i + h) %% (2 * p);\n"
                  "    if (r < 0)\n"
                  "        r += 2 * p;\n"
                  "    return (r < p ? r : 2 * p - 1 - r) - h;\n}\n\n", q);
    if (helpers & HELPER_SHFL)
        sb_printf(out,
                  "/* Register caching: v as lane `lane` of this warp holds it. Every lane of the\n"
                  " * warp must call it (no thread has left the kernel yet). */\n"
                  "template <typename T>\n"
                  "%s T imcl_shfl(T v, int lane)\n{\n"
                  "    return __shfl_sync(0xffffffffu, v, lane);\n}\n\n", q);
}

void unparse_function_head(Unparser *u, const Function *f)
{
    sb_printf(u->out, "%s %s %s(", u->t->function_qualifier, u->t->scalar_type(f->ret->kind),
              unparse_name(f->self));
    for (int i = 0; i < f->nparams; i++)
        sb_printf(u->out, "%s%s %s", i ? ", " : "", u->t->scalar_type(f->params[i]->type->kind),
                  unparse_name(f->params[i]));
    if (f->nparams == 0)
        sb_puts(u->out, "void");
    sb_putc(u->out, ')');
}
