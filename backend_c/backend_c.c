/* The C reference backend: the kernel body as a function of one grid point,
 * called for every point of the grid (in parallel with OpenMP). It is the
 * correctness oracle of the other backends and a CPU target of its own. */
#include <string.h>

#include "c_host.h"
#include "emit.h"
#include "host.h"
#include "lanes.h"
#include "passes.h"
#include "runtime_text/backend_c.h"
#include "runtime_text/wrappers.h"
#include "unparse.h"

static const char *c_type(TypeKind k)
{
    return unparse_c_type(k);
}

static void c_builtin(Unparser *u, Builtin b)
{
    /* pass_interior's test: a parameter of the point function (the C reference
     * has no threads, so nothing else reaches here). */
    if (b != BI_INTERIOR)
        UNREACHABLE();
    sb_puts(u->out, "imcl_interior");
}

static void c_math(Unparser *u, const Node *call)
{
    if (unparse_libm_call(u, call))
        return;
    /* min, max, clamp: a helper per type (see minmax_defs). */
    const MathInfo *m = math_info(call->u.call.math);
    Type *t = call->type;
    char name[64];
    int fn = call->u.call.math == MATH_MIN ? 0 : call->u.call.math == MATH_MAX ? 1 : 2;
    u->minmax_types |= 1u << (fn * 9 + (int)t->kind);
    snprintf(name, sizeof name, "imcl_%s_%s", m->name, type_name(t));
    unparse_call_converted(u, name, call, t);
}

static const Target c_target = {
    .name = "c",
    .scalar_type = c_type,
    .builtin = c_builtin,
    .math_call = c_math,
    .function_qualifier = "static",
};

/* min, max and clamp of C have no overloads: one helper per type used. */
static void minmax_defs(StrBuf *sb, unsigned used)
{
    for (int fn = 0; fn < 3; fn++) {
        for (int k = TY_CHAR; k <= TY_DOUBLE; k++) {
            if (!(used & (1u << (fn * 9 + k))))
                continue;
            const char *t = c_type((TypeKind)k);
            const char *tn = type_name(type_scalar((TypeKind)k));
            if (fn == 0)
                sb_printf(sb, "static inline %s imcl_min_%s(%s a, %s b)\n{\n    return b < a ? b : a;\n}\n\n", t, tn, t, t);
            else if (fn == 1)
                sb_printf(sb, "static inline %s imcl_max_%s(%s a, %s b)\n{\n    return a < b ? b : a;\n}\n\n", t, tn, t, t);
            else
                sb_printf(sb, "static inline %s imcl_clamp_%s(%s x, %s lo, %s hi)\n{\n    return x < lo ? lo : hi < x ? hi : x;\n}\n\n", t, tn, t, t, t);
        }
    }
}

/* What the body uses: which parameters, extents and built-ins reach the point
 * function (unused ones would only draw warnings). */
typedef struct Uses {
    bool *param;          /* by parameter index */
    bool (*extent)[3];    /* by parameter index and dimension */
    bool builtin[BI_D + 1];
    /* The row function: the arguments of its x range (its parameters imcl_x0,
     * imcl_x1); NULL for the point function. */
    const char *rows;
    /* Whether the body is printed on row tables: an access then uses its storage
     * coordinates instead of its linear index (and no extent of the storage). */
    bool tables;
    /* The row function's arguments for an edge row (edge_rows): the rows outside a
     * read array's storage replaced by those its boundary reads, whose helpers go
     * into *helpers. */
    bool edge;
    unsigned *helpers;
    /* The edge row function (Bodies.walk_body): its x range, no row pointers */
    bool walk;
} Uses;

static bool collect_uses(Node *n, void *p)
{
    Uses *u = p;
    if (u->tables && n->kind == AST_BUF_ACCESS && n->u.access.nat) {
        u->param[n->u.access.sym->param_index] = true;
        for (int d = 0; d < n->u.access.nat; d++)
            ast_walk(n->u.access.at[d], collect_uses, u);
        return false;
    }
    Symbol *s = NULL;
    if (n->kind == AST_VAR || n->kind == AST_BUF_ACCESS)
        s = n->kind == AST_VAR ? n->u.var.sym : n->u.access.sym;
    if (s && s->kind == SYM_PARAM && s->param_index >= 0)
        u->param[s->param_index] = true;
    if (n->kind == AST_EXTENT && n->u.extent.sym->param_index >= 0)
        u->extent[n->u.extent.sym->param_index][n->u.extent.dim] = true;
    if (n->kind == AST_BUILTIN && n->u.builtin.which <= BI_D)
        u->builtin[n->u.builtin.which] = true;
    return true;
}

static Uses uses_of(Arena *a, const Function *k, Node *body, const char *rows, bool tables)
{
    Uses u;
    memset(&u, 0, sizeof u);
    u.tables = tables;
    u.param = arena_alloc(a, sizeof *u.param * (size_t)(k->nparams + 1));
    u.extent = arena_alloc(a, sizeof *u.extent * (size_t)(k->nparams + 1));
    ast_walk(body, collect_uses, &u);
    u.rows = rows;
    if (rows)
        u.builtin[BI_IDX] = false;  /* the row function's loop variable */
    return u;
}

