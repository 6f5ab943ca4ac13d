/* The persistent plan of the OpenCL backend, appended to K_host.c: a context, an
 * in-order queue with profiling, the program built once, one read-write buffer
 * per array. It uses imcl_device, imcl_source and imcl_log, which K_host.c
 * defines for the one-shot wrapper above it. */
#include "emit.h"

static void fail(StrBuf *sb, const char *cond, const char *pk, const char *code)
{
    sb_printf(sb, "    if (%s) {\n        imcl_status = %s_%s;\n        goto fail;\n    }\n", cond, pk, code);
}

static void plan_struct(StrBuf *sb, const EmitCtx *e, int n)
{
    Arena *a = e->a;
    sb_printf(sb, "struct %s_plan {\n", e->host_name);
    plan_member(sb, "cl_context context", NULL);
    plan_member(sb, "cl_command_queue queue", "in order, with profiling for the kernel time");
    plan_member(sb, "cl_program program", NULL);
    plan_member(sb, "cl_kernel kernel", NULL);
    if (n) {
        plan_member(sb, arena_printf(a, "cl_mem buf[%d]", n), "the device buffer of each array, by plan_array id");
        plan_member(sb, arena_printf(a, "size_t bytes[%d]", n), "its size");
        plan_member(sb, arena_printf(a, "int extent[%d][3]", n), "its extents as given to plan_create");
    }
    plan_member(sb, "double kernel_ms", "device time of the last launch");
    sb_puts(sb, "};\n\n");
}

static void create(StrBuf *sb, const EmitCtx *e, int n)
{
    const char *pk = e->host_name;
    plan_signature(sb, e, PLAN_CREATE, NULL);
    sb_printf(sb, "\n{\n    if (!plan)\n        return %s_ERR_ARGUMENT;\n    *plan = NULL;\n", pk);
    plan_create_checks(sb, e, 1);
    sb_printf(sb, "    %s_plan *p = (%s_plan *)calloc(1, sizeof *p);\n", pk, pk);
    sb_printf(sb, "    if (!p)\n        return %s_ERR_MEMORY;\n", pk);
    plan_record_sizes(sb, e, "p", 1);
    sb_printf(sb, "    int imcl_status = %s_OK;\n", pk);
    sb_puts(sb, "    cl_int imcl_err = CL_SUCCESS;\n    cl_device_id imcl_dev;\n    const char *imcl_src = imcl_source;\n");
    sb_puts(sb, "    imcl_log[0] = 0;\n");
    fail(sb, "imcl_device(&imcl_dev) != 0", pk, "ERR_DEVICE");
    sb_puts(sb, "    p->context = clCreateContext(NULL, 1, &imcl_dev, NULL, NULL, &imcl_err);\n");
    fail(sb, "!p->context", pk, "ERR_DEVICE");
    sb_puts(sb, "    p->queue = clCreateCommandQueue(p->context, imcl_dev, CL_QUEUE_PROFILING_ENABLE, &imcl_err);\n");
    fail(sb, "!p->queue", pk, "ERR_DEVICE");
    sb_puts(sb, "\n    /* build the program once; the log is kept for build_log() */\n");
    sb_puts(sb, "    p->program = clCreateProgramWithSource(p->context, 1, &imcl_src, NULL, &imcl_err);\n");
    fail(sb, "!p->program", pk, "ERR_BUILD");
    sb_puts(sb, "    if (clBuildProgram(p->program, 1, &imcl_dev, \"-cl-std=CL1.2\", NULL, NULL) != CL_SUCCESS) {\n");
    sb_puts(sb, "        clGetProgramBuildInfo(p->program, imcl_dev, CL_PROGRAM_BUILD_LOG, sizeof imcl_log - 1, imcl_log, NULL);\n");
    sb_printf(sb, "        imcl_status = %s_ERR_BUILD;\n        goto fail;\n    }\n", pk);
    sb_printf(sb, "    p->kernel = clCreateKernel(p->program, \"%s\", &imcl_err);\n", unparse_kernel_name(e->k));
    fail(sb, "!p->kernel", pk, "ERR_BUILD");
    if (n) {
        sb_puts(sb, "\n    /* one buffer per array, read-write whatever the kernel does with the array (a\n"
                    "     * swap may hand a read-only array the buffer of a written one), zero-filled */\n");
        for (int i = 0; i < n; i++) {
            sb_printf(sb, "    p->buf[%d] = clCreateBuffer(p->context, CL_MEM_READ_WRITE, p->bytes[%d], NULL, &imcl_err);\n", i, i);
            fail(sb, arena_printf(e->a, "!p->buf[%d]", i), pk, "ERR_MEMORY");
        }
        sb_puts(sb, "    {\n        const cl_uchar imcl_zero = 0;\n");
        sb_printf(sb, "        for (int i = 0; i < %d && imcl_err == CL_SUCCESS; i++)\n", n);
        sb_puts(sb, "            imcl_err = clEnqueueFillBuffer(p->queue, p->buf[i], &imcl_zero, 1, 0, p->bytes[i], 0, NULL, NULL);\n"
                    "        if (imcl_err == CL_SUCCESS)\n            imcl_err = clFinish(p->queue);\n    }\n");
        fail(sb, "imcl_err != CL_SUCCESS", pk, "ERR_TRANSFER");
    }
    sb_printf(sb, "    *plan = p;\n    return %s_OK;\n\nfail:\n    %s_plan_destroy(p);\n    return imcl_status;\n}\n\n", pk, pk);
}

