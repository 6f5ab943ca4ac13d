/* The persistent plan of the OpenCL backend, appended to K_host.c: the table of the
 * kernel's arrays (imcl_layout) and each plan function as a call of the host runtime
 * (runtime/imcl_runtime_opencl.c), which holds the context, queue, program and device
 * memory of every plan; what is the kernel's own stays here: the checks of the extents
 * and placements, and the launch (imcl_launch, which the one-shot wrapper calls too). */
#include "host.h"
#include "opencl_host.h"
#include "plan.h"

/* imcl_layout: where each array lives, what PK does with it, its swap class, dimensions,
 * halo, element size, and an image's format and texel. */
void opencl_layout_table(StrBuf *sb, const EmitCtx *e)
{
    const Symbol *arr[e->k->nparams + 1];
    int n = plan_arrays(e->k, arr);
    if (!n)
        return;
    int cls[n + 1];
    plan_swap_classes(e, cls);
    sb_puts(sb, "/* The kernel's arrays, by plan_array id, as the runtime's plan keeps them. */\n");
    sb_printf(sb, "static const imcl_cl_layout imcl_layout[%d] = {\n", n);
    for (int i = 0; i < n; i++) {
        const Symbol *s = arr[i];
        const char *t = unparse_c_type(s->type->elem->kind);
        int dims = type_is_grid(s->type) ? type_grid_dims(s->type) : 0;
        const char *use = plan_use(e, s, "IMCL_CL");
        if (s->access & ACC_WRITE)
            use = arena_printf(e->a, "%s | IMCL_CL_WRITTEN", use);
        sb_printf(sb, "    {.where = %s, .use = %s, .swap_class = %d, .dims = %d, .halo = %d, .elem = sizeof(%s)",
                  host_on_texture(s) ? "IMCL_CL_IMAGE" : host_on_constant(s) ? "IMCL_CL_CONSTANT" : "IMCL_CL_BUFFER",
                  use, cls[i], dims, dims ? s->halo : 0, t);
        if (!dims) {
            sb_puts(sb, ", .count = ");
            host_elems(sb, s);
        }
        if (host_on_texture(s))
            sb_printf(sb, ", .format = %s, .texel = %s", opencl_image_format(s->type->elem->kind),
                      opencl_image_texel(e, s->type->elem->kind));
        sb_printf(sb, "}, /* '%s' */\n", s->name);
    }
    sb_puts(sb, "};\n\n");
}

/* PK_plan_create_batch: the checks of the extents and of the placements on the device,
 * then the runtime's plan over imcl_layout. */
static void create(StrBuf *sb, const EmitCtx *e, int n)
{
    const char *pk = e->host_name;
    plan_create_begin(sb, e);
    HostWriter w = host_writer(sb, 1);
    opencl_device_and_checks(&w, e);
    plan_extent_table(&w, e);
    hw_line(&w, "imcl_cl_plan *imcl_p = NULL;");
    hw_line(&w, "const int imcl_status = imcl_cl_plan_create(&imcl_p, &imcl_kept, &imcl_program, imcl_dev,");
    hw_line(&w, "        capacity, %d, %s, imcl_extent);", n, n ? "imcl_layout" : "NULL");
    hw_line(&w, "*plan = (%s_plan *)imcl_p;", pk);
    hw_line(&w, "return imcl_status;");
    sb_puts(sb, "}\n\n");
}

/* PK_plan_launch_batch_async: the runtime's checks, the kernel's grid, attached arrays
 * the device's for the launch (imcl_launch, as in the one-shot wrapper; the arguments are
 * set at every launch, since a swap may have exchanged the arrays' memory), its event
 * kept as the plan's pending launch; PK_plan_wait ends it. */
