// The CUDA host runtime, written once into every output folder of CUDA kernels as
// imcl_runtime_cuda.cu (backend_cuda.c; docs/architecture.md, "Host runtime"): what every
// K.cu calls and nothing of any one kernel. Compiled on its own by the cases of tests/runtime.
// These lines are not copied.
#include "imcl_runtime_cuda.h"

#include <stdlib.h>
#include <string.h>

#include "imcl_runtime_rows.h"

IMCL_CU_WEAK cudaError_t imcl_cu_copy(void *to, const void *from, size_t bytes,
                                      cudaMemcpyKind kind, cudaStream_t s)
{
    const cudaError_t err = cudaMemcpyAsync(to, from, bytes, kind, s);
    return err == cudaSuccess ? cudaStreamSynchronize(s) : err;
}

IMCL_CU_WEAK int imcl_cu_devices(void)
{
    int count = 0;
    return cudaGetDeviceCount(&count) == cudaSuccess && count > 0 ? IMCL_CU_OK
                                                                 : IMCL_CU_ERR_DEVICE;
}

/* ---- texture memory ---- */

IMCL_CU_WEAK cudaError_t imcl_cu_texture_copy(cudaArray_t a, void *host, size_t bytes,
                                              cudaMemcpyKind kind)
{
    cudaChannelFormatDesc format;
    cudaExtent extent;
    unsigned int flags = 0;
    const cudaError_t err = cudaArrayGetInfo(&format, &extent, &flags, a);
    if (err != cudaSuccess)
        return err;
    const size_t pitch = extent.width * bytes;
    if (extent.depth == 0) {
        if (kind == cudaMemcpyHostToDevice)
            return cudaMemcpy2DToArray(a, 0, 0, host, pitch, pitch, extent.height, kind);
        return cudaMemcpy2DFromArray(host, pitch, a, 0, 0, pitch, extent.height, kind);
    }
    cudaMemcpy3DParms copy;
    memset(&copy, 0, sizeof copy);
    const cudaPitchedPtr at = make_cudaPitchedPtr(host, pitch, extent.width, extent.height);
    if (kind == cudaMemcpyHostToDevice) {
        copy.srcPtr = at;
        copy.dstArray = a;
    } else {
        copy.srcArray = a;
        copy.dstPtr = at;
    }
    copy.extent = extent;
    copy.kind = kind;
    return cudaMemcpy3D(&copy);
}

IMCL_CU_WEAK int imcl_cu_texture_create(cudaArray_t *a, cudaTextureObject_t *t,
                                        cudaChannelFormatDesc format, cudaExtent extent,
                                        cudaTextureAddressMode mode, const void *host,
                                        size_t bytes)
{
    *t = 0;
    const cudaError_t alloc = extent.depth == 0
                                  ? cudaMallocArray(a, &format, extent.width, extent.height)
                                  : cudaMalloc3DArray(a, &format, extent, 0);
    if (alloc != cudaSuccess) {
        *a = NULL;
        return IMCL_CU_ERR_MEMORY;
    }
    void *zeros = NULL;
    if (!host) {
        zeros = calloc(extent.width * extent.height * (extent.depth ? extent.depth : 1), bytes);
        if (!zeros)
            return IMCL_CU_ERR_MEMORY;
    }
    const cudaError_t err =
        imcl_cu_texture_copy(*a, host ? (void *)host : zeros, bytes, cudaMemcpyHostToDevice);
    free(zeros);
    if (err != cudaSuccess)
        return IMCL_CU_ERR_TRANSFER;
    struct cudaResourceDesc res;
    memset(&res, 0, sizeof res);
    res.resType = cudaResourceTypeArray;
    res.res.array.array = *a;
    struct cudaTextureDesc desc;
    memset(&desc, 0, sizeof desc);
    for (int d = 0; d < 3; d++)
        desc.addressMode[d] = mode;
    desc.filterMode = cudaFilterModePoint;
    desc.readMode = cudaReadModeElementType;
    desc.normalizedCoords = 0;
    if (cudaCreateTextureObject(t, &res, &desc, NULL) != cudaSuccess) {
        *t = 0;
        return IMCL_CU_ERR_MEMORY;
    }
    return IMCL_CU_OK;
}

