/* Distributed plans (imcl --mpi, docs/mpi.md): the declarations of PK_dist_* in K.h,
 * and K_dist.c, which defines them over the plan of the kernel's local variant
 * (passes/distribute.c: PK_imcl_local, a box of one rank's part) and the distributed
 * runtime (wrappers/runtime/imcl_runtime_dist.c: the parts, the ghost layers' exchange,
 * the boundary conditions at the grid's edges, scatter and gather). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host.h"
#include "plan.h"
#include "runtime_text/wrappers.h"

static const char *mpi_type(TypeKind k)
{
    switch (k) {
    case TY_CHAR: return "MPI_SIGNED_CHAR";
    case TY_UCHAR: return "MPI_UNSIGNED_CHAR";
    case TY_SHORT: return "MPI_SHORT";
    case TY_USHORT: return "MPI_UNSIGNED_SHORT";
    case TY_INT: return "MPI_INT";
    case TY_UINT: return "MPI_UNSIGNED";
    case TY_FLOAT: return "MPI_FLOAT";
    default: return "MPI_DOUBLE";
    }
}

static const char *dist_bc(Boundary bc)
{
    static const char *names[] = {"IMCL_DIST_CONSTANT", "IMCL_DIST_CLAMPED", "IMCL_DIST_NONE",
                                  "IMCL_DIST_PERIODIC", "IMCL_DIST_MIRROR"};
    return names[bc];
}

static const char *elem_type(const Symbol *s)
{
    return unparse_c_type(s->type->elem->kind);
}

void dist_header_emit(StrBuf *h, const EmitCtx *e)
{
    const Function *k = e->k;
    const DistInfo *di = k->dist;
    if (!di)
        return;
    const char *pk = e->host_name;
    const Symbol *arr[k->nparams + 1];
    int n = plan_arrays(k, arr);
    sb_puts(h, "#if defined(IMCL_MPI) || defined(MPI_VERSION)\n#include <mpi.h>\n\n");
    sb_printf(h, "/* Distributed plan (imcl --mpi, docs/mpi.md): the grid cut into parts over the ranks\n"
                 " * of an MPI communicator, each rank a plan over its part and a ghost layer around it\n"
                 " * (%d", di->ghost[0]);
    for (int d = 1; d < k->grid_dims; d++)
        sb_printf(h, " x %d", di->ghost[d]);
    sb_printf(h, " points wide: what the kernel reads). Every int function is collective over the\n"
                 " * communicator and returns the same code on every rank: %s_OK or a negative code. */\n"
                 "typedef struct %s_dist %s_dist;\n\n", pk, pk, pk);
    sb_printf(h, "/* Creates the plan over comm for arrays of these extents, the whole grid's (as\n"
                 " * %s_plan_create takes them), with comm's process grid when comm is Cartesian of\n"
                 " * the grid's dimensions, else MPI_Dims_create's. %s_ERR_ARGUMENT when a part\n"
                 " * would be thinner than the ghost layer. On failure *dist is NULL. */\n", pk, pk);
    sb_printf(h, "int %s_dist_create(%s_dist **dist, MPI_Comm comm", pk, pk);
    plan_params(h, k, true, true);
    sb_puts(h, ");\n");
    for (int i = 0; i < n; i++) {
        const char *a = unparse_name(arr[i]), *t = elem_type(arr[i]);
        if (di->distributed[arr[i]->param_index])
            sb_printf(h, "/* Array '%s' from / into `global`, the whole array, on rank 0 of comm (ignored on\n"
                         " * the others); this rank's part of it: its first point (offset: the whole grid's\n"
                         " * coordinates of it), its extents and those of its storage (x first: a row is\n"
                         " * storage[0] elements, a plane storage[0] * storage[1]), each NULL or int[3];\n"
                         " * valid until the next swap. Not collective. */\n", a);
        else
            sb_printf(h, "/* Array '%s', whole on every rank: from `global` on rank 0 to every rank, and back\n"
                         " * into `global` on rank 0. */\n", a);
        sb_printf(h, "int %s_dist_scatter_%s(%s_dist *dist, const %s *global);\n", pk, a, pk, t);
        sb_printf(h, "int %s_dist_gather_%s(%s_dist *dist, %s *global);\n", pk, a, pk, t);
        if (di->distributed[arr[i]->param_index])
            sb_printf(h, "%s *%s_dist_local_%s(%s_dist *dist, int *offset, int *extent, int *storage);\n", t, pk, a,
                      pk);
    }
    sb_printf(h, "/* One step over the whole grid: the ghost layers travel while the interior of\n"
                 " * each part computes, then the shell around it. */\n"
                 "int %s_dist_launch(%s_dist *dist", pk, pk);
    plan_params(h, k, false, true);
    sb_printf(h, ");\n/* The ghost layers alone, as a launch fills them, with nothing computed. */\n"
                 "int %s_dist_exchange(%s_dist *dist);\n", pk, pk);
    sb_printf(h, "/* The last launch's times on this rank in milliseconds: ms[0] all of it, ms[1] the\n"
                 " * interior, ms[2] the wait for the ghost layers after it (what the interior did not\n"
                 " * hide of the exchange, and the boundary fill), ms[3] the shell. Not collective. */\n"
                 "void %s_dist_times(const %s_dist *dist, double ms[4]);\n", pk, pk);
    sb_printf(h, "/* Exchanges arrays a and b (%s_plan_array_* ids), as %s_plan_swap. */\n"
                 "int %s_dist_swap(%s_dist *dist, int a, int b);\n", pk, pk, pk, pk);
    if (k->iterate[0]) {
        sb_printf(h, "/* steps steps, as %s_plan_iterate: launches with swaps between them. */\n"
                     "int %s_dist_iterate(%s_dist *dist, int %s", pk, pk, pk, plan_steps(k));
        plan_params(h, k, false, true);
        sb_puts(h, ");\n");
    }
    sb_printf(h, "void %s_dist_destroy(%s_dist *dist);\n#endif\n\n", pk, pk);
}

