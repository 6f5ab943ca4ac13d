/* Semantic analysis: binds names to symbols, turns subscripts of Image/Block
 * arrays into grid accesses, computes expression types, resolves the pragmas of
 * each kernel, and checks the language rules. Errors are counted and reported
 * with their location; analysis goes on to the end of the program. */
#include <string.h>

#include "frontend.h"

typedef struct Scope {
    Symbol **syms;
    int len, cap;
    int *marks;
    int nmarks, capmarks;
} Scope;

typedef struct Sema {
    Arena *a;
    Diag *diag;
    Program *prog;
    Function *fn;
    Scope scope;
    int loop_depth;
    int expr_depth;      /* nesting of expr(): deeper trees are refused */
    bool depth_reported;
    Loc expr_root;       /* the outermost expression being checked */
    bool in_grid_size;   /* resolving a grid_size expression: scalars only */
} Sema;

/* ---- scopes ------------------------------------------------------------------ */

static void scope_push(Sema *s)
{
    Scope *sc = &s->scope;
    if (sc->nmarks == sc->capmarks) {
        int cap = sc->capmarks ? sc->capmarks * 2 : 16;
        int *m = arena_alloc(s->a, sizeof(int) * (size_t)cap);
        if (sc->nmarks)
            memcpy(m, sc->marks, sizeof(int) * (size_t)sc->nmarks);
        sc->marks = m;
        sc->capmarks = cap;
    }
    sc->marks[sc->nmarks++] = sc->len;
}

static void scope_pop(Sema *s)
{
    s->scope.len = s->scope.marks[--s->scope.nmarks];
}

static Symbol *scope_lookup(Sema *s, const char *name)
{
    for (int i = s->scope.len - 1; i >= 0; i--)
        if (strcmp(s->scope.syms[i]->name, name) == 0)
            return s->scope.syms[i];
    return NULL;
}

static Symbol *scope_lookup_innermost(Sema *s, const char *name)
{
    int start = s->scope.nmarks ? s->scope.marks[s->scope.nmarks - 1] : 0;
    for (int i = s->scope.len - 1; i >= start; i--)
        if (strcmp(s->scope.syms[i]->name, name) == 0)
            return s->scope.syms[i];
    return NULL;
}

static Function *find_function(Sema *s, const char *name)
{
    for (int i = 0; i < s->prog->nfuncs; i++)
        if (strcmp(s->prog->funcs[i]->name, name) == 0)
            return s->prog->funcs[i];
    return NULL;
}

static bool is_builtin_name(const char *name)
{
    static const char *names[] = {"idx", "idy", "idz", "W", "H", "D"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(name, names[i]) == 0)
            return true;
    return false;
}

/* Checks a name being declared; returns false when it is not allowed. */
static bool check_decl_name(Sema *s, const char *name, Loc loc)
{
    if (strncmp(name, "imcl_", 5) == 0) {
        diag_error(s->diag, loc, "names starting with 'imcl_' are reserved for the compiler");
        return false;
    }
    if (is_builtin_name(name)) {
        diag_error(s->diag, loc, "'%s' is a built-in name and cannot be declared", name);
        return false;
    }
    /* The generated code names the extents of array A `A_width`, `A_height` and
     * `A_depth`. */
    for (int i = 0; s->fn && i < s->fn->nparams; i++) {
        const Symbol *p = s->fn->params[i];
        size_t n = strlen(p->name);
        if (!type_is_grid(p->type) || strncmp(name, p->name, n) != 0)
            continue;
        if (strcmp(name + n, "_width") == 0 || strcmp(name + n, "_height") == 0 ||
            strcmp(name + n, "_depth") == 0) {
            diag_error(s->diag, loc, "'%s' is reserved for the extent of '%s'", name, p->name);
            return false;
        }
    }
    return true;
}

static void declare(Sema *s, Symbol *sym)
{
    Symbol *prev = scope_lookup_innermost(s, sym->name);
    if (prev) {
        diag_error(s->diag, sym->loc, "redefinition of '%s'", sym->name);
        diag_note(s->diag, prev->loc, "'%s' was declared here", sym->name);
        return;
    }
    Scope *sc = &s->scope;
    ARENA_GROW(s->a, sc->syms, sc->len, sc->cap);
    sc->syms[sc->len++] = sym;
}

/* ---- expressions ---------------------------------------------------------------- */

static Node *expr(Sema *s, Node *n);

static const char *what(const Symbol *sym)
{
    if (type_is_grid(sym->type))
        return sym->type->kind == TY_IMAGE ? "an Image" : "a Block";
    if (sym->type && sym->type->kind == TY_ARRAY)
        return "an array";
    return "a scalar";
}

/* `A[i][j]...`: collects the subscripts of an index chain, base first. */
static Node *index_chain(Node *n, Node **ix, int *count, int max)
{
    Node *chain[16];
    int k = 0;
    while (n->kind == AST_INDEX && k < 16) {
        chain[k++] = n;
        n = n->u.index.base;
    }
    *count = k;
    for (int i = 0; i < k && i < max; i++)
        ix[i] = chain[k - 1 - i]->u.index.index;
    return n;
}

static Node *int_check(Sema *s, Node *e, const char *ctx_fmt, const char *name)
{
    e = expr(s, e);
    if (e->type && !type_is_integer(e->type) && type_is_scalar(e->type)) {
        diag_error(s->diag, e->loc, ctx_fmt, name);
    }
    return e;
}

