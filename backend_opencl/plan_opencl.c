/* The persistent plan of the OpenCL backend, appended to K_host.c: a context, an
 * in-order queue with profiling, the program built once, and the device memory
 * of each array by its placement: a read-write buffer (global, shared and
 * constant memory: the kernel takes the last as a __constant argument), or an
 * image for texture memory. It calls what K_host.c defines for the one-shot
 * wrapper above it (imcl_device, imcl_build, imcl_check_placements, the image
 * helpers, imcl_launch), so that the two cannot drift apart. */
#include "host.h"
#include "opencl_host.h"
#include "plan.h"
#include "runtime_text/backend_opencl.h"

static void plan_struct(StrBuf *sb, const EmitCtx *e, int n)
{
    Arena *a = e->a;
    bool own = host_any(e->k, host_on_buffer);  /* arrays in buffers may get host memory */
    sb_printf(sb, "struct %s_plan {\n", e->host_name);
    plan_member(sb, "cl_context context", NULL);
    plan_member(sb, "cl_command_queue queue", "in order, with profiling for the kernel time");
    plan_member(sb, "cl_program program", NULL);
    plan_member(sb, "cl_kernel kernel", NULL);
    plan_member(sb, "cl_event pending", "the launch still running (launch_batch_async), or NULL");
    if (e->k_cpu)
        plan_member(sb, "int cpu", "the kernel is the CPU variant (imcl_cpu_device)");
    if (own)
        plan_member(sb, "cl_bool unified", "the device computes in host memory: arrays attach");
    if (n) {
        plan_member(sb, arena_printf(a, "cl_mem buf[%d]", n), "the buffer (image: texture memory) of each array, by plan_array id");
        plan_member(sb, arena_printf(a, "size_t bytes[%d]", n), "the bytes of each array");
        plan_member(sb, arena_printf(a, "int extent[%d][3]", n), "its extents as given to plan_create");
        plan_member(sb, arena_printf(a, "void *host[%d]", n),
                    "attached: the caller's memory (PK_plan_attach), or the plan's own");
        if (own)
            plan_member(sb, arena_printf(a, "void *own[%d]", n),
                        "host memory the plan allocated for the array (imcl_plan_memory)");
    }
    plan_member(sb, "int capacity", "the blocks each Image and Block holds");
    plan_member(sb, "double kernel_ms", "device time of the last launch");
    sb_puts(sb, "};\n\n");
    if (n)
        sb_printf(sb, "/* Releases array i's memory object (an attached one unmapped first)%s. */\n"
                      "static void imcl_plan_release(%s_plan *plan, int i)\n{\n"
                      "    if (plan->host[i]) {\n"
                      "        clEnqueueUnmapMemObject(plan->queue, plan->buf[i], plan->host[i], 0, NULL, NULL);\n"
                      "        clFinish(plan->queue);\n    }\n"
                      "    if (plan->buf[i])\n        clReleaseMemObject(plan->buf[i]);\n%s}\n\n",
                  own ? " and the host memory the plan allocated for it" : "", e->host_name,
                  own ? "    free(plan->own[i]);\n    plan->own[i] = NULL;\n" : "");
}

/* The helpers of attached arrays (PK_plan_attach): buffers over the caller's memory
 * (CL_MEM_USE_HOST_PTR), mapped into host memory between the plan's calls, where the
 * caller reads and writes them, and unmapped for a launch (OpenCL lets the host touch
 * such memory only while it is mapped). */