static void launch(StrBuf *sb, const EmitCtx *e)
{
    const char *pk = e->host_name;
    const char *h = plan_handle(e->k);
    plan_signature(sb, e, PLAN_LAUNCH_ASYNC, NULL);
    sb_puts(sb, "\n{\n");
    HostWriter w = host_writer(sb, 1);
    hw_line(&w, "imcl_cl_plan *imcl_p = (imcl_cl_plan *)%s;", h);
    hw_line(&w, "const int imcl_status = imcl_cl_plan_ready(imcl_p, " PLAN_COUNT ");");
    hw_line(&w, "if (imcl_status != %s_OK)", pk);
    hw_inner(&w, "return imcl_status;");
    plan_extent_locals(&w, e, "imcl_p", "array[%d].extent[%d]");
    plan_launch_grid(&w, e);
    if (host_any(e->k, host_is_array))
        hw_line(&w, "imcl_cl_array *const imcl_a = imcl_p->array; /* named as PK names its memory */");
    hw_line(&w, "cl_int imcl_err = imcl_cl_plan_turn(imcl_p, 1); /* attached arrays: the device's */");
    hw_line(&w, "if (imcl_err == CL_SUCCESS)");
    sb_puts(sb, "        imcl_err = ");
    opencl_launch_call(sb, e, "imcl_p->queue", "imcl_p->kernel", "imcl_p->cpu", NULL, opencl_array_handle, PLAN_COUNT,
                       "imcl_p->list", "&imcl_p->pending");
    sb_puts(sb, ";\n");
    hw_line(&w, "return imcl_cl_plan_launched(imcl_p, imcl_err);");
    sb_puts(sb, "}\n\n");
    plan_forward(sb, e, PLAN_WAIT, NULL, "imcl_cl_plan_wait((imcl_cl_plan *)plan)");
    plan_launch_and_wait(sb, e);
}

/* In the wavefront's launches: the iterate pragma's arrays as the step computes them
 * (imcl_pair, below), every other array as a launch has it. */
static const char *step_handle(const EmitCtx *e, const Symbol *s, int id)
{
    if (s == e->k->iterate[0])
        return "imcl_pair[imcl_s % 2]";
    if (s == e->k->iterate[1])
        return "imcl_pair[1 - imcl_s % 2]";
    return opencl_array_handle(e, s, id);
}

/* The points of a part of the wavefront (of every block), a launch of the CPU variant.
 * Measured on PoCL, 2 cores, 8 steps fused (docs/iterate.md): heat3d at 256^3 ran at 1.47,
 * 2.1-2.2, 2.0-2.3 and 1.7 GStencil/s with parts of 64K, 256K-512K, 1M and 2M points,
 * j2d5pt (float) at 8192^2 at 3.2, 4.9, 5.1-5.7 and 3.7 (4M) with parts of 256K, 512K, 1M
 * and 2M-4M: a part must give each core several work-groups of 32 rows, and a launch
 * costs some microseconds. */
#define OPENCL_PART_POINTS (1 << 20)

/* imcl_iterate_fused, where the CPU variant computes parts (params_cpu_parts): the steps
 * of PK_plan_iterate as the C reference's wavefront (backend_c/plan_c.c, docs/iterate.md),
 * imcl_tile steps a pass over memory, each part of a step a launch of the CPU variant over
 * its planes (2D: rows), the launches queued one after the other without a wait. */
