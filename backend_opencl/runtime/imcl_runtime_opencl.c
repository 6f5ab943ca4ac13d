// The OpenCL host runtime, written once into every output folder of OpenCL kernels as
// imcl_runtime_opencl.c (backend_opencl.c; docs/architecture.md, "Host runtime"): what
// every K_host.c calls and nothing of any one kernel. Compiled on its own by the cases of
// tests/runtime. These // lines are not copied.
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
/* madvise and MADV_HUGEPAGE, which a strict -std=c11 hides */
#define _DEFAULT_SOURCE
#endif
#include "imcl_runtime_opencl.h"

#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "imcl_runtime_rows.h"

IMCL_CL_WEAK int imcl_cl_device(cl_device_id *dev)
{
    cl_platform_id platforms[16];
    cl_uint np = 0;
    if (clGetPlatformIDs(16, platforms, &np) != CL_SUCCESS || np == 0)
        return -1;
    if (np > 16)
        np = 16;
    const char *ep = getenv("IMCL_PLATFORM"), *ed = getenv("IMCL_DEVICE");
    if ((ep && *ep) || (ed && *ed)) {
        char *end;
        long p = ep && *ep ? strtol(ep, &end, 10) : 0;
        if ((ep && *ep && *end) || p < 0 || p >= (long)np)
            return -1;
        long d = ed && *ed ? strtol(ed, &end, 10) : 0;
        if ((ed && *ed && *end) || d < 0)
            return -1;
        cl_device_id devs[64];
        cl_uint nd = 0;
        if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 64, devs, &nd) != CL_SUCCESS)
            return -1;
        if (d >= (long)(nd < 64 ? nd : 64))
            return -1;
        *dev = devs[d];
        return 0;
    }
    for (cl_uint p = 0; p < np; p++)
        if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_GPU, 1, dev, NULL) == CL_SUCCESS)
            return 0;
    for (cl_uint p = 0; p < np; p++)
        if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 1, dev, NULL) == CL_SUCCESS)
            return 0;
    return -1;
}

IMCL_CL_WEAK void imcl_cl_row_fit(int W, int H, size_t widest, size_t most, size_t *bx,
                                  size_t *by)
{
    *bx = 8;
    *by = 1;
    while (*bx < (size_t)W && *bx < widest)
        *bx *= 2;
    while (*bx < widest && *by < (size_t)H && *bx * *by < most)
        *by *= 2;
}

IMCL_CL_WEAK int imcl_cl_choose(imcl_cl_kept *k, cl_device_id *dev)
{
    k->log[0] = 0;
    *dev = k->dev;
    return k->ready || imcl_cl_device(dev) == 0 ? IMCL_OK : IMCL_ERR_DEVICE;
}

/* 1 when the CPU variant of a kernel (KERNEL_cpu: rows of work-items, one guarded body)
 * suits device dev, that is on a device of type CPU; 0 for the default variant (every
 * other device). IMCL_VARIANT=cpu or gpu in the environment overrides the choice, to
 * compare the two or to test both on one device. */
static int imcl_cl_cpu_device(cl_device_id dev)
{
    const char *forced = getenv("IMCL_VARIANT");
    if (forced && strcmp(forced, "cpu") == 0)
        return 1;
    if (forced && strcmp(forced, "gpu") == 0)
        return 0;
    cl_device_type type = 0;
    if (clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof type, &type, NULL) != CL_SUCCESS)
        return 0;
    return (type & CL_DEVICE_TYPE_CPU) != 0;
}

/* Builds p's program for dev in ctx (a failed build leaves its log in k->log) and creates
 * its kernel named `name`. What it made is in *prog and *kern (else NULL), on failure
 * too: the caller releases them. Returns IMCL_OK or IMCL_ERR_BUILD. */
static int imcl_cl_build(imcl_cl_kept *k, const imcl_cl_program *p, cl_context ctx,
                         cl_device_id dev, const char *name, cl_program *prog, cl_kernel *kern)
{
    const char *src = p->source;
    cl_int err = CL_SUCCESS;
    *kern = NULL;
    *prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    if (!*prog)
        return IMCL_ERR_BUILD;
    if (clBuildProgram(*prog, 1, &dev, "-cl-std=CL1.2", NULL, NULL) != CL_SUCCESS) {
        clGetProgramBuildInfo(*prog, dev, CL_PROGRAM_BUILD_LOG, sizeof k->log - 1, k->log, NULL);
        return IMCL_ERR_BUILD;
    }
    *kern = clCreateKernel(*prog, name, &err);
    return *kern ? IMCL_OK : IMCL_ERR_BUILD;
}

/* Nothing kept, the build log left as it is. */
static void imcl_cl_forget(imcl_cl_kept *k)
{
    k->ready = 0;
    k->dev = NULL;
    k->ctx = NULL;
    k->queue = NULL;
    k->prog = NULL;
    k->kern = NULL;
    k->cpu = 0;
    k->unified = CL_FALSE;
    k->shared = 0;
}