static void attached_helpers(StrBuf *sb, const EmitCtx *e, int n)
{
    const char *pk = e->host_name;
    sb_printf(sb, "/* Array a's whole storage to / from its memory: the caller's own when attached, else\n"
                  " * its buffer. */\n"
                  "static cl_int imcl_plan_copy(%s_plan *plan, int a, const void *from, void *to)\n{\n"
                  "    if (plan->host[a]) {\n"
                  "        memmove(from ? plan->host[a] : to, from ? from : plan->host[a], plan->bytes[a]);\n"
                  "        return CL_SUCCESS;\n    }\n"
                  "    return from ? clEnqueueWriteBuffer(plan->queue, plan->buf[a], CL_TRUE, 0, plan->bytes[a], from,\n"
                  "                                       0, NULL, NULL)\n"
                  "                : clEnqueueReadBuffer(plan->queue, plan->buf[a], CL_TRUE, 0, plan->bytes[a], to, 0,\n"
                  "                                      NULL, NULL);\n}\n\n", pk);
    sb_printf(sb, "/* The device's turn (unmap: 1) or the host's (map) of every attached array, enqueued\n"
                  " * (the caller waits for the queue). */\n"
                  "static cl_int imcl_plan_turn(%s_plan *plan, int unmap)\n{\n"
                  "    cl_int imcl_err = CL_SUCCESS;\n"
                  "    for (int i = 0; i < %d && imcl_err == CL_SUCCESS; i++) {\n"
                  "        if (!plan->host[i])\n            continue;\n"
                  "        if (unmap) {\n"
                  "            imcl_err = clEnqueueUnmapMemObject(plan->queue, plan->buf[i], plan->host[i], 0, NULL,\n"
                  "                    NULL);\n"
                  "            continue;\n        }\n"
                  "        void *imcl_at = clEnqueueMapBuffer(plan->queue, plan->buf[i], CL_FALSE,\n"
                  "                CL_MAP_READ | CL_MAP_WRITE, 0, plan->bytes[i], 0, NULL, NULL, &imcl_err);\n"
                  "        if (imcl_err == CL_SUCCESS && imcl_at != plan->host[i])\n"
                  "            imcl_err = CL_MAP_FAILURE;\n"
                  "    }\n    return imcl_err;\n}\n\n", pk, n);
    sb_printf(sb, "/* The memory of array i (in a buffer): on a device that computes in host memory, host\n"
                  " * memory of the plan's own, attached as PK_plan_attach attaches the caller's, so that\n"
                  " * uploads, downloads and row transfers are copies on the host with no command for the\n"
                  " * device to wake up for; elsewhere (or if the device will not compute in it) a buffer.\n"
                  " * Zero-filled either way. */\n"
                  "static int imcl_plan_memory(%s_plan *plan, int i)\n{\n"
                  "    /* whole pages: the alignment every device asks of host pointers, and more */\n"
                  "    const size_t imcl_page = 4096;\n"
                  "    void *imcl_mem = plan->unified\n"
                  "        ? aligned_alloc(imcl_page, (plan->bytes[i] + imcl_page - 1) / imcl_page * imcl_page)\n"
                  "        : NULL;\n"
                  "    if (imcl_mem) {\n"
                  "        memset(imcl_mem, 0, plan->bytes[i]);\n"
                  "        if (%s_plan_attach(plan, i, imcl_mem) == %s_OK) {\n"
                  "            plan->own[i] = imcl_mem;\n"
                  "            return %s_OK;\n"
                  "        }\n"
                  "        free(imcl_mem);\n"
                  "    }\n"
                  "    return imcl_plan_buffer(&plan->buf[i], plan->context, plan->queue, plan->bytes[i]);\n"
                  "}\n\n", pk, pk, pk, pk);
}

/* PK_plan_attach on a device with host-unified memory (imcl_kept.unified, taken at
 * create): a buffer over the caller's memory, which the map must give back as it is
 * (else the device would compute on a copy). */
