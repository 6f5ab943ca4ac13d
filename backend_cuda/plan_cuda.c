/* The persistent plan of the CUDA backend, appended to K.cu: on the current
 * device, the device memory of each array by its placement (a buffer for global
 * and shared memory, a CUDA array with a texture object for texture memory, the
 * kernel's __constant__ symbol for constant memory) and two events around each
 * launch for the kernel time. It calls the helpers that K.cu defines for the
 * one-shot wrapper (imcl_check_placements, imcl_texture_create/_copy,
 * imcl_launch), so that the two cannot drift apart. K.cu is C++: casts from
 * void * are explicit, and no goto jumps over an initialised declaration. */
#include "cuda_host.h"
#include "host.h"
#include "plan.h"

static bool any_texture(const Symbol **arr, int n)
{
    for (int i = 0; i < n; i++)
        if (host_on_texture(arr[i]))
            return true;
    return false;
}

static void plan_struct(StrBuf *sb, const EmitCtx *e, const Symbol **arr, int n)
{
    Arena *a = e->a;
    sb_printf(sb, "struct %s_plan {\n", e->host_name);
    if (n) {
        plan_member(sb, arena_printf(a, "void *buf[%d]", n), "the device buffer of each array in global or shared memory, by plan_array id");
        if (any_texture(arr, n)) {
            plan_member(sb, arena_printf(a, "cudaArray_t array[%d]", n), "the CUDA array of each array in texture memory");
            plan_member(sb, arena_printf(a, "cudaTextureObject_t tex[%d]", n), "and the texture object over it");
        }
        plan_member(sb, arena_printf(a, "size_t bytes[%d]", n), "the bytes of each array");
        plan_member(sb, arena_printf(a, "int extent[%d][3]", n), "its extents as given to plan_create");
    }
    plan_member(sb, "cudaEvent_t start, stop", "recorded around each launch");
    plan_member(sb, "int events", "start and stop exist");
    plan_member(sb, "double kernel_ms", "device time of the last launch");
    sb_puts(sb, "};\n\n");
}

/* The zero-filled device memory of the arrays in global or shared memory (a
 * buffer) and in constant memory (the kernel's symbol). */
static void memory_helpers(StrBuf *sb, const EmitCtx *e, const Symbol **arr, int n)
{
    const char *pk = e->host_name;
    bool buffer = false, constant = false;
    for (int i = 0; i < n; i++) {
        buffer |= host_on_buffer(arr[i]);
        constant |= host_on_constant(arr[i]);
    }
    if (buffer) {
        sb_printf(sb, "/* A zero-filled device buffer of `bytes` into *buf (NULL when none could be had).\n"
                      " * Returns %s_OK, %s_ERR_MEMORY or %s_ERR_TRANSFER. */\n", pk, pk, pk);
        sb_puts(sb, "static int imcl_plan_buffer(void **buf, size_t bytes)\n{\n"
                    "    if (cudaMalloc(buf, bytes) != cudaSuccess) {\n        *buf = NULL;\n");
        sb_printf(sb, "        return %s_ERR_MEMORY;\n    }\n", pk);
        sb_printf(sb, "    return cudaMemset(*buf, 0, bytes) == cudaSuccess ? %s_OK : %s_ERR_TRANSFER;\n}\n\n", pk, pk);
    }
    if (constant) {
        sb_printf(sb, "/* Zero-fills the first `bytes` of __constant__ symbol `symbol`.\n"
                      " * Returns %s_OK, %s_ERR_MEMORY or %s_ERR_TRANSFER. */\n", pk, pk, pk);
        sb_puts(sb, "static int imcl_plan_symbol(const void *symbol, size_t bytes)\n{\n"
                    "    void *imcl_zeros = calloc(1, bytes);\n    if (!imcl_zeros)\n");
        sb_printf(sb, "        return %s_ERR_MEMORY;\n", pk);
        sb_puts(sb, "    const cudaError_t imcl_err = cudaMemcpyToSymbol(symbol, imcl_zeros, bytes);\n"
                    "    free(imcl_zeros);\n");
        sb_printf(sb, "    return imcl_err == cudaSuccess ? %s_OK : %s_ERR_TRANSFER;\n}\n\n", pk, pk);
    }
}