IMCL_CL_WEAK int imcl_cl_keep(imcl_cl_kept *k, const imcl_cl_program *p, cl_device_id dev)
{
    if (k->ready)
        return IMCL_OK;
    int status = IMCL_OK;
    cl_int err = CL_SUCCESS;
    cl_context ctx = k->ctx; /* the application's, or NULL */
    cl_command_queue queue = k->queue;
    cl_program prog = NULL;
    cl_kernel kern = NULL;
    if (!ctx) {
        ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
        if (!ctx) {
            status = IMCL_ERR_DEVICE;
            goto fail;
        }
        queue = clCreateCommandQueue(ctx, dev, 0, &err);
        if (!queue) {
            status = IMCL_ERR_DEVICE;
            goto fail;
        }
    }
    /* the program, once, with the kernel's variant for this device */
    const int cpu = p->cpu_kernel && imcl_cl_cpu_device(dev);
    status = imcl_cl_build(k, p, ctx, dev, cpu ? p->cpu_kernel : p->kernel, &prog, &kern);
    if (status != IMCL_OK)
        goto fail;
    k->dev = dev;
    k->ctx = ctx;
    k->queue = queue;
    k->prog = prog;
    k->kern = kern;
    k->cpu = cpu;
    if (clGetDeviceInfo(dev, CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof k->unified, &k->unified, NULL)
            != CL_SUCCESS)
        k->unified = CL_FALSE;
    k->ready = 1;
    return IMCL_OK;

fail:
    if (kern)
        clReleaseKernel(kern);
    if (prog)
        clReleaseProgram(prog);
    if (queue)
        clReleaseCommandQueue(queue);
    if (ctx)
        clReleaseContext(ctx);
    imcl_cl_forget(k);
    return status;
}

IMCL_CL_WEAK void imcl_cl_release(imcl_cl_kept *k)
{
    if (!k->ready)
        return;
    clReleaseKernel(k->kern);
    clReleaseProgram(k->prog);
    clReleaseCommandQueue(k->queue);
    clReleaseContext(k->ctx);
    imcl_cl_forget(k);
}

IMCL_CL_WEAK int imcl_cl_use_queue(imcl_cl_kept *k, const imcl_cl_program *p, void *context,
                                   void *device, void *queue)
{
    if ((context || device || queue) && !(context && device && queue))
        return IMCL_ERR_ARGUMENT;
    imcl_cl_release(k);
    if (!context)
        return IMCL_OK; /* imcl's own device, context and queue from the next call */
    /* an in-order queue of that context: the plans' commands follow each other */
    cl_context qctx = NULL;
    cl_command_queue_properties props = 0;
    if (clGetCommandQueueInfo((cl_command_queue)queue, CL_QUEUE_CONTEXT, sizeof qctx, &qctx, NULL)
                    != CL_SUCCESS || qctx != (cl_context)context
            || clGetCommandQueueInfo((cl_command_queue)queue, CL_QUEUE_PROPERTIES, sizeof props,
                    &props, NULL) != CL_SUCCESS
            || (props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE))
        return IMCL_ERR_ARGUMENT;
    if (clRetainContext((cl_context)context) != CL_SUCCESS)
        return IMCL_ERR_ARGUMENT;
    if (clRetainCommandQueue((cl_command_queue)queue) != CL_SUCCESS) {
        clReleaseContext((cl_context)context);
        return IMCL_ERR_ARGUMENT;
    }
    k->ctx = (cl_context)context;
    k->queue = (cl_command_queue)queue;
    k->shared = 1;
    return imcl_cl_keep(k, p, (cl_device_id)device);
}

/* ---- image memory ---- */

/* n texels of `texel` bytes, each starting with an element of host of `bytes` bytes
 * (zeros when host is NULL), the rest zero: calloc'd, NULL when out of memory. */
static unsigned char *imcl_cl_stage(const void *host, size_t n, size_t bytes, size_t texel)
{
    unsigned char *texels = (unsigned char *)calloc(n, texel);
    if (texels && host)
        for (size_t i = 0; i < n; i++)
            memcpy(texels + i * texel, (const unsigned char *)host + i * bytes, bytes);
    return texels;
}

/* The image of array a of a kernel (one block of extent `extent`, halo included), read-only
 * for kernels (the host writes it), holding host's elements, or zeros when host is NULL.
 * NULL on failure, with the reason in *err. */
