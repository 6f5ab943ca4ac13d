/* Builders, edits, copies, walks and queries over the AST. */
#include "ast.h"

#include <string.h>

/* ---- types ---------------------------------------------------------------- */

static Type scalar_types[] = {
    [TY_VOID] = {TY_VOID, NULL, 0, {0}},     [TY_CHAR] = {TY_CHAR, NULL, 0, {0}},
    [TY_UCHAR] = {TY_UCHAR, NULL, 0, {0}},   [TY_SHORT] = {TY_SHORT, NULL, 0, {0}},
    [TY_USHORT] = {TY_USHORT, NULL, 0, {0}}, [TY_INT] = {TY_INT, NULL, 0, {0}},
    [TY_UINT] = {TY_UINT, NULL, 0, {0}},     [TY_FLOAT] = {TY_FLOAT, NULL, 0, {0}},
    [TY_DOUBLE] = {TY_DOUBLE, NULL, 0, {0}},
};

Type *type_scalar(TypeKind kind)
{
    if (kind > TY_DOUBLE)
        UNREACHABLE();
    return &scalar_types[kind];
}

Type *type_grid(Arena *a, TypeKind kind, Type *elem)
{
    Type *t = ARENA_NEW(a, Type);
    t->kind = kind;
    t->elem = elem;
    return t;
}

Type *type_array(Arena *a, Type *elem, int ndims, const int *dims)
{
    Type *t = ARENA_NEW(a, Type);
    t->kind = TY_ARRAY;
    t->elem = elem;
    t->ndims = ndims;
    for (int i = 0; i < ndims && i < TYPE_MAX_DIMS; i++)
        t->dims[i] = dims[i];
    return t;
}

bool type_is_scalar(const Type *t) { return t && t->kind >= TY_CHAR && t->kind <= TY_DOUBLE; }
bool type_is_integer(const Type *t) { return t && kind_is_integer(t->kind); }
bool kind_is_integer(TypeKind k) { return k >= TY_CHAR && k <= TY_UINT; }
bool type_is_float(const Type *t) { return t && (t->kind == TY_FLOAT || t->kind == TY_DOUBLE); }
bool type_is_grid(const Type *t) { return t && (t->kind == TY_IMAGE || t->kind == TY_BLOCK); }
int type_grid_dims(const Type *t) { return t->kind == TY_BLOCK ? 3 : 2; }

int type_size(const Type *t)
{
    switch (t->kind) {
    case TY_CHAR: case TY_UCHAR: return 1;
    case TY_SHORT: case TY_USHORT: return 2;
    case TY_INT: case TY_UINT: case TY_FLOAT: return 4;
    case TY_DOUBLE: return 8;
    default: return 0;
    }
}

int type_rank(const Type *t)
{
    return (int)t->kind;
}

TypeKind kind_promote(TypeKind k)
{
    return k >= TY_CHAR && k <= TY_USHORT ? TY_INT : k;
}

TypeKind kind_common(TypeKind a, TypeKind b)
{
    a = kind_promote(a);
    b = kind_promote(b);
    return a >= b ? a : b;
}

Type *type_promote(Type *t)
{
    return t && kind_promote(t->kind) != t->kind ? type_scalar(TY_INT) : t;
}

Type *type_common(Type *a, Type *b)
{
    if (!type_is_scalar(a))
        return type_promote(b);
    if (!type_is_scalar(b))
        return type_promote(a);
    return type_scalar(kind_common(a->kind, b->kind));
}

