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
#include "runtime_text/backend_cuda.h"

static void plan_struct(StrBuf *sb, const EmitCtx *e, int n)
{
    Arena *a = e->a;
    sb_printf(sb, "struct %s_plan {\n", e->host_name);
    if (n) {
        plan_member(sb, arena_printf(a, "void *buf[%d]", n), "the device buffer of each array in global or shared memory, by plan_array id");
        if (host_any(e->k, host_on_texture)) {
            plan_member(sb, arena_printf(a, "cudaArray_t array[%d]", n), "the CUDA array of each array in texture memory");
            plan_member(sb, arena_printf(a, "cudaTextureObject_t tex[%d]", n), "and the texture object over it");
        }
        plan_member(sb, arena_printf(a, "size_t bytes[%d]", n), "the bytes of each array");
        plan_member(sb, arena_printf(a, "int extent[%d][3]", n), "its extents as given to plan_create");
    }
    if (host_any(e->k, host_on_buffer))
        plan_member(sb, arena_printf(a, "int theirs[%d]", n),
                    "the buffer is the application's (PK_plan_use_memory): never freed here");
    plan_member(sb, "cudaStream_t stream", "of its copies and launches (imcl_stream at create)");
    plan_member(sb, "cudaEvent_t start, stop", "recorded around each launch");
    plan_member(sb, "int events", "start and stop exist");
    plan_member(sb, "int pending", "a launch still running (launch_batch_async)");
    plan_member(sb, "int capacity", "the blocks each Image and Block holds");
    plan_member(sb, "double kernel_ms", "device time of the last launch");
    sb_puts(sb, "};\n\n");
}

/* The zero-filled device memory of the arrays in global or shared memory (a
 * buffer: imcl_plan_buffer, runtime/plan_buffer.cuh) and in constant memory (the
 * kernel's symbol: imcl_plan_symbol, runtime/plan_symbol.cuh). */
static void memory_helpers(StrBuf *sb, const EmitCtx *e)
{
    if (host_any(e->k, host_on_buffer))
        host_runtime(sb, e, runtime_cuda_plan_buffer);
    if (host_any(e->k, host_on_constant))
        host_runtime(sb, e, runtime_cuda_plan_symbol);
}

static void create(StrBuf *sb, const EmitCtx *e, const Symbol **arr, int n)
{
    const char *pk = e->host_name;
    plan_begin(sb, e, PLAN_CREATE_BATCH, NULL);
    HostWriter w = host_writer(sb, 1);
    cuda_placement_checks(&w, e);
    sb_puts(sb, "    int imcl_devices = 0;\n");
    sb_puts(sb, "    if (cudaGetDeviceCount(&imcl_devices) != cudaSuccess || imcl_devices == 0)\n");
    sb_printf(sb, "        return %s_ERR_DEVICE;\n", pk);
    plan_create_alloc(&w, e);
    sb_printf(sb, "    int imcl_status = %s_OK;\n", pk);
    sb_puts(sb, "    p->stream = imcl_stream;\n");
    sb_puts(sb, "    if (cudaEventCreate(&p->start) != cudaSuccess)\n        goto device_failed;\n");
    sb_puts(sb, "    if (cudaEventCreate(&p->stop) != cudaSuccess) {\n        cudaEventDestroy(p->start);\n"
                "        goto device_failed;\n    }\n    p->events = 1;\n");
    if (n)
        sb_puts(sb, "\n    /* the device memory of each array, zero-filled */\n");
    for (int i = 0; i < n; i++) {
        const Symbol *s = arr[i];
        if (host_on_texture(s)) {
            cuda_texture_create(&w, e, s, arena_printf(e->a, "p->array[%d]", i), arena_printf(e->a, "p->tex[%d]", i),
                                "NULL");
        } else if (host_on_constant(s)) {
            sb_printf(sb, "    /* '%s' in constant memory: the kernel's __constant__ symbol, which every plan of\n"
                          "     * this kernel shares with %s */\n", s->name, pk);
            hw_line(&w, "imcl_status = imcl_plan_symbol(%s, p->bytes[%d]);", cuda_constant_name(e, s), i);
        } else {
            sb_printf(sb, "    /* '%s' in %s */\n", s->name,
                      s->mem == MEM_SHARED ? "shared memory: a buffer, from which the kernel loads its tiles"
                                           : "global memory: a buffer");
            hw_line(&w, "imcl_status = imcl_plan_buffer(&p->buf[%d], p->bytes[%d]);", i, i);
        }
        host_goto_unless_ok(&w, e, "fail");
    }
    sb_printf(sb, "    *plan = p;\n    return %s_OK;\n\n", pk);
    sb_printf(sb, "device_failed:\n    imcl_status = %s_ERR_DEVICE;\n", pk);
    sb_printf(sb, "%s    %s_plan_destroy(p);\n    return imcl_status;\n}\n\n", n ? "fail:\n" : "", pk);
}

