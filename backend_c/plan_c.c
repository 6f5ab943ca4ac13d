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

/* The plan ids of the iterate pragma's arrays A and B among the plan's arrays arr[0..n-1]. */
static void pair_ids(const Function *k, const Symbol **arr, int n, int *ia, int *ib)
{
    for (int i = 0; i < n; i++) {
        *ia = arr[i] == k->iterate[0] ? i : *ia;
        *ib = arr[i] == k->iterate[1] ? i : *ib;
    }
}

/* PK_plan_iterate with time_tile T above 1: each pass over memory runs up to T steps as
 * a wavefront over the last grid dimension (z; y in 2D), step s of the pass computing
 * its planes R (Function.iterate_radius) behind step s - 1 in PK_part calls, in the two
 * arrays in turn as the launches with swaps between them would (docs/iterate.md). With
 * time_tile 0 the same as the static imcl_iterate_fused, T its argument imcl_tile, which
 * PK_plan_iterate calls where the two arrays outgrow a cache (else launches and swaps). */
static void iterate_fused(StrBuf *sb, const EmitCtx *e, const Symbol **arr, int n)
{
    const bool chosen = e->tp->time_tile == 0;
    const char *tile = chosen ? "imcl_tile" : arena_printf(e->a, "%d", e->tp->time_tile);
    const Function *k = e->k;
    const char *pk = e->host_name, *h = plan_handle(k);
    /* the plan ids of A and B, and what names each grid array's tables or memory */
    int ia = -1, ib = -1;
    pair_ids(k, arr, n, &ia, &ib);
    const char *name[n];
    for (int i = 0; i < n; i++) {
        name[i] = arr[i] == k->iterate[0] ? "imcl_pair[0]" : arr[i] == k->iterate[1] ? "imcl_pair[1]"
                                                                                   : arena_printf(e->a, "imcl_arr%d", i);
    }
    bool planes = k->grid_dims == 3;
    const char *type = e->tables ? "void **" : "char *";
    if (chosen) {
        sb_printf(sb, "/* %s_plan_iterate as imcl_tile steps a pass over memory. */\n", pk);
        sb_printf(sb, "static int imcl_iterate_fused(%s_plan *%s, int %s, int imcl_tile", pk, h, plan_steps(k));
        plan_params(sb, k, false, true);
        sb_puts(sb, ")");
    } else {
        plan_signature(sb, e, PLAN_ITERATE, NULL);
    }
    sb_puts(sb, "\n{\n");
    HostWriter w = host_writer(sb, 1);
    hw_line(&w, "imcl_c_plan *imcl_p = (imcl_c_plan *)%s;", h);
    hw_line(&w, "if (!imcl_p || %s < 0)", plan_steps(k));
    hw_inner(&w, "return %s_ERR_ARGUMENT;", pk);
    hw_line(&w, "int imcl_status = %s_OK;", pk);
    plan_extent_locals(&w, e, "imcl_p", "array[%d].extent[%d]");
    host_grid_extent(&w, k);
    if (!planes)
        hw_line(&w, "(void)D; /* 1: a 2D grid */");
    hw_line(&w, "const double imcl_t0 = imcl_c_now_ms();");
    hw_line(&w, "/* %s steps per pass over memory */", tile);
    plan_wavefront_parts(&w, k, planes ? 65536 : 262144);
    hw_line(&w, "for (int imcl_done = 0; imcl_done < %s && imcl_status == %s_OK;) {", plan_steps(k), pk);
    w.indent++;
    hw_line(&w, "const int imcl_t = imcl_min_int(%s, %s - imcl_done);", tile, plan_steps(k));
    hw_line(&w, "/* as before every launch but the first */");
    hw_line(&w, "if (imcl_done > 0)");
    hw_inner(&w, "imcl_status = imcl_c_plan_swap(imcl_p, %d, %d);", ia, ib);
    StrBuf cond = {0};
    for (int i = 0; i < n; i++) {
        if (!type_is_grid(arr[i]->type))
            continue;
        bool pair = i == ia || i == ib;
        if (i == ia)
            hw_line(&w, "%simcl_pair[2];", type);
        hw_line(&w, "%s%s%s = %s;", pair ? "" : type, pair ? "" : "const ", name[i],
                e->tables ? arena_printf(e->a, "imcl_c_plan_tables(imcl_p, %d)", i)
                          : arena_printf(e->a, "(char *)imcl_p->array[%d].buf", i));
        sb_printf(&cond, "%s!%s", cond.len ? " || " : "", name[i]);
    }
    if (e->tables) {
        hw_line(&w, "if (%s)", sb_str(&cond));
        hw_inner(&w, "imcl_status = %s_ERR_MEMORY;", pk);
    }
    sb_free(&cond);
    plan_wavefront_loops(&w, arena_printf(e->a, "imcl_status == %s_OK", pk));
    hw_line(&w, "/* step s computes '%s' from '%s' in its even steps, the other way round in its odd */",
            k->iterate[1]->name, k->iterate[0]->name);
    hw_line(&w, "%sconst imcl_arr%d = imcl_pair[imcl_s %% 2], %sconst imcl_arr%d = imcl_pair[1 - imcl_s %% 2];", type,
            ia, e->tables ? "**" : "*", ib);
    if (e->tables) {
        hw_line(&w, "if (imcl_lo < imcl_hi)");
        hw_start(&w);
        sb_printf(sb, "    %s_part(imcl_lo, imcl_hi, imcl_p->count, ", pk);
        plan_array_args(sb, e, "(%s *)imcl_p->array[%d].buf", "%.0s(void *)imcl_arr%d");
        sb_puts(sb, ");\n");
    } else {
        hw_line(&w, "/* block b of an Image or Block lies b blocks' bytes into its memory */");
        hw_line(&w, "for (int imcl_i = 0; imcl_lo < imcl_hi && imcl_i < imcl_p->count; imcl_i++) {");
        w.indent++;
        hw_line(&w, "const int imcl_b = imcl_c_plan_block(imcl_p, imcl_i);");
        hw_start(&w);
        sb_printf(sb, "%s_part(imcl_lo, imcl_hi, ", pk);
        plan_array_args(sb, e, "(%s *)imcl_p->array[%d].buf",
                        "(%s *)(imcl_arr%d + imcl_b * (imcl_p->array[%d].bytes / imcl_p->capacity))");
        sb_puts(sb, ");\n");
        w.indent--;
        hw_line(&w, "}");
    }
    plan_wavefront_end(&w);
    hw_line(&w, "/* after an even number of steps the last one's result is in the first array's memory */");
    hw_line(&w, "if (imcl_status == %s_OK && imcl_t %% 2 == 0)", pk);
    hw_inner(&w, "imcl_status = imcl_c_plan_swap(imcl_p, %d, %d);", ia, ib);
    hw_line(&w, "imcl_done += imcl_t;");
    w.indent--;
    hw_line(&w, "}");
    hw_line(&w, "imcl_p->kernel_ms = imcl_c_now_ms() - imcl_t0;");
    hw_line(&w, "return imcl_status;");
    sb_puts(sb, "}\n\n");
}