static Node *subscript(Sema *s, Node *n)
{
    Node *ix[16];
    int count;
    Node *base = index_chain(n, ix, &count, 16);
    if (base->kind != AST_VAR) {
        diag_error(s->diag, n->loc, "subscripted value is not an array");
        return ast_build_int(s->a, 0, n->loc);
    }
    base = expr(s, base);
    if (base->kind != AST_VAR)
        return base;
    Symbol *sym = base->u.var.sym;
    if (type_is_grid(sym->type)) {
        int dims = type_grid_dims(sym->type);
        if (count != dims) {
            diag_error(s->diag, base->loc, "'%s' is %s and takes %d indices, %d given", sym->name,
                       what(sym), dims, count);
            return ast_build_int(s->a, 0, n->loc);
        }
        for (int i = 0; i < count; i++) {
            ix[i] = int_check(s, ix[i], "index of '%s' must be an integer", sym->name);
            if (ast_has_side_effects(ix[i]))
                diag_error(s->diag, ix[i]->loc, "index of '%s' must not have side effects", sym->name);
        }
        if (s->fn && s->fn->index_c)  /* A[z][y][x]: stored x first */
            for (int i = 0; i < count / 2; i++) {
                Node *t = ix[i];
                ix[i] = ix[count - 1 - i];
                ix[count - 1 - i] = t;
            }
        Node *acc = ast_build_grid_access(s->a, sym, ix, count, base->loc);
        return acc;
    }
    if (sym->type && sym->type->kind == TY_ARRAY) {
        if (count != sym->type->ndims) {
            diag_error(s->diag, base->loc, "'%s' is an array of %d dimensions and takes %d indices, %d given",
                       sym->name, sym->type->ndims, sym->type->ndims, count);
            return ast_build_int(s->a, 0, n->loc);
        }
        Node *cur = base;
        for (int i = 0; i < count; i++) {
            Node *e = int_check(s, ix[i], "index of '%s' must be an integer", sym->name);
            cur = ast_build_index(s->a, cur, e, e->loc);
            cur->type = sym->type->elem;
        }
        cur->type = sym->type->elem;
        return cur;
    }
    diag_error(s->diag, base->loc, "'%s' is a scalar and cannot be indexed", sym->name);
    return ast_build_int(s->a, 0, n->loc);
}

static Node *var_ref(Sema *s, Node *n)
{
    const char *name = n->u.var.sym->name;
    Symbol *sym = scope_lookup(s, name);
    if (!sym) {
        static const char *builtins[] = {"idx", "idy", "idz", "W", "H", "D"};
        for (int b = 0; b < 6; b++) {
            if (strcmp(name, builtins[b]) == 0) {
                if (s->in_grid_size || !s->fn->is_kernel) {
                    diag_error(s->diag, n->loc, "'%s' can only be used in the body of a kernel", name);
                    return ast_build_int(s->a, 0, n->loc);
                }
                return ast_build_builtin(s->a, (Builtin)b, n->loc);
            }
        }
        diag_error(s->diag, n->loc, "use of undeclared identifier '%s'", name);
        Node *z = ast_build_int(s->a, 0, n->loc);
        return z;
    }
    if (s->in_grid_size && !(sym->kind == SYM_PARAM && type_is_scalar(sym->type))) {
        diag_error(s->diag, n->loc, "grid_size may only use scalar parameters and literals; '%s' is not one", name);
        return ast_build_int(s->a, 0, n->loc);
    }
    n->u.var.sym = sym;
    n->type = sym->type;
    return n;
}

/* A bare name of an Image, Block or array is only allowed where the context
 * handles it (subscripts, .width, alias initializers). */
static void check_value(Sema *s, Node *e)
{
    if (e->kind == AST_VAR && e->type && !type_is_scalar(e->type)) {
        Symbol *sym = e->u.var.sym;
        if (type_is_grid(sym->type))
            diag_error(s->diag, e->loc, "'%s' is %s; index it as %s", sym->name, what(sym),
                       type_grid_dims(sym->type) == 3 ? "A[x][y][z]" : "A[x][y]");
        else
            diag_error(s->diag, e->loc, "'%s' is an array; index it with %d subscripts",
                       sym->name, sym->type->ndims);
        e->type = type_scalar(TY_INT);
    }
}

static Node *rvalue(Sema *s, Node *e)
{
    e = expr(s, e);
    check_value(s, e);
    if (e->type && e->type->kind == TY_VOID) {
        diag_error(s->diag, e->loc, "void value used in an expression");
        e->type = type_scalar(TY_INT);
    }
    return e;
}

static bool check_lvalue(Sema *s, Node *e, const char *op)
{
    switch (e->kind) {
    case AST_VAR: {
        Symbol *sym = e->u.var.sym;
        if (!type_is_scalar(sym->type)) {
            if (sym->kind == SYM_ALIAS || type_is_grid(sym->type))
                diag_error(s->diag, e->loc, "cannot assign to %s '%s' as a whole", what(sym), sym->name);
            else
                diag_error(s->diag, e->loc, "cannot assign to array '%s' as a whole", sym->name);
            return false;
        }
        return true;
    }
    case AST_GRID_ACCESS:
    case AST_INDEX:
        return true;
    case AST_BUILTIN:
        diag_error(s->diag, e->loc, "cannot assign to built-in '%s'", builtin_spelling(e->u.builtin.which));
        return false;
    case AST_EXTENT:
        diag_error(s->diag, e->loc, "cannot assign to the extent of an array");
        return false;
    default:
        diag_error(s->diag, e->loc, "expression is not assignable (operand of '%s')", op);
        return false;
    }
}

