/* The persistent plan of the CUDA backend, appended to K.cu: one device buffer
 * per array on the current device, two events around each launch for the kernel
 * time. K.cu is C++: casts from void * are explicit, and no goto jumps over an
 * initialised declaration. */
#include "emit.h"

static void plan_struct(StrBuf *sb, const EmitCtx *e, int n)
{
    Arena *a = e->a;
    sb_printf(sb, "struct %s_plan {\n", e->host_name);
    if (n) {
        plan_member(sb, arena_printf(a, "void *buf[%d]", n), "the device buffer of each array, by plan_array id");
        plan_member(sb, arena_printf(a, "size_t bytes[%d]", n), "its size");
        plan_member(sb, arena_printf(a, "int extent[%d][3]", n), "its extents as given to plan_create");
    }
    plan_member(sb, "cudaEvent_t start, stop", "recorded around each launch");
    plan_member(sb, "int events", "start and stop exist");
    plan_member(sb, "double kernel_ms", "device time of the last launch");
    sb_puts(sb, "};\n\n");
}

static void create(StrBuf *sb, const EmitCtx *e, int n)
{
    const char *pk = e->host_name;
    plan_signature(sb, e, PLAN_CREATE, NULL);
    sb_printf(sb, "\n{\n    if (!plan)\n        return %s_ERR_ARGUMENT;\n    *plan = NULL;\n", pk);
    plan_create_checks(sb, e, 1);
    sb_puts(sb, "    int imcl_count = 0;\n");
    sb_puts(sb, "    if (cudaGetDeviceCount(&imcl_count) != cudaSuccess || imcl_count == 0)\n");
    sb_printf(sb, "        return %s_ERR_DEVICE;\n", pk);
    sb_printf(sb, "    %s_plan *p = (%s_plan *)calloc(1, sizeof *p);\n", pk, pk);
    sb_printf(sb, "    if (!p)\n        return %s_ERR_MEMORY;\n", pk);
    plan_record_sizes(sb, e, "p", 1);
    sb_printf(sb, "    int imcl_status = %s_OK;\n", pk);
    sb_puts(sb, "    if (cudaEventCreate(&p->start) != cudaSuccess)\n        goto device_failed;\n");
    sb_puts(sb, "    if (cudaEventCreate(&p->stop) != cudaSuccess) {\n        cudaEventDestroy(p->start);\n"
                "        goto device_failed;\n    }\n    p->events = 1;\n");
    if (n) {
        sb_puts(sb, "\n    /* one zero-filled buffer per array */\n");
        sb_printf(sb, "    for (int i = 0; i < %d; i++) {\n", n);
        sb_puts(sb, "        if (cudaMalloc(&p->buf[i], p->bytes[i]) != cudaSuccess) {\n");
        sb_puts(sb, "            p->buf[i] = NULL;\n");
        sb_printf(sb, "            imcl_status = %s_ERR_MEMORY;\n            goto fail;\n        }\n", pk);
        sb_puts(sb, "        if (cudaMemset(p->buf[i], 0, p->bytes[i]) != cudaSuccess) {\n");
        sb_printf(sb, "            imcl_status = %s_ERR_TRANSFER;\n            goto fail;\n        }\n    }\n", pk);
    }
    sb_printf(sb, "    *plan = p;\n    return %s_OK;\n\n", pk);
    sb_printf(sb, "device_failed:\n    imcl_status = %s_ERR_DEVICE;\n", pk);
    sb_printf(sb, "%s    %s_plan_destroy(p);\n    return imcl_status;\n}\n\n", n ? "fail:\n" : "", pk);
}

static void transfers(StrBuf *sb, const EmitCtx *e, const Symbol **arr, int n)
{
    const char *pk = e->host_name;
    for (int i = 0; i < n; i++) {
        plan_signature(sb, e, PLAN_UPLOAD, arr[i]);
        sb_printf(sb, "\n{\n    if (!plan || !host)\n        return %s_ERR_ARGUMENT;\n", pk);
        sb_printf(sb, "    if (cudaMemcpy(plan->buf[%d], host, plan->bytes[%d], cudaMemcpyHostToDevice) != cudaSuccess)\n", i, i);
        sb_printf(sb, "        return %s_ERR_TRANSFER;\n    return %s_OK;\n}\n\n", pk, pk);
        plan_signature(sb, e, PLAN_DOWNLOAD, arr[i]);
        sb_printf(sb, "\n{\n    if (!plan || !host)\n        return %s_ERR_ARGUMENT;\n", pk);
        sb_printf(sb, "    if (cudaMemcpy(host, plan->buf[%d], plan->bytes[%d], cudaMemcpyDeviceToHost) != cudaSuccess)\n", i, i);
        sb_printf(sb, "        return %s_ERR_TRANSFER;\n    return %s_OK;\n}\n\n", pk, pk);
    }
}