/* `(T)(v)`: array s's boundary value as a C constant of its element type. */
static const char *boundary_value(Arena *a, const Symbol *s)
{
    const char *t = elem_type(s);
    if (!s->bc_value)
        return arena_printf(a, "(%s)0", t);
    ConstVal v = const_eval(s->bc_value);
    if (!kind_is_integer(v.type)) {
        /* the shortest decimal that reads back as the value, else its exact hex form */
        char text[40];
        for (int digits = 1; digits <= 17; digits++) {
            snprintf(text, sizeof text, "%.*g", digits, v.f);
            if (strtod(text, NULL) == v.f)
                return arena_printf(a, "(%s)%s%s", t, text, strpbrk(text, ".en") ? "" : ".0");
        }
        return arena_printf(a, "(%s)%a", t, v.f);
    }
    return arena_printf(a, "(%s)%lldLL", t, v.i);
}

/* The local plan's copies of each whole array, as the runtime calls them. */
static void emit_copies(HostWriter *w, const EmitCtx *e, const char *local)
{
    const Function *k = e->k;
    const Symbol *arr[k->nparams + 1];
    int n = plan_arrays(k, arr);
    for (int i = 0; i < n; i++)
        for (int up = 1; up >= 0; up--) {
            const char *a = unparse_name(arr[i]), *dir = up ? "upload" : "download";
            sb_printf(w->sb, "static int imcl_%s_%s(void *plan, void *host)\n{\n", dir, a);
            sb_printf(w->sb, "    return %s_plan_%s_%s(plan, host);\n}\n\n", local, dir, a);
        }
}