static void check_const_target(Sema *s, Node *e, Node *decl_of)
{
    (void)decl_of;
    if (e->kind == AST_VAR && e->u.var.sym->is_const)
        diag_error(s->diag, e->loc, "cannot assign to const variable '%s'", e->u.var.sym->name);
}

static Node *call(Sema *s, Node *n)
{
    NodeList *args = &n->u.call.args;
    /* Arguments of a call that is an error of its own (unknown function, kernel,
     * array parameter of a helper) are not also reported as misused arrays. */
    Function *callee = find_function(s, n->u.call.name);
    bool bad_callee = n->u.call.math == MATH_NONE && (!callee || callee->is_kernel);
    for (int i = 0; i < args->len; i++) {
        bool array_param = callee && i < callee->nparams && !type_is_scalar(callee->params[i]->type);
        args->items[i] = bad_callee || array_param ? expr(s, args->items[i]) : rvalue(s, args->items[i]);
        args->items[i]->parent = n;
    }
    if (s->in_grid_size) {
        diag_error(s->diag, n->loc, "grid_size may only use scalar parameters and literals");
        n->type = type_scalar(TY_INT);
        return n;
    }
    if (n->u.call.math != MATH_NONE && !find_function(s, n->u.call.name)) {
        const MathInfo *m = math_info(n->u.call.math);
        if (args->len != m->arity) {
            diag_error(s->diag, n->loc, "'%s' takes %d argument%s, %d given", m->name, m->arity,
                       m->arity == 1 ? "" : "s", args->len);
            n->type = type_scalar(TY_DOUBLE);
            return n;
        }
        Type *t = NULL;
        for (int i = 0; i < args->len; i++)
            t = i ? type_common(t, args->items[i]->type) : type_promote(args->items[i]->type);
        if (!t)
            t = type_scalar(TY_INT);
        if (m->kind == MK_FLOAT && !type_is_float(t))
            t = type_scalar(TY_DOUBLE);
        if (m->kind == MK_ABS && type_is_float(t))
            n->u.call.math = MATH_FABS;
        n->type = t;
        return n;
    }
    Function *f = find_function(s, n->u.call.name);
    if (!f) {
        diag_error(s->diag, n->loc, "call to unknown function '%s'", n->u.call.name);
        n->type = type_scalar(TY_INT);
        return n;
    }
    if (f->is_kernel) {
        diag_error(s->diag, n->loc, "cannot call kernel '%s' from other code", f->name);
        n->type = type_scalar(TY_INT);
        return n;
    }
    if (args->len != f->nparams)
        diag_error(s->diag, n->loc, "'%s' takes %d argument%s, %d given", f->name, f->nparams,
                   f->nparams == 1 ? "" : "s", args->len);
    n->u.call.math = MATH_NONE;
    n->u.call.fn = f->self;
    n->type = f->ret;
    return n;
}

static Node *binary(Sema *s, Node *n)
{
    int op = n->u.binary.op;
    n->u.binary.lhs = rvalue(s, n->u.binary.lhs);
    n->u.binary.rhs = rvalue(s, n->u.binary.rhs);
    Type *l = n->u.binary.lhs->type, *r = n->u.binary.rhs->type;
    switch (op) {
    case ',':
        n->type = r;
        break;
    case '<': case '>': case OP_LE: case OP_GE: case OP_EQ: case OP_NE: case OP_AND: case OP_OR:
        n->type = type_scalar(TY_INT);
        break;
    case '%': case '&': case '|': case '^': case OP_SHL: case OP_SHR:
        if (type_is_float(l) || type_is_float(r)) {
            diag_error(s->diag, n->loc, "invalid operands to '%s': both must be integers, not %s and %s",
                       ast_op_spelling(op), type_name(l), type_name(r));
            n->type = type_scalar(TY_INT);
            break;
        }
        n->type = (op == OP_SHL || op == OP_SHR) ? type_promote(l) : type_common(l, r);
        break;
    default:
        n->type = type_common(l, r);
        break;
    }
    return n;
}

/* Deeper expressions are refused, so that no later recursive walk of the AST can
 * run out of stack (a left-nested chain `a + a + ... + a` is not limited by the
 * parser's stack). */
#define MAX_EXPR_DEPTH 2000

static Node *expr_kind(Sema *s, Node *n);

/* Constant operations C leaves undefined (signed overflow, division by zero, shift
 * counts out of range, ...) are errors: no backend may guess their value. Every
 * maximal constant subexpression is evaluated once (consteval.c). */
static bool undefined_visit(Node *n, void *p)
{
    Sema *s = p;
    if (ast_is_stmt(n))
        return true;
    ConstVal v = const_eval(n);
    if (v.status == CONST_UNDEFINED)
        diag_error(s->diag, v.where->loc, "undefined constant expression: %s", v.why);
    return v.status == CONST_UNKNOWN;
}

static Node *expr(Sema *s, Node *n)
{
    if (s->expr_depth == 0)
        s->expr_root = n->loc;
    if (s->expr_depth >= MAX_EXPR_DEPTH) {
        if (!s->depth_reported)
            diag_error(s->diag, s->expr_root, "expression nested too deeply (more than %d levels)", MAX_EXPR_DEPTH);
        s->depth_reported = true;
        return ast_build_int(s->a, 0, n->loc);
    }
    s->expr_depth++;
    Node *r = expr_kind(s, n);
    s->expr_depth--;
    if (s->expr_depth == 0 && !s->depth_reported)
        ast_walk(r, undefined_visit, s);
    return r;
}