static void attach(HostWriter *w, const EmitCtx *e)
{
    const char *pk = e->host_name;
    hw_line(w, "/* only where the device computes in host memory itself */");
    hw_line(w, "if (!plan->unified)");
    hw_inner(w, "return %s_ERR_DEVICE;", pk);
    hw_line(w, "cl_int imcl_err = CL_SUCCESS;");
    hw_line(w, "cl_mem imcl_buf = clCreateBuffer(plan->context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR,");
    hw_line(w, "        plan->bytes[a], host, &imcl_err);");
    hw_line(w, "if (!imcl_buf)");
    hw_inner(w, "return %s_ERR_MEMORY;", pk);
    hw_line(w, "void *imcl_mapped = clEnqueueMapBuffer(plan->queue, imcl_buf, CL_TRUE,");
    hw_line(w, "        CL_MAP_READ | CL_MAP_WRITE, 0, plan->bytes[a], 0, NULL, NULL, &imcl_err);");
    hw_line(w, "if (imcl_mapped != host) {");
    hw_inner(w, "if (imcl_mapped)");
    hw_inner(w, "    clEnqueueUnmapMemObject(plan->queue, imcl_buf, imcl_mapped, 0, NULL, NULL);");
    hw_inner(w, "clFinish(plan->queue);");
    hw_inner(w, "clReleaseMemObject(imcl_buf);");
    hw_inner(w, "return %s_ERR_DEVICE;", pk);
    hw_line(w, "}");
    hw_line(w, "/* the array's memory until now: a buffer of the plan's own, or an earlier attachment */");
    hw_line(w, "imcl_plan_release(plan, a);");
    hw_line(w, "plan->buf[a] = imcl_buf;");
    hw_line(w, "plan->host[a] = host;");
    hw_line(w, "return %s_OK;", pk);
}

static void create(StrBuf *sb, const EmitCtx *e, const Symbol **arr, int n)
{
    const char *pk = e->host_name;
    plan_begin(sb, e, PLAN_CREATE_BATCH, NULL);
    HostWriter w = host_writer(sb, 1);
    hw_line(&w, "imcl_log[0] = 0;");
    opencl_device_and_checks(&w, e);
    plan_create_alloc(&w, e);
    hw_line(&w, "int imcl_status = %s_OK;", pk);
    hw_line(&w, "cl_int imcl_err = CL_SUCCESS;");
    hw_line(&w, "/* the context and program of an earlier call or plan, or built now (imcl_keep), the");
    hw_line(&w, " * application's queue (%s_use_queue) or one with profiling of the plan's own, and a", pk);
    hw_line(&w, " * kernel object of the plan's own */");
    hw_line(&w, "imcl_status = imcl_keep(imcl_dev);");
    host_goto_unless_ok(&w, e, "fail");
    hw_line(&w, "p->context = imcl_kept.ctx;");
    hw_line(&w, "clRetainContext(p->context);");
    hw_line(&w, "p->program = imcl_kept.prog;");
    hw_line(&w, "clRetainProgram(p->program);");
    const char *kname = arena_printf(e->a, "\"%s\"", unparse_kernel_name(e->k));
    if (e->k_cpu) {
        hw_line(&w, "p->cpu = imcl_kept.cpu;");
        kname = arena_printf(e->a, "p->cpu ? \"%s_cpu\" : %s", unparse_kernel_name(e->k), kname);
    }
    if (host_any(e->k, host_on_buffer))
        hw_line(&w, "p->unified = imcl_kept.unified;");
    hw_line(&w, "if (imcl_kept.shared && clRetainCommandQueue(imcl_kept.queue) == CL_SUCCESS)");
    hw_inner(&w, "p->queue = imcl_kept.queue;");
    hw_line(&w, "else");
    hw_inner(&w, "p->queue = clCreateCommandQueue(p->context, imcl_dev, CL_QUEUE_PROFILING_ENABLE, &imcl_err);");
    host_fail(&w, e, "!p->queue", "ERR_DEVICE", "fail");
    hw_line(&w, "p->kernel = clCreateKernel(p->program, %s, &imcl_err);", kname);
    host_fail(&w, e, "!p->kernel", "ERR_BUILD", "fail");
    if (n)
        sb_puts(sb, "\n    /* the device memory of each array, zero-filled */\n");
    for (int i = 0; i < n; i++) {
        const Symbol *s = arr[i];
        if (host_on_texture(s)) {
            opencl_image_create(&w, e, s, "p->context", arena_printf(e->a, "p->buf[%d]", i), "NULL", "fail");
            continue;
        }
        sb_printf(sb, "    /* '%s' in %s */\n", s->name,
                  host_on_constant(s) ? "constant memory: a buffer, passed as a __constant argument"
                  : s->mem == MEM_SHARED ? "shared memory: a buffer, from which the kernel loads its tiles"
                                         : "global memory: a buffer");
        if (host_on_buffer(s))
            hw_line(&w, "imcl_status = imcl_plan_memory(p, %d);", i);
        else
            hw_line(&w, "imcl_status = imcl_plan_buffer(&p->buf[%d], p->context, p->queue, p->bytes[%d]);", i, i);
        host_goto_unless_ok(&w, e, "fail");
    }
    sb_printf(sb, "    *plan = p;\n    return %s_OK;\n\nfail:\n    %s_plan_destroy(p);\n    return imcl_status;\n}\n\n", pk, pk);
}