static void emit_create(HostWriter *w, const EmitCtx *e, const char *local)
{
    const Function *k = e->k;
    const DistInfo *di = k->dist;
    const char *pk = e->host_name;
    const Symbol *arr[k->nparams + 1];
    int n = plan_arrays(k, arr);
    const Symbol *grid = k->grid_arrays[0];
    sb_printf(w->sb, "int %s_dist_create(%s_dist **dist, MPI_Comm comm", pk, pk);
    plan_params(w->sb, k, true, true);
    sb_puts(w->sb, ")\n{\n");
    w->indent = 1;
    hw_line(w, "if (!dist)");
    hw_inner(w, "return %s_ERR_ARGUMENT;", pk);
    hw_line(w, "*dist = NULL;");
    hw_line(w, "/* the extents as %s takes them, every distributed array's the grid's */", pk);
    StrBuf cond = {0};
    for (int i = 0; i < n; i++) {
        if (type_is_grid(arr[i]->type))
            for (int d = 0; d < type_grid_dims(arr[i]->type); d++)
                sb_printf(&cond, "%s%s%s < 1", cond.len ? " || " : "", unparse_name(arr[i]), unparse_extent_suffix(d));
        if (di->distributed[arr[i]->param_index] && arr[i] != grid)
            for (int d = 0; d < k->grid_dims; d++)
                sb_printf(&cond, " || %s%s != %s%s", unparse_name(arr[i]), unparse_extent_suffix(d),
                          unparse_name(grid), unparse_extent_suffix(d));
    }
    hw_line(w, "int code = %s ? %s_ERR_ARGUMENT : %s_OK;", cond.len ? sb_str(&cond) : "0", pk, pk);
    sb_free(&cond);
    hw_line(w, "%s_dist *d = calloc(1, sizeof *d);", pk);
    hw_line(w, "if (!d && code == %s_OK)", pk);
    hw_inner(w, "code = %s_ERR_MEMORY;", pk);
    hw_line(w, "MPI_Allreduce(MPI_IN_PLACE, &code, 1, MPI_INT, MPI_MIN, comm);");
    hw_line(w, "if (code != %s_OK) {", pk);
    hw_inner(w, "free(d);");
    hw_inner(w, "return code;");
    hw_line(w, "}");
    const char *g = unparse_name(grid);
    hw_line(w, "const int global[3] = {%s_width, %s_height, %s};", g, g,
            k->grid_dims == 3 ? arena_printf(e->a, "%s_depth", g) : "1");
    hw_line(w, "const int ghost[3] = {%d, %d, %d};", di->ghost[0], di->ghost[1], di->ghost[2]);
    hw_line(w, "/* the neighbours whose cells the kernel reads (imcl_runtime_dist.h) */");
    hw_line(w, "code = imcl_dist_init(&d->d, comm, %d, global, ghost, 0x%xu, %d);", k->grid_dims, di->dirs, n);
    for (int i = 0; i < n; i++) {
        const Symbol *s = arr[i];
        bool dist = di->distributed[s->param_index];
        const char *t = elem_type(s);
        const char *value = "NULL";
        if (dist && s->bc == BC_CONSTANT) {
            hw_line(w, "const %s imcl_value_%s = %s;", t, unparse_name(s), boundary_value(e->a, s));
            value = arena_printf(e->a, "&imcl_value_%s", unparse_name(s));
        }
        StrBuf count = {0};
        if (dist)
            sb_puts(&count, "0");
        else
            host_elems(&count, s);
        hw_line(w, "if (code == %s_OK)", pk);
        hw_inner(w, "code = imcl_dist_array_init(&d->d, %d, sizeof(%s), %s, %d, %s, %s, %s, %d);", i, t,
                 mpi_type(s->type->elem->kind), dist, sb_str(&count), dist ? dist_bc(s->bc) : "IMCL_DIST_NONE",
                 value, di->exchanged[s->param_index]);
        sb_free(&count);
    }
    hw_line(w, "/* the local variant's plan, over this rank's storage */");
    hw_line(w, "if (code == %s_OK)", pk);
    hw_start(w);
    sb_printf(w->sb, "    code = %s_plan_create(&d->plan", local);
    for (int i = 0; i < n; i++)
        if (type_is_grid(arr[i]->type))
            for (int dim = 0; dim < type_grid_dims(arr[i]->type); dim++) {
                if (di->distributed[arr[i]->param_index])
                    sb_printf(w->sb, ", d->d.storage[%d]", dim);
                else
                    sb_printf(w->sb, ", %s%s", unparse_name(arr[i]), unparse_extent_suffix(dim));
            }
    sb_puts(w->sb, ");\n");
    hw_line(w, "/* the plan computes in this rank's storage where it can (host memory), else in");
    hw_line(w, " * memory of its own, through copies of whole arrays (imcl_dist_stage) */");
    hw_line(w, "d->d.plan = d->plan;");
    for (int i = 0; i < n; i++) {
        hw_line(w, "if (code == %s_OK)", pk);
        hw_inner(w, "code = %s_plan_attach(d->plan, %d, d->d.arrays[%d].host);", local, i, i);
        hw_line(w, "if (code == %s_ERR_DEVICE) {", pk);
        hw_inner(w, "d->d.arrays[%d].upload = imcl_upload_%s;", i, unparse_name(arr[i]));
        hw_inner(w, "d->d.arrays[%d].download = imcl_download_%s;", i, unparse_name(arr[i]));
        hw_inner(w, "code = %s_OK;", pk);
        hw_line(w, "}");
    }
    hw_line(w, "code = imcl_dist_agree(&d->d, code);");
    hw_line(w, "if (code != %s_OK) {", pk);
    hw_inner(w, "%s_dist_destroy(d);", pk);
    hw_inner(w, "return code;");
    hw_line(w, "}");
    if (e->so->backend->mpi_device_memory) {
        hw_line(w, "/* where MPI takes device memory, it sends and receives in the plan's: the exchange,");
        hw_line(w, " * scatter and gather copy nothing through the host */");
        hw_line(w, "if (imcl_dist_device_aware(&d->d))");
        hw_inner(w, "for (int i = 0; i < %d; i++) {", n);
        hw_line(w, "        void *memory = %s_plan_memory(d->plan, i);", local);
        hw_line(w, "        if (memory && d->d.arrays[i].distributed)");
        hw_line(w, "            imcl_dist_use_device(&d->d, i, memory);");
        hw_inner(w, "}");
    }
    hw_line(w, "*dist = d;");
    hw_line(w, "return %s_OK;", pk);
    sb_puts(w->sb, "}\n\n");
}