/* ---- device memory ---- */

/* The device memory of an array of layout l into m (its extents and bytes set): a buffer,
 * the kernel's __constant__ copy, or a CUDA array with its texture object, holding host's
 * elements, or when host is NULL zeros (a buffer only with `zero`: else as allocated).
 * The data are in place when it returns: a cudaMemset may still run when it returns, and
 * a launch into a stream of the application's (PK_use_queue) need not wait for it. */
static int imcl_cu_memory(const imcl_cu_layout *l, imcl_cu_array *m, const void *host,
                          int zero, cudaStream_t s)
{
    if (l->where == IMCL_CU_TEXTURE) {
        const size_t w = (size_t)m->extent[0] + 2 * (size_t)l->halo;
        const size_t h = (size_t)m->extent[1] + 2 * (size_t)l->halo;
        const size_t d = l->dims == 3 ? (size_t)m->extent[2] + 2 * (size_t)l->halo : 0;
        return imcl_cu_texture_create(&m->array, &m->tex, l->format, make_cudaExtent(w, h, d),
                                      l->address, host, l->elem);
    }
    void *zeros = NULL;
    if (l->where == IMCL_CU_CONSTANT) {
        if (!host && !(zeros = calloc(1, m->bytes)))
            return IMCL_CU_ERR_MEMORY;
        const cudaError_t err = cudaMemcpyToSymbol(l->symbol, host ? host : zeros, m->bytes);
        free(zeros);
        return err == cudaSuccess ? IMCL_CU_OK : IMCL_CU_ERR_TRANSFER;
    }
    if (cudaMalloc(&m->buf, m->bytes) != cudaSuccess) {
        m->buf = NULL;
        return IMCL_CU_ERR_MEMORY;
    }
    if (host)
        return imcl_cu_copy(m->buf, host, m->bytes, cudaMemcpyHostToDevice, s) == cudaSuccess
                   ? IMCL_CU_OK
                   : IMCL_CU_ERR_TRANSFER;
    if (!zero)
        return IMCL_CU_OK;
    return cudaMemset(m->buf, 0, m->bytes) == cudaSuccess
                   && cudaDeviceSynchronize() == cudaSuccess
               ? IMCL_CU_OK
               : IMCL_CU_ERR_TRANSFER;
}

/* Frees what imcl_cu_memory made for m (a buffer of the application's excepted). */
static void imcl_cu_free(imcl_cu_array *m)
{
    if (!m->theirs)
        cudaFree(m->buf);
    if (m->tex)
        cudaDestroyTextureObject(m->tex);
    if (m->array)
        cudaFreeArray(m->array);
}

/* ---- the one-shot wrapper ---- */

IMCL_CU_WEAK int imcl_cu_call_begin(cudaStream_t s, int n, const imcl_cu_layout *layout,
                                    const int (*extent)[3], void *const *host, imcl_cu_array *a)
{
    memset(a, 0, (size_t)n * sizeof *a);
    if (imcl_cu_devices() != IMCL_CU_OK)
        return IMCL_CU_ERR_DEVICE;
    for (int i = 0; i < n; i++) {
        const imcl_cu_layout *l = &layout[i];
        memcpy(a[i].extent, extent[i], sizeof a[i].extent);
        a[i].bytes = imcl_rows_bytes(l->dims, l->halo, l->elem, l->count, 1, extent[i]);
        /* (a buffer the kernel overwrites in full starts as it may, unset; textures and
         * constant copies are read, IMCL_CU_IN) */
        const int status =
            imcl_cu_memory(l, &a[i], l->use & IMCL_CU_IN ? host[i] : NULL, 0, s);
        if (status != IMCL_CU_OK) {
            for (int j = 0; j <= i; j++)
                imcl_cu_free(&a[j]);
            return status;
        }
    }
    return IMCL_CU_OK;
}