static Node *expr_kind(Sema *s, Node *n)
{
    switch (n->kind) {
    case AST_INT_LIT:
    case AST_FLOAT_LIT:
    case AST_BUILTIN:
        return n;
    case AST_VAR:
        return var_ref(s, n);
    case AST_EXTENT: {
        Node tmp = *n;
        tmp.kind = AST_VAR;
        tmp.u.var.sym = n->u.extent.sym;
        Node *v = var_ref(s, &tmp);
        if (v->kind != AST_VAR)
            return v;
        Symbol *sym = v->u.var.sym;
        if (!type_is_grid(sym->type)) {
            diag_error(s->diag, n->loc, "'%s' is %s and has no extent", sym->name, what(sym));
            return ast_build_int(s->a, 1, n->loc);
        }
        if (n->u.extent.dim == 2 && sym->type->kind == TY_IMAGE) {
            diag_error(s->diag, n->loc, "Image '%s' has no depth", sym->name);
            return ast_build_int(s->a, 1, n->loc);
        }
        n->u.extent.sym = sym;
        n->type = type_scalar(TY_INT);
        return n;
    }
    case AST_INDEX:
        return subscript(s, n);
    case AST_UNARY: {
        int op = n->u.unary.op;
        n->u.unary.operand = rvalue(s, n->u.unary.operand);
        Type *t = n->u.unary.operand->type;
        if (op >= OP_PREINC && op <= OP_POSTDEC) {
            check_lvalue(s, n->u.unary.operand, ast_op_spelling(op));
            check_const_target(s, n->u.unary.operand, NULL);
            n->type = t;
        } else if (op == '!') {
            n->type = type_scalar(TY_INT);
        } else if (op == '~') {
            if (type_is_float(t))
                diag_error(s->diag, n->loc, "invalid operand to '~': %s is not an integer", type_name(t));
            n->type = type_promote(t);
        } else {
            n->type = type_promote(t);
        }
        return n;
    }
    case AST_BINARY:
        return binary(s, n);
    case AST_ASSIGN: {
        n->u.binary.lhs = expr(s, n->u.binary.lhs);
        n->u.binary.rhs = rvalue(s, n->u.binary.rhs);
        Node *lhs = n->u.binary.lhs;
        if (check_lvalue(s, lhs, "="))
            check_const_target(s, lhs, NULL);
        int op = n->u.binary.op;
        if ((op == '%' || op == '&' || op == '|' || op == '^' || op == OP_SHL || op == OP_SHR) &&
            (type_is_float(lhs->type) || type_is_float(n->u.binary.rhs->type)))
            diag_error(s->diag, n->loc, "invalid operands to '%s=': both must be integers",
                       ast_op_spelling(op));
        n->type = lhs->type;
        return n;
    }
    case AST_COND:
        n->u.cond.cond = rvalue(s, n->u.cond.cond);
        n->u.cond.then = rvalue(s, n->u.cond.then);
        n->u.cond.els = rvalue(s, n->u.cond.els);
        n->type = type_common(n->u.cond.then->type, n->u.cond.els->type);
        return n;
    case AST_CALL:
        return call(s, n);
    case AST_CAST:
        n->u.cast.expr = rvalue(s, n->u.cast.expr);
        return n;
    default:
        UNREACHABLE();
    }
}

/* ---- statements -------------------------------------------------------------------- */

static void stmt(Sema *s, Node *n);

static Node *cond_expr(Sema *s, Node *e)
{
    e = rvalue(s, e);
    if (e->type && !type_is_scalar(e->type))
        diag_error(s->diag, e->loc, "condition must be a scalar");
    return e;
}

/* `Block<T> a = base + offset;` (or `base`, `offset + base`, `base - offset`). */
static void alias_decl(Sema *s, Node *n)
{
    Symbol *sym = n->u.decl.sym;
    Node *init = n->u.decl.init;
    if (!s->fn->is_kernel) {
        diag_error(s->diag, sym->loc, "%s '%s' can only be declared in a kernel", type_name(sym->type), sym->name);
        return;
    }
    if (!init) {
        diag_error(s->diag, sym->loc, "%s '%s' must be initialized with an array parameter plus an offset",
                   sym->type->kind == TY_IMAGE ? "Image" : "Block", sym->name);
        return;
    }
    Node *base = NULL, *off = NULL;
    bool negate = false;
    if (init->kind == AST_VAR) {
        base = init;
    } else if (init->kind == AST_BINARY && (init->u.binary.op == '+' || init->u.binary.op == '-')) {
        Node *l = init->u.binary.lhs, *r = init->u.binary.rhs;
        Symbol *ls = l->kind == AST_VAR ? scope_lookup(s, l->u.var.sym->name) : NULL;
        Symbol *rs = r->kind == AST_VAR ? scope_lookup(s, r->u.var.sym->name) : NULL;
        if (ls && type_is_grid(ls->type)) {
            base = l;
            off = r;
            negate = init->u.binary.op == '-';
        } else if (rs && type_is_grid(rs->type) && init->u.binary.op == '+') {
            base = r;
            off = l;
        }
    }
    if (!base) {
        diag_error(s->diag, init->loc, "initializer of '%s' must be an Image or Block plus an integer offset", sym->name);
        return;
    }
    base = expr(s, base);
    if (base->kind != AST_VAR)
        return;
    Symbol *b = base->u.var.sym;
    if (!type_is_grid(b->type)) {
        diag_error(s->diag, base->loc, "'%s' is %s, not an Image or Block", b->name, what(b));
        return;
    }
    if (b->type->kind != sym->type->kind || b->type->elem != sym->type->elem) {
        diag_error(s->diag, init->loc, "'%s' is declared %s but '%s' is %s", sym->name,
                   type_name(sym->type), b->name, type_name(b->type));
        return;
    }
    if (off) {
        off = int_check(s, off, "offset of '%s' must be an integer", sym->name);
        check_value(s, off);
        if (negate)
            off = ast_build_unary(s->a, '-', off, off->loc);
        off->type = type_scalar(TY_INT);
    }
    sym->kind = SYM_ALIAS;
    sym->alias_base = b;
    sym->alias_offset = off;
    n->u.decl.init = NULL;
}