const char *type_name(const Type *t)
{
    static const char *names[] = {"void", "char", "uchar", "short", "ushort", "int",
                                  "uint", "float", "double"};
    static char buf[4][64];
    static int next;
    if (!t)
        return "?";
    if (t->kind <= TY_DOUBLE)
        return names[t->kind];
    char *b = buf[next++ % 4];
    if (t->kind == TY_ARRAY) {
        int n = snprintf(b, 64, "%s", names[t->elem->kind]);
        for (int i = 0; i < t->ndims && n < 50; i++)
            n += snprintf(b + n, (size_t)(64 - n), "[%d]", t->dims[i]);
    } else {
        snprintf(b, 64, "%s<%s>", t->kind == TY_IMAGE ? "Image" : "Block",
                 names[t->elem->kind]);
    }
    return b;
}

/* ---- math table ------------------------------------------------------------- */

static const MathInfo math_table[] = {
    {"", 0, MK_ANY},
#define MATH(id, name, arity, kind) {name, arity, kind},
#include "math_fns.def"
#undef MATH
};

const MathInfo *math_info(MathFn f)
{
    return &math_table[f];
}

MathFn math_lookup(const char *name)
{
    for (int i = 1; i < MATH_COUNT; i++)
        if (strcmp(math_table[i].name, name) == 0)
            return (MathFn)i;
    return MATH_NONE;
}

/* ---- symbols ---------------------------------------------------------------- */

Symbol *symbol_root(Symbol *s)
{
    int guard = 0;
    while (s && s->kind == SYM_ALIAS && s->alias_base && guard++ < 1000)
        s = s->alias_base;
    return s;
}

Symbol *ast_build_symbol(Arena *a, const char *name, SymKind kind, Type *type, Loc loc)
{
    Symbol *s = ARENA_NEW(a, Symbol);
    s->name = arena_strdup(a, name);
    s->kind = kind;
    s->type = type;
    s->loc = loc;
    s->param_index = -1;
    return s;
}

/* ---- builders --------------------------------------------------------------- */

void nodelist_push(Arena *a, NodeList *l, Node *n)
{
    ARENA_GROW(a, l->items, l->len, l->cap);
    l->items[l->len++] = n;
}

static void set_parent(Node *child, Node *parent)
{
    if (child)
        child->parent = parent;
}

Node *ast_new(Arena *a, NodeKind kind, Loc loc)
{
    Node *n = ARENA_NEW(a, Node);
    n->kind = kind;
    n->loc = loc;
    return n;
}

Node *ast_build_int(Arena *a, long long v, Loc loc)
{
    Node *n = ast_new(a, AST_INT_LIT, loc);
    n->u.lit.ival = v;
    n->type = type_scalar(TY_INT);
    return n;
}

Node *ast_build_float(Arena *a, double v, const char *text, Type *type, Loc loc)
{
    Node *n = ast_new(a, AST_FLOAT_LIT, loc);
    n->u.lit.fval = v;
    n->u.lit.text = text ? arena_strdup(a, text) : NULL;
    n->type = type;
    return n;
}

Node *ast_build_var_ref(Arena *a, Symbol *s, Loc loc)
{
    Node *n = ast_new(a, AST_VAR, loc);
    n->u.var.sym = s;
    n->type = s ? s->type : NULL;
    return n;
}

Node *ast_build_builtin(Arena *a, Builtin b, Loc loc)
{
    Node *n = ast_new(a, AST_BUILTIN, loc);
    n->u.builtin.which = b;
    n->type = type_scalar(TY_INT);
    return n;
}

Node *ast_build_extent(Arena *a, Symbol *s, int dim, Loc loc)
{
    Node *n = ast_new(a, AST_EXTENT, loc);
    n->u.extent.sym = s;
    n->u.extent.dim = dim;
    n->type = type_scalar(TY_INT);
    return n;
}

Node *ast_build_grid_access(Arena *a, Symbol *s, Node **ix, int count, Loc loc)
{
    Node *n = ast_new(a, AST_GRID_ACCESS, loc);
    n->u.access.sym = s;
    n->u.access.n = count;
    for (int i = 0; i < count && i < 3; i++) {
        n->u.access.ix[i] = ix[i];
        set_parent(ix[i], n);
    }
    n->type = s && s->type ? s->type->elem : NULL;
    return n;
}