static cl_mem imcl_cl_image(cl_context ctx, const imcl_cl_layout *l, const int extent[3],
                            const void *host, cl_int *err)
{
    cl_image_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.image_type = l->dims == 3 ? CL_MEM_OBJECT_IMAGE3D : CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = (size_t)extent[0] + 2 * (size_t)l->halo;
    desc.image_height = (size_t)extent[1] + 2 * (size_t)l->halo;
    if (l->dims == 3)
        desc.image_depth = (size_t)extent[2] + 2 * (size_t)l->halo;
    const size_t n = desc.image_width * desc.image_height *
                     (desc.image_depth ? desc.image_depth : 1);
    unsigned char *texels = NULL;
    if (!host || l->elem != l->texel) {
        texels = imcl_cl_stage(host, n, l->elem, l->texel);
        if (!texels) {
            *err = CL_OUT_OF_HOST_MEMORY;
            return NULL;
        }
    }
    cl_mem img = clCreateImage(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &l->format, &desc,
                               texels ? (void *)texels : (void *)host, err);
    free(texels);
    return img;
}

/* The extents of image img in texels (depth 1 for a 2D image), and the bytes of a texel. */
static cl_int imcl_cl_image_region(cl_mem img, size_t region[3], size_t *texel)
{
    region[0] = region[1] = region[2] = 0;
    cl_int err = clGetImageInfo(img, CL_IMAGE_WIDTH, sizeof(size_t), &region[0], NULL);
    err |= clGetImageInfo(img, CL_IMAGE_HEIGHT, sizeof(size_t), &region[1], NULL);
    err |= clGetImageInfo(img, CL_IMAGE_DEPTH, sizeof(size_t), &region[2], NULL);
    err |= clGetImageInfo(img, CL_IMAGE_ELEMENT_SIZE, sizeof(size_t), texel, NULL);
    if (region[2] == 0)
        region[2] = 1;
    return err;
}

/* Copies host's elements of `bytes` each, `from`, into all of image img, or all of it
 * into host memory `to` (from NULL); blocks until done. */
static cl_int imcl_cl_image_copy(cl_command_queue queue, cl_mem img, const void *from, void *to,
                                 size_t bytes)
{
    const size_t origin[3] = {0, 0, 0};
    size_t region[3], texel = 0;
    cl_int err = imcl_cl_image_region(img, region, &texel);
    if (err != CL_SUCCESS)
        return err;
    if (texel == bytes)
        return from ? clEnqueueWriteImage(queue, img, CL_TRUE, origin, region, 0, 0, from, 0, NULL,
                                          NULL)
                    : clEnqueueReadImage(queue, img, CL_TRUE, origin, region, 0, 0, to, 0, NULL,
                                         NULL);
    const size_t n = region[0] * region[1] * region[2];
    unsigned char *texels = from ? imcl_cl_stage(from, n, bytes, texel)
                                 : (unsigned char *)malloc(n * texel);
    if (!texels)
        return CL_OUT_OF_HOST_MEMORY;
    if (from) {
        err = clEnqueueWriteImage(queue, img, CL_TRUE, origin, region, 0, 0, texels, 0, NULL, NULL);
    } else {
        err = clEnqueueReadImage(queue, img, CL_TRUE, origin, region, 0, 0, texels, 0, NULL, NULL);
        for (size_t i = 0; err == CL_SUCCESS && i < n; i++)
            memcpy((unsigned char *)to + i * bytes, texels + i * texel, bytes);
    }
    free(texels);
    return err;
}

/* ---- the one-shot wrapper ---- */

/* The memory of the first n arrays of a call of PK released. */
static void imcl_cl_call_release(int n, imcl_cl_array *a)
{
    for (int i = 0; i < n; i++)
        if (a[i].buf)
            clReleaseMemObject(a[i].buf);
}

IMCL_CL_WEAK int imcl_cl_call_begin(const imcl_cl_kept *k, int n, const imcl_cl_layout *layout,
                                    const int (*extent)[3], void *const *host, imcl_cl_array *a)
{
    memset(a, 0, (size_t)n * sizeof *a);
    for (int i = 0; i < n; i++) {
        const imcl_cl_layout *l = &layout[i];
        cl_int err = CL_SUCCESS;
        a[i].bytes = imcl_rows_bytes(l->dims, l->halo, l->elem, l->count, 1, extent[i]);
        if (l->where == IMCL_CL_IMAGE) {
            a[i].buf = imcl_cl_image(k->ctx, l, extent[i], host[i], &err);
        } else {
            /* a device that computes in host memory (PoCL's CPU device) works on the
             * caller's arrays themselves (CL_MEM_USE_HOST_PTR): nothing is copied on the
             * way in or out */
            const cl_mem_flags from = k->unified           ? CL_MEM_USE_HOST_PTR
                                    : l->use & IMCL_CL_IN ? CL_MEM_COPY_HOST_PTR
                                                           : 0;
            a[i].buf = clCreateBuffer(k->ctx,
                                      (l->use & IMCL_CL_WRITTEN ? CL_MEM_READ_WRITE
                                                                : CL_MEM_READ_ONLY) | from,
                                      a[i].bytes, from ? host[i] : NULL, &err);
        }
        if (!a[i].buf) {
            imcl_cl_call_release(i, a);
            return err == CL_IMAGE_FORMAT_NOT_SUPPORTED ? IMCL_ERR_DEVICE : IMCL_ERR_MEMORY;
        }
    }
    return IMCL_OK;
}