IMCL_CU_WEAK int imcl_cu_call_end(cudaStream_t s, int n, const imcl_cu_layout *layout,
                                  void *const *host, imcl_cu_array *a, cudaError_t err)
{
    int status = err == cudaSuccess && cudaStreamSynchronize(s) == cudaSuccess
                     ? IMCL_CU_OK
                     : IMCL_CU_ERR_LAUNCH;
    /* the copies of what the kernel wrote */
    for (int i = 0; i < n && status == IMCL_CU_OK; i++)
        if ((layout[i].use & IMCL_CU_OUT)
                && imcl_cu_copy(host[i], a[i].buf, a[i].bytes, cudaMemcpyDeviceToHost, s)
                       != cudaSuccess)
            status = IMCL_CU_ERR_TRANSFER;
    for (int i = 0; i < n; i++)
        imcl_cu_free(&a[i]);
    return status;
}

/* ---- the persistent plan ---- */

/* A launch still running (PK_plan_launch_batch_async) ends before any other call on the
 * plan goes on: nonzero when it failed. */
static int imcl_cu_plan_settle(imcl_cu_plan *plan)
{
    return plan->pending && imcl_cu_plan_wait(plan) != IMCL_CU_OK;
}

/* The device memory of array a in a buffer, made at its first use (an upload, a transfer
 * of rows, a launch, PK_plan_memory) from host's elements, or zero-filled when host is
 * NULL; so a plan whose arrays the application gives (PK_plan_use_memory) right after the
 * create never makes memory of its own. IMCL_CU_OK where the array has memory. */
static int imcl_cu_plan_allocate(imcl_cu_plan *plan, int a, const void *host)
{
    imcl_cu_array *m = &plan->array[a];
    if (m->buf || plan->layout[a].where != IMCL_CU_BUFFER)
        return IMCL_CU_OK;
    return imcl_cu_memory(&plan->layout[a], m, host, 1, plan->stream);
}

IMCL_CU_WEAK int imcl_cu_plan_create(imcl_cu_plan **plan, cudaStream_t stream, int capacity,
                                     int n, const imcl_cu_layout *layout,
                                     const int (*extent)[3])
{
    *plan = NULL;
    if (imcl_cu_devices() != IMCL_CU_OK)
        return IMCL_CU_ERR_DEVICE;
    imcl_cu_plan *q = (imcl_cu_plan *)calloc(1, sizeof *q + (size_t)n * sizeof(imcl_cu_array));
    if (!q)
        return IMCL_CU_ERR_MEMORY;
    q->capacity = q->count = capacity;
    q->n = n;
    q->layout = layout;
    q->array = (imcl_cu_array *)(q + 1);
    q->stream = stream;
    int status = IMCL_CU_OK;
    if (cudaEventCreate(&q->start) != cudaSuccess) {
        status = IMCL_CU_ERR_DEVICE;
        goto fail;
    }
    if (cudaEventCreate(&q->stop) != cudaSuccess) {
        cudaEventDestroy(q->start);
        status = IMCL_CU_ERR_DEVICE;
        goto fail;
    }
    q->events = 1;
    /* the extents of each array, and the device memory of those in texture or constant
     * memory, zero-filled: capacity blocks of an Image or Block, each its storage (halo
     * included); an array in a buffer gets its memory at its first use
     * (imcl_cu_plan_allocate) */
    for (int i = 0; i < n && status == IMCL_CU_OK; i++) {
        imcl_cu_array *m = &q->array[i];
        memcpy(m->extent, extent[i], sizeof m->extent);
        m->bytes = imcl_rows_bytes(layout[i].dims, layout[i].halo, layout[i].elem,
                                   layout[i].count, capacity, extent[i]);
        if (layout[i].where != IMCL_CU_BUFFER)
            status = imcl_cu_memory(&layout[i], m, NULL, 1, q->stream);
    }
    if (status != IMCL_CU_OK)
        goto fail;
    *plan = q;
    return IMCL_CU_OK;

fail:
    imcl_cu_plan_destroy(q);
    return status;
}

