/* Distribution (imcl --mpi, docs/mpi.md): checks that a kernel can run on the parts of
 * its grid that MPI ranks hold, and builds its local variant, which computes a box of
 * one rank's part.
 *
 * A rank holds, of every Image or Block of the grid's dimensions (a distributed
 * array), its part of the grid and a ghost layer around it as wide as the kernel reads
 * (DistInfo.ghost); the distributed plans (wrappers/dist.c) fill the ghost layer from
 * the neighbours' parts, or at the edges of the whole grid by the array's boundary
 * condition, before each launch. So the local variant needs no boundary check: it
 * reads and writes its arrays at their storage coordinates, and sees everything else
 * as the whole grid: its point (idx, idy, idz) is the whole grid's (idx + imcl_gx, ...),
 * W, H, D and the distributed arrays' extents are the whole grid's. What it needs to
 * say so comes as scalars after the kernel's own, in the order of `hidden` below.
 *
 * Kernels it refuses, each with a diagnostic at the construct: a grid given by
 * grid_size (the parts must be parts of an array), a distributed array with a halo or
 * an offset alias, a read of one at an offset not known at compile time or more than
 * DIST_MAX_GHOST points away, a write of one away from the grid point, a read at an
 * offset of an array the kernel writes (the result would depend on the order of the
 * points), and a write of any other array. */
#include "passes.h"

#include "analysis.h"
#include "build.h"

/* The scalars the local variant takes after the kernel's own, per dimension. */
static const char *const hidden[4][3] = {
    {"imcl_nx", "imcl_ny", "imcl_nz"}, /* the box's extents */
    {"imcl_gx", "imcl_gy", "imcl_gz"}, /* the whole grid's coordinates of its first point */
    {"imcl_bx", "imcl_by", "imcl_bz"}, /* ... of element 0 of the storage */
    {"imcl_gw", "imcl_gh", "imcl_gd"}, /* the whole grid's extents */
};
enum { HID_N, HID_G, HID_B, HID_EXTENT };

static const char *const dim_name[3] = {"x", "y", "z"};

static bool is_distributed(const Function *k, const Symbol *s)
{
    return type_is_grid(s->type) && type_grid_dims(s->type) == k->grid_dims;
}

/* ---- the checks --------------------------------------------------------------- */

typedef struct Check {
    Arena *a;
    Diag *diag;
    const Function *k;
    int errors;
} Check;

/* Every access of distributed array s at offsets known and within DIST_MAX_GHOST, its
 * writes at the point itself; its reads widen ghost[] and dirs. */
static void check_accesses(Check *c, const Footprint *fp, Symbol *s, DistInfo *di)
{
    const Function *k = c->k;
    NodeList acc = ast_query_accesses(c->a, ast_point_body(k), s);
    bool written = s->access & ACC_WRITE;
    for (int i = 0; i < acc.len; i++) {
        Node *n = acc.items[i];
        if (n->u.access.sym != s) {
            diag_error(c->diag, n->loc, "--mpi: '%s' is an offset alias of distributed array '%s'",
                       n->u.access.sym->name, s->name);
            c->errors++;
            continue;
        }
        bool write = ast_is_lvalue_use(n);
        long long lo[3] = {0}, hi[3] = {0};
        bool ok = true;
        for (int d = 0; d < k->grid_dims && ok; d++) {
            if (!analyze_access_known(fp, n, d, &lo[d], &hi[d])) {
                diag_error(c->diag, n->loc, "--mpi: %s of '%s' is not at a constant offset from the grid point in %s",
                           write ? "a write" : "a read", s->name, dim_name[d]);
                ok = false;
            } else if (write && (lo[d] != 0 || hi[d] != 0)) {
                diag_error(c->diag, n->loc, "--mpi: a write of '%s' is not at the grid point itself", s->name);
                ok = false;
            } else if (written && (lo[d] != 0 || hi[d] != 0)) {
                diag_error(c->diag, n->loc,
                           "--mpi: '%s' is written, and read at an offset in %s (the result would depend on "
                           "the order of the points)", s->name, dim_name[d]);
                ok = false;
            } else if (lo[d] < -DIST_MAX_GHOST || hi[d] > DIST_MAX_GHOST) {
                diag_error(c->diag, n->loc, "--mpi: a read of '%s' is more than %d points away in %s", s->name,
                           DIST_MAX_GHOST, dim_name[d]);
                ok = false;
            }
        }
        if (!ok) {
            c->errors++;
            continue;
        }
        /* The neighbours this read reaches: each combination of the sides of its
         * offsets' range in every dimension. */
        unsigned sides[3] = {2, 2, 2};  /* bit 0: below, 1: the same, 2: above */
        for (int d = 0; d < k->grid_dims; d++) {
            sides[d] = (lo[d] < 0 ? 1u : 0u) | (lo[d] <= 0 && hi[d] >= 0 ? 2u : 0u) | (hi[d] > 0 ? 4u : 0u);
            long long g = -lo[d] > hi[d] ? -lo[d] : hi[d];
            if (g > di->ghost[d])
                di->ghost[d] = (int)g;
        }
        for (int dz = 0; dz < 3; dz++)
            for (int dy = 0; dy < 3; dy++)
                for (int dx = 0; dx < 3; dx++)
                    if ((sides[0] >> dx & 1) && (sides[1] >> dy & 1) && (sides[2] >> dz & 1) &&
                        (dx != 1 || dy != 1 || dz != 1)) {
                        di->dirs |= 1u << (dx + 3 * dy + 9 * dz);
                        di->exchanged[s->param_index] = true;
                    }
    }
}

