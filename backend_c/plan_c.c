/* The persistent plan of the C reference, appended to K_ref.c: the same API as
 * the device backends over host buffers, so that an application can switch
 * between them. A launch is a call of the one-shot function on the plan's
 * buffers, timed with the wall clock. */
#include "c_host.h"
#include "host.h"
#include "plan.h"
#include "runtime_text/backend_c.h"

/* The rows of a row table go straight into and out of the plan's host buffer. */
static bool rows_mappable(const Symbol *s)
{
    (void)s;
    return true;
}

static void rows_map(HostWriter *w, const EmitCtx *e, const char *t)
{
    (void)e;
    hw_line(w, "imcl_dense = (%s *)plan->buf[imcl_id] + imcl_off;", t);
}

static void rows_unmap(HostWriter *w, const EmitCtx *e, const char *t)
{
    (void)w, (void)e, (void)t;
}

/* PK_plan_attach: the array's memory is the caller's from now on; the buffer it had
 * goes, if the plan allocated it. */
static void attach(HostWriter *w, const EmitCtx *e)
{
    hw_line(w, "free(plan->own[a]);");
    hw_line(w, "plan->own[a] = NULL;");
    hw_line(w, "plan->buf[a] = host;");
    hw_line(w, "return %s_OK;", e->host_name);
}

/* PK_plan_use_memory: the device is the host, its memory host memory: an attachment. */
static void use_memory(HostWriter *w, const EmitCtx *e)
{
    hw_line(w, "return %s_plan_attach(plan, a, memory);", e->host_name);
}

/* imcl_plan_rows: the row tables PK_rows takes, over an array's buffer (block b's row
 * (y, z) at b blocks plus (z * h + y) rows into it), made once and again whenever a
 * swap or an attachment gave the array other memory. */
static void tables_helper(StrBuf *sb, const EmitCtx *e)
{
    sb_printf(sb, "/* Row tables over array i's buffer, as %s_rows takes them (tables[b][z][y], an Image's\n"
                  " * tables[b][y]: block b's row (y, z), ghost layer included), made again when the array\n"
                  " * has other memory (a swap, an attachment); NULL when there is no memory for them. */\n"
                  "static void **imcl_plan_rows(%s_plan *plan, int i, int dims, size_t elem, int halo)\n{\n",
              e->host_name, e->host_name);
    HostWriter w = host_writer(sb, 1);
    hw_line(&w, "if (plan->rows[i] && plan->rows_for[i] == plan->buf[i])");
    hw_inner(&w, "return plan->rows[i];");
    hw_line(&w, "const size_t nb = (size_t)plan->capacity, w = (size_t)plan->extent[i][0] + 2 * (size_t)halo;");
    hw_line(&w, "const size_t h = (size_t)plan->extent[i][1] + 2 * (size_t)halo;");
    hw_line(&w, "const size_t d = dims == 3 ? (size_t)plan->extent[i][2] + 2 * (size_t)halo : 1;");
    hw_line(&w, "/* the blocks' tables, then (a Block) the planes' tables, then the rows */");
    hw_line(&w, "const size_t planes = dims == 3 ? nb * d : 0;");
    hw_line(&w, "if (!plan->rows[i])");
    hw_inner(&w, "plan->rows[i] = malloc(sizeof(void *) * (nb + planes + nb * d * h));");
    hw_line(&w, "if (!plan->rows[i])");
    hw_inner(&w, "return NULL;");
    hw_line(&w, "void **blocks = plan->rows[i], **plane = blocks + nb, **row = plane + planes;");
    hw_line(&w, "for (size_t b = 0; b < nb; b++)");
    hw_inner(&w, "blocks[b] = dims == 3 ? (void *)(plane + b * d) : (void *)(row + b * h);");
    hw_line(&w, "for (size_t z = 0; z < planes; z++)");
    hw_inner(&w, "plane[z] = row + z * h;");
    hw_line(&w, "for (size_t r = 0; r < nb * d * h; r++)");
    hw_inner(&w, "row[r] = (char *)plan->buf[i] + r * w * elem;");
    hw_line(&w, "plan->rows_for[i] = plan->buf[i];");
    hw_line(&w, "return plan->rows[i];");
    sb_puts(sb, "}\n\n");
}