/* The copies of upload and download, by placement (PlanCopyFailed). */
static const char *copy_failed(const EmitCtx *e, const Symbol *s, int i, bool up)
{
    if (host_on_texture(s))
        return arena_printf(e->a, "imcl_image_%s(plan->queue, plan->buf[%d], host, sizeof(%s)) != CL_SUCCESS",
                            up ? "write" : "read", i, host_c_type(s->type->elem->kind));
    if (host_on_buffer(s))
        return arena_printf(e->a, "imcl_plan_copy(plan, %d, %s) != CL_SUCCESS", i, up ? "host, NULL" : "NULL, host");
    return arena_printf(e->a, "clEnqueue%sBuffer(plan->queue, plan->buf[%d], CL_TRUE, 0, plan->bytes[%d], host, 0, NULL, NULL) != CL_SUCCESS",
                        up ? "Write" : "Read", i, i);
}

/* The rows of a row table go straight into and out of a buffer mapped into host
 * memory (on a device that shares host memory, PoCL's, the buffer itself); an image
 * (texture memory) goes through a host copy. */
static bool rows_mappable(const Symbol *s)
{
    return !host_on_texture(s);
}

static void rows_map(HostWriter *w, const EmitCtx *e, const char *t)
{
    hw_line(w, "cl_int imcl_err = CL_SUCCESS;");
    hw_line(w, "/* host memory (the caller's, attached, or the plan's own) is mapped already */");
    hw_line(w, "imcl_dense = plan->host[imcl_id] ? (%s *)plan->host[imcl_id] + imcl_off", t);
    hw_inner(w, ": (%s *)clEnqueueMapBuffer(plan->queue, plan->buf[imcl_id], CL_TRUE,", t);
    hw_inner(w, "      imcl_up ? CL_MAP_WRITE_INVALIDATE_REGION : CL_MAP_READ, imcl_off * sizeof(%s),", t);
    hw_inner(w, "      imcl_n * sizeof(%s), 0, NULL, NULL, &imcl_err);", t);
    hw_line(w, "if (imcl_err != CL_SUCCESS || !imcl_dense)");
    hw_inner(w, "return %s_ERR_TRANSFER;", e->host_name);
}

static void rows_unmap(HostWriter *w, const EmitCtx *e, const char *t)
{
    (void)t;
    hw_line(w, "if (!plan->host[imcl_id] &&");
    hw_line(w, "        (clEnqueueUnmapMemObject(plan->queue, plan->buf[imcl_id], imcl_dense, 0, NULL, NULL)");
    hw_line(w, "                 != CL_SUCCESS || clFinish(plan->queue) != CL_SUCCESS))");
    hw_inner(w, "imcl_status = %s_ERR_TRANSFER;", e->host_name);
}

/* The plan's names of the device objects in a launch. */
static const char *plan_handle_of(const EmitCtx *e, const Symbol *s, int id)
{
    (void)s;
    return arena_printf(e->a, "%s->buf[%d]", plan_handle(e->k), id);
}

/* PK_plan_launch_batch_async: the launch enqueued and flushed, its event kept as the plan's
 * pending launch; PK_plan_wait ends it. */