/* `idz + c`, `idz - c` or `idz`: coordinate `v` moved by c. */
static void offset_coord(StrBuf *sb, const char *v, int c)
{
    if (c)
        sb_printf(sb, "%s %c %d", v, c < 0 ? '-' : '+', c < 0 ? -c : c);
    else
        sb_puts(sb, v);
}

/* Element 0 of array s's row at storage coordinates y and z (C text, halo included),
 * from the dense array, `A + ((z) * (A_height + 2h) + y) * (A_width + 2h) + h`, or
 * from block imcl_b's row table, `A[imcl_b][z][y] + h`. */
static void row_at(StrBuf *sb, const EmitCtx *e, const Symbol *s, const char *y, const char *z, bool tables)
{
    const char *name = unparse_name(s);
    int h = s->halo;
    bool block = type_grid_dims(s->type) == 3;
    if (tables) {
        sb_printf(sb, "%s[imcl_b]", name);
        if (block)
            sb_printf(sb, "[%s]", z);
        sb_printf(sb, "[%s]", y);
    } else {
        sb_printf(sb, "%s + ", name);
        const char *wd = host_storage_extent(e->a, s, 0, false);
        bool paren = block || strcmp(y, "idy") != 0;   /* (y) * width */
        sb_puts(sb, paren ? "(" : "");
        if (block) {
            bool zp = strcmp(z, "idz") != 0;
            sb_printf(sb, "%s%s%s * %s + ", zp ? "(" : "", z, zp ? ")" : "", host_storage_extent(e->a, s, 1, false));
        }
        sb_printf(sb, "%s%s * %s", y, paren ? ")" : "", wd);
    }
    if (h)
        sb_printf(sb, " + %d", h);
}

/* Whether the edge rows (edge_rows) read array s's rows outside its storage from the
 * rows its boundary reads there: a read-only array with a boundary rule. */
static bool row_substituted(const Symbol *s)
{
    return !(s->access & ACC_WRITE) && s->bc != BC_NONE;
}

/* Whether row pointer i is the first of an array whose edge rows read a row of its
 * constant boundary's value (imcl_fill_A, one per array). */
static bool fill_row(const Function *k, int i)
{
    const Symbol *s = k->rows[i].array;
    return row_substituted(s) && s->bc == BC_CONSTANT && (i == 0 || k->rows[i - 1].array != s);
}

/* The storage coordinate of row pointer r in dimension d (1: y, 2: z), idy + h + dy;
 * with `edge`, the row its array's boundary reads there (edge_rows). */
static const char *row_coord(const EmitCtx *e, const RowPtr *r, int d, bool edge, unsigned *helpers)
{
    const Symbol *s = r->array;
    int h = s->halo, off = d == 1 ? r->dy : r->dz;
    const char *v = d == 1 ? "idy" : "idz";
    StrBuf t = {0};
    if (edge && row_substituted(s) && s->bc != BC_CONSTANT) {
        const char *fn = s->bc == BC_CLAMPED ? "imcl_clamp" : s->bc == BC_PERIODIC ? "imcl_wrap" : "imcl_mirror";
        *helpers |= s->bc == BC_CLAMPED ? HELPER_CLAMP : s->bc == BC_PERIODIC ? HELPER_WRAP : HELPER_MIRROR;
        sb_printf(&t, "%s(", fn);
        offset_coord(&t, v, off);
        sb_printf(&t, ", %s%s, %d)", unparse_name(s), unparse_extent_suffix(d), h);
        if (h)
            sb_printf(&t, " + %d", h);
    } else {
        offset_coord(&t, v, h + off);
    }
    const char *c = arena_strdup(e->a, sb_str(&t));
    sb_free(&t);
    return c;
}

/* `imcl_in(idy + dy, A_height, h) && imcl_in(idz + dz, A_depth, h)`: row pointer r's
 * row lies in its array's storage. */
static void row_inside(StrBuf *sb, const RowPtr *r, unsigned *helpers)
{
    const Symbol *s = r->array;
    *helpers |= HELPER_IN;
    for (int d = 1; d < type_grid_dims(s->type); d++) {
        sb_puts(sb, d > 1 ? " && imcl_in(" : "imcl_in(");
        offset_coord(sb, d == 1 ? "idy" : "idz", d == 1 ? r->dy : r->dz);
        sb_printf(sb, ", %s%s, %d)", unparse_name(s), unparse_extent_suffix(d), s->halo);
    }
}

/* The argument of row pointer r: its array's element (0, idy + dy, idz + dz); with
 * `edge`, the row its boundary reads there (edge_rows). */
static void row_arg(StrBuf *sb, const EmitCtx *e, const RowPtr *r, bool tables, bool edge, unsigned *helpers)
{
    const Symbol *s = r->array;
    bool block = type_grid_dims(s->type) == 3;
    const char *y = row_coord(e, r, 1, edge, helpers), *z = block ? row_coord(e, r, 2, edge, helpers) : NULL;
    if (edge && row_substituted(s) && s->bc == BC_CONSTANT) {
        /* outside the storage in y or z: the row of the boundary value */
        row_inside(sb, r, helpers);
        sb_puts(sb, " ? ");
        row_at(sb, e, s, y, z, tables);
        sb_printf(sb, " : imcl_fill_%s", unparse_name(s));
        if (s->halo)
            sb_printf(sb, " + %d", s->halo);
        return;
    }
    row_at(sb, e, s, y, z, tables);
}