static void create(StrBuf *sb, const EmitCtx *e, const Symbol **arr, int n)
{
    const char *pk = e->host_name;
    plan_signature(sb, e, PLAN_CREATE, NULL);
    sb_printf(sb, "\n{\n    if (!plan)\n        return %s_ERR_ARGUMENT;\n    *plan = NULL;\n", pk);
    plan_create_checks(sb, e, 1);
    cuda_placement_checks(sb, e, 1);
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
    if (n)
        sb_puts(sb, "\n    /* the device memory of each array, zero-filled */\n");
    for (int i = 0; i < n; i++) {
        const Symbol *s = arr[i];
        if (host_on_texture(s)) {
            cuda_texture_create(sb, e, s, arena_printf(e->a, "p->array[%d]", i), arena_printf(e->a, "p->tex[%d]", i),
                                "NULL", 1);
        } else if (host_on_constant(s)) {
            sb_printf(sb, "    /* '%s' in constant memory: the kernel's __constant__ symbol, which every plan of\n"
                          "     * this kernel shares with %s */\n", s->name, pk);
            sb_printf(sb, "    imcl_status = imcl_plan_symbol(%s, p->bytes[%d]);\n", cuda_constant_name(e, s), i);
        } else {
            sb_printf(sb, "    /* '%s' in %s */\n", s->name,
                      s->mem == MEM_SHARED ? "shared memory: a buffer, from which the kernel loads its tiles"
                                           : "global memory: a buffer");
            sb_printf(sb, "    imcl_status = imcl_plan_buffer(&p->buf[%d], p->bytes[%d]);\n", i, i);
        }
        sb_printf(sb, "    if (imcl_status != %s_OK)\n        goto fail;\n", pk);
    }
    sb_printf(sb, "    *plan = p;\n    return %s_OK;\n\n", pk);
    sb_printf(sb, "device_failed:\n    imcl_status = %s_ERR_DEVICE;\n", pk);
    sb_printf(sb, "%s    %s_plan_destroy(p);\n    return imcl_status;\n}\n\n", n ? "fail:\n" : "", pk);
}

static void transfers(StrBuf *sb, const EmitCtx *e, const Symbol **arr, int n)
{
    const char *pk = e->host_name;
    for (int i = 0; i < n; i++) {
        const Symbol *s = arr[i];
        const char *t = host_c_type(s->type->elem->kind);
        for (int up = 1; up >= 0; up--) {
            plan_signature(sb, e, up ? PLAN_UPLOAD : PLAN_DOWNLOAD, s);
            sb_printf(sb, "\n{\n    if (!plan || !host)\n        return %s_ERR_ARGUMENT;\n", pk);
            if (host_on_texture(s))
                sb_printf(sb, "    if (imcl_texture_copy(plan->array[%d], %shost, sizeof(%s), %s) != cudaSuccess)\n", i,
                          up ? "(void *)" : "", t, up ? "cudaMemcpyHostToDevice" : "cudaMemcpyDeviceToHost");
            else if (host_on_constant(s) && up)
                sb_printf(sb, "    if (cudaMemcpyToSymbol(%s, host, plan->bytes[%d]) != cudaSuccess)\n",
                          cuda_constant_name(e, s), i);
            else if (host_on_constant(s))
                sb_printf(sb, "    if (cudaMemcpyFromSymbol(host, %s, plan->bytes[%d]) != cudaSuccess)\n",
                          cuda_constant_name(e, s), i);
            else if (up)
                sb_printf(sb, "    if (cudaMemcpy(plan->buf[%d], host, plan->bytes[%d], cudaMemcpyHostToDevice) != cudaSuccess)\n", i, i);
            else
                sb_printf(sb, "    if (cudaMemcpy(host, plan->buf[%d], plan->bytes[%d], cudaMemcpyDeviceToHost) != cudaSuccess)\n", i, i);
            sb_printf(sb, "        return %s_ERR_TRANSFER;\n    return %s_OK;\n}\n\n", pk, pk);
        }
    }
}

