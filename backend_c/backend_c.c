/* The C reference backend: the kernel body as a function of one grid point,
 * called for every point of the grid (in parallel with OpenMP). It is the
 * correctness oracle of the other backends and a CPU target of its own. */
#include <string.h>

#include "c_host.h"
#include "emit.h"
#include "host.h"
#include "passes.h"
#include "unparse.h"

static const char *c_type(TypeKind k)
{
    return host_c_type(k);
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

static const Target c_target = {"c", c_type, c_builtin, c_math, "static", NULL, NULL, NULL, NULL};

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
} Uses;

static bool collect_uses(Node *n, void *p)
{
    Uses *u = p;
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

static Uses uses_of(Arena *a, const Function *k, Node *body, const char *rows)
{
    Uses u;
    memset(&u, 0, sizeof u);
    u.param = arena_alloc(a, sizeof *u.param * (size_t)(k->nparams + 1));
    u.extent = arena_alloc(a, sizeof *u.extent * (size_t)(k->nparams + 1));
    ast_walk(body, collect_uses, &u);
    u.rows = rows;
    if (rows)
        u.builtin[BI_IDX] = false;  /* the row function's loop variable */
    return u;
}

/* Parameters (or arguments, when `args`) of the point or row function: what u says
 * the body uses; inner_arg, unless NULL, is the argument passed for imcl_interior
 * (pass_interior's split, when the point function takes it). */
static void point_params(StrBuf *sb, const Function *k, const Uses *u, bool args, const char *inner_arg)
{
    bool first = true;
    const Symbol *order[k->nparams + 1];
    int n = host_public_params(k, order);
    for (int j = 0; j < n; j++) {
        const Symbol *s = order[j];
        int i = s->param_index;
        const char *name = unparse_name(s);
        if (u->param[i]) {
            if (args)
                sb_printf(sb, "%s%s", first ? "" : ", ", name);
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
    if (k->rows)
        for (int i = 0; i < k->nparams; i++) {
            const Symbol *s = k->params[i], *r = k->rows[i];
            if (!r || !u->rows)
                continue;
            if (args) {
                /* A + ((idz + h) * (A_height + 2h) + idy + h) * (A_width + 2h) + h */
                const char *name = unparse_name(s);
                int h = s->halo;
                char wd[300], ht[300], y[32], z[32];
                snprintf(wd, sizeof wd, h ? "(%s_width + %d)" : "%s_width", name, 2 * h);
                snprintf(ht, sizeof ht, h ? "(%s_height + %d)" : "%s_height", name, 2 * h);
                snprintf(y, sizeof y, h ? "idy + %d" : "idy", h);
                snprintf(z, sizeof z, h ? "(idz + %d)" : "idz", h);
                sb_printf(sb, "%s%s + ", first ? "" : ", ", name);
                if (type_grid_dims(s->type) == 3)
                    sb_printf(sb, "(%s * %s + %s) * %s", z, ht, y, wd);
                else
                    sb_printf(sb, h ? "(%s) * %s" : "%s * %s", y, wd);
                if (h)
                    sb_printf(sb, " + %d", h);
            } else {
                sb_printf(sb, "%s%s%s *restrict %s", first ? "" : ", ", (s->access & ACC_WRITE) ? "" : "const ",
                          c_type(s->type->elem->kind), unparse_name(r));
            }
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

static int emit(EmitCtx *e, Outputs *out)
{
    const Function *k = e->k;
    const char *pk = e->host_name;
    StrBuf code = {0};
    Unparser u;
    unparse_init(&u, &code, &c_target);

    emit_helpers(&u, e->prog, k);

    /* With row pointers (Function.rows) the row body runs in a function of its own
     * and the point function keeps the guarded side of the split (the whole body
     * when there is no split: then there is no point function). */
    Node *split = pass_interior_split(k);
    Node *row_body = k->rows ? (split ? split->u.if_.then : k->body) : NULL;
    Node *point_body = k->rows ? (split ? split->u.if_.els : NULL) : k->body;
    const char *inner = k->interior && !k->rows ? "0" : NULL;
    Uses uses = uses_of(e->a, k, k->body, NULL);
    Uses point = point_body ? uses_of(e->a, k, point_body, NULL) : uses;
    Uses row = row_body ? uses_of(e->a, k, row_body, "imcl_x0, imcl_x1") : uses;
    if (point_body) {
        sb_printf(&code, "/* One grid point of kernel '%s': the kernel body as written%s. */\n", k->name,
                  row_body ? ", for the points near an edge" : "");
        /* inline: each call of the row loops gets its own copy, imcl_interior folded */
        sb_printf(&code, "static inline void %s_point(", k->name);
        point_params(&code, k, &point, false, inner);
        sb_puts(&code, ")\n{\n");
        u.indent = 1;
        unparse_stmts(&u, point_body);
        sb_puts(&code, "}\n\n");
    }
    if (row_body) {
        sb_printf(&code, "/* The points imcl_x0 <= idx < imcl_x1 of row (idy, idz) of kernel '%s'%s.\n"
                         " * An array A it reaches at constant offsets comes as imcl_row_A, a restrict pointer\n"
                         " * to A's element (0, idy, idz), so that the compiler vectorises the loop over idx\n"
                         " * without checking at run time that the arrays do not overlap (they must not:\n"
                         " * docs/language.md). */\n",
                  k->name, split ? " that need no edge guard" : "");
        sb_printf(&code, "static void %s_row(", k->name);
        point_params(&code, k, &row, false, NULL);
        sb_puts(&code, ")\n{\n    for (int idx = imcl_x0; idx < imcl_x1; idx++) {\n");
        u.indent = 2;
        unparse_stmts(&u, row_body);
        sb_puts(&code, "    }\n}\n\n");
    }
    int errors = unparse_check_depth(&u, e->diag, "C");

    host_wrapper_begin(&code, e);
    for (int i = 0; i < k->nparams; i++)
        if (!host_is_array(k->params[i]) && !uses.param[k->params[i]->param_index])
            sb_printf(&code, "    (void)%s; /* not used by the kernel */\n", unparse_name(k->params[i]));
    HostWriter w = host_writer(&code, 1);
    host_wrapper_grid(&w, e, false);
    sb_puts(&code, "    /* every grid point; in parallel when built with OpenMP */\n");
    sb_puts(&code, "#ifdef _OPENMP\n#pragma omp parallel for collapse(2) schedule(static)\n#endif\n");
    sb_puts(&code, "    for (int idz = 0; idz < D; idz++)\n");
    if (!k->interior && row_body) {
        sb_puts(&code, "        for (int idy = 0; idy < H; idy++)\n");
        sb_printf(&code, "            %s_row(", k->name);
        row.rows = "0, W";
        point_params(&code, k, &row, true, NULL);
        sb_puts(&code, ");\n");
    } else if (!k->interior) {
        sb_puts(&code, "        for (int idy = 0; idy < H; idy++)\n");
        sb_puts(&code, "            for (int idx = 0; idx < W; idx++)\n");
        sb_printf(&code, "                %s_point(", k->name);
        point_params(&code, k, &point, true, NULL);
        sb_puts(&code, ");\n");
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
        sb_puts(&code, "        for (int idy = 0; idy < H; idy++) {\n");
        sb_printf(&code, "            const int imcl_inner = %s;\n", sb_str(&inner_row));
        sb_printf(&code, "            const int imcl_x0 = imcl_inner ? imcl_min_int(%lld, W) : W;\n", in->lo[0]);
        sb_printf(&code, "            const int imcl_x1 = imcl_inner ? imcl_max_int(imcl_x0, %s) : W;\n", sb_str(&hi));
        static const char *ranges[3][3] = {{"0", "imcl_x0", "0"}, {"imcl_x0", "imcl_x1", "1"}, {"imcl_x1", "W", "0"}};
        for (int r = 0; r < 3; r++) {
            if (r == 1 && row_body) {
                sb_printf(&code, "            %s_row(", k->name);
                row.rows = "imcl_x0, imcl_x1";
                point_params(&code, k, &row, true, NULL);
                sb_puts(&code, ");\n");
                continue;
            }
            sb_printf(&code, "            for (int idx = %s; idx < %s; idx++)\n", ranges[r][0], ranges[r][1]);
            sb_printf(&code, "                %s_point(", k->name);
            point_params(&code, k, &point, true, inner ? ranges[r][2] : NULL);
            sb_puts(&code, ");\n");
        }
        sb_puts(&code, "        }\n");
        sb_free(&inner_row);
        sb_free(&hi);
    }
    sb_printf(&code, "    return %s_OK;\n}\n\n", pk);
    host_error_functions(&code, e, "\"\"", NULL);
    plan_c_emit(&code, e);

    StrBuf *f = outputs_add(out, arena_printf(e->a, "%s_ref.c", k->name));
    host_banner(f, e, "C reference");
    /* string.h and time.h: the plan's memcpy and the clock of its kernel time */
    sb_printf(f, "#include <math.h>\n#include <stddef.h>\n#include <stdlib.h>\n#include <string.h>\n"
                 "#include <time.h>\n\n#include \"%s.h\"\n\n", k->name);
    unparse_helper_defs(f, u.helpers, "static inline");
    /* the bounds of the rows' inner points use min and max of int */
    if (k->interior)
        u.minmax_types |= 1u << (0 * 9 + TY_INT) | 1u << (1 * 9 + TY_INT);
    minmax_defs(f, u.minmax_types);
    sb_puts(f, sb_str(&code));
    sb_free(&code);
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
    .shared_limit = 32768,
    .constant_limit = 65536,
    .t1_language = "C", /* not in T1's enum: Kernel Tuner's name of its C backend */
    .t1_kernel_name = "%s",
    .t1_kernel_file = "%s_ref.c",
};