static void emit_arrays(HostWriter *w, const EmitCtx *e)
{
    const Function *k = e->k;
    const char *pk = e->host_name;
    const Symbol *arr[k->nparams + 1];
    int n = plan_arrays(k, arr);
    for (int i = 0; i < n; i++) {
        const char *a = unparse_name(arr[i]), *t = elem_type(arr[i]);
        sb_printf(w->sb, "int %s_dist_scatter_%s(%s_dist *dist, const %s *global)\n{\n", pk, a, pk, t);
        sb_printf(w->sb, "    return dist ? imcl_dist_scatter(&dist->d, %d, global) : %s_ERR_ARGUMENT;\n}\n\n", i, pk);
        sb_printf(w->sb, "int %s_dist_gather_%s(%s_dist *dist, %s *global)\n{\n", pk, a, pk, t);
        sb_printf(w->sb, "    return dist ? imcl_dist_gather(&dist->d, %d, global) : %s_ERR_ARGUMENT;\n}\n\n", i, pk);
        if (!k->dist->distributed[arr[i]->param_index])
            continue;
        sb_printf(w->sb, "%s *%s_dist_local_%s(%s_dist *dist, int *offset, int *extent, int *storage)\n{\n", t, pk,
                  a, pk);
        w->indent = 1;
        hw_line(w, "/* the values on the host, where the caller may change them */");
        hw_line(w, "if (!dist || imcl_dist_stage(&dist->d, %d, 0) != %s_OK)", i, pk);
        hw_inner(w, "return NULL;");
        hw_line(w, "imcl_dist_written(&dist->d, %d, 0);", i);
        hw_line(w, "const imcl_dist *d = &dist->d;");
        hw_line(w, "for (int k = 0; k < 3; k++) {");
        hw_inner(w, "if (offset)");
        hw_line(w, "        offset[k] = d->lo[k];");
        hw_inner(w, "if (extent)");
        hw_line(w, "        extent[k] = d->n[k];");
        hw_inner(w, "if (storage)");
        hw_line(w, "        storage[k] = d->storage[k];");
        hw_line(w, "}");
        hw_line(w, "/* past the ghost layer: the part's first point */");
        hw_line(w, "return (%s *)d->arrays[%d].host", t, i);
        hw_line(w, "    + ((size_t)d->ghost[2] * d->storage[1] + d->ghost[1]) * d->storage[0] + d->ghost[0];");
        sb_puts(w->sb, "}\n\n");
    }
}

/* The local variant's scalars after the kernel's for box b (imcl_dist_box *) of part d:
 * its extents, its first point and the storage's element 0 in the grid's coordinates,
 * the grid's extents. */
static void box_args(StrBuf *sb, int nd)
{
    for (int d = 0; d < nd; d++)
        sb_printf(sb, ", b->n[%d]", d);
    for (int d = 0; d < nd; d++)
        sb_printf(sb, ", b->first[%d]", d);
    for (int d = 0; d < nd; d++)
        sb_printf(sb, ", d->lo[%d] - d->ghost[%d]", d, d);
    for (int d = 0; d < nd; d++)
        sb_printf(sb, ", d->global[%d]", d);
}