/* The copies of upload and download, by placement (PlanCopyFailed). */
static const char *copy_failed(const EmitCtx *e, const Symbol *s, int i, bool up)
{
    Arena *a = e->a;
    if (host_on_texture(s))
        return arena_printf(a, "imcl_texture_copy(plan->array[%d], %shost, sizeof(%s), %s) != cudaSuccess", i,
                            up ? "(void *)" : "", unparse_c_type(s->type->elem->kind),
                            up ? "cudaMemcpyHostToDevice" : "cudaMemcpyDeviceToHost");
    if (host_on_constant(s) && up)
        return arena_printf(a, "cudaMemcpyToSymbol(%s, host, plan->bytes[%d]) != cudaSuccess", cuda_constant_name(e, s), i);
    if (host_on_constant(s))
        return arena_printf(a, "cudaMemcpyFromSymbol(host, %s, plan->bytes[%d]) != cudaSuccess", cuda_constant_name(e, s), i);
    if (up)
        return arena_printf(a, "imcl_copy(plan->buf[%d], host, plan->bytes[%d], cudaMemcpyHostToDevice, plan->stream)"
                            " != cudaSuccess", i, i);
    return arena_printf(a, "imcl_copy(host, plan->buf[%d], plan->bytes[%d], cudaMemcpyDeviceToHost, plan->stream)"
                        " != cudaSuccess", i, i);
}

/* The plan's names of the device objects in a launch. */
static const char *plan_handle_of(const EmitCtx *e, const Symbol *s, int id)
{
    const char *h = plan_handle(e->k);
    if (host_on_texture(s))
        return arena_printf(e->a, "%s->tex[%d]", h, id);
    return arena_printf(e->a, "(%s *)%s->buf[%d]", unparse_c_type(s->type->elem->kind), h, id);
}

/* PK_plan_launch_batch_async: the launch between the events that time it, returning at
 * once; PK_plan_wait waits for the second event. */
static void launch(StrBuf *sb, const EmitCtx *e)
{
    const char *pk = e->host_name;
    const Function *k = e->k;
    const char *h = plan_handle(k);
    plan_begin(sb, e, PLAN_LAUNCH_ASYNC, NULL);
    HostWriter w = host_writer(sb, 1);
    plan_launch_grid(&w, e, true);
    sb_puts(sb, "\n    /* the launch (imcl_launch, as in the one-shot wrapper) between the events that time it */\n");
    sb_printf(sb, "    if (cudaEventRecord(%s->start, %s->stream) != cudaSuccess)\n        return %s_ERR_LAUNCH;\n", h, h,
              pk);
    sb_puts(sb, "    if (");
    cuda_launch_call(sb, e, plan_handle_of, PLAN_COUNT, arena_printf(e->a, "%s->stream", h));
    sb_printf(sb, " != cudaSuccess ||\n        cudaEventRecord(%s->stop, %s->stream) != cudaSuccess)\n"
                  "        return %s_ERR_LAUNCH;\n", h, h, pk);
    sb_printf(sb, "    %s->pending = 1;\n    return %s_OK;\n}\n\n", h, pk);

    plan_signature(sb, e, PLAN_WAIT, NULL);
    sb_printf(sb, "\n{\n    if (!plan)\n        return %s_ERR_ARGUMENT;\n"
                  "    if (!plan->pending)\n        return %s_OK;\n    plan->pending = 0;\n"
                  "    if (cudaEventSynchronize(plan->stop) != cudaSuccess)\n        return %s_ERR_LAUNCH;\n",
              pk, pk, pk);
    sb_puts(sb, "    float imcl_ms = 0.0f;\n    if (cudaEventElapsedTime(&imcl_ms, plan->start, plan->stop) == cudaSuccess)\n"
                "        plan->kernel_ms = imcl_ms;\n");
    sb_printf(sb, "    return %s_OK;\n}\n\n", pk);
    plan_launch_and_wait(sb, e);
}

static void destroy(StrBuf *sb, const EmitCtx *e, int n)
{
    plan_signature(sb, e, PLAN_DESTROY, NULL);
    sb_puts(sb, "\n{\n    if (!plan)\n        return;\n");
    HostWriter w = host_writer(sb, 1);
    plan_settle(&w, e, "plan", false);
    const char *free_buf = host_any(e->k, host_on_buffer) ? "if (!plan->theirs[i])\n            cudaFree(plan->buf[i]);"
                                                          : "cudaFree(plan->buf[i]);";
    if (n && host_any(e->k, host_on_texture))
        sb_printf(sb, "    for (int i = 0; i < %d; i++) {\n        %s\n"
                      "        if (plan->tex[i])\n            cudaDestroyTextureObject(plan->tex[i]);\n"
                      "        if (plan->array[i])\n            cudaFreeArray(plan->array[i]);\n    }\n", n, free_buf);
    else if (n)
        sb_printf(sb, "    for (int i = 0; i < %d; i++) {\n        %s\n    }\n", n, free_buf);
    sb_puts(sb, "    if (plan->events) {\n        cudaEventDestroy(plan->start);\n        cudaEventDestroy(plan->stop);\n    }\n"
                "    free(plan);\n}\n");
}