Node *ast_build_buf_access(Arena *a, Symbol *s, Node *linear, Loc loc)
{
    Node *n = ast_new(a, AST_BUF_ACCESS, loc);
    n->u.access.sym = s;
    n->u.access.n = 1;
    n->u.access.ix[0] = linear;
    set_parent(linear, n);
    n->type = s && s->type ? s->type->elem : NULL;
    return n;
}

Node *ast_build_index(Arena *a, Node *base, Node *index, Loc loc)
{
    Node *n = ast_new(a, AST_INDEX, loc);
    n->u.index.base = base;
    n->u.index.index = index;
    set_parent(base, n);
    set_parent(index, n);
    return n;
}

Node *ast_build_unary(Arena *a, int op, Node *operand, Loc loc)
{
    Node *n = ast_new(a, AST_UNARY, loc);
    n->u.unary.op = op;
    n->u.unary.operand = operand;
    set_parent(operand, n);
    if (operand && operand->type)
        n->type = op == '!' ? type_scalar(TY_INT)
                : (op >= OP_PREINC && op <= OP_POSTDEC) ? operand->type : type_promote(operand->type);
    return n;
}

Node *ast_build_binary(Arena *a, int op, Node *lhs, Node *rhs, Loc loc)
{
    Node *n = ast_new(a, AST_BINARY, loc);
    n->u.binary.op = op;
    n->u.binary.lhs = lhs;
    n->u.binary.rhs = rhs;
    set_parent(lhs, n);
    set_parent(rhs, n);
    /* The type C gives the result, when the operands have theirs (sema
     * recomputes it for parsed code). */
    if (lhs && rhs && lhs->type && rhs->type) {
        switch (op) {
        case '<': case '>': case OP_LE: case OP_GE: case OP_EQ: case OP_NE: case OP_AND: case OP_OR:
            n->type = type_scalar(TY_INT);
            break;
        case ',':
            n->type = rhs->type;
            break;
        case OP_SHL: case OP_SHR:
            n->type = type_promote(lhs->type);
            break;
        default:
            n->type = type_common(lhs->type, rhs->type);
        }
    }
    return n;
}

Node *ast_build_assign(Arena *a, int op, Node *lhs, Node *rhs, Loc loc)
{
    Node *n = ast_build_binary(a, op, lhs, rhs, loc);
    n->kind = AST_ASSIGN;
    n->type = lhs ? lhs->type : NULL;
    return n;
}

Node *ast_build_cond(Arena *a, Node *c, Node *t, Node *e, Loc loc)
{
    Node *n = ast_new(a, AST_COND, loc);
    n->u.cond.cond = c;
    n->u.cond.then = t;
    n->u.cond.els = e;
    set_parent(c, n);
    set_parent(t, n);
    set_parent(e, n);
    if (t && e && t->type && e->type)
        n->type = type_common(t->type, e->type);
    return n;
}

Node *ast_build_call(Arena *a, const char *name, Loc loc)
{
    Node *n = ast_new(a, AST_CALL, loc);
    n->u.call.name = arena_strdup(a, name);
    n->u.call.math = math_lookup(name);
    return n;
}

void ast_append_arg(Arena *a, Node *call, Node *arg)
{
    nodelist_push(a, &call->u.call.args, arg);
    set_parent(arg, call);
}

Node *ast_build_cast(Arena *a, Type *to, Node *expr, Loc loc)
{
    Node *n = ast_new(a, AST_CAST, loc);
    n->type = to;
    n->u.cast.expr = expr;
    set_parent(expr, n);
    return n;
}

Node *ast_build_block(Arena *a, Loc loc)
{
    return ast_new(a, AST_BLOCK, loc);
}

void ast_append_stmt(Arena *a, Node *block, Node *stmt)
{
    nodelist_push(a, &block->u.block.stmts, stmt);
    set_parent(stmt, block);
}