/* time_tile 0: what PK_plan_iterate does first, the choice between imcl_iterate_fused and
 * its launches with swaps by the bytes of the two arrays. */
static const char *iterate_choice(const EmitCtx *e, const Symbol **arr, int n)
{
    const Function *k = e->k;
    int ia = 0, ib = 0;
    pair_ids(k, arr, n, &ia, &ib);
    StrBuf sb = {0};
    sb_printf(&sb, "    /* %d steps a pass over memory where '%s' and '%s' together outgrow the last-level\n"
                   "     * cache (3/4 of it: imcl_c_fuse_bytes; then the wavefront saves memory traffic:\n"
                   "     * docs/iterate.md), else a launch per step (its parts would cost more) */\n",
              PARAMS_AUTO_TIME_TILE, k->iterate[0]->name, k->iterate[1]->name);
    sb_printf(&sb, "    imcl_c_plan *imcl_p = (imcl_c_plan *)%s;\n", plan_handle(k));
    sb_puts(&sb, "    if (!imcl_p->fuse_bytes) /* asked once, where a plan first needs it */\n"
                 "        imcl_p->fuse_bytes = imcl_c_fuse_bytes();\n");
    sb_printf(&sb, "    if (imcl_p->array[%d].bytes + imcl_p->array[%d].bytes > imcl_p->fuse_bytes)\n", ia, ib);
    sb_printf(&sb, "        return imcl_iterate_fused(%s, %s, %d", plan_handle(k), plan_steps(k),
              PARAMS_AUTO_TIME_TILE);
    plan_params(&sb, k, false, false);
    sb_puts(&sb, ");\n");
    const char *text = arena_printf(e->a, "%s", sb_str(&sb));
    sb_free(&sb);
    return text;
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
    if (e->tp->time_tile != 1)
        iterate_fused(sb, e, arr, n);
    if (e->tp->time_tile == 0)
        plan_iterate(sb, e, iterate_choice(e, arr, n));
    else if (e->tp->time_tile == 1)
        plan_iterate(sb, e, NULL);
    plan_launch_and_wait(sb, e);
    plan_forward_rest(sb, e, "imcl_c");
}
