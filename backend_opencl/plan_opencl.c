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
    opencl_launch_call(sb, e, "imcl_p->queue", "imcl_p->kernel", "imcl_p->cpu", opencl_array_handle, PLAN_COUNT,
                       "imcl_p->list", "&imcl_p->pending");
    sb_puts(sb, ";\n");
    hw_line(&w, "return imcl_cl_plan_launched(imcl_p, imcl_err);");
    sb_puts(sb, "}\n\n");
    plan_forward(sb, e, PLAN_WAIT, NULL, "imcl_cl_plan_wait((imcl_cl_plan *)plan)");
    plan_launch_and_wait(sb, e);
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
    plan_iterate(sb, e, NULL);
    plan_forward_rest(sb, e, "imcl_cl");
}
