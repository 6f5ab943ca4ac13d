/* The persistent plan of the CUDA backend, appended to K.cu: the table of the kernel's
 * arrays (imcl_layout) and each plan function as a call of the host runtime
 * (runtime/imcl_runtime_cuda.cu), which holds every plan's device memory (a buffer for
 * global and shared memory, a CUDA array with a texture object for texture memory, the
 * kernel's __constant__ symbol for constant memory) and the events that time a launch;
 * what is the kernel's own stays here: the checks of the extents and placements, and the
 * launch (imcl_launch, which the one-shot wrapper calls too). */
#include "cuda_host.h"
#include "host.h"
#include "placement.h"
#include "plan.h"

/* imcl_layout: where each array lives, what PK does with it, its swap class, dimensions,
 * halo, element size, a fixed-size array's elements, a constant array's symbol, a
 * texture's texel format and addressing mode. Positional: K.cu is C++, where designated
 * initializers that leave members out draw warnings. */
void cuda_layout_table(StrBuf *sb, const EmitCtx *e)
{
    const Symbol *arr[e->k->nparams + 1];
    int n = plan_arrays(e->k, arr);
    if (!n)
        return;
    int cls[n + 1];
    plan_swap_classes(e, cls);
    sb_puts(sb, "/* The kernel's arrays, by plan_array id, as the runtime keeps them (imcl_cu_layout: where,\n"
                " * what the one-shot wrapper copies, swap class, dimensions, halo, element size, elements\n"
                " * of a fixed-size array, symbol of a constant copy, texel format and addressing mode of a\n"
                " * texture). */\n");
    sb_printf(sb, "static const imcl_cu_layout imcl_layout[%d] = {\n", n);
    for (int i = 0; i < n; i++) {
        const Symbol *s = arr[i];
        TypeKind t = s->type->elem->kind;
        int dims = type_is_grid(s->type) ? type_grid_dims(s->type) : 0;
        sb_printf(sb, "    {%s, %s, %d, %d, %d, sizeof(%s), ",
                  host_on_texture(s) ? "IMCL_CU_TEXTURE" : host_on_constant(s) ? "IMCL_CU_CONSTANT" : "IMCL_CU_BUFFER",
                  plan_use(e, s, "IMCL_CU"), cls[i], dims, dims ? s->halo : 0, unparse_c_type(t));
        if (dims)
            sb_putc(sb, '0');
        else
            host_elems(sb, s);
        sb_printf(sb, ", %s, ", host_on_constant(s) ? cuda_constant_name(e, s) : "NULL");
        if (host_on_texture(s))
            sb_printf(sb, "cudaCreateChannelDesc<%s>(), %s", cuda_texel_type(t), cuda_address_mode(s));
        else
            sb_puts(sb, "{}, cudaAddressModeWrap");
        sb_printf(sb, "}, /* '%s' */\n", s->name);
    }
    sb_puts(sb, "};\n\n");
}

/* PK_plan_create_batch: the checks of the extents and of the placements on the device,
 * then the runtime's plan over imcl_layout in the kernel's stream. */
static void create(StrBuf *sb, const EmitCtx *e, int n)
{
    plan_create_begin(sb, e);
    HostWriter w = host_writer(sb, 1);
    cuda_placement_checks(&w, e);
    plan_extent_table(&w, e);
    hw_line(&w, "imcl_cu_plan *imcl_p = NULL;");
    hw_line(&w, "const int imcl_status = imcl_cu_plan_create(&imcl_p, imcl_stream, capacity, %d, %s,", n,
            n ? "imcl_layout" : "NULL");
    hw_line(&w, "        imcl_extent);");
    hw_line(&w, "*plan = (%s_plan *)imcl_p;", e->host_name);
    hw_line(&w, "return imcl_status;");
    sb_puts(sb, "}\n\n");
}

/* An array the launch passes to the kernel: all but the __constant__ copies, which the
 * kernel reads by name. */
static bool launch_arg(const Symbol *s)
{
    return !host_on_constant(s);
}

/* PK_plan_launch_batch_async: the runtime's checks, the kernel's grid, the launch
 * (imcl_launch, as in the one-shot wrapper) between the events that time it, returning at
 * once; PK_plan_wait waits for the second event. */
static void launch(StrBuf *sb, const EmitCtx *e)
{
    const char *pk = e->host_name;
    plan_signature(sb, e, PLAN_LAUNCH_ASYNC, NULL);
    sb_puts(sb, "\n{\n");
    HostWriter w = host_writer(sb, 1);
    hw_line(&w, "imcl_cu_plan *imcl_p = (imcl_cu_plan *)%s;", plan_handle(e->k));
    hw_line(&w, "const int imcl_status = imcl_cu_plan_ready(imcl_p, " PLAN_COUNT ");");
    hw_line(&w, "if (imcl_status != %s_OK)", pk);
    hw_inner(&w, "return imcl_status;");
    plan_extent_locals(&w, e, "imcl_p", "array[%d].extent[%d]");
    plan_launch_grid(&w, e);
    if (host_any(e->k, launch_arg))
        hw_line(&w, "imcl_cu_array *const imcl_a = imcl_p->array; /* named as PK names its memory */");
    hw_line(&w, "cudaError_t imcl_err = imcl_cu_plan_start(imcl_p); /* the event before it */");
    hw_line(&w, "if (imcl_err == cudaSuccess)");
    sb_puts(sb, "        imcl_err = ");
    cuda_launch_call(sb, e, cuda_array_handle, PLAN_COUNT, "imcl_p->list", "imcl_p->stream");
    sb_puts(sb, ";\n");
    hw_line(&w, "return imcl_cu_plan_launched(imcl_p, imcl_err);");
    sb_puts(sb, "}\n\n");
    plan_forward(sb, e, PLAN_WAIT, NULL, "imcl_cu_plan_wait((imcl_cu_plan *)plan)");
    plan_launch_and_wait(sb, e);
}

void plan_cuda_emit(StrBuf *sb, const EmitCtx *e)
{
    const Symbol *arr[e->k->nparams + 1];
    int n = plan_arrays(e->k, arr);
    sb_puts(sb, "\n/* ---- persistent plan: create once, launch many times (docs/wrappers.md) ---- */\n\n");
    create(sb, e, n);
    plan_forward_transfers(sb, e, "imcl_cu");
    launch(sb, e);
    plan_create_and_launch(sb, e, "imcl_cu_plan");
    plan_iterate(sb, e, NULL);
    plan_forward_rest(sb, e, "imcl_cu");
}