/* Parameters (or arguments, when `args`) of the point or row function: what u says
 * the body uses; inner_arg, unless NULL, is the argument passed for imcl_interior
 * (pass_interior's split, when the point function takes it). With `tables` the
 * arrays are those of block imcl_b of PK_rows, its row tables. */
static void point_params(StrBuf *sb, const EmitCtx *e, const Uses *u, bool args, const char *inner_arg, bool tables)
{
    const Function *k = e->k;
    bool first = true;
    const Symbol *order[k->nparams + 1];
    int n = host_public_params(k, order);
    for (int j = 0; j < n; j++) {
        const Symbol *s = order[j];
        int i = s->param_index;
        const char *name = unparse_name(s);
        bool table = tables && type_is_grid(s->type);
        if (u->param[i]) {
            if (args)
                sb_printf(sb, "%s%s%s", first ? "" : ", ", name, table ? "[imcl_b]" : "");
            else if (table)
                sb_printf(sb, "%s%s %s%s", first ? "" : ", ", c_type(s->type->elem->kind),
                          type_grid_dims(s->type) == 3 ? "***" : "**", name);
            else if (host_is_array(s))
                sb_printf(sb, "%s%s%s *%s", first ? "" : ", ", (s->access & ACC_WRITE) ? "" : "const ",
                          c_type(s->type->elem->kind), name);
            else
                sb_printf(sb, "%s%s %s", first ? "" : ", ", c_type(s->type->kind), name);
            first = false;
        }
        if (type_is_grid(s->type))
            for (int d = 0; d < 3; d++)
                if (u->extent[i][d]) {
                    sb_printf(sb, "%s%s%s%s", first ? "" : ", ", args ? "" : "int ", name, unparse_extent_suffix(d));
                    first = false;
                }
    }
    for (int b = 0; b <= BI_D; b++)
        if (u->builtin[b]) {
            sb_printf(sb, "%s%s%s", first ? "" : ", ", args ? "" : "int ", builtin_spelling((Builtin)b));
            first = false;
        }
    if (inner_arg) {
        sb_printf(sb, "%s%s", first ? "" : ", ", args ? inner_arg : "int imcl_interior");
        first = false;
    }
    for (int i = 0; u->rows && !u->walk && i < k->nrows; i++) {
        const RowPtr *r = &k->rows[i];
        sb_puts(sb, first ? "" : ", ");
        if (args)
            row_arg(sb, e, r, tables, u->edge, u->helpers);
        else
            sb_printf(sb, "%s%s *restrict %s", (r->array->access & ACC_WRITE) ? "" : "const ",
                      c_type(r->array->type->elem->kind), unparse_name(r->sym));
        first = false;
    }
    if (u->rows) {
        sb_printf(sb, "%s%s", first ? "" : ", ", args ? u->rows : "int imcl_x0, int imcl_x1");
        first = false;
    }
    if (first && !args)
        sb_puts(sb, "void");
}

/* The bound `coordinate < ...` of dimension d of the interior: the smallest of
 * its bounds, as C text over the wrapper's extents and W, H, D. */
static void interior_hi(StrBuf *sb, const Function *k, int d)
{
    const Interior *in = k->interior;
    static const char *grid[] = {"W", "H", "D"};
    /* imcl_min_int(imcl_min_int(b0, b1), b2) */
    for (int i = 1; i < in->nhi[d]; i++)
        sb_puts(sb, "imcl_min_int(");
    for (int i = 0; i < in->nhi[d]; i++) {
        const InteriorBound *b = &in->hi[d][i];
        sb_puts(sb, i ? ", " : "");
        if (b->array)
            sb_printf(sb, "%s%s", unparse_name(b->array), unparse_extent_suffix(d));
        else
            sb_puts(sb, grid[d]);
        if (b->off)
            sb_printf(sb, " %c %lld", b->off > 0 ? '+' : '-', b->off > 0 ? b->off : -b->off);
        sb_puts(sb, i ? ")" : "");
    }
}

/* Whether the kernel can run on arrays given as row tables (PK_rows): every grid
 * access of the lowered body names its array directly, with storage coordinates
 * (AST_BUF_ACCESS.at), or through a row pointer, and no array is passed on whole. */
static bool table_ready_visit(Node *n, void *p)
{
    bool *ok = p;
    const Symbol *s = n->kind == AST_VAR ? n->u.var.sym : n->kind == AST_BUF_ACCESS ? n->u.access.sym : NULL;
    if (s && s->kind == SYM_PARAM && type_is_grid(s->type) && (n->kind == AST_VAR || !n->u.access.nat))
        *ok = false;
    return *ok;
}

static bool table_ready(const Function *k)
{
    bool ok = false;
    for (int i = 0; i < k->nparams; i++)
        ok |= type_is_grid(k->params[i]->type);
    ast_walk(k->body, table_ready_visit, &ok);
    return ok;
}