static int check_kernel(Check *c, DistInfo *di)
{
    const Function *k = c->k;
    if (k->grid_kind != GRID_ARRAYS) {
        diag_error(c->diag, k->grid_loc,
                   "--mpi: the grid of kernel '%s' is not an array's (#pragma imcl grid), so its parts are not "
                   "parts of arrays", k->name);
        return 1;
    }
    Footprint *fp = analyze_footprint(c->a, (Function *)k);
    for (int i = 0; i < k->nparams; i++) {
        Symbol *s = k->params[i];
        if (!is_distributed(k, s)) {
            if ((type_is_grid(s->type) || s->type->kind == TY_ARRAY) && (s->access & ACC_WRITE)) {
                diag_error(c->diag, s->loc,
                           "--mpi: kernel '%s' writes '%s', which every rank holds whole (only Images or Blocks "
                           "of the grid's dimensions are distributed)", k->name, s->name);
                c->errors++;
            }
            continue;
        }
        di->distributed[i] = true;
        if (s->halo) {
            diag_error(c->diag, s->loc, "--mpi: distributed array '%s' has a halo (the ranks' ghost layers are "
                       "imcl's own)", s->name);
            c->errors++;
            continue;
        }
        if (s->bc == BC_CONSTANT && s->bc_value && const_eval(s->bc_value).status != CONST_OK) {
            diag_error(c->diag, s->bc_value->loc, "--mpi: the boundary value of '%s' is not a constant", s->name);
            c->errors++;
        }
        check_accesses(c, fp, s, di);
    }
    return c->errors;
}

/* ---- the local variant ---------------------------------------------------------- */

typedef struct Local {
    Arena *a;
    const Function *k;
    Function *l;
    Symbol **from, **to;    /* the kernel's symbols and the local variant's */
    int n;
    Symbol *hid[4][3];
} Local;

static Symbol *map_symbol(const Local *L, Symbol *s)
{
    for (int i = 0; i < L->n; i++)
        if (L->from[i] == s)
            return L->to[i];
    return s;  /* helpers */
}

static Node *local_mutate(Node *n, void *p)
{
    Local *L = p;
    Build b = build_at(L->a, n->loc);
    switch (n->kind) {
    case AST_VAR:
        n->u.var.sym = map_symbol(L, n->u.var.sym);
        return n;
    case AST_DECL:
        n->u.decl.sym = map_symbol(L, n->u.decl.sym);
        return n;
    case AST_EXTENT: {
        Symbol *s = map_symbol(L, n->u.extent.sym);
        n->u.extent.sym = s;
        return is_distributed(L->k, s) ? b_var(&b, L->hid[HID_EXTENT][n->u.extent.dim]) : n;
    }
    case AST_BUILTIN: {
        Builtin w = n->u.builtin.which;
        if (w >= BI_IDX && w <= BI_IDZ)
            return b_ibin(&b, '+', n, b_var(&b, L->hid[HID_G][w - BI_IDX]));
        if (w >= BI_W && w <= BI_D)
            return b_var(&b, L->hid[HID_EXTENT][w - BI_W]);
        return n;
    }
    case AST_GRID_ACCESS: {
        Symbol *s = map_symbol(L, n->u.access.sym);
        n->u.access.sym = s;
        if (is_distributed(L->k, s))
            for (int d = 0; d < n->u.access.n; d++) {
                n->u.access.ix[d] = b_ibin(&b, '-', n->u.access.ix[d], b_var(&b, L->hid[HID_B][d]));
                n->u.access.ix[d]->parent = n;
            }
        return n;
    }
    default:
        return n;
    }
}