IMCL_CL_WEAK int imcl_cl_call_end(const imcl_cl_kept *k, int n, const imcl_cl_layout *layout,
                                  void *const *host, imcl_cl_array *a, cl_int err)
{
    int status = IMCL_OK;
    if (err == CL_SUCCESS)
        err = clFinish(k->queue);
    if (err != CL_SUCCESS)
        status = IMCL_ERR_LAUNCH;
    /* the copies of what the kernel wrote */
    for (int i = 0; i < n && status == IMCL_OK; i++)
        if ((layout[i].use & IMCL_CL_OUT)
                && clEnqueueReadBuffer(k->queue, a[i].buf, CL_TRUE, 0, a[i].bytes, host[i], 0,
                                       NULL, NULL) != CL_SUCCESS)
            status = IMCL_ERR_TRANSFER;
    imcl_cl_call_release(n, a);
    return status;
}

/* ---- the persistent plan ---- */

/* A launch still running (PK_plan_launch_batch_async) ends before any other call on the
 * plan goes on: nonzero when it failed. */
static int imcl_cl_plan_settle(imcl_cl_plan *plan)
{
    return plan->pending && imcl_cl_plan_wait(plan) != IMCL_OK;
}

/* Array a's memory object released (an attached one unmapped first), and the host memory
 * the plan allocated for it. */
static void imcl_cl_plan_release(imcl_cl_plan *plan, int a)
{
    imcl_cl_array *m = &plan->array[a];
    if (m->host) {
        clEnqueueUnmapMemObject(plan->queue, m->buf, m->host, 0, NULL, NULL);
        clFinish(plan->queue);
    }
    if (m->buf)
        clReleaseMemObject(m->buf);
    free(m->own);
    m->own = NULL;
}

/* A zero-filled buffer for array a, read-write whatever the kernel does with its array: a
 * swap may hand a read-only array the buffer of a written one. Returns IMCL_OK,
 * IMCL_ERR_MEMORY or IMCL_ERR_TRANSFER. */