/* Whether the function of `uses` takes a whole Image or Block (its type then depends
 * on the layout). */
static bool takes_grid_array(const Function *k, const Uses *uses)
{
    for (int i = 0; i < k->nparams; i++)
        if (uses->param[i] && type_is_grid(k->params[i]->type))
            return true;
    return false;
}

/* x_inner_body: drops the edge handling in x that access.inner proves away (Node
 * call.x_inner): a guard's imcl_in conjunct, a guard of it alone, a clamp around x. */
static Node *x_inner_visit(Node *n, void *ctx)
{
    (void)ctx;
    if (n->kind == AST_CALL && n->u.call.x_inner && strcmp(n->u.call.name, "imcl_in") != 0)
        return n->u.call.args.items[0];
    Node *cond = n->kind == AST_COND ? n->u.cond.cond : n->kind == AST_IF ? n->u.if_.cond : NULL;
    if (cond && cond->kind == AST_CALL && cond->u.call.x_inner)
        return n->kind == AST_COND ? n->u.cond.then : n->u.if_.then;
    if (n->kind == AST_BINARY && n->u.binary.op == OP_AND) {
        const Node *l = n->u.binary.lhs, *r = n->u.binary.rhs;
        if (l->kind == AST_CALL && l->u.call.x_inner)
            return n->u.binary.rhs;
        if (r->kind == AST_CALL && r->u.call.x_inner)
            return n->u.binary.lhs;
    }
    return n;
}

/* The point body `body` for the points whose x lies in the interior's range. */
static Node *x_inner_body(Arena *a, Node *body)
{
    Node *c = ast_mutate(ast_copy(a, body), x_inner_visit, NULL);
    ast_fix_parents(c);
    return c;
}

/* The functions of one grid point and of one row, emitted once per layout that
 * needs them: `sfx` "" for dense arrays, "_tables" for row tables. */
typedef struct Bodies {
    Node *point_body, *row_body;
    Uses point[2], row[2];      /* what each uses, dense and on row tables */
    const char *inner;          /* imcl_interior's argument of the point function */
    const char *point_sfx, *row_sfx;
    /* The interior's x range of the rows near an edge in y or z that edge_rows cannot
     * take (the row function reads an array at offsets of loop variables): the point
     * body without its edge handling in x (x_inner_body), in lanes (K_edge_row), its
     * guards over y and z tested once per row of taps (analysis/lanes.c), instead of
     * point by point (box3d2r double spent 30% of its time in those 3% of the rows at
     * 256^3). */
    Node *walk_body;
    Uses walk[2];
    Lanes lanes;
} Bodies;

static void emit_bodies(StrBuf *code, Unparser *u, const EmitCtx *e, const Bodies *b, bool tables)
{
    const Function *k = e->k;
    u->tables = tables;
    if (b->point_body && (!tables || takes_grid_array(k, &b->point[tables]))) {
        sb_printf(code, "/* One grid point of kernel '%s': the kernel body as written%s%s. */\n", k->name,
                  b->row_body ? ", for the points near an edge" : "", tables ? ", on row tables" : "");
        /* inline: each call of the row loops gets its own copy, imcl_interior folded */
        sb_printf(code, "static inline void %s_point%s(", k->name, tables ? b->point_sfx : "");
        point_params(code, e, &b->point[tables], false, b->inner, tables);
        sb_puts(code, ")\n{\n");
        u->indent = 1;
        unparse_stmts(u, b->point_body);
        sb_puts(code, "}\n\n");
    }
    if (b->walk_body && (!tables || takes_grid_array(k, &b->walk[tables]))) {
        sb_printf(code, "/* The points imcl_x0 <= idx < imcl_x1 of row (idy, idz) of kernel '%s' where it is\n"
                        " * near an edge in y or z, but not in x: the body with guards in y and z only%s. */\n",
                  k->name, tables ? ", on row tables" : "");
        sb_printf(code, "static void %s_edge_row%s(", k->name, tables ? b->point_sfx : "");
        point_params(code, e, &b->walk[tables], false, NULL, tables);
        sb_puts(code, ")\n{\n");
        u->indent = 1;
        lanes_print(u, &b->lanes, b->walk_body);
        sb_puts(code, "}\n\n");
    }
    if (b->row_body && (!tables || takes_grid_array(k, &b->row[tables]))) {
        if (tables)
            sb_printf(code, "/* The row function of kernel '%s', on row tables. */\n", k->name);
        else
            sb_printf(code, "/* The points imcl_x0 <= idx < imcl_x1 of row (idy, idz) of kernel '%s'%s.\n"
                            " * Each row of an array A it reaches at constant offsets comes as a restrict\n"
                            " * pointer to its element 0, imcl_row_A for A's row (idy, idz), imcl_row_A_ym1 for\n"
                            " * (idy - 1, idz) and so on, so that the compiler vectorises the loop over idx\n"
                            " * without checking at run time that the arrays do not overlap (they must not:\n"
                            " * docs/language.md), whatever the layout of the arrays. */\n",
                      k->name, pass_interior_split(k) ? " that need no edge guard" : "");
        sb_printf(code, "static void %s_row%s(", k->name, tables ? b->row_sfx : "");
        point_params(code, e, &b->row[tables], false, NULL, tables);
        sb_puts(code, ")\n{\n");
        Lanes lanes;
        if (lanes_plan(e->a, b->row_body, NULL, &lanes)) {
            u->indent = 1;
            lanes_print(u, &lanes, b->row_body);
        } else {
            /* gcc -O2 vectorises no loop of unknown trip count without it (its cheap cost
             * model); the points of a row are independent (docs/language.md) */
            sb_puts(code, "#ifdef _OPENMP\n#pragma omp simd\n#endif\n"
                          "    for (int idx = imcl_x0; idx < imcl_x1; idx++) {\n");
            u->indent = 2;
            unparse_stmts(u, b->row_body);
            sb_puts(code, "    }\n");
        }
        sb_puts(code, "}\n\n");
    }
    u->tables = false;
}