void ast_prepend_stmt(Arena *a, Node *block, Node *stmt)
{
    NodeList *l = &block->u.block.stmts;
    nodelist_push(a, l, stmt);
    memmove(l->items + 1, l->items, sizeof(Node *) * (size_t)(l->len - 1));
    l->items[0] = stmt;
    set_parent(stmt, block);
}

Node *ast_build_decl(Arena *a, Symbol *s, Node *init, Loc loc)
{
    Node *n = ast_new(a, AST_DECL, loc);
    n->u.decl.sym = s;
    n->u.decl.init = init;
    set_parent(init, n);
    return n;
}

Node *ast_build_expr_stmt(Arena *a, Node *e, Loc loc)
{
    Node *n = ast_new(a, AST_EXPR_STMT, loc);
    n->u.expr_stmt.expr = e;
    set_parent(e, n);
    return n;
}

Node *ast_build_if(Arena *a, Node *c, Node *t, Node *e, Loc loc)
{
    Node *n = ast_new(a, AST_IF, loc);
    n->u.if_.cond = c;
    n->u.if_.then = t;
    n->u.if_.els = e;
    set_parent(c, n);
    set_parent(t, n);
    set_parent(e, n);
    return n;
}

static Node *build_loop(Arena *a, NodeKind k, Node *init, Node *c, Node *step, Node *body,
                        Loc loc)
{
    Node *n = ast_new(a, k, loc);
    n->u.loop.init = init;
    n->u.loop.cond = c;
    n->u.loop.step = step;
    n->u.loop.body = body;
    set_parent(init, n);
    set_parent(c, n);
    set_parent(step, n);
    set_parent(body, n);
    return n;
}

Node *ast_build_for(Arena *a, Node *init, Node *c, Node *step, Node *body, Loc loc)
{
    return build_loop(a, AST_FOR, init, c, step, body, loc);
}

Node *ast_build_while(Arena *a, Node *c, Node *body, Loc loc)
{
    return build_loop(a, AST_WHILE, NULL, c, NULL, body, loc);
}

Node *ast_build_do(Arena *a, Node *body, Node *c, Loc loc)
{
    return build_loop(a, AST_DO, NULL, c, NULL, body, loc);
}

Node *ast_build_return(Arena *a, Node *value, Loc loc)
{
    Node *n = ast_new(a, AST_RETURN, loc);
    n->u.ret.value = value;
    set_parent(value, n);
    return n;
}

Node *ast_build_comment(Arena *a, const char *text, Loc loc)
{
    Node *n = ast_new(a, AST_COMMENT, loc);
    n->u.comment.text = arena_strdup(a, text);
    return n;
}

Node *ast_build_goto(Arena *a, const char *label, Loc loc)
{
    Node *n = ast_build_comment(a, label, loc);
    n->kind = AST_GOTO;
    return n;
}

Node *ast_build_label(Arena *a, const char *label, Loc loc)
{
    Node *n = ast_build_comment(a, label, loc);
    n->kind = AST_LABEL;
    return n;
}

Node *ast_build_points(Arena *a, Node *body, Loc loc)
{
    Node *n = ast_new(a, AST_POINTS, loc);
    n->u.points.prologue = ast_build_block(a, loc);
    n->u.points.point_prologue = ast_build_block(a, loc);
    n->u.points.body = body;
    n->u.points.point_epilogue = ast_build_block(a, loc);
    set_parent(n->u.points.prologue, n);
    set_parent(n->u.points.point_prologue, n);
    set_parent(body, n);
    set_parent(n->u.points.point_epilogue, n);
    return n;
}

void program_add_function(Program *p, Function *f)
{
    ARENA_GROW(p->arena, p->funcs, p->nfuncs, p->capfuncs);
    p->funcs[p->nfuncs++] = f;
}