static void decl(Sema *s, Node *n)
{
    Symbol *sym = n->u.decl.sym;
    /* A refused name is declared all the same, so that its uses are not errors too. */
    check_decl_name(s, sym->name, sym->loc);
    if (sym->type->kind == TY_VOID) {
        diag_error(s->diag, sym->loc, "variable '%s' declared void", sym->name);
        sym->type = type_scalar(TY_INT);
    }
    if (type_is_grid(sym->type)) {
        alias_decl(s, n);
    } else if (n->u.decl.init) {
        if (sym->type->kind == TY_ARRAY)
            diag_error(s->diag, n->u.decl.init->loc, "array '%s' cannot be initialized", sym->name);
        n->u.decl.init = rvalue(s, n->u.decl.init);
        n->u.decl.init->parent = n;
    }
    /* const locals are marked so that assignments to them are refused. */
    if (n->u.decl.is_const && type_is_scalar(sym->type))
        sym->is_const = true;
    declare(s, sym);
    Function *f = s->fn;
    Symbol **locals = arena_alloc(s->a, sizeof(Symbol *) * (size_t)(f->nlocals + 1));
    if (f->nlocals)
        memcpy(locals, f->locals, sizeof(Symbol *) * (size_t)f->nlocals);
    locals[f->nlocals++] = sym;
    f->locals = locals;
}

static void block(Sema *s, Node *n)
{
    /* Flatten multi-declarator declarations into the block first. */
    NodeList *l = &n->u.block.stmts;
    bool has_list = false;
    for (int i = 0; i < l->len; i++)
        if (l->items[i]->kind == AST_DECL_LIST)
            has_list = true;
    if (has_list) {
        NodeList flat = {0};
        for (int i = 0; i < l->len; i++) {
            Node *c = l->items[i];
            if (c->kind == AST_DECL_LIST)
                for (int j = 0; j < c->u.block.stmts.len; j++)
                    nodelist_push(s->a, &flat, c->u.block.stmts.items[j]);
            else
                nodelist_push(s->a, &flat, c);
        }
        *l = flat;
        for (int i = 0; i < l->len; i++)
            l->items[i]->parent = n;
    }
    scope_push(s);
    for (int i = 0; i < l->len; i++)
        stmt(s, l->items[i]);
    scope_pop(s);
}

static void stmt(Sema *s, Node *n)
{
    if (!n)
        return;
    switch (n->kind) {
    case AST_BLOCK:
        block(s, n);
        break;
    case AST_DECL:
        decl(s, n);
        break;
    case AST_DECL_LIST:
        for (int i = 0; i < n->u.block.stmts.len; i++)
            decl(s, n->u.block.stmts.items[i]);
        break;
    case AST_EXPR_STMT:
        n->u.expr_stmt.expr = expr(s, n->u.expr_stmt.expr);
        check_value(s, n->u.expr_stmt.expr);
        break;
    case AST_IF:
        n->u.if_.cond = cond_expr(s, n->u.if_.cond);
        scope_push(s);
        stmt(s, n->u.if_.then);
        scope_pop(s);
        scope_push(s);
        stmt(s, n->u.if_.els);
        scope_pop(s);
        break;
    case AST_FOR:
        scope_push(s);
        stmt(s, n->u.loop.init);
        if (n->u.loop.cond)
            n->u.loop.cond = cond_expr(s, n->u.loop.cond);
        if (n->u.loop.step) {
            n->u.loop.step = expr(s, n->u.loop.step);
            check_value(s, n->u.loop.step);
        }
        s->loop_depth++;
        stmt(s, n->u.loop.body);
        s->loop_depth--;
        scope_pop(s);
        break;
    case AST_WHILE:
    case AST_DO:
        n->u.loop.cond = cond_expr(s, n->u.loop.cond);
        s->loop_depth++;
        scope_push(s);
        stmt(s, n->u.loop.body);
        scope_pop(s);
        s->loop_depth--;
        break;
    case AST_BREAK:
    case AST_CONTINUE:
        if (!s->loop_depth)
            diag_error(s->diag, n->loc, "'%s' outside of a loop", n->kind == AST_BREAK ? "break" : "continue");
        break;
    case AST_RETURN: {
        Type *ret = s->fn->ret;
        if (n->u.ret.value) {
            n->u.ret.value = rvalue(s, n->u.ret.value);
            if (ret->kind == TY_VOID)
                diag_error(s->diag, n->loc, "%s '%s' returns void; 'return' cannot have a value",
                           s->fn->is_kernel ? "kernel" : "function", s->fn->name);
        } else if (ret->kind != TY_VOID) {
            diag_error(s->diag, n->loc, "function '%s' must return a %s value", s->fn->name, type_name(ret));
        }
        break;
    }
    case AST_EMPTY:
        break;
    default:
        UNREACHABLE();
    }
}