/* ---- edge rows ------------------------------------------------------------------
 * The rows of the grid near an edge in y or z (outside the interior: its first and
 * last rows and planes) run the row function too, over the interior's x range,
 * where every read lies inside its array's storage in x: each read array's rows
 * outside its storage in y or z are replaced by the rows its boundary reads there,
 * clamped, wrapped or mirrored, or for a constant boundary a row holding the value
 * (imcl_fill_A), so every read is what the point function would read. That needs
 * the row function to reach every array through its rows, and the rows of every
 * array written (or read without a boundary rule) to lie in its storage; a row
 * where they do not runs point by point, as before. One by one, with a guard per
 * read, such rows cost sum7 a fifth of its time at 128^3 (docs/performance.md). */
static bool edge_rows(const Function *k, const Bodies *b)
{
    return k->interior && b->row_body && !takes_grid_array(k, &b->row[0]);
}

/* ` && ...`: the rows of the written arrays, and of those without a boundary rule,
 * inside their storage; every constant boundary's row of its value allocated. */
static void edge_cond(StrBuf *sb, const EmitCtx *e, const Bodies *b)
{
    const Function *k = e->k;
    for (int i = 0; i < k->nrows; i++) {
        const RowPtr *r = &k->rows[i];
        const Symbol *s = r->array;
        if (fill_row(k, i))
            sb_printf(sb, " && imcl_fill_%s != NULL", unparse_name(s));
        if (row_substituted(s))
            continue;
        sb_puts(sb, " && ");
        row_inside(sb, r, b->row[0].helpers);
    }
}

/* The rows of the constant boundaries' values (edge_rows), before the loops, or their
 * release after them (`free`). */
static void edge_fills(HostWriter *w, const EmitCtx *e, const Bodies *b, bool release)
{
    const Function *k = e->k;
    if (!edge_rows(k, b))
        return;
    for (int i = 0; i < k->nrows; i++) {
        if (!fill_row(k, i))
            continue;
        const Symbol *s = k->rows[i].array;
        const char *name = unparse_name(s);
        if (release) {
            hw_line(w, "free(imcl_fill_%s);", name);
            continue;
        }
        const char *t = c_type(s->type->elem->kind);
        const char *n = host_storage_extent(e->a, s, 0, false);
        StrBuf v = {0};
        if (s->bc_value) {
            Unparser u;
            unparse_init(&u, &v, &c_target);
            unparse_expr(&u, s->bc_value);
            *b->row[0].helpers |= u.helpers;
        } else {
            sb_puts(&v, "0");
        }
        hw_line(w, "/* a row of %s's boundary value, read for its rows outside its storage (when it", name);
        hw_line(w, " * cannot be allocated, those rows run point by point) */");
        hw_line(w, "%s *imcl_fill_%s = malloc(sizeof(%s) * (size_t)(%s));", t, name, t, n);
        hw_line(w, "for (int imcl_i = 0; imcl_fill_%s && imcl_i < %s; imcl_i++)", name, n);
        hw_inner(w, "imcl_fill_%s[imcl_i] = (%s)(%s);", name, t, sb_str(&v));
        sb_free(&v);
    }
}

/* The calls of the point and row functions for every point of the grid at depth
 * `depth` (inside PK_rows' loop over the blocks, imcl_b, with `tables`); with `part`,
 * of the planes (2D: rows) imcl_lo to imcl_hi - 1 only (emit_part). */