void program_add_file(Program *p, const char *file)
{
    for (int i = 0; i < p->nfiles; i++)
        if (strcmp(p->files[i], file) == 0)
            return;
    ARENA_GROW(p->arena, p->files, p->nfiles, p->capfiles);
    p->files[p->nfiles++] = file;
}

/* ---- children ----------------------------------------------------------------- */

/* Slots of the children of n (pointers into n, so a caller may replace them). */
int ast_children(Node *n, Node ***slots, int max)
{
    int k = 0;
#define SLOT(p)                       \
    do {                              \
        if ((p) && k < max)           \
            slots[k++] = &(p);        \
    } while (0)
    switch (n->kind) {
    case AST_GRID_ACCESS:
    case AST_BUF_ACCESS:
        for (int i = 0; i < n->u.access.n; i++)
            SLOT(n->u.access.ix[i]);
        for (int i = 0; i < n->u.access.nat; i++)
            SLOT(n->u.access.at[i]);
        break;
    case AST_INDEX:
        SLOT(n->u.index.base);
        SLOT(n->u.index.index);
        break;
    case AST_UNARY:
        SLOT(n->u.unary.operand);
        break;
    case AST_BINARY:
    case AST_ASSIGN:
        SLOT(n->u.binary.lhs);
        SLOT(n->u.binary.rhs);
        break;
    case AST_COND:
        SLOT(n->u.cond.cond);
        SLOT(n->u.cond.then);
        SLOT(n->u.cond.els);
        break;
    case AST_CALL:
        for (int i = 0; i < n->u.call.args.len; i++)
            SLOT(n->u.call.args.items[i]);
        break;
    case AST_CAST:
        SLOT(n->u.cast.expr);
        break;
    case AST_BLOCK:
    case AST_DECL_LIST:
        for (int i = 0; i < n->u.block.stmts.len; i++)
            SLOT(n->u.block.stmts.items[i]);
        break;
    case AST_DECL:
        SLOT(n->u.decl.init);
        break;
    case AST_EXPR_STMT:
        SLOT(n->u.expr_stmt.expr);
        break;
    case AST_IF:
        SLOT(n->u.if_.cond);
        SLOT(n->u.if_.then);
        SLOT(n->u.if_.els);
        break;
    case AST_FOR:
    case AST_WHILE:
        SLOT(n->u.loop.init);
        SLOT(n->u.loop.cond);
        SLOT(n->u.loop.step);
        SLOT(n->u.loop.body);
        break;
    case AST_DO:
        SLOT(n->u.loop.body);
        SLOT(n->u.loop.cond);
        break;
    case AST_RETURN:
        SLOT(n->u.ret.value);
        break;
    case AST_POINTS:
        /* in the order a thread runs them */
        SLOT(n->u.points.prologue);
        SLOT(n->u.points.point_prologue);
        SLOT(n->u.points.body);
        SLOT(n->u.points.point_epilogue);
        break;
    default:
        break;
    }
#undef SLOT
    return k;
}

/* Blocks can hold any number of statements; walks take them from the list
 * directly and use ast_children only for nodes of bounded arity. */
static bool is_list_node(const Node *n)
{
    return n->kind == AST_BLOCK || n->kind == AST_DECL_LIST;
}

void ast_fix_parents(Node *n)
{
    if (!n)
        return;
    if (is_list_node(n)) {
        for (int i = 0; i < n->u.block.stmts.len; i++) {
            n->u.block.stmts.items[i]->parent = n;
            ast_fix_parents(n->u.block.stmts.items[i]);
        }
        return;
    }
    Node **slots[8];
    int k = ast_children(n, slots, 8);
    for (int i = 0; i < k; i++) {
        (*slots[i])->parent = n;
        ast_fix_parents(*slots[i]);
    }
    if (n->kind == AST_CALL)
        for (int i = 0; i < n->u.call.args.len; i++) {
            n->u.call.args.items[i]->parent = n;
            ast_fix_parents(n->u.call.args.items[i]);
        }
}