/* ---- pragmas ----------------------------------------------------------------------- */

static Symbol *pragma_array(Sema *s, Function *f, PragmaItem *p, const char *pragma)
{
    for (int i = 0; i < f->nparams; i++) {
        Symbol *sym = f->params[i];
        if (strcmp(sym->name, p->name) == 0) {
            if (!type_is_grid(sym->type)) {
                diag_error(s->diag, p->loc, "%s names '%s', which is %s, not an Image or Block",
                           pragma, p->name, what(sym));
                return NULL;
            }
            return sym;
        }
    }
    diag_error(s->diag, p->loc, "%s names unknown array '%s' (not a parameter of '%s')", pragma,
               p->name, f->name);
    return NULL;
}

static void resolve_pragmas(Sema *s, Function *f)
{
    bool has_grid = false, has_size = false;
    for (PragmaItem *p = f->pragmas; p; p = p->next) {
        if (p->kind == PRAGMA_GRID)
            has_grid = true;
        if (p->kind == PRAGMA_GRID_SIZE)
            has_size = true;
    }
    f->is_kernel = has_grid || has_size;
    if (!f->is_kernel) {
        if (f->pragmas)
            diag_error(s->diag, f->pragmas->loc,
                       "pragma applies to '%s', which is not a kernel (a kernel needs a grid or grid_size pragma)",
                       f->name);
        return;
    }
    if (has_grid && has_size) {
        for (PragmaItem *p = f->pragmas; p; p = p->next)
            if (p->kind == PRAGMA_GRID_SIZE) {
                diag_error(s->diag, p->loc, "kernel '%s' has both grid and grid_size pragmas", f->name);
                break;
            }
    }
    int nsize = 0;
    for (PragmaItem *p = f->pragmas; p; p = p->next) {
        switch (p->kind) {
        case PRAGMA_GRID: {
            Symbol *a = pragma_array(s, f, p, "grid pragma");
            if (!a)
                break;
            if (f->ngrid_arrays == 0) {
                f->grid_kind = GRID_ARRAYS;
                f->grid_loc = p->loc;
                f->grid_dims = type_grid_dims(a->type);
            } else if (f->ngrid_arrays >= 8) {
                diag_error(s->diag, p->loc, "grid pragma names more than 8 arrays");
                break;
            } else if (type_grid_dims(a->type) != f->grid_dims) {
                diag_error(s->diag, p->loc, "grid pragma mixes Image and Block arrays ('%s')", a->name);
                break;
            }
            for (int i = 0; i < f->ngrid_arrays; i++)
                if (f->grid_arrays[i] == a)
                    diag_error(s->diag, p->loc, "grid pragma names '%s' twice", a->name);
            f->grid_arrays[f->ngrid_arrays++] = a;
            break;
        }
        case PRAGMA_GRID_SIZE:
            if (has_grid)
                break;
            if (nsize == 3) {
                diag_error(s->diag, p->loc, "grid_size takes at most 3 extents");
                break;
            }
            s->in_grid_size = true;
            p->expr = rvalue(s, p->expr);
            s->in_grid_size = false;
            if (!type_is_integer(p->expr->type))
                diag_error(s->diag, p->expr->loc, "grid_size extent must be an integer expression");
            f->grid_kind = GRID_SIZE;
            f->grid_loc = p->loc;
            f->grid_size[nsize++] = p->expr;
            break;
        case PRAGMA_BOUNDARY: {
            Symbol *a = pragma_array(s, f, p, "boundary_cond pragma");
            if (!a)
                break;
            static const struct { const char *name; Boundary bc; } kinds[] = {
                {"constant", BC_CONSTANT}, {"clamped", BC_CLAMPED}, {"none", BC_NONE},
                {"periodic", BC_PERIODIC}, {"mirror", BC_MIRROR},
            };
            int k = -1;
            for (int i = 0; i < 5; i++)
                if (strcmp(p->bc, kinds[i].name) == 0)
                    k = i;
            if (k < 0) {
                diag_error(s->diag, p->bc_loc,
                           "unknown boundary condition '%s' (expected constant, constant(v), clamped, none, periodic or mirror)",
                           p->bc);
                break;
            }
            if (a->bc_given) {
                diag_error(s->diag, p->loc, "boundary condition of '%s' is given twice", a->name);
                break;
            }
            if (p->expr && kinds[k].bc != BC_CONSTANT) {
                diag_error(s->diag, p->expr->loc, "boundary condition '%s' takes no value", p->bc);
                break;
            }
            a->bc = kinds[k].bc;
            a->bc_given = true;
            if (p->expr) {
                long long iv;
                Node *v = p->expr;
                bool neg = false;
                if (v->kind == AST_UNARY && v->u.unary.op == '-') {
                    neg = true;
                    v = v->u.unary.operand;
                }
                if (v->kind == AST_FLOAT_LIT) {
                    a->bc_value = p->expr;
                    p->expr->type = v->type;
                    (void)neg;
                } else if (ast_const_int(p->expr, &iv)) {
                    a->bc_value = ast_build_int(s->a, iv, p->expr->loc);
                } else {
                    diag_error(s->diag, p->expr->loc, "value of constant boundary of '%s' must be a number", a->name);
                }
            }
            break;
        }
        case PRAGMA_INDEX_ORDER:
            if (strcmp(p->name, "c") && strcmp(p->name, "imagecl"))
                diag_error(s->diag, p->loc, "unknown index order '%s' (expected c: A[z][y][x], last index fastest; "
                                            "or imagecl: A[x][y][z], the default)", p->name);
            f->index_c = strcmp(p->name, "c") == 0;
            break;
        case PRAGMA_ITERATE: {
            if (f->iterate[0]) {
                diag_error(s->diag, p->loc, "iterate pragma is given twice for kernel '%s'", f->name);
                break;
            }
            Symbol *a = pragma_array(s, f, p, "iterate pragma");
            PragmaItem second = *p;
            second.name = p->bc;
            second.loc = p->bc_loc;
            Symbol *b = pragma_array(s, f, &second, "iterate pragma");
            if (!a || !b)
                break;
            if (a == b) {
                diag_error(s->diag, p->bc_loc,
                           "iterate pragma names '%s' twice (it needs two arrays: one read, one written)", a->name);
                break;
            }
            f->iterate[0] = a;
            f->iterate[1] = b;
            f->iterate_loc = p->loc;
            break;
        }
        case PRAGMA_HALO: {
            Symbol *a = pragma_array(s, f, p, "halo pragma");
            long long w;
            if (!a)
                break;
            if (!ast_const_int(p->expr, &w) || w < 0 || w > 64) {
                diag_error(s->diag, p->expr->loc, "halo width of '%s' must be an integer constant between 0 and 64", a->name);
                break;
            }
            if (a->halo)
                diag_error(s->diag, p->loc, "halo of '%s' is given twice", a->name);
            a->halo = (int)w;
            break;
        }
        }
    }
    if (f->grid_kind == GRID_SIZE) {
        for (int i = nsize; i < 3; i++)
            f->grid_size[i] = ast_build_int(s->a, 1, f->grid_loc);
        f->grid_dims = nsize == 3 ? 3 : 2;
    }
}