static void emit_loops(StrBuf *code, const EmitCtx *e, Bodies *b, bool tables, int depth, bool part)
{
    const Function *k = e->k;
    const char *psfx = tables ? b->point_sfx : "", *rsfx = tables ? b->row_sfx : "";
    bool part_z = part && k->grid_dims == 3, part_y = part && !part_z;
    const char *ys = part_y ? "imcl_lo; idy < imcl_hi" : "0; idy < H";
    HostWriter w = host_writer(code, depth);
    hw_line(&w, "for (int idz = %s; idz++)", part_z ? "imcl_lo; idz < imcl_hi" : "0; idz < D");
    w.indent++;
    if (!k->interior && b->row_body) {
        hw_line(&w, "for (int idy = %s; idy++)", ys);
        w.indent++;
        hw_start(&w);
        sb_printf(code, "%s_row%s(", k->name, rsfx);
        b->row[tables].rows = "0, W";
        point_params(code, e, &b->row[tables], true, NULL, tables);
        sb_puts(code, ");\n");
    } else if (!k->interior) {
        hw_line(&w, "for (int idy = %s; idy++)", ys);
        hw_inner(&w, "for (int idx = 0; idx < W; idx++)");
        w.indent += 2;
        hw_start(&w);
        sb_printf(code, "%s_point%s(", k->name, psfx);
        point_params(code, e, &b->point[tables], true, NULL, tables);
        sb_puts(code, ");\n");
    } else {
        /* pass_interior: the points of a row between x0 and x1 (none when the row
         * itself is not inner) run the guard-free copy of the body */
        const Interior *in = k->interior;
        StrBuf inner_row = {0}, hi = {0};
        static const char *coord[] = {"idx", "idy", "idz"};
        for (int d = 1; d < k->grid_dims; d++) {
            sb_printf(&inner_row, "%s%s >= %lld && %s < ", inner_row.len ? " && " : "", coord[d], in->lo[d], coord[d]);
            hi.len = 0;
            interior_hi(&hi, k, d);
            sb_puts(&inner_row, sb_str(&hi));
        }
        hi.len = 0;
        interior_hi(&hi, k, 0);
        bool edge = edge_rows(k, b);
        const char *rowed = b->walk_body ? NULL : edge ? "(imcl_inner || imcl_edge)" : "imcl_inner";
        hw_line(&w, "for (int idy = %s; idy++) {", ys);
        w.indent++;
        hw_line(&w, "const int imcl_inner = %s;", sb_str(&inner_row));
        if (edge) {
            StrBuf cond = {0};
            edge_cond(&cond, e, b);
            hw_line(&w, "/* a row near an edge in y or z: the row function too, on the rows its boundary reads */");
            hw_line(&w, "const int imcl_edge = !imcl_inner%s;", sb_str(&cond));
            sb_free(&cond);
        }
        if (rowed) {
            hw_line(&w, "const int imcl_x0 = %s ? imcl_min_int(%lld, W) : W;", rowed, in->lo[0]);
            hw_line(&w, "const int imcl_x1 = %s ? imcl_max_int(imcl_x0, %s) : W;", rowed, sb_str(&hi));
        } else {
            hw_line(&w, "const int imcl_x0 = imcl_min_int(%lld, W);", in->lo[0]);
            hw_line(&w, "const int imcl_x1 = imcl_max_int(imcl_x0, %s);", sb_str(&hi));
        }
        static const char *ranges[3][3] = {{"0", "imcl_x0", "0"}, {"imcl_x0", "imcl_x1", "1"}, {"imcl_x1", "W", "0"}};
        for (int r = 0; r < 3; r++) {
            if (r == 1 && b->row_body) {
                /* (the pointers of rows outside the storage are not even formed) */
                hw_line(&w, "if (imcl_inner)");
                w.indent++;
                hw_start(&w);
                sb_printf(code, "%s_row%s(", k->name, rsfx);
                b->row[tables].rows = "imcl_x0, imcl_x1";
                point_params(code, e, &b->row[tables], true, NULL, tables);
                sb_puts(code, ");\n");
                w.indent--;
                if (b->walk_body) {
                    hw_line(&w, "else");
                    w.indent++;
                    hw_start(&w);
                    sb_printf(code, "%s_edge_row%s(", k->name, psfx);
                    point_params(code, e, &b->walk[tables], true, NULL, tables);
                    sb_puts(code, ");\n");
                    w.indent--;
                }
                if (edge) {
                    hw_line(&w, "else if (imcl_edge)");
                    w.indent++;
                    hw_start(&w);
                    sb_printf(code, "%s_row%s(", k->name, rsfx);
                    b->row[tables].edge = true;
                    point_params(code, e, &b->row[tables], true, NULL, tables);
                    b->row[tables].edge = false;
                    sb_puts(code, ");\n");
                    w.indent--;
                }
                continue;
            }
            hw_line(&w, "for (int idx = %s; idx < %s; idx++)", ranges[r][0], ranges[r][1]);
            w.indent++;
            hw_start(&w);
            sb_printf(code, "%s_point%s(", k->name, psfx);
            point_params(code, e, &b->point[tables], true, b->inner ? ranges[r][2] : NULL, tables);
            sb_puts(code, ");\n");
            w.indent--;
        }
        w.indent--;
        hw_line(&w, "}");
        sb_free(&inner_row);
        sb_free(&hi);
    }
}

/* A parallel loop over the grid's rows when built with OpenMP, on the thread count that
 * the runtime's imcl_c_threads_pick (runtime/imcl_runtime_c.c) finds fastest, and the time
 * it took; `points` is the number of points the loop computes. */
static void omp_loop_begin(StrBuf *code, const EmitCtx *e, int collapse)
{
    sb_printf(code, "#ifdef _OPENMP\n"
                    "    static _Thread_local imcl_c_threads imcl_thr;\n"
                    "    const int imcl_threads_n = imcl_c_threads_pick(&imcl_thr, omp_get_max_threads());\n"
                    "    const double imcl_t0 = omp_get_wtime();\n"
                    "#pragma omp parallel for collapse(%d) schedule(%s) num_threads(imcl_threads_n)\n"
                    "#endif\n",
              collapse, params_omp_schedule(e->a, e->tp));
}