void plan_c_emit(StrBuf *sb, const EmitCtx *e)
{
    const char *pk = e->host_name;
    const Function *k = e->k;
    const char *h = plan_handle(k);
    const Symbol *arr[k->nparams + 1];
    int n = plan_arrays(k, arr);
    /* The C reference reads every array where it lies, whatever the placement
     * parameters say, so every configuration has a plan. */
    sb_puts(sb, "\n/* ---- persistent plan: create once, launch many times (docs/wrappers.md) ---- */\n\n");
    sb_printf(sb, "struct %s_plan {\n", pk);
    if (n) {
        plan_member(sb, arena_printf(e->a, "void *buf[%d]", n), "the host memory of each array, by plan_array id");
        plan_member(sb, arena_printf(e->a, "void *own[%d]", n),
                    "buf if the plan allocated it (attach or destroy frees it)");
        plan_member(sb, arena_printf(e->a, "size_t bytes[%d]", n), "its size");
        plan_member(sb, arena_printf(e->a, "int extent[%d][3]", n), "its extents as given to plan_create");
        if (e->tables) {
            plan_member(sb, arena_printf(e->a, "void **rows[%d]", n),
                        arena_printf(e->a, "row tables into an Image's or Block's buf, for %s_rows", pk));
            plan_member(sb, arena_printf(e->a, "void *rows_for[%d]", n), "the buf they point into");
        }
    }
    plan_member(sb, "int capacity", "the blocks each Image and Block holds");
    plan_member(sb, "double kernel_ms", "wall-clock time of the last launch");
    sb_puts(sb, "};\n\n");

    host_runtime(sb, e, runtime_c_plan_now_ms);
    if (e->tables)
        tables_helper(sb, e);

    plan_begin(sb, e, PLAN_CREATE_BATCH, NULL);
    HostWriter w = host_writer(sb, 1);
    plan_create_alloc(&w, e);
    if (n) {
        sb_puts(sb, "    /* one zero-filled buffer per array */\n");
        sb_printf(sb, "    for (int i = 0; i < %d; i++)\n", n);
        sb_printf(sb, "        if (!(p->buf[i] = p->own[i] = calloc(1, p->bytes[i]))) {\n            %s_plan_destroy(p);\n"
                      "            return %s_ERR_MEMORY;\n        }\n", pk, pk);
    }
    sb_printf(sb, "    *plan = p;\n    return %s_OK;\n}\n\n", pk);

    for (int i = 0; i < n; i++) {
        plan_begin(sb, e, PLAN_UPLOAD, arr[i]);
        sb_printf(sb, "    memcpy(plan->buf[%d], host, plan->bytes[%d]);\n    return %s_OK;\n}\n\n", i, i, pk);
        plan_begin(sb, e, PLAN_DOWNLOAD, arr[i]);
        sb_printf(sb, "    memcpy(host, plan->buf[%d], plan->bytes[%d]);\n    return %s_OK;\n}\n\n", i, i, pk);
    }

    plan_row_transfers(sb, e, &(PlanRowsAccess){rows_mappable, rows_map, rows_unmap});

    plan_begin(sb, e, PLAN_LAUNCH_BATCH, NULL);
    sb_puts(sb, "    const double imcl_t0 = imcl_plan_now_ms();\n");
    sb_printf(sb, "    int imcl_status = %s_OK;\n", pk);
    if (e->tables) {
        /* one parallel loop over every block's rows, not a call of PK (its checks, its
         * parallel region) per block: 1.3x on miniAMR's 8^3 blocks (docs/performance.md) */
        sb_printf(sb, "    /* all blocks in one call of %s_rows, over row tables into the buffers */\n", pk);
        StrBuf cond = {0};
        for (int i = 0; i < n; i++)
            if (type_is_grid(arr[i]->type))
                sb_printf(&cond, "%s!imcl_plan_rows(%s, %d, %d, sizeof(%s), %d)", cond.len ? "\n            || " : "",
                          h, i, type_grid_dims(arr[i]->type), unparse_c_type(arr[i]->type->elem->kind), arr[i]->halo);
        sb_printf(sb, "    if (%s)\n        return %s_ERR_MEMORY;\n", sb_str(&cond), pk);
        sb_free(&cond);
        sb_printf(sb, "    imcl_status = %s_rows(" PLAN_COUNT ", ", pk);
        plan_array_args(sb, e, "(%s *)%s->buf[%d]", "%.0s(void *)%s->rows[%d]");
        sb_puts(sb, ");\n");
    } else {
        sb_puts(sb, "    /* block b of an Image or Block lies b blocks' bytes into its buffer */\n");
        sb_printf(sb, "    for (int imcl_b = 0; imcl_b < " PLAN_COUNT " && imcl_status == %s_OK; imcl_b++)\n", pk);
        sb_printf(sb, "        imcl_status = %s(", pk);
        plan_array_args(sb, e, "(%s *)%s->buf[%d]", "(%s *)((char *)%s->buf[%d] + imcl_b * (%s->bytes[%d] / %s->capacity))");
        sb_puts(sb, ");\n");
    }
    sb_printf(sb, "    %s->kernel_ms = imcl_plan_now_ms() - imcl_t0;\n    return imcl_status;\n}\n\n", h);
    plan_create_and_launch(sb, e, NULL);
    plan_launch_and_wait(sb, e);

    plan_attach(sb, e, PLAN_ATTACH, attach);
    plan_attach(sb, e, PLAN_USE_MEMORY, use_memory);
    plan_swap_and_time(sb, e, (const PlanSwapped[]){{"void *", "buf"}, {"void *", "own"}}, 2);

    plan_signature(sb, e, PLAN_DESTROY, NULL);
    sb_puts(sb, "\n{\n    if (!plan)\n        return;\n");
    if (n)
        sb_printf(sb, "    for (int i = 0; i < %d; i++) {\n        free(plan->own[i]);%s\n    }\n", n,
                  e->tables ? "\n        free(plan->rows[i]);" : "");
    sb_puts(sb, "    free(plan);\n}\n");
}
