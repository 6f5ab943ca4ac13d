/* The application's device (docs/wrappers.md, "The application's device"), OpenCL: the
 * application makes its context, in-order queue and buffers X, Y, Z and a kernel of its
 * own (twice: a[i] *= 2); ocl_addone_use_queue hands them to imcl, and with no wait
 * between them the queue runs twice(X), plan A (Y = X + 1), plan B (Z = Y + 1) and
 * twice(Z), so Z = 4h + 4 only if all four ran in that order on the application's
 * buffers. Then the refusals, the one-shot wrapper in that queue, and the buffers
 * still the application's after the plans are gone; a plan's own memory, aligned by its
 * size (check_own_memory). The C reference (ref_): no queue
 * to share, its use_memory an attachment. Exit status 1 on any failure. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>

#include "c/addone.h"
#include "opencl/addone.h"

enum { NX = 13, NY = 11, N = NX * NY };

static int failures;
#define EXPECT(cond)                                                                       \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            fprintf(stderr, "interop_opencl.c:%d: expected %s\n", __LINE__, #cond);        \
            failures++;                                                                    \
        }                                                                                  \
    } while (0)

/* twice, slowly: a queue that let the next command start early would read a stale a */
static const char *twice_src =
    "__kernel void twice(__global float *a, int n)\n"
    "{\n"
    "    int i = get_global_id(0);\n"
    "    float t = 0.0f;\n"
    "    for (int r = 0; r < 20000; r++)\n"
    "        t += sin((float)r);\n"
    "    if (i < n)\n"
    "        a[i] = a[i] * 2.0f + (t == 12345.0f ? 1.0f : 0.0f);\n"
    "}\n";

static void twice(cl_command_queue q, cl_kernel k, cl_mem a)
{
    int n = N;
    size_t global = N;
    EXPECT(clSetKernelArg(k, 0, sizeof a, &a) == CL_SUCCESS);
    EXPECT(clSetKernelArg(k, 1, sizeof n, &n) == CL_SUCCESS);
    EXPECT(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL) == CL_SUCCESS);
}