/* All of array a's device memory from `from` or into `to` (the other NULL). */
static cudaError_t imcl_cu_plan_copy(imcl_cu_plan *plan, int a, const void *from, void *to)
{
    const imcl_cu_layout *l = &plan->layout[a];
    imcl_cu_array *m = &plan->array[a];
    if (l->where == IMCL_CU_TEXTURE)
        return imcl_cu_texture_copy(m->array, from ? (void *)from : to, l->elem,
                                    from ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost);
    if (l->where == IMCL_CU_CONSTANT)
        return from ? cudaMemcpyToSymbol(l->symbol, from, m->bytes)
                    : cudaMemcpyFromSymbol(to, l->symbol, m->bytes);
    return from ? imcl_cu_copy(m->buf, from, m->bytes, cudaMemcpyHostToDevice, plan->stream)
                : imcl_cu_copy(to, m->buf, m->bytes, cudaMemcpyDeviceToHost, plan->stream);
}

IMCL_CU_WEAK int imcl_cu_plan_upload(imcl_cu_plan *plan, int a, const void *host)
{
    if (!plan || !host || a < 0 || a >= plan->n)
        return IMCL_CU_ERR_ARGUMENT;
    if (imcl_cu_plan_settle(plan))
        return IMCL_CU_ERR_LAUNCH;
    /* the first use of an array in a buffer: its memory made from host, with no zero fill */
    if (!plan->array[a].buf && plan->layout[a].where == IMCL_CU_BUFFER)
        return imcl_cu_plan_allocate(plan, a, host);
    return imcl_cu_plan_copy(plan, a, host, NULL) == cudaSuccess ? IMCL_CU_OK
                                                                 : IMCL_CU_ERR_TRANSFER;
}

IMCL_CU_WEAK int imcl_cu_plan_download(imcl_cu_plan *plan, int a, void *host)
{
    if (!plan || !host || a < 0 || a >= plan->n)
        return IMCL_CU_ERR_ARGUMENT;
    if (imcl_cu_plan_settle(plan))
        return IMCL_CU_ERR_LAUNCH;
    const int made = imcl_cu_plan_allocate(plan, a, NULL);
    if (made != IMCL_CU_OK)
        return made;
    return imcl_cu_plan_copy(plan, a, NULL, host) == cudaSuccess ? IMCL_CU_OK
                                                                 : IMCL_CU_ERR_TRANSFER;
}

IMCL_CU_WEAK int imcl_cu_plan_rows(imcl_cu_plan *plan, int a, int up, int first, int count,
                                   const void *tables, const void *src, void *dst,
                                   ptrdiff_t row_pitch, ptrdiff_t plane_pitch,
                                   ptrdiff_t block_pitch)
{
    if (!plan || a < 0 || a >= plan->n
            || imcl_rows_refused(plan->layout[a].dims, plan->capacity, up, first, count, tables,
                                 src, dst))
        return IMCL_CU_ERR_ARGUMENT;
    if (imcl_cu_plan_settle(plan))
        return IMCL_CU_ERR_LAUNCH;
    const int made = imcl_cu_plan_allocate(plan, a, NULL);
    if (made != IMCL_CU_OK)
        return made;
    const imcl_cu_layout *l = &plan->layout[a];
    imcl_cu_array *m = &plan->array[a];
    const size_t elem = l->elem;
    imcl_rows_shape s;
    if (imcl_rows_shape_of(&s, l->dims, l->halo, m->extent, tables, row_pitch, plane_pitch,
                           block_pitch) != 0)
        return IMCL_CU_ERR_ARGUMENT;
    const size_t off = (size_t)first * s.rows * s.w, n = (size_t)count * s.rows * s.w;
    if (n == 0)
        return IMCL_CU_OK;
    /* the rows go through a host copy of the blocks transferred and one copy to or from
     * the device (a copy per row would cost a call each: thousands per block); a texture
     * or constant copy through a host copy of the whole array */
    const int whole = l->where != IMCL_CU_BUFFER;
    unsigned char *host = (unsigned char *)malloc(whole ? m->bytes : n * elem);
    if (!host)
        return IMCL_CU_ERR_MEMORY;
    unsigned char *dense = whole ? host + off * elem : host;
    unsigned char *at = whole ? NULL : (unsigned char *)m->buf + off * elem;
    cudaError_t err = cudaSuccess;
    if (whole)
        err = imcl_cu_plan_copy(plan, a, NULL, host);
    else if (!up)
        err = imcl_cu_copy(dense, at, n * elem, cudaMemcpyDeviceToHost, plan->stream);
    if (err == cudaSuccess) {
        imcl_rows_copy(&s, dense, elem, count, up, tables, src, dst, row_pitch, plane_pitch,
                       block_pitch);
        if (up)
            err = whole ? imcl_cu_plan_copy(plan, a, host, NULL)
                        : imcl_cu_copy(at, dense, n * elem, cudaMemcpyHostToDevice, plan->stream);
    }
    free(host);
    return err == cudaSuccess ? IMCL_CU_OK : IMCL_CU_ERR_TRANSFER;
}