/* ---- functions ------------------------------------------------------------------- */

/* iterate(A, B): each step computes B from A and the two trade roles before the next,
 * so they need one type and one halo, A is never written and B never read (directly
 * or through an alias). Runs on the checked body: halos and accesses are known. */
typedef struct IterateCheck {
    Sema *s;
    Function *f;
    bool b_written;
} IterateCheck;

static bool check_iterate_access(Node *n, void *p)
{
    IterateCheck *c = p;
    if (n->kind != AST_GRID_ACCESS)
        return true;
    Symbol *root = symbol_root(n->u.access.sym), *a = c->f->iterate[0], *b = c->f->iterate[1];
    if (root == a && ast_is_lvalue_use(n))
        diag_error(c->s->diag, n->loc, "'%s' is written, but iterate(%s, %s) only reads it (each step computes '%s' from '%s')",
                   a->name, a->name, b->name, b->name, a->name);
    if (root == b && ast_is_read_use(n))
        diag_error(c->s->diag, n->loc, "'%s' is read, but iterate(%s, %s) only writes it (each step computes '%s' from '%s')",
                   b->name, a->name, b->name, b->name, a->name);
    c->b_written |= root == b && ast_is_lvalue_use(n);
    return true;
}

static void check_iterate(Sema *s, Function *f)
{
    Symbol *a = f->iterate[0], *b = f->iterate[1];
    if (!a)
        return;
    if (a->type->kind != b->type->kind || a->type->elem != b->type->elem) {
        diag_error(s->diag, f->iterate_loc, "iterate(%s, %s): '%s' is %s but '%s' is %s (they trade roles: one type)",
                   a->name, b->name, a->name, type_name(a->type), b->name, type_name(b->type));
        return;
    }
    if (a->halo != b->halo) {
        diag_error(s->diag, f->iterate_loc,
                   "iterate(%s, %s): '%s' has a halo of %d but '%s' of %d (they trade roles: one halo)", a->name,
                   b->name, a->name, a->halo, b->name, b->halo);
        return;
    }
    IterateCheck c = {s, f, false};
    ast_walk(f->body, check_iterate_access, &c);
    if (!c.b_written)
        diag_error(s->diag, f->iterate_loc, "iterate(%s, %s): the kernel never writes '%s'", a->name, b->name,
                   b->name);
}

/* A label names one for loop of its function (unroll_<label>). */
typedef struct Labels {
    Diag *diag;
    NodeList seen;
    Arena *a;
} Labels;

static bool check_label(Node *n, void *p)
{
    Labels *l = p;
    if (n->kind != AST_FOR || !n->u.loop.label)
        return true;
    for (int i = 0; i < l->seen.len; i++)
        if (strcmp(l->seen.items[i]->u.loop.label, n->u.loop.label) == 0) {
            diag_error(l->diag, n->loc, "label '%s' already names the for loop on line %d", n->u.loop.label,
                       l->seen.items[i]->loc.line);
            return true;
        }
    nodelist_push(l->a, &l->seen, n);
    return true;
}