static void check_opencl(void)
{
    cl_platform_id platform;
    cl_device_id dev;
    cl_int err;
    EXPECT(clGetPlatformIDs(1, &platform, NULL) == CL_SUCCESS);
    EXPECT(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &dev, NULL) == CL_SUCCESS);
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    cl_context other = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err); /* in order, no profiling */
    cl_program prog = clCreateProgramWithSource(ctx, 1, &twice_src, NULL, &err);
    EXPECT(clBuildProgram(prog, 1, &dev, NULL, NULL, NULL) == CL_SUCCESS);
    cl_kernel k = clCreateKernel(prog, "twice", &err);
    EXPECT(ctx && other && q && k);

    float h[N], z[N];
    for (int i = 0; i < N; i++)
        h[i] = (float)(i % 7);
    const size_t bytes = sizeof h;
    cl_mem X = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, h, &err);
    cl_mem Y = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
    cl_mem Z = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
    cl_mem small = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes - sizeof(float), NULL, &err);
    cl_mem foreign = clCreateBuffer(other, CL_MEM_READ_WRITE, bytes, NULL, &err);

    /* all three or none; an in-order queue of that context */
    cl_command_queue ooo = clCreateCommandQueue(ctx, dev, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
    EXPECT(ocl_addone_use_queue(ctx, NULL, q) == ocl_addone_ERR_ARGUMENT);
    EXPECT(ocl_addone_use_queue(other, dev, q) == ocl_addone_ERR_ARGUMENT);
    if (ooo) /* a device without out-of-order queues refuses to make one */
        EXPECT(ocl_addone_use_queue(ctx, dev, ooo) == ocl_addone_ERR_ARGUMENT);
    EXPECT(ocl_addone_use_queue(ctx, dev, q) == ocl_addone_OK);
    ocl_addone_plan *a = NULL, *b = NULL;
    EXPECT(ocl_addone_plan_create(&a, NX, NY, NX, NY) == ocl_addone_OK);
    EXPECT(ocl_addone_plan_create(&b, NX, NY, NX, NY) == ocl_addone_OK);
    /* a buffer too small, of another context, a NULL one, an unknown array */
    EXPECT(ocl_addone_plan_use_memory(a, ocl_addone_plan_array_in, small) == ocl_addone_ERR_ARGUMENT);
    EXPECT(ocl_addone_plan_use_memory(a, ocl_addone_plan_array_in, foreign) == ocl_addone_ERR_ARGUMENT);
    EXPECT(ocl_addone_plan_use_memory(a, ocl_addone_plan_array_in, NULL) == ocl_addone_ERR_ARGUMENT);
    EXPECT(ocl_addone_plan_use_memory(a, 2, X) == ocl_addone_ERR_ARGUMENT);
    EXPECT(ocl_addone_plan_use_memory(a, ocl_addone_plan_array_in, X) == ocl_addone_OK);
    EXPECT(ocl_addone_plan_use_memory(a, ocl_addone_plan_array_out, Y) == ocl_addone_OK);
    EXPECT(ocl_addone_plan_use_memory(b, ocl_addone_plan_array_in, Y) == ocl_addone_OK);
    EXPECT(ocl_addone_plan_use_memory(b, ocl_addone_plan_array_out, Z) == ocl_addone_OK);
    /* the memory each array computes in, as given; after a swap, the other's */
    EXPECT(ocl_addone_plan_memory(a, ocl_addone_plan_array_in) == (void *)X);
    EXPECT(ocl_addone_plan_memory(b, ocl_addone_plan_array_out) == (void *)Z);
    EXPECT(ocl_addone_plan_memory(a, 2) == NULL && ocl_addone_plan_memory(NULL, 0) == NULL);
    EXPECT(ocl_addone_plan_swap(b, ocl_addone_plan_array_in, ocl_addone_plan_array_out) == ocl_addone_OK);
    EXPECT(ocl_addone_plan_memory(b, ocl_addone_plan_array_in) == (void *)Z);
    EXPECT(ocl_addone_plan_swap(b, ocl_addone_plan_array_in, ocl_addone_plan_array_out) == ocl_addone_OK);

    /* four commands in one queue, no wait between them */
    twice(q, k, X);
    EXPECT(ocl_addone_plan_launch_batch_async(a, 1) == ocl_addone_OK);
    EXPECT(ocl_addone_plan_launch_batch_async(b, 1) == ocl_addone_OK);
    twice(q, k, Z);
    EXPECT(clFinish(q) == CL_SUCCESS);
    EXPECT(clEnqueueReadBuffer(q, Z, CL_TRUE, 0, bytes, z, 0, NULL, NULL) == CL_SUCCESS);
    int wrong = 0;
    for (int i = 0; i < N; i++)
        wrong += z[i] != 4.0f * h[i] + 4.0f;
    EXPECT(wrong == 0);
    EXPECT(ocl_addone_plan_wait(a) == ocl_addone_OK && ocl_addone_plan_wait(b) == ocl_addone_OK);
    /* a queue without profiling: no kernel time */
    EXPECT(ocl_addone_plan_kernel_ms(a) == 0.0);
    /* a download through the plan reads the application's buffer */
    EXPECT(ocl_addone_plan_download_out(b, z) == ocl_addone_OK && z[5] == 4.0f * h[5] + 4.0f);
    ocl_addone_plan_destroy(a);
    ocl_addone_plan_destroy(b);

    /* the one-shot wrapper in the application's queue */
    EXPECT(ocl_addone(h, NX, NY, z, NX, NY) == ocl_addone_OK && z[9] == h[9] + 1.0f);
    /* back to imcl's own context and queue: the application's are let go */
    EXPECT(ocl_addone_use_queue(NULL, NULL, NULL) == ocl_addone_OK);
    EXPECT(ocl_addone(h, NX, NY, z, NX, NY) == ocl_addone_OK && z[9] == h[9] + 1.0f);
    ocl_addone_release();

    /* the buffers are still the application's: Y holds 2h + 1 */
    EXPECT(clEnqueueReadBuffer(q, Y, CL_TRUE, 0, bytes, z, 0, NULL, NULL) == CL_SUCCESS);
    EXPECT(z[6] == 2.0f * h[6] + 1.0f);
    EXPECT(clReleaseMemObject(X) == CL_SUCCESS && clReleaseMemObject(Y) == CL_SUCCESS);
    EXPECT(clReleaseMemObject(Z) == CL_SUCCESS && clReleaseMemObject(small) == CL_SUCCESS);
    EXPECT(clReleaseMemObject(foreign) == CL_SUCCESS);
    clReleaseKernel(k);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    if (ooo)
        clReleaseCommandQueue(ooo);
    clReleaseContext(ctx);
    clReleaseContext(other);
}