static void launch(StrBuf *sb, const EmitCtx *e)
{
    const char *pk = e->host_name;
    const char *h = plan_handle(e->k);
    plan_begin(sb, e, PLAN_LAUNCH_ASYNC, NULL);
    HostWriter w = host_writer(sb, 1);
    plan_launch_grid(&w, e);
    sb_puts(sb, "\n    /* the launch (imcl_launch, as in the one-shot wrapper); the arguments are set at\n"
                "     * every launch, since a swap may have exchanged the arrays' memory */\n");
    bool attachable = host_any(e->k, host_on_buffer);
    sb_puts(sb, "    cl_int imcl_err = ");
    if (attachable) {
        sb_printf(sb, "imcl_plan_turn(%s, 1); /* attached arrays: the device's */\n", h);
        sb_puts(sb, "    if (imcl_err == CL_SUCCESS)\n        imcl_err = ");
    }
    opencl_launch_call(sb, e, arena_printf(e->a, "%s->queue", h), arena_printf(e->a, "%s->kernel", h),
                       arena_printf(e->a, "%s->cpu", h), plan_handle_of, PLAN_COUNT,
                       arena_printf(e->a, "&%s->pending", h));
    sb_puts(sb, ";\n");
    if (attachable)
        sb_printf(sb, "    /* attached arrays: the host's again after the kernel, with what it wrote (a map\n"
                      "     * that does not block: PK_plan_wait waits for it) */\n"
                      "    const cl_int imcl_back = imcl_plan_turn(%s, 0);\n"
                      "    if (imcl_err == CL_SUCCESS)\n        imcl_err = imcl_back;\n", h);
    sb_printf(sb, "    /* the device starts now, not at the wait */\n"
                  "    if (imcl_err == CL_SUCCESS)\n        imcl_err = clFlush(%s->queue);\n"
                  "    if (imcl_err != CL_SUCCESS) {\n        clFinish(%s->queue);\n"
                  "        if (%s->pending)\n            clReleaseEvent(%s->pending);\n"
                  "        %s->pending = NULL;\n        return %s_ERR_LAUNCH;\n    }\n"
                  "    return %s_OK;\n}\n\n", h, h, h, h, h, pk, pk);

    plan_signature(sb, e, PLAN_WAIT, NULL);
    sb_printf(sb, "\n{\n    if (!plan)\n        return %s_ERR_ARGUMENT;\n"
                  "    if (!plan->pending)\n        return %s_OK;\n"
                  "    cl_event imcl_ev = plan->pending;\n    plan->pending = NULL;\n", pk, pk);
    sb_puts(sb, "    /* one wait for the whole queue (each wait may put the host thread to sleep and wake\n"
                "     * it up again: tens of microseconds on a CPU device), then the launch's own status */\n"
                "    cl_int imcl_err = clFinish(plan->queue);\n"
                "    if (imcl_err == CL_SUCCESS)\n        imcl_err = clWaitForEvents(1, &imcl_ev);\n");
    sb_puts(sb, "    /* the kernel time from the queue's profiling, in nanoseconds */\n");
    sb_puts(sb, "    cl_ulong imcl_start = 0, imcl_end = 0;\n");
    sb_puts(sb, "    if (imcl_err == CL_SUCCESS &&\n"
                "        clGetEventProfilingInfo(imcl_ev, CL_PROFILING_COMMAND_START, sizeof imcl_start, &imcl_start, NULL) == CL_SUCCESS &&\n"
                "        clGetEventProfilingInfo(imcl_ev, CL_PROFILING_COMMAND_END, sizeof imcl_end, &imcl_end, NULL) == CL_SUCCESS &&\n"
                "        imcl_end > imcl_start)\n");
    sb_puts(sb, "        plan->kernel_ms = (double)(imcl_end - imcl_start) * 1e-6;\n");
    sb_printf(sb, "    clReleaseEvent(imcl_ev);\n    return imcl_err == CL_SUCCESS ? %s_OK : %s_ERR_LAUNCH;\n}\n\n", pk,
              pk);
    plan_launch_and_wait(sb, e);
}

