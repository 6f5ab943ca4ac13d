/* Launch limits and runtime errors (tests/cuda_cpu): the exact error codes a GPU gives
 * for block and grid shapes past its limits, shared memory past 48 KiB, a block larger
 * than __launch_bounds__; a failed launch runs nothing and its error is what
 * cudaGetLastError returns, once; device attributes; allocation and copy errors; events.
 *   limits              the checks; exit 0
 *   limits nodevice     run with IMCL_EMU_DEVICES=0: every call reports no device
 *   limits leak         leaves a buffer allocated (IMCL_EMU_LEAKS=fail: exit 1)
 * -DTOO_MUCH_SHARED (49,153 static __shared__ bytes) and -DTOO_MUCH_CONSTANT (65,540
 * __constant__ bytes) must not compile, as with nvcc. */
#include "common.h"

__global__ void mark(int *p) { p[0] = 1; }

__global__ void with_shared(int *p)
{
    __shared__ char s[40960];
    s[threadIdx.x] = (char)threadIdx.x;
    __syncthreads();
    p[0] = s[0] + 2;
}

__global__ void __launch_bounds__(128) bounded(int *p) { p[0] = 3; }

#ifdef TOO_MUCH_SHARED
__global__ void too_much(int *p)
{
    __shared__ char s[49153];
    s[threadIdx.x] = 1;
    p[0] = s[5];
}
#endif
#ifdef TOO_MUCH_CONSTANT
__constant__ float c_big[16385];
__global__ void too_much(float *p) { p[0] = c_big[3]; }
#endif

/* launches k with grid g, block b, shmem bytes; checks the error and whether it ran */
static void launch(const char *what, void (*k)(int *), dim3 g, dim3 b, size_t shmem, cudaError_t want, int *d)
{
    OK(cudaMemset(d, 0, sizeof(int)));
    k<<<g, b, shmem>>>(d);
    const cudaError_t e = cudaGetLastError();
    CHECK(e == want, "%s: launch returned %d (%s), expected %d (%s)", what, (int)e, cudaGetErrorString(e), (int)want,
          cudaGetErrorString(want));
    CHECK(cudaGetLastError() == cudaSuccess, "%s: the error is returned once", what);
    OK(cudaDeviceSynchronize());
    int ran = 0;
    OK(cudaMemcpy(&ran, d, sizeof ran, cudaMemcpyDeviceToHost));
    CHECK((ran != 0) == (want == cudaSuccess), "%s: the kernel %s", what, ran ? "ran" : "did not run");
}