IMCL_CU_WEAK int imcl_cu_plan_ready(imcl_cu_plan *plan, int count)
{
    if (!plan || count < 0 || count > plan->count)
        return IMCL_CU_ERR_ARGUMENT;
    if (imcl_cu_plan_settle(plan))
        return IMCL_CU_ERR_LAUNCH;
    plan->kernel_ms = 0.0;
    int status = IMCL_CU_OK;
    for (int i = 0; i < plan->n && status == IMCL_CU_OK; i++)
        status = imcl_cu_plan_allocate(plan, i, NULL);
    return status;
}

IMCL_CU_WEAK int imcl_cu_plan_select(imcl_cu_plan *plan, int count, const int *blocks)
{
    if (!plan || imcl_select_refused(plan->capacity, count, blocks))
        return IMCL_CU_ERR_ARGUMENT;
    if (imcl_cu_plan_settle(plan))
        return IMCL_CU_ERR_LAUNCH;
    const size_t bytes = sizeof(int) * (size_t)plan->capacity;
    if (blocks && !plan->list && cudaMalloc((void **)&plan->list, bytes) != cudaSuccess) {
        plan->list = NULL;
        return IMCL_CU_ERR_MEMORY;
    }
    if (blocks && count && cudaMemcpy(plan->list, blocks, sizeof(int) * (size_t)count,
                                      cudaMemcpyHostToDevice) != cudaSuccess)
        return IMCL_CU_ERR_TRANSFER;
    const int status = imcl_select_keep(plan->capacity, count, blocks, &plan->selected,
                                        &plan->count);
    if (!plan->selected && plan->list) {
        cudaFree(plan->list);
        plan->list = NULL;
    }
    return status;
}

IMCL_CU_WEAK cudaError_t imcl_cu_plan_start(imcl_cu_plan *plan)
{
    return cudaEventRecord(plan->start, plan->stream);
}

IMCL_CU_WEAK int imcl_cu_plan_launched(imcl_cu_plan *plan, cudaError_t err)
{
    if (err != cudaSuccess || cudaEventRecord(plan->stop, plan->stream) != cudaSuccess)
        return IMCL_CU_ERR_LAUNCH;
    plan->pending = 1;
    return IMCL_CU_OK;
}

IMCL_CU_WEAK int imcl_cu_plan_wait(imcl_cu_plan *plan)
{
    if (!plan)
        return IMCL_CU_ERR_ARGUMENT;
    if (!plan->pending)
        return IMCL_CU_OK;
    plan->pending = 0;
    if (cudaEventSynchronize(plan->stop) != cudaSuccess)
        return IMCL_CU_ERR_LAUNCH;
    float ms = 0.0f;
    if (cudaEventElapsedTime(&ms, plan->start, plan->stop) == cudaSuccess)
        plan->kernel_ms = ms;
    return IMCL_CU_OK;
}