static int imcl_cl_plan_buffer(imcl_cl_plan *plan, int a)
{
    imcl_cl_array *m = &plan->array[a];
    const cl_uchar zero = 0;
    cl_int err = CL_SUCCESS;
    m->buf = clCreateBuffer(plan->context, CL_MEM_READ_WRITE, m->bytes, NULL, &err);
    if (!m->buf)
        return IMCL_ERR_MEMORY;
    err = clEnqueueFillBuffer(plan->queue, m->buf, &zero, 1, 0, m->bytes, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clFinish(plan->queue);
    return err == CL_SUCCESS ? IMCL_OK : IMCL_ERR_TRANSFER;
}

/* The zero-filled image of array a (texture memory: one block). */
static int imcl_cl_plan_image(imcl_cl_plan *plan, int a)
{
    imcl_cl_array *m = &plan->array[a];
    cl_int err = CL_SUCCESS;
    m->buf = imcl_cl_image(plan->context, &plan->layout[a], m->extent, NULL, &err);
    if (!m->buf)
        return err == CL_IMAGE_FORMAT_NOT_SUPPORTED ? IMCL_ERR_DEVICE : IMCL_ERR_MEMORY;
    return IMCL_OK;
}

/* The memory of array a in a buffer, made at its first use (an upload, a transfer of
 * rows, a launch, PK_plan_memory), so that a plan whose arrays the application attaches
 * or gives (PK_plan_attach, PK_plan_use_memory) never makes memory of its own: on a device
 * that computes in host memory, host memory of the plan's own, attached as PK_plan_attach
 * attaches the caller's, so that uploads, downloads and row transfers are copies on the
 * host with no command for the device to wake up for; elsewhere (or if the device will not
 * compute in it) a buffer. Zero-filled either way. IMCL_OK where it has memory. */
static int imcl_cl_plan_allocate(imcl_cl_plan *plan, int a)
{
    imcl_cl_array *m = &plan->array[a];
    if (m->buf || plan->layout[a].where != IMCL_CL_BUFFER)
        return IMCL_OK;
    /* whole pages: the alignment every device asks of host pointers, and more; an array
     * of 4 MiB or more in huge pages where Linux has them (MADV_HUGEPAGE), so that where
     * its rows fall in the caches does not change from one run to the next */
    const size_t page = m->bytes >= (4u << 20) ? 2u << 20 : 4096;
    const size_t whole = (m->bytes + page - 1) / page * page;
    void *mem = plan->unified ? aligned_alloc(page, whole) : NULL;
    if (mem) {
#if defined(MADV_HUGEPAGE)
        if (page > 4096)
            madvise(mem, whole, MADV_HUGEPAGE);
#endif
        memset(mem, 0, m->bytes);
        if (imcl_cl_plan_attach(plan, a, mem) == IMCL_OK) {
            m->own = mem;
            return IMCL_OK;
        }
        free(mem);
    }
    return imcl_cl_plan_buffer(plan, a);
}

IMCL_CL_WEAK int imcl_cl_plan_create(imcl_cl_plan **plan, imcl_cl_kept *k,
                                     const imcl_cl_program *p, cl_device_id dev, int capacity,
                                     int n, const imcl_cl_layout *layout, const int (*extent)[3])
{
    *plan = NULL;
    imcl_cl_plan *q = (imcl_cl_plan *)calloc(1, sizeof *q + (size_t)n * sizeof(imcl_cl_array));
    if (!q)
        return IMCL_ERR_MEMORY;
    q->capacity = q->count = capacity;
    q->n = n;
    q->layout = layout;
    q->array = (imcl_cl_array *)(q + 1);
    /* the extents of each array and the bytes of its memory: capacity blocks of an Image
     * or Block, each its storage (halo included) */
    for (int i = 0; i < n; i++) {
        imcl_cl_array *m = &q->array[i];
        memcpy(m->extent, extent[i], sizeof m->extent);
        m->bytes = imcl_rows_bytes(layout[i].dims, layout[i].halo, layout[i].elem, layout[i].count,
                                   capacity, extent[i]);
    }
    int status = imcl_cl_keep(k, p, dev);
    cl_int err = CL_SUCCESS;
    if (status != IMCL_OK)
        goto fail;
    q->context = k->ctx;
    clRetainContext(q->context);
    q->program = k->prog;
    clRetainProgram(q->program);
    q->cpu = k->cpu;
    q->unified = k->unified;
    if (k->shared && clRetainCommandQueue(k->queue) == CL_SUCCESS)
        q->queue = k->queue;
    else
        q->queue = clCreateCommandQueue(q->context, dev, CL_QUEUE_PROFILING_ENABLE, &err);
    if (!q->queue) {
        status = IMCL_ERR_DEVICE;
        goto fail;
    }
    q->kernel = clCreateKernel(q->program, q->cpu ? p->cpu_kernel : p->kernel, &err);
    if (!q->kernel) {
        status = IMCL_ERR_BUILD;
        goto fail;
    }
    /* the device memory of each array in texture or constant memory, zero-filled (those in
     * buffers get theirs at their first use: imcl_cl_plan_allocate) */
    for (int i = 0; i < n && status == IMCL_OK; i++)
        if (layout[i].where != IMCL_CL_BUFFER)
            status = layout[i].where == IMCL_CL_IMAGE ? imcl_cl_plan_image(q, i)
                                                      : imcl_cl_plan_buffer(q, i);
    if (status != IMCL_OK)
        goto fail;
    *plan = q;
    return IMCL_OK;

fail:
    imcl_cl_plan_destroy(q);
    return status;
}

/* Array a's whole storage to / from its memory: its image, the caller's own memory when
 * attached, else its buffer. */
static cl_int imcl_cl_plan_copy(imcl_cl_plan *plan, int a, const void *from, void *to)
{
    imcl_cl_array *m = &plan->array[a];
    const size_t elem = plan->layout[a].elem;
    if (plan->layout[a].where == IMCL_CL_IMAGE)
        return imcl_cl_image_copy(plan->queue, m->buf, from, to, elem);
    if (m->host) {
        memmove(from ? m->host : to, from ? from : m->host, m->bytes);
        return CL_SUCCESS;
    }
    return from ? clEnqueueWriteBuffer(plan->queue, m->buf, CL_TRUE, 0, m->bytes, from, 0, NULL,
                                       NULL)
                : clEnqueueReadBuffer(plan->queue, m->buf, CL_TRUE, 0, m->bytes, to, 0, NULL, NULL);
}

IMCL_CL_WEAK int imcl_cl_plan_upload(imcl_cl_plan *plan, int a, const void *host)
{
    if (!plan || !host || a < 0 || a >= plan->n)
        return IMCL_ERR_ARGUMENT;
    if (imcl_cl_plan_settle(plan))
        return IMCL_ERR_LAUNCH;
    const int made = imcl_cl_plan_allocate(plan, a);
    if (made != IMCL_OK)
        return made;
    return imcl_cl_plan_copy(plan, a, host, NULL) == CL_SUCCESS ? IMCL_OK : IMCL_ERR_TRANSFER;
}

IMCL_CL_WEAK int imcl_cl_plan_download(imcl_cl_plan *plan, int a, void *host)
{
    if (!plan || !host || a < 0 || a >= plan->n)
        return IMCL_ERR_ARGUMENT;
    if (imcl_cl_plan_settle(plan))
        return IMCL_ERR_LAUNCH;
    const int made = imcl_cl_plan_allocate(plan, a);
    if (made != IMCL_OK)
        return made;
    return imcl_cl_plan_copy(plan, a, NULL, host) == CL_SUCCESS ? IMCL_OK : IMCL_ERR_TRANSFER;
}

IMCL_CL_WEAK int imcl_cl_plan_rows(imcl_cl_plan *plan, int a, int up, int first, int count,
                                   const void *tables, const void *src, void *dst,
                                   ptrdiff_t row_pitch, ptrdiff_t plane_pitch,
                                   ptrdiff_t block_pitch)
{
    if (!plan || a < 0 || a >= plan->n
            || imcl_rows_refused(plan->layout[a].dims, plan->capacity, up, first, count, tables,
                                 src, dst))
        return IMCL_ERR_ARGUMENT;
    if (imcl_cl_plan_settle(plan))
        return IMCL_ERR_LAUNCH;
    const int made = imcl_cl_plan_allocate(plan, a);
    if (made != IMCL_OK)
        return made;
    const imcl_cl_layout *l = &plan->layout[a];
    imcl_cl_array *m = &plan->array[a];
    const size_t elem = l->elem;
    imcl_rows_shape s;
    if (imcl_rows_shape_of(&s, l->dims, l->halo, m->extent, tables, row_pitch, plane_pitch,
                           block_pitch) != 0)
        return IMCL_ERR_ARGUMENT;
    const size_t off = (size_t)first * s.rows * s.w, n = (size_t)count * s.rows * s.w;
    if (n == 0)
        return IMCL_OK;
    int status = IMCL_OK;
    unsigned char *dense = NULL;
    cl_int err = CL_SUCCESS;
    if (l->where == IMCL_CL_IMAGE) {
        /* an image goes through a host copy of the array (one block: first is 0) */
        dense = (unsigned char *)malloc(m->bytes);
        if (!dense)
            return IMCL_ERR_MEMORY;
        if (!up && imcl_cl_plan_copy(plan, a, NULL, dense) != CL_SUCCESS)
            status = IMCL_ERR_TRANSFER;
    } else {
        /* host memory (the caller's, attached, or the plan's own) is mapped already */
        dense = m->host ? (unsigned char *)m->host + off * elem
            : (unsigned char *)clEnqueueMapBuffer(plan->queue, m->buf, CL_TRUE,
                  up ? CL_MAP_WRITE_INVALIDATE_REGION : CL_MAP_READ, off * elem, n * elem, 0,
                  NULL, NULL, &err);
        if (err != CL_SUCCESS || !dense)
            return IMCL_ERR_TRANSFER;
    }
    if (status == IMCL_OK)
        imcl_rows_copy(&s, dense, elem, count, up, tables, src, dst, row_pitch, plane_pitch,
                       block_pitch);
    if (l->where == IMCL_CL_IMAGE) {
        if (up && status == IMCL_OK && imcl_cl_plan_copy(plan, a, dense, NULL) != CL_SUCCESS)
            status = IMCL_ERR_TRANSFER;
        free(dense);
        return status;
    }
    if (!m->host && (clEnqueueUnmapMemObject(plan->queue, m->buf, dense, 0, NULL, NULL)
                             != CL_SUCCESS || clFinish(plan->queue) != CL_SUCCESS))
        status = IMCL_ERR_TRANSFER;
    return status;
}

IMCL_CL_WEAK int imcl_cl_plan_ready(imcl_cl_plan *plan, int count)
{
    if (!plan || count < 0 || count > plan->count)
        return IMCL_ERR_ARGUMENT;
    if (imcl_cl_plan_settle(plan))
        return IMCL_ERR_LAUNCH;
    plan->kernel_ms = 0.0;
    int status = IMCL_OK;
    for (int i = 0; i < plan->n && status == IMCL_OK; i++)
        status = imcl_cl_plan_allocate(plan, i);
    return status;
}

IMCL_CL_WEAK int imcl_cl_plan_select(imcl_cl_plan *plan, int count, const int *blocks)
{
    if (!plan || imcl_select_refused(plan->capacity, count, blocks))
        return IMCL_ERR_ARGUMENT;
    if (imcl_cl_plan_settle(plan))
        return IMCL_ERR_LAUNCH;
    cl_int err = CL_SUCCESS;
    if (blocks && !plan->list)
        plan->list = clCreateBuffer(plan->context, CL_MEM_READ_ONLY,
                                    sizeof(cl_int) * (size_t)plan->capacity, NULL, &err);
    if (blocks && !plan->list)
        return IMCL_ERR_MEMORY;
    /* (blocking: the caller may change its list as soon as this returns) */
    if (blocks && count && clEnqueueWriteBuffer(plan->queue, plan->list, CL_TRUE, 0,
                                                sizeof(cl_int) * (size_t)count, blocks, 0,
                                                NULL, NULL) != CL_SUCCESS)
        return IMCL_ERR_TRANSFER;
    const int status = imcl_select_keep(plan->capacity, count, blocks, &plan->selected,
                                        &plan->count);
    if (!plan->selected && plan->list) {
        clReleaseMemObject(plan->list);
        plan->list = NULL;
    }
    return status;
}

IMCL_CL_WEAK cl_int imcl_cl_plan_turn(imcl_cl_plan *plan, int unmap)
{
    cl_int err = CL_SUCCESS;
    for (int i = 0; i < plan->n && err == CL_SUCCESS; i++) {
        imcl_cl_array *m = &plan->array[i];
        if (!m->host)
            continue;
        if (unmap) {
            err = clEnqueueUnmapMemObject(plan->queue, m->buf, m->host, 0, NULL, NULL);
            continue;
        }
        void *at = clEnqueueMapBuffer(plan->queue, m->buf, CL_FALSE, CL_MAP_READ | CL_MAP_WRITE,
                                      0, m->bytes, 0, NULL, NULL, &err);
        if (err == CL_SUCCESS && at != m->host)
            err = CL_MAP_FAILURE;
    }
    return err;
}

IMCL_CL_WEAK int imcl_cl_plan_launched(imcl_cl_plan *plan, cl_int err)
{
    /* attached arrays: the host's again after the kernel, with what it wrote (a map that
     * does not block: PK_plan_wait waits for it) */
    const cl_int back = imcl_cl_plan_turn(plan, 0);
    if (err == CL_SUCCESS)
        err = back;
    /* the device starts now, not at the wait */
    if (err == CL_SUCCESS)
        err = clFlush(plan->queue);
    if (err != CL_SUCCESS) {
        clFinish(plan->queue);
        if (plan->pending)
            clReleaseEvent(plan->pending);
        plan->pending = NULL;
        return IMCL_ERR_LAUNCH;
    }
    return IMCL_OK;
}

/* The plan's kernel time from the queue's profiling (nanoseconds): from the start of
 * `first` to the end of `last`, both done. */
static void imcl_cl_plan_time(imcl_cl_plan *plan, cl_event first, cl_event last)
{
    cl_ulong start = 0, end = 0;
    if (clGetEventProfilingInfo(first, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL)
                    == CL_SUCCESS
            && clGetEventProfilingInfo(last, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL)
                    == CL_SUCCESS
            && end > start)
        plan->kernel_ms = (double)(end - start) * 1e-6;
}

IMCL_CL_WEAK int imcl_cl_plan_wait(imcl_cl_plan *plan)
{
    if (!plan)
        return IMCL_ERR_ARGUMENT;
    if (!plan->pending)
        return IMCL_OK;
    cl_event ev = plan->pending;
    plan->pending = NULL;
    /* one wait for the whole queue (each wait may put the host thread to sleep and wake
     * it up again: tens of microseconds on a CPU device), then the launch's own status */
    cl_int err = clFinish(plan->queue);
    if (err == CL_SUCCESS)
        err = clWaitForEvents(1, &ev);
    if (err == CL_SUCCESS)
        imcl_cl_plan_time(plan, ev, ev);
    clReleaseEvent(ev);
    return err == CL_SUCCESS ? IMCL_OK : IMCL_ERR_LAUNCH;
}

IMCL_CL_WEAK int imcl_cl_plan_steps_done(imcl_cl_plan *plan, cl_int err, cl_event first)
{
    /* a marker after the last launch: the kernel time runs from the first one's start to
     * its end */
    cl_event last = NULL;
    if (err == CL_SUCCESS)
        err = clEnqueueMarkerWithWaitList(plan->queue, 0, NULL, &last);
    const cl_int back = imcl_cl_plan_turn(plan, 0); /* attached arrays: the host's again */
    if (err == CL_SUCCESS)
        err = back;
    const cl_int done = clFinish(plan->queue);
    if (err == CL_SUCCESS)
        err = done;
    if (err == CL_SUCCESS && first && last)
        imcl_cl_plan_time(plan, first, last);
    if (first)
        clReleaseEvent(first);
    if (last)
        clReleaseEvent(last);
    return err == CL_SUCCESS ? IMCL_OK : IMCL_ERR_LAUNCH;
}

/* The checks of PK_plan_attach and PK_plan_use_memory: a plan, a pointer, array a in a
 * buffer (texture and constant memory are not the application's to give). */
static int imcl_cl_plan_attachable(imcl_cl_plan *plan, int a, const void *memory)
{
    if (!plan || !memory || a < 0 || a >= plan->n || plan->layout[a].where != IMCL_CL_BUFFER)
        return IMCL_ERR_ARGUMENT;
    return imcl_cl_plan_settle(plan) ? IMCL_ERR_LAUNCH : IMCL_OK;
}

IMCL_CL_WEAK int imcl_cl_plan_attach(imcl_cl_plan *plan, int a, void *host)
{
    const int status = imcl_cl_plan_attachable(plan, a, host);
    if (status != IMCL_OK)
        return status;
    /* only where the device computes in host memory itself */
    if (!plan->unified)
        return IMCL_ERR_DEVICE;
    imcl_cl_array *m = &plan->array[a];
    cl_int err = CL_SUCCESS;
    cl_mem buf = clCreateBuffer(plan->context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, m->bytes,
                                host, &err);
    if (!buf)
        return IMCL_ERR_MEMORY;
    /* the map must give back the caller's memory as it is (else the device would compute
     * on a copy) */
    void *mapped = clEnqueueMapBuffer(plan->queue, buf, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
                                      m->bytes, 0, NULL, NULL, &err);
    if (mapped != host) {
        if (mapped)
            clEnqueueUnmapMemObject(plan->queue, buf, mapped, 0, NULL, NULL);
        clFinish(plan->queue);
        clReleaseMemObject(buf);
        return IMCL_ERR_DEVICE;
    }
    /* the array's memory until now: a buffer of the plan's own, or an earlier attachment */
    imcl_cl_plan_release(plan, a);
    m->buf = buf;
    m->host = host;
    return IMCL_OK;
}

IMCL_CL_WEAK int imcl_cl_plan_use_memory(imcl_cl_plan *plan, int a, void *memory)
{
    const int status = imcl_cl_plan_attachable(plan, a, memory);
    if (status != IMCL_OK)
        return status;
    /* the application's buffer, of the plan's context and large enough, retained (the plan
     * releases its reference, never the buffer) */
    cl_mem buf = (cl_mem)memory;
    cl_context ctx = NULL;
    size_t size = 0;
    if (clGetMemObjectInfo(buf, CL_MEM_CONTEXT, sizeof ctx, &ctx, NULL) != CL_SUCCESS
            || clGetMemObjectInfo(buf, CL_MEM_SIZE, sizeof size, &size, NULL) != CL_SUCCESS
            || ctx != plan->context || size < plan->array[a].bytes
            || clRetainMemObject(buf) != CL_SUCCESS)
        return IMCL_ERR_ARGUMENT;
    /* the array's memory until now: a buffer of the plan's own, or an earlier attachment */
    imcl_cl_plan_release(plan, a);
    plan->array[a].buf = buf;
    plan->array[a].host = NULL;
    return IMCL_OK;
}

IMCL_CL_WEAK void *imcl_cl_plan_memory(imcl_cl_plan *plan, int a)
{
    if (!plan || a < 0 || a >= plan->n || plan->layout[a].where != IMCL_CL_BUFFER
            || imcl_cl_plan_allocate(plan, a) != IMCL_OK)
        return NULL;
    return (void *)plan->array[a].buf;
}

IMCL_CL_WEAK int imcl_cl_plan_swap(imcl_cl_plan *plan, int a, int b)
{
    if (!plan || a < 0 || a >= plan->n || b < 0 || b >= plan->n
            || plan->layout[a].swap_class < 0
            || plan->layout[a].swap_class != plan->layout[b].swap_class)
        return IMCL_ERR_ARGUMENT;
    imcl_cl_array *x = &plan->array[a], *y = &plan->array[b];
    for (int d = 0; d < 3; d++)
        if (x->extent[d] != y->extent[d])
            return IMCL_ERR_ARGUMENT;
    if (imcl_cl_plan_settle(plan))
        return IMCL_ERR_LAUNCH;
    imcl_cl_plan_exchange(plan, a, b);
    return IMCL_OK;
}

IMCL_CL_WEAK void imcl_cl_plan_exchange(imcl_cl_plan *plan, int a, int b)
{
    imcl_cl_array *x = &plan->array[a], *y = &plan->array[b];
    /* the arrays exchange their device memory; nothing is copied */
    cl_mem buf = x->buf;
    x->buf = y->buf;
    y->buf = buf;
    void *host = x->host;
    x->host = y->host;
    y->host = host;
    void *own = x->own;
    x->own = y->own;
    y->own = own;
}

IMCL_CL_WEAK double imcl_cl_plan_kernel_ms(const imcl_cl_plan *plan)
{
    return plan ? plan->kernel_ms : 0.0;
}

IMCL_CL_WEAK void imcl_cl_plan_destroy(imcl_cl_plan *plan)
{
    if (!plan)
        return;
    imcl_cl_plan_settle(plan);
    for (int i = 0; i < plan->n; i++)
        imcl_cl_plan_release(plan, i);
    if (plan->list)
        clReleaseMemObject(plan->list);
    free(plan->selected);
    if (plan->kernel)
        clReleaseKernel(plan->kernel);
    if (plan->program)
        clReleaseProgram(plan->program);
    if (plan->queue)
        clReleaseCommandQueue(plan->queue);
    if (plan->context)
        clReleaseContext(plan->context);
    free(plan);
}

IMCL_CL_WEAK const char *imcl_cl_strerror(int code)
{
    return imcl_runtime_strerror(code);
}