int main(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "nodevice")) {
        int n = 5;
        void *p = NULL;
        FAILS(cudaErrorNoDevice, cudaGetDeviceCount(&n));
        CHECK(n == 0, "no device: count %d", n);
        FAILS(cudaErrorNoDevice, cudaMalloc(&p, 16));
        return finish("limits (no device)");
    }
    int *d;
    OK(cudaMalloc((void **)&d, sizeof(int)));
    if (argc == 2 && !strcmp(argv[1], "leak"))
        return 0;

    /* what CUDA 13.0 (driver 580, H100) returns for every launch past a limit */
    const cudaError_t cfg = cudaErrorInvalidValue;
    launch("block 1024x1x1", mark, 1, dim3(1024, 1, 1), 0, cudaSuccess, d);
    launch("block 1x1024x1", mark, 1, dim3(1, 1024, 1), 0, cudaSuccess, d);
    launch("block 16x1x64", mark, 1, dim3(16, 1, 64), 0, cudaSuccess, d);
    launch("block 1025x1x1", mark, 1, dim3(1025, 1, 1), 0, cfg, d);
    launch("block 1x1025x1", mark, 1, dim3(1, 1025, 1), 0, cfg, d);
    launch("block 1x1x65", mark, 1, dim3(1, 1, 65), 0, cfg, d);
    launch("block 32x32x2", mark, 1, dim3(32, 32, 2), 0, cfg, d);
    launch("block 0x1x1", mark, 1, dim3(0, 1, 1), 0, cfg, d);
    launch("grid 0x1x1", mark, dim3(0, 1, 1), 1, 0, cfg, d);
    launch("grid 1x65536x1", mark, dim3(1, 65536, 1), 1, 0, cfg, d);
    launch("grid 1x1x65536", mark, dim3(1, 1, 65536), 1, 0, cfg, d);
    launch("48 KiB dynamic shared", mark, 1, 32, 49152, cudaSuccess, d);
    launch("48 KiB + 1 dynamic shared", mark, 1, 32, 49153, cfg, d);
    launch("40 KiB static + 8 KiB dynamic", with_shared, 1, 64, 8192, cudaSuccess, d);
    launch("40 KiB static + 8 KiB + 1 dynamic", with_shared, 1, 64, 8193, cfg, d);
    launch("128 threads, bounds 128", bounded, 1, 128, 0, cudaSuccess, d);
    launch("129 threads, bounds 128", bounded, 1, 129, 0, cfg, d);

    CHECK(!strcmp(cudaGetErrorString(cudaErrorInvalidConfiguration), "invalid configuration argument"), "string");
    CHECK(!strcmp(cudaGetErrorString(cudaErrorLaunchOutOfResources), "too many resources requested for launch"),
          "string");
    CHECK(!strcmp(cudaGetErrorString(cudaSuccess), "no error"), "string");
    CHECK(!strcmp(cudaGetErrorName(cudaErrorInvalidValue), "cudaErrorInvalidValue"), "name");

    /* the device */
    int n = 0, dev = -1, v = 0;
    OK(cudaGetDeviceCount(&n));
    CHECK(n >= 1, "device count %d", n);
    OK(cudaGetDevice(&dev));
    CHECK(dev == 0, "device %d", dev);
    OK(cudaDeviceGetAttribute(&v, cudaDevAttrMaxThreadsPerBlock, 0));
    CHECK(v == 1024, "max threads per block %d", v);
    OK(cudaDeviceGetAttribute(&v, cudaDevAttrMaxBlockDimZ, 0));
    CHECK(v == 64, "max block z %d", v);
    OK(cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlock, 0));
    CHECK(v == 49152, "shared memory per block %d", v);
    OK(cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, 0));
    CHECK(v == 32, "warp size %d", v);
    OK(cudaDeviceGetAttribute(&v, cudaDevAttrMaxTexture3DDepth, 0));
    CHECK(v >= 2048, "3D texture depth %d", v);
    cudaDeviceProp prop;
    OK(cudaGetDeviceProperties(&prop, 0));
    CHECK(prop.maxThreadsPerBlock == 1024 && prop.warpSize == 32 && prop.sharedMemPerBlock == 49152 &&
              prop.totalConstMem == 65536 && prop.maxThreadsDim[2] == 64 && prop.maxGridSize[1] == 65535,
          "cudaGetDeviceProperties");

    /* memory */
    void *p = NULL;
    FAILS(cudaErrorMemoryAllocation, cudaMalloc(&p, (size_t)1 << 52));
    int h[4] = {1, 2, 3, 4};
    FAILS(cudaErrorInvalidValue, cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    FAILS(cudaErrorInvalidValue, cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    FAILS(cudaErrorInvalidValue, cudaMemset(d, 0, 2 * sizeof(int)));
    FAILS(cudaErrorInvalidValue, cudaFree(h));
    OK(cudaFree(NULL));

    /* events */
    cudaEvent_t a, b, c;
    OK(cudaEventCreate(&a));
    OK(cudaEventCreate(&b));
    OK(cudaEventCreate(&c));
    OK(cudaEventRecord(a));
    mark<<<64, 256>>>(d);
    OK(cudaGetLastError());
    OK(cudaEventRecord(b));
    OK(cudaEventSynchronize(b));
    float ms = -1.0f;
    OK(cudaEventElapsedTime(&ms, a, b));
    CHECK(ms >= 0.0f, "elapsed %g ms", ms);
    FAILS(cudaErrorInvalidResourceHandle, cudaEventElapsedTime(&ms, a, c));
    OK(cudaEventDestroy(a));
    OK(cudaEventDestroy(b));
    OK(cudaEventDestroy(c));
    OK(cudaFree(d));
    return finish("limits");
}