static void destroy(StrBuf *sb, const EmitCtx *e, int n)
{
    plan_signature(sb, e, PLAN_DESTROY, NULL);
    sb_puts(sb, "\n{\n    if (!plan)\n        return;\n");
    HostWriter w = host_writer(sb, 1);
    plan_settle(&w, e, "plan", false);
    if (n)
        sb_printf(sb, "    for (int i = 0; i < %d; i++)\n        imcl_plan_release(plan, i);\n", n);
    sb_puts(sb, "    if (plan->kernel)\n        clReleaseKernel(plan->kernel);\n"
                "    if (plan->program)\n        clReleaseProgram(plan->program);\n"
                "    if (plan->queue)\n        clReleaseCommandQueue(plan->queue);\n"
                "    if (plan->context)\n        clReleaseContext(plan->context);\n"
                "    free(plan);\n}\n");
}

/* PK_plan_use_memory: the application's buffer, of the plan's context and large enough,
 * retained (the plan releases its reference, never the buffer). */
static void use_memory(HostWriter *w, const EmitCtx *e)
{
    const char *pk = e->host_name;
    hw_line(w, "cl_mem imcl_buf = (cl_mem)memory;");
    hw_line(w, "cl_context imcl_ctx = NULL;");
    hw_line(w, "size_t imcl_size = 0;");
    hw_line(w, "if (clGetMemObjectInfo(imcl_buf, CL_MEM_CONTEXT, sizeof imcl_ctx, &imcl_ctx, NULL) != CL_SUCCESS");
    hw_line(w, "        || clGetMemObjectInfo(imcl_buf, CL_MEM_SIZE, sizeof imcl_size, &imcl_size, NULL)");
    hw_line(w, "                != CL_SUCCESS");
    hw_line(w, "        || imcl_ctx != plan->context || imcl_size < plan->bytes[a]");
    hw_line(w, "        || clRetainMemObject(imcl_buf) != CL_SUCCESS)");
    hw_inner(w, "return %s_ERR_ARGUMENT;", pk);
    hw_line(w, "/* the array's memory until now: a buffer of the plan's own, or an earlier attachment */");
    hw_line(w, "imcl_plan_release(plan, a);");
    hw_line(w, "plan->buf[a] = imcl_buf;");
    hw_line(w, "plan->host[a] = NULL;");
    hw_line(w, "return %s_OK;", pk);
}

void plan_opencl_emit(StrBuf *sb, const EmitCtx *e)
{
    const Symbol *arr[e->k->nparams + 1];
    int n = plan_arrays(e->k, arr);
    sb_puts(sb, "\n/* ---- persistent plan: create once, launch many times (docs/wrappers.md) ---- */\n\n");
    plan_struct(sb, e, n);
    plan_settle_helper(sb, e);
    /* imcl_plan_buffer (runtime/plan_buffer.c): the zero-filled buffer of an array in
     * global, shared or constant memory */
    if (host_any(e->k, host_on_buffer) || host_any(e->k, host_on_constant))
        host_runtime(sb, e, runtime_opencl_plan_buffer);
    if (host_any(e->k, host_on_buffer))
        attached_helpers(sb, e, n);
    create(sb, e, arr, n);
    plan_transfers(sb, e, copy_failed);
    plan_row_transfers(sb, e, &(PlanRowsAccess){rows_mappable, rows_map, rows_unmap});
    launch(sb, e);
    plan_create_and_launch(sb, e);
    plan_attach(sb, e, PLAN_ATTACH, attach);
    plan_attach(sb, e, PLAN_USE_MEMORY, use_memory);
    plan_swap_and_time(sb, e, (const PlanSwapped[]){{"cl_mem", "buf"}, {"void *", "host"}, {"void *", "own"}},
                       !n ? 1 : host_any(e->k, host_on_buffer) ? 3 : 2);
    destroy(sb, e, n);
}