static void launch(StrBuf *sb, const EmitCtx *e)
{
    const char *pk = e->host_name;
    const Function *k = e->k;
    const TuneParams *tp = e->tp;
    const char *h = plan_handle(k);
    plan_signature(sb, e, PLAN_LAUNCH, NULL);
    sb_printf(sb, "\n{\n    if (!%s)\n        return %s_ERR_ARGUMENT;\n", h, pk);
    plan_extent_locals(sb, e, 1);
    host_grid_extent(sb, k, 1);
    sb_printf(sb, "    %s->kernel_ms = 0.0;\n", h);
    sb_puts(sb, "    if (W < 1 || H < 1 || D < 1)\n");
    sb_printf(sb, "        return %s_OK; /* an empty grid: nothing to do */\n", pk);
    sb_puts(sb, "\n    /* one thread per grid point, blocks of the tuned shape (thesis eq. 3.7-3.9), as in\n"
                "     * the one-shot wrapper; the events around it give the kernel time */\n");
    sb_printf(sb, "    const dim3 imcl_block(%d, %d, %d);\n", tp->block[0], tp->block[1], tp->block[2]);
    sb_printf(sb, "    const dim3 imcl_grid((W + %d - 1) / %d, (H + %d - 1) / %d, (D + %d - 1) / %d);\n",
              tp->block[0] * tp->coarsen[0], tp->block[0] * tp->coarsen[0],
              tp->block[1] * tp->coarsen[1], tp->block[1] * tp->coarsen[1],
              tp->block[2] * tp->coarsen[2], tp->block[2] * tp->coarsen[2]);
    sb_printf(sb, "    if (cudaEventRecord(%s->start) != cudaSuccess)\n        return %s_ERR_LAUNCH;\n", h, pk);
    sb_printf(sb, "    %s_kernel<<<imcl_grid, imcl_block>>>(", k->name);
    plan_array_args(sb, e, "(%s *)%s->buf[%d]");
    sb_printf(sb, "%sW, H, D);\n", k->nparams ? ", " : "");
    sb_printf(sb, "    if (cudaGetLastError() != cudaSuccess || cudaEventRecord(%s->stop) != cudaSuccess ||\n"
                  "        cudaEventSynchronize(%s->stop) != cudaSuccess)\n        return %s_ERR_LAUNCH;\n", h, h, pk);
    sb_printf(sb, "    float imcl_ms = 0.0f;\n    if (cudaEventElapsedTime(&imcl_ms, %s->start, %s->stop) == cudaSuccess)\n"
                  "        %s->kernel_ms = imcl_ms;\n    return %s_OK;\n}\n\n", h, h, h, pk);
}

static void destroy(StrBuf *sb, const EmitCtx *e, int n)
{
    plan_signature(sb, e, PLAN_DESTROY, NULL);
    sb_puts(sb, "\n{\n    if (!plan)\n        return;\n");
    if (n)
        sb_printf(sb, "    for (int i = 0; i < %d; i++)\n        cudaFree(plan->buf[i]);\n", n);
    sb_puts(sb, "    if (plan->events) {\n        cudaEventDestroy(plan->start);\n        cudaEventDestroy(plan->stop);\n    }\n"
                "    free(plan);\n}\n");
}

void plan_cuda_emit(StrBuf *sb, const EmitCtx *e)
{
    sb_puts(sb, "\n");
    if (!plan_supported(e)) {
        plan_stubs(sb, e);
        return;
    }
    const Symbol *arr[e->k->nparams + 1];
    int n = plan_arrays(e->k, arr);
    sb_puts(sb, "/* ---- persistent plan: create once, launch many times (docs/wrappers.md) ---- */\n\n");
    plan_struct(sb, e, n);
    create(sb, e, n);
    transfers(sb, e, arr, n);
    launch(sb, e);
    plan_swap_and_time(sb, e, "void *");
    destroy(sb, e, n);
}