/* ---- edits --------------------------------------------------------------------- */

void ast_replace(Node *old, Node *new_node)
{
    Node *p = old->parent;
    if (new_node)
        new_node->parent = p;
    if (!p)
        return;
    if (is_list_node(p)) {
        for (int i = 0; i < p->u.block.stmts.len; i++)
            if (p->u.block.stmts.items[i] == old)
                p->u.block.stmts.items[i] = new_node;
        return;
    }
    if (p->kind == AST_CALL) {
        for (int i = 0; i < p->u.call.args.len; i++)
            if (p->u.call.args.items[i] == old)
                p->u.call.args.items[i] = new_node;
        return;
    }
    Node **slots[8];
    int k = ast_children(p, slots, 8);
    for (int i = 0; i < k; i++)
        if (*slots[i] == old)
            *slots[i] = new_node;
}

static int stmt_position(Node *at)
{
    Node *p = at->parent;
    if (!p || p->kind != AST_BLOCK)
        UNREACHABLE();
    for (int i = 0; i < p->u.block.stmts.len; i++)
        if (p->u.block.stmts.items[i] == at)
            return i;
    UNREACHABLE();
}

static void insert_at(Arena *a, Node *block, int pos, Node *stmt)
{
    NodeList *l = &block->u.block.stmts;
    nodelist_push(a, l, stmt);
    memmove(l->items + pos + 1, l->items + pos, sizeof(Node *) * (size_t)(l->len - 1 - pos));
    l->items[pos] = stmt;
    stmt->parent = block;
}

void ast_insert_before(Arena *a, Node *at, Node *stmt)
{
    insert_at(a, at->parent, stmt_position(at), stmt);
}

void ast_insert_after(Arena *a, Node *at, Node *stmt)
{
    insert_at(a, at->parent, stmt_position(at) + 1, stmt);
}

void ast_remove_stmt(Node *stmt)
{
    Node *p = stmt->parent;
    int pos = stmt_position(stmt);
    NodeList *l = &p->u.block.stmts;
    memmove(l->items + pos, l->items + pos + 1, sizeof(Node *) * (size_t)(l->len - pos - 1));
    l->len--;
    stmt->parent = NULL;
}

Node *ast_copy(Arena *a, const Node *n)
{
    if (!n)
        return NULL;
    Node *c = ARENA_NEW(a, Node);
    *c = *n;
    c->parent = NULL;
    if (is_list_node(n) || n->kind == AST_CALL) {
        NodeList *src = n->kind == AST_CALL ? (NodeList *)&n->u.call.args
                                            : (NodeList *)&n->u.block.stmts;
        NodeList *dst = n->kind == AST_CALL ? &c->u.call.args : &c->u.block.stmts;
        memset(dst, 0, sizeof *dst);
        for (int i = 0; i < src->len; i++) {
            Node *k = ast_copy(a, src->items[i]);
            k->parent = c;
            nodelist_push(a, dst, k);
        }
        return c;
    }
    Node **slots[8];
    int k = ast_children(c, slots, 8);
    for (int i = 0; i < k; i++) {
        *slots[i] = ast_copy(a, *slots[i]);
        (*slots[i])->parent = c;
    }
    return c;
}

/* ---- walks ----------------------------------------------------------------------- */

void ast_walk(Node *n, AstVisit visit, void *ctx)
{
    if (!n || !visit(n, ctx))
        return;
    if (is_list_node(n)) {
        for (int i = 0; i < n->u.block.stmts.len; i++)
            ast_walk(n->u.block.stmts.items[i], visit, ctx);
        return;
    }
    if (n->kind == AST_CALL) {
        for (int i = 0; i < n->u.call.args.len; i++)
            ast_walk(n->u.call.args.items[i], visit, ctx);
        return;
    }
    Node **slots[8];
    int k = ast_children(n, slots, 8);
    for (int i = 0; i < k; i++)
        ast_walk(*slots[i], visit, ctx);
}