static void emit_launch(HostWriter *w, const EmitCtx *e, const char *local)
{
    const Function *k = e->k;
    const char *pk = e->host_name;
    int nd = k->grid_dims;
    const Symbol *arr[k->nparams + 1];
    int n = plan_arrays(k, arr);
    sb_printf(w->sb, "int %s_dist_launch(%s_dist *dist", pk, pk);
    plan_params(w->sb, k, false, true);
    sb_puts(w->sb, ")\n{\n");
    w->indent = 1;
    hw_line(w, "if (!dist)");
    hw_inner(w, "return %s_ERR_ARGUMENT;", pk);
    hw_line(w, "imcl_dist *d = &dist->d;");
    hw_line(w, "imcl_dist_box box[7];");
    hw_line(w, "const int nbox = imcl_dist_boxes(d, box);");
    hw_line(w, "int status = %s_OK;", pk);
    hw_line(w, "/* box 0, the interior, reads no ghost cell: it computes while the ghost layers");
    hw_line(w, " * travel; the shell's boxes after them */");
    hw_line(w, "double t[4];");
    hw_line(w, "t[0] = MPI_Wtime();");
    hw_line(w, "/* every array in the plan's memory, those exchanged where MPI sends them too; every");
    hw_line(w, " * rank exchanges, whatever its status: its neighbours wait for it */");
    hw_line(w, "status = imcl_dist_stage_all(d, 1, 0);");
    hw_line(w, "const int begun = imcl_dist_exchange_begin(d);");
    hw_line(w, "if (status == %s_OK)", pk);
    hw_inner(w, "status = begun;");
    hw_line(w, "for (int i = 0; i < nbox; i++) {");
    w->indent++;
    hw_line(w, "if (i == 1) {");
    hw_inner(w, "t[1] = MPI_Wtime();");
    hw_inner(w, "imcl_dist_exchange_end(d);");
    hw_inner(w, "t[2] = MPI_Wtime();");
    hw_inner(w, "/* the ghost layers to the plan's memory (after the interior: the plan waits) */");
    hw_inner(w, "if (status == %s_OK)", pk);
    hw_line(w, "        status = imcl_dist_stage_all(d, 1, 1);");
    hw_line(w, "}");
    hw_line(w, "const imcl_dist_box *b = &box[i];");
    hw_line(w, "if (status != %s_OK || b->n[0] == 0 || b->n[1] == 0 || b->n[2] == 0)", pk);
    hw_inner(w, "continue;");
    hw_line(w, "/* the interior runs on while the host exchanges (where the plan is a device's) */");
    hw_start(w);
    sb_printf(w->sb, "status = i == 0 ? %s_plan_launch_batch_async(dist->plan, 1", local);
    plan_params(w->sb, k, false, false);
    box_args(w->sb, nd);
    sb_printf(w->sb, ") : %s_plan_launch(dist->plan", local);
    plan_params(w->sb, k, false, false);
    box_args(w->sb, nd);
    sb_puts(w->sb, ");\n");
    w->indent--;
    hw_line(w, "}");
    hw_line(w, "/* what the kernel wrote is the plan's now */");
    for (int i = 0; i < n; i++)
        if (arr[i]->access & ACC_WRITE)
            hw_line(w, "imcl_dist_written(d, %d, 1);", i);
    hw_line(w, "t[3] = MPI_Wtime();");
    hw_line(w, "dist->ms[0] = 1e3 * (t[3] - t[0]);");
    hw_line(w, "for (int i = 1; i < 4; i++)");
    hw_inner(w, "dist->ms[i] = 1e3 * (t[i] - t[i - 1]);");
    hw_line(w, "return imcl_dist_agree(d, status);");
    sb_puts(w->sb, "}\n\n");
    sb_printf(w->sb, "int %s_dist_exchange(%s_dist *dist)\n{\n", pk, pk);
    hw_line(w, "if (!dist)");
    hw_inner(w, "return %s_ERR_ARGUMENT;", pk);
    hw_line(w, "imcl_dist *d = &dist->d;");
    hw_line(w, "const int status = imcl_dist_exchange_begin(d);");
    hw_line(w, "imcl_dist_exchange_end(d);");
    hw_line(w, "return imcl_dist_agree(d, status);");
    sb_puts(w->sb, "}\n\n");
    sb_printf(w->sb, "void %s_dist_times(const %s_dist *dist, double ms[4])\n{\n", pk, pk);
    hw_line(w, "for (int i = 0; i < 4; i++)");
    hw_inner(w, "ms[i] = dist ? dist->ms[i] : 0.0;");
    sb_puts(w->sb, "}\n\n");
}