static void transfers(StrBuf *sb, const EmitCtx *e, const Symbol **arr, int n)
{
    const char *pk = e->host_name;
    for (int i = 0; i < n; i++) {
        plan_signature(sb, e, PLAN_UPLOAD, arr[i]);
        sb_printf(sb, "\n{\n    if (!plan || !host)\n        return %s_ERR_ARGUMENT;\n", pk);
        sb_printf(sb, "    if (clEnqueueWriteBuffer(plan->queue, plan->buf[%d], CL_TRUE, 0, plan->bytes[%d], host, 0, NULL, NULL) != CL_SUCCESS)\n", i, i);
        sb_printf(sb, "        return %s_ERR_TRANSFER;\n    return %s_OK;\n}\n\n", pk, pk);
        plan_signature(sb, e, PLAN_DOWNLOAD, arr[i]);
        sb_printf(sb, "\n{\n    if (!plan || !host)\n        return %s_ERR_ARGUMENT;\n", pk);
        sb_printf(sb, "    if (clEnqueueReadBuffer(plan->queue, plan->buf[%d], CL_TRUE, 0, plan->bytes[%d], host, 0, NULL, NULL) != CL_SUCCESS)\n", i, i);
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
    sb_puts(sb, "\n    /* arguments in the kernel's order; buffers are set at every launch, since a\n"
                "     * swap may have exchanged them */\n");
    sb_puts(sb, "    cl_int imcl_err = CL_SUCCESS;\n");
    const Symbol *order[k->nparams + 1];
    int n = host_public_params(k, order);
    int arg = 0, ai = 0;
    for (int j = 0; j < n; j++) {
        const Symbol *s = order[j];
        const char *name = unparse_name(s);
        if (!host_is_array(s)) {
            sb_printf(sb, "    imcl_err |= clSetKernelArg(%s->kernel, %d, sizeof(%s), &%s);\n", h, arg++,
                      host_c_type(s->type->kind), name);
            continue;
        }
        sb_printf(sb, "    imcl_err |= clSetKernelArg(%s->kernel, %d, sizeof(cl_mem), &%s->buf[%d]);\n", h, arg++, h, ai++);
        if (type_is_grid(s->type))
            for (int d = 0; d < type_grid_dims(s->type); d++)
                sb_printf(sb, "    imcl_err |= clSetKernelArg(%s->kernel, %d, sizeof(int), &%s%s);\n", h, arg++, name,
                          unparse_extent_suffix(d));
    }
    for (int d = 0; d < 3; d++)
        sb_printf(sb, "    imcl_err |= clSetKernelArg(%s->kernel, %d, sizeof(int), &%c);\n", h, arg++, "WHD"[d]);
    sb_printf(sb, "    if (imcl_err != CL_SUCCESS)\n        return %s_ERR_LAUNCH;\n", pk);

    sb_puts(sb, "\n    /* one work-item per grid point, work-groups of the tuned shape (thesis eq. 3.7-3.9),\n"
                "     * as in the one-shot wrapper */\n");
    sb_printf(sb, "    const size_t imcl_local[3] = {%d, %d, %d};\n", tp->block[0], tp->block[1], tp->block[2]);
    sb_puts(sb, "    const size_t imcl_global[3] = {\n");
    for (int d = 0; d < 3; d++) {
        int step = tp->block[d] * tp->coarsen[d];
        sb_printf(sb, "        (size_t)((%c + %d - 1) / %d) * %d,\n", "WHD"[d], step, step, tp->block[d]);
    }
    sb_puts(sb, "    };\n    cl_event imcl_ev = NULL;\n");
    sb_printf(sb, "    imcl_err = clEnqueueNDRangeKernel(%s->queue, %s->kernel, %d, NULL, imcl_global, imcl_local, 0, NULL, &imcl_ev);\n",
              h, h, k->grid_dims);
    sb_puts(sb, "    if (imcl_err == CL_SUCCESS)\n        imcl_err = clWaitForEvents(1, &imcl_ev);\n");
    sb_puts(sb, "    /* the kernel time from the queue's profiling, in nanoseconds */\n");
    sb_puts(sb, "    cl_ulong imcl_start = 0, imcl_end = 0;\n");
    sb_puts(sb, "    if (imcl_err == CL_SUCCESS &&\n"
                "        clGetEventProfilingInfo(imcl_ev, CL_PROFILING_COMMAND_START, sizeof imcl_start, &imcl_start, NULL) == CL_SUCCESS &&\n"
                "        clGetEventProfilingInfo(imcl_ev, CL_PROFILING_COMMAND_END, sizeof imcl_end, &imcl_end, NULL) == CL_SUCCESS &&\n"
                "        imcl_end > imcl_start)\n");
    sb_printf(sb, "        %s->kernel_ms = (double)(imcl_end - imcl_start) * 1e-6;\n", h);
    sb_puts(sb, "    if (imcl_ev)\n        clReleaseEvent(imcl_ev);\n");
    sb_printf(sb, "    return imcl_err == CL_SUCCESS ? %s_OK : %s_ERR_LAUNCH;\n}\n\n", pk, pk);
}

static void destroy(StrBuf *sb, const EmitCtx *e, int n)
{
    plan_signature(sb, e, PLAN_DESTROY, NULL);
    sb_puts(sb, "\n{\n    if (!plan)\n        return;\n");
    if (n)
        sb_printf(sb, "    for (int i = 0; i < %d; i++)\n        if (plan->buf[i])\n            clReleaseMemObject(plan->buf[i]);\n", n);
    sb_puts(sb, "    if (plan->kernel)\n        clReleaseKernel(plan->kernel);\n"
                "    if (plan->program)\n        clReleaseProgram(plan->program);\n"
                "    if (plan->queue)\n        clReleaseCommandQueue(plan->queue);\n"
                "    if (plan->context)\n        clReleaseContext(plan->context);\n"
                "    free(plan);\n}\n");
}

void plan_opencl_emit(StrBuf *sb, const EmitCtx *e)
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
    plan_swap_and_time(sb, e, "cl_mem ");
    destroy(sb, e, n);
}