/* The plan's own memory on a device that computes in host memory (docs/wrappers.md,
 * "Persistent plan"): an array of 4 MiB or more starts on a 2 MiB boundary (huge pages
 * where Linux has them), a smaller one on a page; elsewhere the plan has a buffer of the
 * device's. Either way the launch computes in it. */
static void check_own_memory(void)
{
    enum { BX = 1024, BY = 1025 }; /* 4.0 MiB and a row of floats */
    cl_platform_id platform;
    cl_device_id dev;
    cl_bool unified = CL_FALSE;
    EXPECT(clGetPlatformIDs(1, &platform, NULL) == CL_SUCCESS);
    EXPECT(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &dev, NULL) == CL_SUCCESS);
    EXPECT(clGetDeviceInfo(dev, CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof unified, &unified, NULL) ==
           CL_SUCCESS);
    float *h = malloc(sizeof(float) * BX * BY), *o = malloc(sizeof(float) * BX * BY);
    EXPECT(h && o);
    if (!h || !o)
        return;
    for (int i = 0; i < BX * BY; i++)
        h[i] = (float)(i % 11);
    const int sizes[2][2] = {{BX, BY}, {NX, NY}};
    for (int c = 0; c < 2; c++) {
        const int w = sizes[c][0], ht = sizes[c][1];
        ocl_addone_plan *p = NULL;
        EXPECT(ocl_addone_plan_create(&p, w, ht, w, ht) == ocl_addone_OK);
        EXPECT(ocl_addone_plan_upload_in(p, h) == ocl_addone_OK);
        EXPECT(ocl_addone_plan_launch(p) == ocl_addone_OK);
        EXPECT(ocl_addone_plan_download_out(p, o) == ocl_addone_OK);
        int wrong = 0;
        for (int i = 0; i < w * ht; i++)
            wrong += o[i] != h[i] + 1.0f;
        EXPECT(wrong == 0);
        cl_mem m = (cl_mem)ocl_addone_plan_memory(p, ocl_addone_plan_array_in);
        void *host = NULL;
        EXPECT(m && clGetMemObjectInfo(m, CL_MEM_HOST_PTR, sizeof host, &host, NULL) == CL_SUCCESS);
        const size_t align = c == 0 ? (size_t)2 << 20 : 4096;
        if (unified)
            EXPECT(host && (size_t)host % align == 0);
        else
            EXPECT(!host);
        ocl_addone_plan_destroy(p);
    }
    ocl_addone_release();
    free(h);
    free(o);
}

static void check_reference(void)
{
    float h[N], y[N], z[N];
    for (int i = 0; i < N; i++)
        h[i] = (float)(i % 5);
    int q = 0;
    EXPECT(ref_addone_use_queue(NULL, NULL, &q) == ref_addone_ERR_DEVICE);
    EXPECT(ref_addone_use_queue(NULL, NULL, NULL) == ref_addone_OK);
    ref_addone_plan *p = NULL;
    EXPECT(ref_addone_plan_create(&p, NX, NY, NX, NY) == ref_addone_OK);
    EXPECT(ref_addone_plan_use_memory(p, ref_addone_plan_array_in, h) == ref_addone_OK);
    EXPECT(ref_addone_plan_use_memory(p, ref_addone_plan_array_out, y) == ref_addone_OK);
    EXPECT(ref_addone_plan_memory(p, ref_addone_plan_array_in) == (void *)h);
    EXPECT(ref_addone_plan_memory(p, -1) == NULL);
    EXPECT(ref_addone_plan_launch(p) == ref_addone_OK);
    EXPECT(ref_addone_plan_swap(p, ref_addone_plan_array_in, ref_addone_plan_array_out) == ref_addone_OK);
    EXPECT(ref_addone_plan_use_memory(p, ref_addone_plan_array_out, z) == ref_addone_OK);
    EXPECT(ref_addone_plan_launch(p) == ref_addone_OK);
    ref_addone_plan_destroy(p);
    int wrong = 0;
    for (int i = 0; i < N; i++)
        wrong += y[i] != h[i] + 1.0f || z[i] != h[i] + 2.0f;
    EXPECT(wrong == 0);
}

int main(void)
{
    check_opencl();
    check_own_memory();
    check_reference();
    printf("%s [interop]: OpenCL plans in the application's queue and buffers and in their "
           "own, C reference\n",
           failures ? "FAIL" : "PASS");
    return failures ? 1 : 0;
}