static void emit_rest(HostWriter *w, const EmitCtx *e, const char *local)
{
    const Function *k = e->k;
    const char *pk = e->host_name;
    sb_printf(w->sb, "int %s_dist_swap(%s_dist *dist, int a, int b)\n{\n", pk, pk);
    w->indent = 1;
    hw_line(w, "if (!dist || a < 0 || a >= dist->d.narrays || b < 0 || b >= dist->d.narrays");
    hw_line(w, "        || dist->d.arrays[a].distributed != dist->d.arrays[b].distributed)");
    hw_inner(w, "return %s_ERR_ARGUMENT;", pk);
    hw_line(w, "const int status = %s_plan_swap(dist->plan, a, b);", local);
    hw_line(w, "if (status == %s_OK)", pk);
    hw_inner(w, "imcl_dist_swap(&dist->d, a, b);");
    hw_line(w, "return status;");
    sb_puts(w->sb, "}\n\n");
    if (k->iterate[0]) {
        const char *steps = plan_steps(k);
        sb_printf(w->sb, "int %s_dist_iterate(%s_dist *dist, int %s", pk, pk, steps);
        plan_params(w->sb, k, false, true);
        sb_puts(w->sb, ")\n{\n");
        hw_line(w, "if (!dist || %s < 0)", steps);
        hw_inner(w, "return %s_ERR_ARGUMENT;", pk);
        hw_line(w, "int status = %s_OK;", pk);
        hw_line(w, "for (int s = 0; s < %s && status == %s_OK; s++) {", steps, pk);
        hw_inner(w, "if (s > 0)");
        hw_line(w, "        status = %s_dist_swap(dist, %s_plan_array_%s, %s_plan_array_%s);", pk, pk,
                unparse_name(k->iterate[0]), pk, unparse_name(k->iterate[1]));
        hw_inner(w, "if (status == %s_OK)", pk);
        hw_start(w);
        sb_printf(w->sb, "        status = %s_dist_launch(dist", pk);
        plan_params(w->sb, k, false, false);
        sb_puts(w->sb, ");\n");
        hw_line(w, "}");
        hw_line(w, "return status;");
        sb_puts(w->sb, "}\n\n");
    }
    sb_printf(w->sb, "void %s_dist_destroy(%s_dist *dist)\n{\n", pk, pk);
    hw_line(w, "if (!dist)");
    hw_inner(w, "return;");
    hw_line(w, "%s_plan_destroy(dist->plan);", local);
    hw_line(w, "imcl_dist_destroy(&dist->d);");
    hw_line(w, "free(dist);");
    sb_puts(w->sb, "}\n");
}

void dist_emit(const EmitCtx *e, Outputs *out)
{
    const Function *k = e->k;
    if (!k->dist)
        return;
    const char *pk = e->host_name;
    const char *local = arena_printf(e->a, "%s%s", e->prefix, k->dist->local->name);
    StrBuf *sb = outputs_add(out, arena_printf(e->a, "%s_dist.c", k->name));
    host_banner_untuned(sb, e, "distributed plan over MPI (every backend)");
    sb_puts(sb, "#include <stdlib.h>\n\n#include <mpi.h>\n\n#include \"imcl_runtime_dist.h\"\n");
    sb_printf(sb, "#include \"%s.h\"\n#include \"%s.h\"\n\n", k->name, k->dist->local->name);
    sb_printf(sb, "struct %s_dist {\n    imcl_dist d;   /* the parts, ghost layers and arrays */\n"
                  "    %s_plan *plan;   /* the local variant's, over this rank's storage */\n"
                  "    double ms[4];   /* the last launch's times (%s_dist_times) */\n};\n\n", pk, local, pk);
    HostWriter w = host_writer(sb, 0);
    emit_copies(&w, e, local);
    emit_create(&w, e, local);
    emit_arrays(&w, e);
    emit_launch(&w, e, local);
    emit_rest(&w, e, local);
    host_runtime_file(out, "imcl_runtime_dist.h", "the distributed plans' runtime's declarations",
                      runtime_wrappers_imcl_runtime_dist_h);
    host_runtime_file(out, "imcl_runtime_dist.c", "the distributed plans' runtime",
                      runtime_wrappers_imcl_runtime_dist);
}