static void function(Sema *s, Function *f)
{
    s->fn = f;
    s->scope.len = 0;
    s->scope.nmarks = 0;
    s->loop_depth = 0;
    scope_push(s);
    if (f->nparams > FUNCTION_MAX_PARAMS)
        diag_error(s->diag, f->loc, "function '%s' has %d parameters; at most %d are supported", f->name,
                   f->nparams, FUNCTION_MAX_PARAMS);
    for (int i = 0; i < f->nparams; i++) {
        Symbol *p = f->params[i];
        check_decl_name(s, p->name, p->loc);
        if (p->type->kind == TY_VOID)
            diag_error(s->diag, p->loc, "parameter '%s' declared void", p->name);
        else if (!f->is_kernel && !type_is_scalar(p->type))
            diag_error(s->diag, p->loc, "parameter '%s' of helper function '%s' must be a scalar, not %s",
                       p->name, f->name, type_name(p->type));
        declare(s, p);
    }
    if (f->is_kernel || f->pragmas)
        resolve_pragmas(s, f);
    if (f->is_kernel && f->ret->kind != TY_VOID)
        diag_error(s->diag, f->loc, "kernel '%s' must return void", f->name);
    if (!f->is_kernel && type_is_grid(f->ret))
        diag_error(s->diag, f->loc, "function '%s' cannot return %s", f->name, type_name(f->ret));
    block(s, f->body);
    scope_pop(s);
    ast_fix_parents(f->body);
    Labels l = {s->diag, {0}, s->a};
    ast_walk(f->body, check_label, &l);
    check_iterate(s, f);
}

/* Helpers may call helpers, but not recursively: GPU code cannot recurse. */
typedef struct CallCtx {
    Sema *s;
    Function *root;
    int depth;
    bool found;
} CallCtx;

static bool find_recursion(Node *n, void *p);

static void visit_function(CallCtx *c, Function *f)
{
    if (c->depth > 64 || c->found)
        return;
    c->depth++;
    ast_walk(f->body, find_recursion, c);
    c->depth--;
}

static bool find_recursion(Node *n, void *p)
{
    CallCtx *c = p;
    if (c->found)
        return false;
    if (n->kind == AST_CALL && n->u.call.fn) {
        Function *callee = n->u.call.fn->func;
        if (callee == c->root) {
            diag_error(c->s->diag, n->loc, "recursive call to '%s' (GPU code cannot recurse)", callee->name);
            c->found = true;
            return false;
        }
        visit_function(c, callee);
    }
    return true;
}

int sema_program(Program *p, Diag *diag)
{
    Sema s = {0};
    s.a = p->arena;
    s.diag = diag;
    s.prog = p;
    int before = diag->errors;
    /* Pass 1: function symbols, kernel flags, duplicate names. */
    for (int i = 0; i < p->nfuncs; i++) {
        Function *f = p->funcs[i];
        for (PragmaItem *q = f->pragmas; q; q = q->next)
            if (q->kind == PRAGMA_GRID || q->kind == PRAGMA_GRID_SIZE)
                f->is_kernel = true;
        f->self = ast_build_symbol(p->arena, f->name, SYM_FUNC, f->ret, f->loc);
        f->self->func = f;
        if (math_lookup(f->name) != MATH_NONE)
            diag_error(diag, f->loc, "'%s' is a built-in function and cannot be redefined", f->name);
        else if (strncmp(f->name, "imcl_", 5) == 0)
            diag_error(diag, f->loc, "names starting with 'imcl_' are reserved for the compiler");
        /* Generated names of every kernel K: K_kernel (CUDA), K_point (C), the
         * host functions K_strerror, K_build_log and the plan API K_plan*. */
        for (int j = 0; j < p->nfuncs; j++) {
            size_t n = strlen(p->funcs[j]->name);
            bool kernel = false;
            for (PragmaItem *q = p->funcs[j]->pragmas; q; q = q->next)
                kernel |= q->kind == PRAGMA_GRID || q->kind == PRAGMA_GRID_SIZE;
            if (kernel && j != i && strncmp(f->name, p->funcs[j]->name, n) == 0 &&
                (strcmp(f->name + n, "_kernel") == 0 || strcmp(f->name + n, "_point") == 0 ||
                 strcmp(f->name + n, "_strerror") == 0 || strcmp(f->name + n, "_build_log") == 0 ||
                 strcmp(f->name + n, "_plan") == 0 || strncmp(f->name + n, "_plan_", 6) == 0))
                diag_error(diag, f->loc, "'%s' is reserved for the generated code of kernel '%s'", f->name,
                           p->funcs[j]->name);
        }
        for (int j = 0; j < i; j++)
            if (strcmp(p->funcs[j]->name, f->name) == 0) {
                diag_error(diag, f->loc, "redefinition of function '%s'", f->name);
                diag_note(diag, p->funcs[j]->loc, "'%s' was defined here", f->name);
                break;
            }
    }
    /* Pass 2: bodies. */
    for (int i = 0; i < p->nfuncs; i++)
        function(&s, p->funcs[i]);
    /* Pass 3: recursion among helpers. */
    for (int i = 0; i < p->nfuncs; i++) {
        CallCtx c = {&s, p->funcs[i], 0, false};
        if (!p->funcs[i]->is_kernel)
            visit_function(&c, p->funcs[i]);
    }
    bool any_kernel = false;
    for (int i = 0; i < p->nfuncs; i++)
        any_kernel |= p->funcs[i]->is_kernel;
    if (!any_kernel && diag->errors == before)
        diag_error(diag, (Loc){p->file, 1, 1},
                   "no kernel in this file (a kernel is a function preceded by '#pragma imcl grid(...)' or 'grid_size(...)')");
    return diag->errors - before;
}