static void omp_loop_end(StrBuf *code, const char *points)
{
    sb_printf(code, "#ifdef _OPENMP\n    imcl_c_threads_done(&imcl_thr, omp_get_wtime() - imcl_t0, %s);\n"
                    "#endif\n", points);
}

/* PK_rows: the checks of PK, the row tables of every block present, then the points
 * of every block, the blocks in parallel too. */
static void emit_rows_wrapper(StrBuf *code, EmitCtx *e, Bodies *b)
{
    const Function *k = e->k;
    const char *pk = e->host_name;
    sb_printf(code, "int %s_rows(", pk);
    host_param_list_as(code, k, true);
    sb_puts(code, ")\n{\n");
    HostWriter w = host_writer(code, 1);
    StrBuf cond = {0};
    for (int i = 0; i < k->nparams; i++)
        if (host_is_array(k->params[i]))
            sb_printf(&cond, " || !%s", unparse_name(k->params[i]));
    hw_line(&w, "/* imcl_count blocks, each with a row table of every Image and Block */");
    hw_line(&w, "if (imcl_count < 0%s)", sb_str(&cond));
    hw_inner(&w, "return %s_ERR_ARGUMENT;", pk);
    cond.len = 0;
    for (int i = 0; i < k->nparams; i++)
        if (type_is_grid(k->params[i]->type))
            sb_printf(&cond, "%s!%s[imcl_b]", cond.len ? " || " : "", unparse_name(k->params[i]));
    hw_line(&w, "for (int imcl_b = 0; imcl_b < imcl_count; imcl_b++)");
    hw_inner(&w, "if (%s)", sb_str(&cond));
    w.indent++;
    hw_inner(&w, "return %s_ERR_ARGUMENT;", pk);
    w.indent--;
    sb_free(&cond);
    host_check_extents(&w, k, arena_printf(e->a, "%s_ERR_ARGUMENT", pk), false);
    host_grid_extent(&w, k);
    for (int i = 0; i < k->nparams; i++)
        if (!host_is_array(k->params[i]) && !b->point[1].param[k->params[i]->param_index] &&
            !b->row[1].param[k->params[i]->param_index])
            hw_line(&w, "(void)%s; /* not used by the kernel */", unparse_name(k->params[i]));
    edge_fills(&w, e, b, false);
    hw_line(&w, "/* every grid point of every block; with OpenMP in parallel, on the measured count */");
    omp_loop_begin(code, e, 3);
    hw_line(&w, "for (int imcl_b = 0; imcl_b < imcl_count; imcl_b++)");
    emit_loops(code, e, b, true, 2, false);
    omp_loop_end(code, "(double)W * H * D * imcl_count");
    edge_fills(&w, e, b, true);
    hw_line(&w, "return %s_OK;", pk);
    sb_puts(code, "}\n\n");
}

/* PK_part (an iterated kernel whose steps fuse, time_tile not 1): the points of planes (2D: rows)
 * imcl_lo to imcl_hi - 1 of every block as PK_rows computes them (or of one block, as
 * PK, when the kernel takes no row tables), with no checks: a step of the wavefront of
 * PK_plan_iterate (backend_c/plan_c.c), which checked the arrays when it began. */
static void emit_part(StrBuf *code, EmitCtx *e, Bodies *b)
{
    const Function *k = e->k;
    sb_printf(code, "/* Planes imcl_lo to imcl_hi - 1 of a step of %s_plan_iterate's wavefront, computed\n"
                    " * as %s computes them. */\n", e->host_name, e->tables ? "the rows function" : "the kernel");
    sb_printf(code, "static void %s_part(int imcl_lo, int imcl_hi, ", e->host_name);
    host_param_list_as(code, k, e->tables);
    sb_puts(code, ")\n{\n");
    HostWriter w = host_writer(code, 1);
    host_grid_extent(&w, k);
    const Uses *used[2] = {&b->point[e->tables], &b->row[e->tables]};
    for (int i = 0; i < k->nparams; i++)
        if (!host_is_array(k->params[i]) && !used[0]->param[i] && !used[1]->param[i])
            hw_line(&w, "(void)%s; /* not used by the kernel */", unparse_name(k->params[i]));
    edge_fills(&w, e, b, false);
    omp_loop_begin(code, e, e->tables ? 3 : 2);
    if (e->tables)
        hw_line(&w, "for (int imcl_b = 0; imcl_b < imcl_count; imcl_b++)");
    emit_loops(code, e, b, e->tables, e->tables ? 2 : 1, true);
    omp_loop_end(code, arena_printf(e->a, "(double)W%s * (imcl_hi - imcl_lo)%s", k->grid_dims == 3 ? " * H" : "",
                                    e->tables ? " * imcl_count" : ""));
    edge_fills(&w, e, b, true);
    sb_puts(code, "}\n\n");
}