Node *ast_mutate(Node *n, AstMutate mutate, void *ctx)
{
    if (!n)
        return NULL;
    if (is_list_node(n) || n->kind == AST_CALL) {
        NodeList *l = n->kind == AST_CALL ? &n->u.call.args : &n->u.block.stmts;
        for (int i = 0; i < l->len; i++) {
            Node *r = ast_mutate(l->items[i], mutate, ctx);
            l->items[i] = r;
            if (r)
                r->parent = n;
        }
    } else {
        Node **slots[8];
        int k = ast_children(n, slots, 8);
        for (int i = 0; i < k; i++) {
            Node *r = ast_mutate(*slots[i], mutate, ctx);
            *slots[i] = r;
            if (r)
                r->parent = n;
        }
    }
    Node *parent = n->parent;
    Node *r = mutate(n, ctx);
    if (r)
        r->parent = parent;
    return r;
}

typedef struct QueryCtx {
    Arena *a;
    NodeList out;
    NodeKind kind;
    Symbol *array;
} QueryCtx;

static bool query_visit(Node *n, void *p)
{
    QueryCtx *q = p;
    if (n->kind == q->kind)
        nodelist_push(q->a, &q->out, n);
    return true;
}

NodeList ast_query(Arena *a, Node *root, NodeKind kind)
{
    QueryCtx q = {a, {0}, kind, NULL};
    ast_walk(root, query_visit, &q);
    return q.out;
}

static bool query_access_visit(Node *n, void *p)
{
    QueryCtx *q = p;
    if (n->kind == AST_GRID_ACCESS && symbol_root(n->u.access.sym) == q->array)
        nodelist_push(q->a, &q->out, n);
    return true;
}

NodeList ast_query_accesses(Arena *a, Node *root, Symbol *array)
{
    QueryCtx q = {a, {0}, AST_GRID_ACCESS, symbol_root(array)};
    ast_walk(root, query_access_visit, &q);
    return q.out;
}

bool ast_is_stmt(const Node *n)
{
    return n && n->kind >= AST_BLOCK;
}

Node *ast_enclosing_stmt(Node *n)
{
    while (n && !ast_is_stmt(n))
        n = n->parent;
    return n;
}

bool ast_is_lvalue_use(const Node *n)
{
    const Node *p = n->parent;
    if (!p)
        return false;
    if (p->kind == AST_ASSIGN && p->u.binary.lhs == n)
        return true;
    if (p->kind == AST_UNARY && p->u.unary.op >= OP_PREINC && p->u.unary.op <= OP_POSTDEC)
        return true;
    return false;
}

typedef struct AssignQuery {
    const Symbol *sym;
    bool found;
} AssignQuery;

static bool assign_visit(Node *n, void *p)
{
    AssignQuery *q = p;
    if (n->kind == AST_VAR && n->u.var.sym == q->sym && ast_is_lvalue_use(n))
        q->found = true;
    return !q->found;
}

bool ast_assigns(Node *root, const Symbol *s)
{
    AssignQuery q = {s, false};
    ast_walk(root, assign_visit, &q);
    return q.found;
}

static bool uses_visit(Node *n, void *p)
{
    AssignQuery *q = p;
    if ((n->kind == AST_VAR && n->u.var.sym == q->sym) ||
        ((n->kind == AST_BUF_ACCESS || n->kind == AST_GRID_ACCESS) && n->u.access.sym == q->sym))
        q->found = true;
    return !q->found;
}

typedef struct KindQuery {
    NodeKind kind;
    bool found;
} KindQuery;

static bool kind_visit(Node *n, void *p)
{
    KindQuery *q = p;
    q->found |= n->kind == q->kind;
    return !q->found;
}

