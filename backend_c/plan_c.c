/* The persistent plan of the C reference, appended to K_ref.c: the same API as the device
 * backends over host memory, so that an application can switch between them. The table of
 * the kernel's arrays (imcl_layout) and each plan function as a call of the host runtime
 * (runtime/imcl_runtime_c.c), which holds every plan's memory and row tables; what is the
 * kernel's own stays here: the checks of the extents, and the launch, a call of PK_rows
 * (or PK per block) on the plan's memory, timed with the wall clock. */
#include "c_host.h"
#include "host.h"
#include "plan.h"

/* imcl_layout: whether each array may be attached, its swap class, dimensions, halo,
 * element size, and a fixed-size array's elements. */
static void layout_table(StrBuf *sb, const EmitCtx *e, const Symbol **arr, int n)
{
    int cls[n + 1];
    plan_swap_classes(e, cls);
    sb_puts(sb, "/* The kernel's arrays, by plan_array id, as the runtime's plan keeps them. */\n");
    sb_printf(sb, "static const imcl_c_layout imcl_layout[%d] = {\n", n);
    for (int i = 0; i < n; i++) {
        const Symbol *s = arr[i];
        int dims = type_is_grid(s->type) ? type_grid_dims(s->type) : 0;
        sb_printf(sb, "    {.attach = %d, .swap_class = %d, .dims = %d, .halo = %d, .elem = sizeof(%s)",
                  host_on_buffer(s), cls[i], dims, dims ? s->halo : 0, unparse_c_type(s->type->elem->kind));
        if (!dims) {
            sb_puts(sb, ", .count = ");
            host_elems(sb, s);
        }
        sb_printf(sb, "}, /* '%s' */\n", s->name);
    }
    sb_puts(sb, "};\n\n");
}

/* PK_plan_create_batch: the checks of the extents, then the runtime's plan over
 * imcl_layout. */
static void create(StrBuf *sb, const EmitCtx *e, int n)
{
    plan_create_begin(sb, e);
    HostWriter w = host_writer(sb, 1);
    plan_extent_table(&w, e);
    hw_line(&w, "imcl_c_plan *imcl_p = NULL;");
    hw_line(&w, "const int imcl_status = imcl_c_plan_create(&imcl_p, capacity, %d, %s, imcl_extent);", n,
            n ? "imcl_layout" : "NULL");
    hw_line(&w, "*plan = (%s_plan *)imcl_p;", e->host_name);
    hw_line(&w, "return imcl_status;");
    sb_puts(sb, "}\n\n");
}

/* PK_plan_launch_batch: the runtime's checks, then the kernel on the plan's memory. */
static void launch(StrBuf *sb, const EmitCtx *e, const Symbol **arr, int n)
{
    const char *pk = e->host_name;
    plan_signature(sb, e, PLAN_LAUNCH_BATCH, NULL);
    sb_puts(sb, "\n{\n");
    HostWriter w = host_writer(sb, 1);
    hw_line(&w, "imcl_c_plan *imcl_p = (imcl_c_plan *)%s;", plan_handle(e->k));
    hw_line(&w, "int imcl_status = imcl_c_plan_ready(imcl_p, " PLAN_COUNT ");");
    hw_line(&w, "if (imcl_status != %s_OK)", pk);
    hw_inner(&w, "return imcl_status;");
    plan_extent_locals(&w, e, "imcl_p", "array[%d].extent[%d]");
    hw_line(&w, "const double imcl_t0 = imcl_c_now_ms();");
    if (e->tables) {
        /* one parallel loop over every block's rows, not a call of PK (its checks, its
         * parallel region) per block: 1.3x on miniAMR's 8^3 blocks (docs/performance.md) */
        hw_line(&w, "/* the blocks in one call of %s_rows, over row tables into the plan's memory in", pk);
        hw_line(&w, " * the order of the launch (the selection's, %s_plan_select) */", pk);
        StrBuf cond = {0};
        for (int i = 0; i < n; i++)
            if (type_is_grid(arr[i]->type)) {
                hw_line(&w, "void **const imcl_tab%d = imcl_c_plan_tables(imcl_p, %d);", i, i);
                sb_printf(&cond, "%s!imcl_tab%d", cond.len ? " || " : "", i);
            }
        hw_line(&w, "if (%s)", sb_str(&cond));
        hw_inner(&w, "return %s_ERR_MEMORY;", pk);
        sb_free(&cond);
        sb_printf(sb, "    imcl_status = %s_rows(" PLAN_COUNT ", ", pk);
        plan_array_args(sb, e, "(%s *)imcl_p->array[%d].buf", "%.0s(void *)imcl_tab%d");
        sb_puts(sb, ");\n");
    } else {
        hw_line(&w, "/* block b of an Image or Block lies b blocks' bytes into its memory */");
        hw_line(&w, "for (int imcl_i = 0; imcl_i < " PLAN_COUNT " && imcl_status == %s_OK; imcl_i++) {", pk);
        w.indent++;
        hw_line(&w, "const int imcl_b = imcl_c_plan_block(imcl_p, imcl_i);");
        hw_start(&w);
        sb_printf(sb, "imcl_status = %s(", pk);
        plan_array_args(sb, e, "(%s *)imcl_p->array[%d].buf",
                        "(%s *)((char *)imcl_p->array[%d].buf"
                        " + imcl_b * (imcl_p->array[%d].bytes / imcl_p->capacity))");
        sb_puts(sb, ");\n");
        w.indent--;
        hw_line(&w, "}");
    }
    hw_line(&w, "imcl_p->kernel_ms = imcl_c_now_ms() - imcl_t0;");
    hw_line(&w, "return imcl_status;");
    sb_puts(sb, "}\n\n");
}

void plan_c_emit(StrBuf *sb, const EmitCtx *e)
{
    const Symbol *arr[e->k->nparams + 1];
    int n = plan_arrays(e->k, arr);
    /* The C reference reads every array where it lies, whatever the placement
     * parameters say, so every configuration has a plan. */
    sb_puts(sb, "\n/* ---- persistent plan: create once, launch many times (docs/wrappers.md) ---- */\n\n");
    if (n)
        layout_table(sb, e, arr, n);
    create(sb, e, n);
    plan_forward_transfers(sb, e, "imcl_c");
    launch(sb, e, arr, n);
    plan_create_and_launch(sb, e, "imcl_c_plan");
    plan_launch_and_wait(sb, e);
    plan_forward_rest(sb, e, "imcl_c");
}