/* The rows of a row table go through a host copy of the blocks transferred and one
 * cudaMemcpy: a copy per row would cost a call each (thousands per block). Textures
 * and constant copies go through a host copy of the array and its own transfers. */
static bool rows_mappable(const Symbol *s)
{
    return host_on_buffer(s);
}

static void rows_map(HostWriter *w, const EmitCtx *e, const char *t)
{
    const char *pk = e->host_name;
    hw_line(w, "imcl_dense = (%s *)malloc(imcl_n * sizeof(%s));", t, t);
    hw_line(w, "if (!imcl_dense)");
    hw_inner(w, "return %s_ERR_MEMORY;", pk);
    hw_line(w, "if (!imcl_up && imcl_copy(imcl_dense, (%s *)plan->buf[imcl_id] + imcl_off, imcl_n * sizeof(%s),", t, t);
    hw_line(w, "                          cudaMemcpyDeviceToHost, plan->stream) != cudaSuccess) {");
    hw_inner(w, "free(imcl_dense);");
    hw_inner(w, "return %s_ERR_TRANSFER;", pk);
    hw_line(w, "}");
}

static void rows_unmap(HostWriter *w, const EmitCtx *e, const char *t)
{
    hw_line(w, "if (imcl_up && imcl_status == %s_OK &&", e->host_name);
    hw_line(w, "    imcl_copy((%s *)plan->buf[imcl_id] + imcl_off, imcl_dense, imcl_n * sizeof(%s),", t, t);
    hw_line(w, "              cudaMemcpyHostToDevice, plan->stream) != cudaSuccess)");
    hw_inner(w, "imcl_status = %s_ERR_TRANSFER;", e->host_name);
    hw_line(w, "free(imcl_dense);");
}

/* PK_plan_attach: a CUDA device computes in its own memory (reading host memory over
 * the bus at every access would cost more than the copies it saves). */
static void attach(HostWriter *w, const EmitCtx *e)
{
    hw_line(w, "/* a CUDA device computes in its own memory: upload and download instead */");
    hw_line(w, "return %s_ERR_DEVICE;", e->host_name);
}

/* PK_plan_use_memory: the application's device pointer, which the plan never frees. */
static void use_memory(HostWriter *w, const EmitCtx *e)
{
    hw_line(w, "/* the array's memory until now: a buffer of the plan's own, or the application's */");
    hw_line(w, "if (!plan->theirs[a])");
    hw_inner(w, "cudaFree(plan->buf[a]);");
    hw_line(w, "plan->buf[a] = memory;");
    hw_line(w, "plan->theirs[a] = 1;");
    hw_line(w, "return %s_OK;", e->host_name);
}

void plan_cuda_emit(StrBuf *sb, const EmitCtx *e)
{
    const Symbol *arr[e->k->nparams + 1];
    int n = plan_arrays(e->k, arr);
    sb_puts(sb, "\n/* ---- persistent plan: create once, launch many times (docs/wrappers.md) ---- */\n\n");
    plan_struct(sb, e, n);
    plan_settle_helper(sb, e);
    memory_helpers(sb, e);
    create(sb, e, arr, n);
    plan_transfers(sb, e, copy_failed);
    plan_row_transfers(sb, e, &(PlanRowsAccess){rows_mappable, rows_map, rows_unmap});
    launch(sb, e);
    plan_create_and_launch(sb, e, NULL);
    plan_attach(sb, e, PLAN_ATTACH, attach);
    plan_attach(sb, e, PLAN_USE_MEMORY, use_memory);
    /* what a swap exchanges: the buffers (and whose they are), the CUDA arrays and textures */
    PlanSwapped swapped[4] = {{"void *", "buf"}};
    int nswapped = 1;
    if (host_any(e->k, host_on_buffer))
        swapped[nswapped++] = (PlanSwapped){"int", "theirs"};
    if (host_any(e->k, host_on_texture)) {
        swapped[nswapped++] = (PlanSwapped){"cudaArray_t", "array"};
        swapped[nswapped++] = (PlanSwapped){"cudaTextureObject_t", "tex"};
    }
    plan_swap_and_time(sb, e, swapped, nswapped);
    destroy(sb, e, n);
}