bool ast_has_kind(Node *root, NodeKind kind)
{
    KindQuery q = {kind, false};
    ast_walk(root, kind_visit, &q);
    return q.found;
}

bool ast_has_return(Node *root)
{
    return ast_has_kind(root, AST_RETURN);
}

bool function_has_grid(const Function *k)
{
    for (int i = 0; i < k->nparams; i++)
        if (type_is_grid(k->params[i]->type))
            return true;
    return false;
}

Node *ast_points(const Function *f)
{
    const NodeList *l = f->body ? &f->body->u.block.stmts : NULL;
    return l && l->len == 1 && l->items[0]->kind == AST_POINTS ? l->items[0] : NULL;
}

Node *ast_point_body(const Function *f)
{
    Node *p = ast_points(f);
    return p ? p->u.points.body : f->body;
}

void ast_set_point_body(Function *f, Node *body)
{
    Node *p = ast_points(f);
    if (p) {
        p->u.points.body = body;
        body->parent = p;
    } else {
        f->body = body;
    }
}

bool ast_uses_symbol(Node *root, const Symbol *s)
{
    AssignQuery q = {s, false};
    ast_walk(root, uses_visit, &q);
    return q.found;
}

bool ast_is_read_use(const Node *n)
{
    const Node *p = n->parent;
    if (p && p->kind == AST_ASSIGN && p->u.binary.lhs == n && p->u.binary.op == '=')
        return false;
    return true;
}

static bool side_effect_visit(Node *n, void *p)
{
    bool *found = p;
    if (n->kind == AST_ASSIGN ||
        (n->kind == AST_UNARY && n->u.unary.op >= OP_PREINC && n->u.unary.op <= OP_POSTDEC) ||
        (n->kind == AST_CALL && n->u.call.math == MATH_NONE))
        *found = true;
    return !*found;
}

bool ast_has_side_effects(const Node *n)
{
    bool found = false;
    ast_walk((Node *)n, side_effect_visit, &found);
    return found;
}

/* ---- names -------------------------------------------------------------------------- */

const char *ast_kind_name(NodeKind k)
{
    static const char *names[AST_KIND_COUNT] = {
        "IntLit", "FloatLit", "Var", "Builtin", "Extent", "GridAccess", "BufAccess",
        "Index", "Unary", "Binary", "Assign", "Cond", "Call", "Cast", "Block", "Decl",
        "DeclList", "ExprStmt", "If", "For", "While", "Do", "Break", "Continue",
        "Return", "Empty", "Comment", "Barrier", "Goto", "Label", "Points",
    };
    return k < AST_KIND_COUNT ? names[k] : "?";
}

const char *ast_op_spelling(int op)
{
    static char one[64][2];
    switch (op) {
    case OP_PREINC: case OP_POSTINC: return "++";
    case OP_PREDEC: case OP_POSTDEC: return "--";
    case OP_LE: return "<=";
    case OP_GE: return ">=";
    case OP_EQ: return "==";
    case OP_NE: return "!=";
    case OP_AND: return "&&";
    case OP_OR: return "||";
    case OP_SHL: return "<<";
    case OP_SHR: return ">>";
    default:
        if (op >= 32 && op < 96) {
            one[op - 32][0] = (char)op;
            return one[op - 32];
        }
        if (op == '|' || op == '~' || op == '^')
            return op == '|' ? "|" : op == '~' ? "~" : "^";
        return "?";
    }
}

const char *builtin_spelling(Builtin b)
{
    static const char *names[] = {
        "idx", "idy", "idz", "W", "H", "D", "thread_x", "thread_y", "thread_z",
        "group_x", "group_y", "group_z", "num_groups_x", "num_groups_y", "num_groups_z",
        "block_dim_x", "block_dim_y", "imcl_interior", "imcl_from", "imcl_to",
    };
    _Static_assert(sizeof names / sizeof names[0] == BI_PART_TO + 1, "a spelling per builtin");
    return names[b];
}