static int emit(EmitCtx *e, Outputs *out)
{
    const Function *k = e->k;
    const char *pk = e->host_name;
    StrBuf code = {0};
    Unparser u;
    unparse_init(&u, &code, &c_target);
    u.a = e->a;

    emit_helpers(&u, e->prog, k);

    /* With row pointers (Function.rows) the row body runs in a function of its own
     * and the point function keeps the guarded side of the split (the whole body
     * when there is no split: then there is no point function). */
    Node *split = pass_interior_split(k);
    Bodies b = {0};
    b.row_body = k->nrows ? (split ? split->u.if_.then : k->body) : NULL;
    b.point_body = k->nrows ? (split ? split->u.if_.els : NULL) : k->body;
    b.inner = k->interior && !k->nrows ? "0" : NULL;
    Uses uses = uses_of(e->a, k, k->body, NULL, false);
    for (int t = 0; t < 2; t++) {
        b.point[t] = b.point_body ? uses_of(e->a, k, b.point_body, NULL, t) : uses;
        b.row[t] = b.row_body ? uses_of(e->a, k, b.row_body, "imcl_x0, imcl_x1", t) : uses;
        b.row[t].helpers = &u.helpers;
    }
    if (k->interior && b.row_body && b.point_body && takes_grid_array(k, &b.row[0])) {
        b.walk_body = x_inner_body(e->a, b.point_body);
        if (!lanes_plan_any(e->a, b.walk_body, NULL, &b.lanes))
            b.walk_body = NULL;
    }
    for (int t = 0; b.walk_body && t < 2; t++) {
        b.walk[t] = uses_of(e->a, k, b.walk_body, "imcl_x0, imcl_x1", t);
        b.walk[t].walk = true;
    }
    e->tables = table_ready(k);
    b.point_sfx = takes_grid_array(k, &b.point[0]) ? "_tables" : "";
    b.row_sfx = takes_grid_array(k, &b.row[0]) ? "_tables" : "";
    emit_bodies(&code, &u, e, &b, false);
    if (e->tables)
        emit_bodies(&code, &u, e, &b, true);
    int errors = unparse_check_depth(&u, e->diag, "C");

    host_wrapper_begin(&code, e);
    for (int i = 0; i < k->nparams; i++)
        if (!host_is_array(k->params[i]) && !uses.param[k->params[i]->param_index])
            sb_printf(&code, "    (void)%s; /* not used by the kernel */\n", unparse_name(k->params[i]));
    HostWriter w = host_writer(&code, 1);
    host_wrapper_grid(&w, e, false);
    edge_fills(&w, e, &b, false);
    sb_puts(&code, "    /* every grid point; with OpenMP in parallel, on the measured thread count */\n");
    omp_loop_begin(&code, e, 2);
    emit_loops(&code, e, &b, false, 1, false);
    omp_loop_end(&code, "(double)W * H * D");
    edge_fills(&w, e, &b, true);
    sb_printf(&code, "    return %s_OK;\n}\n\n", pk);
    if (e->tables)
        emit_rows_wrapper(&code, e, &b);
    if (e->tp->time_tile != 1)
        emit_part(&code, e, &b);
    host_error_functions(&code, e, "imcl_c", "\"\"", NULL,
                         arena_printf(e->a, "    /* the C reference computes on the host: it has no device queue */\n"
                                            "    return context || device || queue ? %s_ERR_DEVICE : %s_OK;\n", pk, pk));
    plan_c_emit(&code, e);

    StrBuf *f = outputs_add(out, arena_printf(e->a, "%s_ref.c", k->name));
    host_banner(f, e, "C reference");
    sb_printf(f, "#include <math.h>\n#include <stddef.h>\n#include <stdlib.h>\n"
                 "#ifdef _OPENMP\n#include <omp.h>\n#endif\n\n"
                 "#include \"imcl_runtime_c.h\"\n#include \"%s.h\"\n\n", k->name);
    unparse_helper_defs(f, u.helpers, "static inline");
    /* the bounds of the rows' inner points and of the wavefront's parts (emit_part) use
     * min and max of int */
    if (k->interior || e->tp->time_tile != 1)
        u.minmax_types |= 1u << (0 * 9 + TY_INT) | 1u << (1 * 9 + TY_INT);
    minmax_defs(f, u.minmax_types);
    sb_puts(f, sb_str(&code));
    sb_free(&code);
    host_runtime_file(out, "imcl_runtime_c.h", "the C reference's host runtime's declarations",
                      runtime_c_imcl_runtime_c_h);
    host_runtime_file(out, "imcl_runtime_rows.h", "helpers of the host runtime", runtime_wrappers_imcl_runtime_rows_h);
    host_runtime_file(out, "imcl_runtime_c.c", "the C reference's host runtime",
                      runtime_c_imcl_runtime_c);
    header_emit(e, out);
    return errors;
}

/* The C reference runs the kernel as written: no tuning passes. Its dump and -t
 * checks use OpenCL's budgets, the least a device may have. */
const Backend backend_c = {
    .name = "c",
    .target = &c_target,
    .emit = emit,
    .gpu = false,
    .row_pointers = true,
    .time_tile = true,
    .shared_limit = 32768,
    .constant_limit = 65536,
    .t1_language = "C", /* not in T1's enum: Kernel Tuner's name of its C backend */
    .t1_kernel_name = "%s",
    .t1_kernel_file = "%s_ref.c",
};