/* Kernel k's local variant: its own symbols, so that its distributed arrays have no
 * boundary check, and the body rewritten by local_mutate. */
static Function *local_variant(Arena *a, const Function *k)
{
    int dims = k->grid_dims;
    Local L = {a, k, ARENA_NEW(a, Function), NULL, NULL, 0, {{0}}};
    Function *l = L.l;
    *l = *k;
    l->name = arena_printf(a, "%s_imcl_local", k->name);
    L.from = arena_alloc(a, sizeof *L.from * (size_t)(k->nparams + k->nlocals + 1));
    L.to = arena_alloc(a, sizeof *L.to * (size_t)(k->nparams + k->nlocals + 1));
    l->params = arena_alloc(a, sizeof *l->params * (size_t)(k->nparams + 4 * dims));
    l->locals = arena_alloc(a, sizeof *l->locals * (size_t)(k->nlocals + 1));
    for (int i = 0; i < k->nparams + k->nlocals; i++) {
        Symbol *s = i < k->nparams ? k->params[i] : k->locals[i - k->nparams];
        Symbol *c = ARENA_NEW(a, Symbol);
        *c = *s;
        if (i < k->nparams && is_distributed(k, s)) {
            c->bc = BC_NONE;
            c->bc_value = NULL;
            c->bc_given = true;
        }
        L.from[L.n] = s;
        L.to[L.n++] = c;
        if (i < k->nparams)
            l->params[i] = c;
        else
            l->locals[i - k->nparams] = c;
    }
    for (int i = 0; i < L.n; i++)
        if (L.to[i]->alias_base)
            L.to[i]->alias_base = map_symbol(&L, L.to[i]->alias_base);
    Build b = build_at(a, k->loc);
    l->nparams = k->nparams;
    for (int h = 0; h < 4; h++)
        for (int d = 0; d < dims; d++) {
            Symbol *s = b_symbol(&b, hidden[h][d], SYM_PARAM, type_scalar(TY_INT));
            s->param_index = l->nparams;
            l->params[l->nparams++] = s;
            L.hid[h][d] = s;
        }
    /* an alias's offset is an expression of its own, outside the body */
    for (int i = 0; i < L.n; i++)
        if (L.to[i]->alias_offset)
            L.to[i]->alias_offset = ast_mutate(ast_copy(a, L.to[i]->alias_offset), local_mutate, &L);
    l->body = ast_mutate(ast_copy(a, k->body), local_mutate, &L);
    ast_fix_parents(l->body);
    l->grid_kind = GRID_SIZE;
    l->ngrid_arrays = 0;
    for (int d = 0; d < 3; d++)
        l->grid_size[d] = d < dims ? b_var(&b, L.hid[HID_N][d]) : b_int(&b, 1);
    l->iterate[0] = l->iterate[1] = NULL;
    l->iterate_radius = -1;
    l->interior = NULL;
    l->rows = NULL;
    l->nrows = 0;
    l->reg_terms = NULL;
    l->pragmas = NULL;
    l->dist = NULL;
    return l;
}

int distribute_kernel(Arena *a, Diag *diag, Function *k)
{
    DistInfo *di = ARENA_NEW(a, DistInfo);
    /* (zeroed: no array is distributed or exchanged until check_kernel says so) */
    di->distributed = arena_alloc(a, sizeof *di->distributed * (size_t)(k->nparams + 1));
    di->exchanged = arena_alloc(a, sizeof *di->exchanged * (size_t)(k->nparams + 1));
    Check c = {a, diag, k, 0};
    int errors = check_kernel(&c, di);
    if (errors)
        return errors;
    di->local = local_variant(a, k);
    k->dist = di;
    return 0;
}