static void iterate_fused(StrBuf *sb, const EmitCtx *e)
{
    const Function *k = e->k;
    const char *pk = e->host_name, *h = plan_handle(k), *n = plan_steps(k);
    const int ia = host_array_id(k, k->iterate[0]), ib = host_array_id(k, k->iterate[1]);
    sb_printf(sb, "/* %s_plan_iterate on a CPU device: imcl_tile steps a pass over memory. */\n", pk);
    sb_printf(sb, "static int imcl_iterate_fused(%s_plan *%s, int %s, int imcl_tile", pk, h, n);
    plan_params(sb, k, false, true);
    sb_puts(sb, ")\n{\n");
    HostWriter w = host_writer(sb, 1);
    hw_line(&w, "imcl_cl_plan *imcl_p = (imcl_cl_plan *)%s;", h);
    hw_line(&w, "int imcl_status = imcl_cl_plan_ready(imcl_p, imcl_p->count);");
    hw_line(&w, "if (imcl_status != %s_OK)", pk);
    hw_inner(&w, "return imcl_status;");
    plan_extent_locals(&w, e, "imcl_p", "array[%d].extent[%d]");
    host_grid_extent(&w, k);
    hw_line(&w, "if (W < 1 || H < 1 || D < 1 || imcl_p->count == 0)");
    hw_inner(&w, "return %s_OK; /* an empty grid, or no block: nothing to do */", pk);
    hw_line(&w, "imcl_cl_array *const imcl_a = imcl_p->array; /* named as PK names its memory */");
    plan_wavefront_parts(&w, k, OPENCL_PART_POINTS);
    hw_line(&w, "cl_event imcl_first = NULL; /* the first launch's, for the plan's kernel time */");
    hw_line(&w, "cl_int imcl_err = imcl_cl_plan_turn(imcl_p, 1); /* attached arrays: the device's */");
    hw_line(&w, "for (int imcl_done = 0; imcl_done < %s && imcl_err == CL_SUCCESS;) {", n);
    w.indent++;
    hw_line(&w, "const int imcl_t = imcl_tile < %s - imcl_done ? imcl_tile : %s - imcl_done;", n, n);
    hw_line(&w, "/* as before every launch but the first (the memory changes hands, nothing waits) */");
    hw_line(&w, "if (imcl_done > 0)");
    hw_inner(&w, "imcl_cl_plan_exchange(imcl_p, %d, %d);", ia, ib);
    hw_line(&w, "/* step s computes '%s' from '%s' in its even steps, the other way round in its odd */",
            k->iterate[1]->name, k->iterate[0]->name);
    hw_line(&w, "const cl_mem imcl_pair[2] = {imcl_a[%d].buf, imcl_a[%d].buf};", ia, ib);
    plan_wavefront_loops(&w, "imcl_err == CL_SUCCESS");
    hw_line(&w, "if (imcl_lo < imcl_hi)");
    hw_start(&w);
    sb_puts(sb, "    imcl_err = ");
    opencl_launch_call(sb, e, "imcl_p->queue", "imcl_p->kernel", "1", "imcl_lo, imcl_hi", step_handle, "imcl_p->count",
                       "imcl_p->list", "imcl_first ? NULL : &imcl_first");
    sb_puts(sb, ";\n");
    plan_wavefront_end(&w);
    hw_line(&w, "/* after an even number of steps the last one's result is in the first array's memory */");
    hw_line(&w, "if (imcl_t %% 2 == 0)");
    hw_inner(&w, "imcl_cl_plan_exchange(imcl_p, %d, %d);", ia, ib);
    hw_line(&w, "imcl_done += imcl_t;");
    w.indent--;
    hw_line(&w, "}");
    hw_line(&w, "return imcl_cl_plan_steps_done(imcl_p, imcl_err, imcl_first);");
    sb_puts(sb, "}\n\n");
}

/* What PK_plan_iterate does first where the CPU variant computes parts: on a CPU device
 * the wavefront of imcl_iterate_fused, else the launches per step that follow. */
static const char *iterate_choice(const EmitCtx *e)
{
    const Function *k = e->k;
    const int tile = e->tp_cpu->time_tile;
    StrBuf sb = {0};
    HostWriter w = host_writer(&sb, 1);
    if (tile) {
        hw_line(&w, "/* on a CPU device (the CPU variant) %d steps a pass over memory (time_tile) */", tile);
    } else {
        /* measured on PoCL (docs/iterate.md): from 64^3 up to 256^3 (heat3d) and from 1024^2
         * up to 8192^2 (j2d5pt) 8 steps a pass ran faster than a launch per step in 16 of 17
         * runs, 1.04-1.75x */
        hw_line(&w, "/* on a CPU device (the CPU variant) %d steps a pass over memory: on a grid of one",
                PARAMS_AUTO_TIME_TILE);
        hw_line(&w, " * part the launches of the steps queued without a wait, on a larger one the");
        hw_line(&w, " * wavefront, which saves memory traffic (docs/iterate.md) */");
    }
    hw_line(&w, "if (((const imcl_cl_plan *)%s)->cpu)", plan_handle(k));
    hw_start(&w);
    sb_printf(&sb, "    return imcl_iterate_fused(%s, %s, %d", plan_handle(k), plan_steps(k),
              tile ? tile : PARAMS_AUTO_TIME_TILE);
    plan_params(&sb, k, false, false);
    sb_puts(&sb, ");\n");
    const char *text = arena_printf(e->a, "%s", sb_str(&sb));
    sb_free(&sb);
    return text;
}

void plan_opencl_emit(StrBuf *sb, const EmitCtx *e)
{
    const Symbol *arr[e->k->nparams + 1];
    int n = plan_arrays(e->k, arr);
    sb_puts(sb, "\n/* ---- persistent plan: create once, launch many times (docs/wrappers.md) ---- */\n\n");
    create(sb, e, n);
    plan_forward_transfers(sb, e, "imcl_cl");
    launch(sb, e);
    plan_create_and_launch(sb, e, "imcl_cl_plan");
    const bool parts = e->k->iterate[0] && e->tp_cpu && params_cpu_parts(e->tp_cpu);
    if (parts)
        iterate_fused(sb, e);
    plan_iterate(sb, e, parts ? iterate_choice(e) : NULL);
    plan_forward_rest(sb, e, "imcl_cl");
}