/* The checks of PK_plan_attach and PK_plan_use_memory: a plan, a pointer, array a in a
 * buffer (texture and constant memory are not the application's to give). */
static int imcl_cu_plan_attachable(imcl_cu_plan *plan, int a, const void *memory)
{
    if (!plan || !memory || a < 0 || a >= plan->n || plan->layout[a].where != IMCL_CU_BUFFER)
        return IMCL_CU_ERR_ARGUMENT;
    return imcl_cu_plan_settle(plan) ? IMCL_CU_ERR_LAUNCH : IMCL_CU_OK;
}

IMCL_CU_WEAK int imcl_cu_plan_attach(imcl_cu_plan *plan, int a, void *host)
{
    const int status = imcl_cu_plan_attachable(plan, a, host);
    /* a CUDA device computes in its own memory (reading host memory over the bus at every
     * access would cost more than the copies it saves): upload and download instead */
    return status != IMCL_CU_OK ? status : IMCL_CU_ERR_DEVICE;
}

IMCL_CU_WEAK int imcl_cu_plan_use_memory(imcl_cu_plan *plan, int a, void *memory)
{
    const int status = imcl_cu_plan_attachable(plan, a, memory);
    if (status != IMCL_CU_OK)
        return status;
    /* the array's memory until now: a buffer of the plan's own, or the application's */
    imcl_cu_array *m = &plan->array[a];
    if (!m->theirs)
        cudaFree(m->buf);
    m->buf = memory;
    m->theirs = 1;
    return IMCL_CU_OK;
}

IMCL_CU_WEAK void *imcl_cu_plan_memory(imcl_cu_plan *plan, int a)
{
    if (!plan || a < 0 || a >= plan->n || plan->layout[a].where != IMCL_CU_BUFFER
            || imcl_cu_plan_allocate(plan, a, NULL) != IMCL_CU_OK)
        return NULL;
    return plan->array[a].buf;
}

IMCL_CU_WEAK int imcl_cu_plan_swap(imcl_cu_plan *plan, int a, int b)
{
    if (!plan || a < 0 || a >= plan->n || b < 0 || b >= plan->n
            || plan->layout[a].swap_class < 0
            || plan->layout[a].swap_class != plan->layout[b].swap_class)
        return IMCL_CU_ERR_ARGUMENT;
    imcl_cu_array *x = &plan->array[a], *y = &plan->array[b];
    for (int d = 0; d < 3; d++)
        if (x->extent[d] != y->extent[d])
            return IMCL_CU_ERR_ARGUMENT;
    if (imcl_cu_plan_settle(plan))
        return IMCL_CU_ERR_LAUNCH;
    /* the arrays exchange their device memory (and whose it is); nothing is copied */
    const imcl_cu_array t = *x;
    x->buf = y->buf, x->array = y->array, x->tex = y->tex, x->theirs = y->theirs;
    y->buf = t.buf, y->array = t.array, y->tex = t.tex, y->theirs = t.theirs;
    return IMCL_CU_OK;
}

IMCL_CU_WEAK double imcl_cu_plan_kernel_ms(const imcl_cu_plan *plan)
{
    return plan ? plan->kernel_ms : 0.0;
}

IMCL_CU_WEAK void imcl_cu_plan_destroy(imcl_cu_plan *plan)
{
    if (!plan)
        return;
    imcl_cu_plan_settle(plan);
    for (int i = 0; i < plan->n; i++)
        imcl_cu_free(&plan->array[i]);
    if (plan->list)
        cudaFree(plan->list);
    free(plan->selected);
    if (plan->events) {
        cudaEventDestroy(plan->start);
        cudaEventDestroy(plan->stop);
    }
    free(plan);
}

IMCL_CU_WEAK const char *imcl_cu_strerror(int code)
{
    return imcl_runtime_strerror(code);
}