/* The plan's names of the device objects in a launch. */
static const char *plan_handle_of(const EmitCtx *e, const Symbol *s, int id)
{
    const char *h = plan_handle(e->k);
    if (host_on_texture(s))
        return arena_printf(e->a, "%s->tex[%d]", h, id);
    return arena_printf(e->a, "(%s *)%s->buf[%d]", host_c_type(s->type->elem->kind), h, id);
}

static void launch(StrBuf *sb, const EmitCtx *e)
{
    const char *pk = e->host_name;
    const Function *k = e->k;
    const char *h = plan_handle(k);
    plan_signature(sb, e, PLAN_LAUNCH, NULL);
    sb_printf(sb, "\n{\n    if (!%s)\n        return %s_ERR_ARGUMENT;\n", h, pk);
    plan_extent_locals(sb, e, 1);
    host_grid_extent(sb, k, 1);
    sb_printf(sb, "    %s->kernel_ms = 0.0;\n", h);
    sb_puts(sb, "    if (W < 1 || H < 1 || D < 1)\n");
    sb_printf(sb, "        return %s_OK; /* an empty grid: nothing to do */\n", pk);
    sb_puts(sb, "\n    /* the launch (imcl_launch, as in the one-shot wrapper) between the events that time it */\n");
    sb_printf(sb, "    if (cudaEventRecord(%s->start) != cudaSuccess)\n        return %s_ERR_LAUNCH;\n", h, pk);
    sb_puts(sb, "    if (");
    cuda_launch_call(sb, e, plan_handle_of);
    sb_printf(sb, " != cudaSuccess ||\n        cudaEventRecord(%s->stop) != cudaSuccess || cudaEventSynchronize(%s->stop) != cudaSuccess)\n"
                  "        return %s_ERR_LAUNCH;\n", h, h, pk);
    sb_printf(sb, "    float imcl_ms = 0.0f;\n    if (cudaEventElapsedTime(&imcl_ms, %s->start, %s->stop) == cudaSuccess)\n"
                  "        %s->kernel_ms = imcl_ms;\n    return %s_OK;\n}\n\n", h, h, h, pk);
}

static void destroy(StrBuf *sb, const EmitCtx *e, const Symbol **arr, int n)
{
    plan_signature(sb, e, PLAN_DESTROY, NULL);
    sb_puts(sb, "\n{\n    if (!plan)\n        return;\n");
    if (n && any_texture(arr, n))
        sb_printf(sb, "    for (int i = 0; i < %d; i++) {\n        cudaFree(plan->buf[i]);\n"
                      "        if (plan->tex[i])\n            cudaDestroyTextureObject(plan->tex[i]);\n"
                      "        if (plan->array[i])\n            cudaFreeArray(plan->array[i]);\n    }\n", n);
    else if (n)
        sb_printf(sb, "    for (int i = 0; i < %d; i++)\n        cudaFree(plan->buf[i]);\n", n);
    sb_puts(sb, "    if (plan->events) {\n        cudaEventDestroy(plan->start);\n        cudaEventDestroy(plan->stop);\n    }\n"
                "    free(plan);\n}\n");
}

void plan_cuda_emit(StrBuf *sb, const EmitCtx *e)
{
    const Symbol *arr[e->k->nparams + 1];
    int n = plan_arrays(e->k, arr);
    sb_puts(sb, "\n/* ---- persistent plan: create once, launch many times (docs/wrappers.md) ---- */\n\n");
    plan_struct(sb, e, arr, n);
    memory_helpers(sb, e, arr, n);
    create(sb, e, arr, n);
    transfers(sb, e, arr, n);
    launch(sb, e);
    if (any_texture(arr, n))
        plan_swap_and_time(sb, e,
                           (const PlanSwapped[]){{"void *", "buf"}, {"cudaArray_t", "array"}, {"cudaTextureObject_t", "tex"}}, 3);
    else
        plan_swap_and_time(sb, e, (const PlanSwapped[]){{"void *", "buf"}}, 1);
    destroy(sb, e, arr, n);
}
