/* The application's device (docs/wrappers.md, "The application's device"), CUDA: the
 * application makes a stream, device buffers X, Y, Z and a kernel of its own (twice:
 * a[i] *= 2); cuda_addone_use_queue hands the stream to imcl, and with no wait between
 * them the stream runs twice(X), plan A (Y = X + 1), plan B (Z = Y + 1) and twice(Z),
 * so Z = 4h + 4 only if all four ran in that order on the application's buffers. Then
 * the refusals, the one-shot wrapper in that stream, and the buffers still the
 * application's after the plans are gone (the application frees them; with nvcc-cpu,
 * IMCL_EMU_LEAKS=fail finds a plan that frees them or leaks its own). Exit status 1
 * on any failure. */
#include <cuda_runtime.h>
#include <stdio.h>

#include "cuda/addone.h"

enum { NX = 13, NY = 11, N = NX * NY };

static int failures;
#define EXPECT(cond)                                                                       \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            fprintf(stderr, "interop_cuda.cu:%d: expected %s\n", __LINE__, #cond);         \
            failures++;                                                                    \
        }                                                                                  \
    } while (0)

__global__ void twice(float *a, int n)
{
    const int i = (int)(blockIdx.x * blockDim.x + threadIdx.x);
    if (i < n)
        a[i] *= 2.0f;
}

int main(void)
{
    float h[N], z[N];
    for (int i = 0; i < N; i++)
        h[i] = (float)(i % 7);
    const size_t bytes = sizeof h;
    cudaStream_t s;
    EXPECT(cudaStreamCreate(&s) == cudaSuccess);
    float *X, *Y, *Z;
    EXPECT(cudaMalloc((void **)&X, bytes) == cudaSuccess);
    EXPECT(cudaMalloc((void **)&Y, bytes) == cudaSuccess);
    EXPECT(cudaMalloc((void **)&Z, bytes) == cudaSuccess);
    EXPECT(cudaMemcpy(X, h, bytes, cudaMemcpyHostToDevice) == cudaSuccess);

    /* a CUDA application hands over its stream alone */
    EXPECT(cuda_addone_use_queue((void *)s, NULL, s) == cuda_addone_ERR_ARGUMENT);
    EXPECT(cuda_addone_use_queue(NULL, NULL, s) == cuda_addone_OK);
    cuda_addone_plan *a = NULL, *b = NULL;
    EXPECT(cuda_addone_plan_create(&a, NX, NY, NX, NY) == cuda_addone_OK);
    EXPECT(cuda_addone_plan_create(&b, NX, NY, NX, NY) == cuda_addone_OK);
    EXPECT(cuda_addone_plan_use_memory(a, cuda_addone_plan_array_in, NULL) == cuda_addone_ERR_ARGUMENT);
    EXPECT(cuda_addone_plan_use_memory(a, 2, X) == cuda_addone_ERR_ARGUMENT);
    EXPECT(cuda_addone_plan_use_memory(a, cuda_addone_plan_array_in, X) == cuda_addone_OK);
    EXPECT(cuda_addone_plan_use_memory(a, cuda_addone_plan_array_out, Y) == cuda_addone_OK);
    EXPECT(cuda_addone_plan_use_memory(b, cuda_addone_plan_array_in, Y) == cuda_addone_OK);
    EXPECT(cuda_addone_plan_use_memory(b, cuda_addone_plan_array_out, Z) == cuda_addone_OK);
    /* the device memory each array computes in, as given (what a GPU-aware MPI is handed) */
    EXPECT(cuda_addone_plan_memory(a, cuda_addone_plan_array_in) == (void *)X);
    EXPECT(cuda_addone_plan_memory(b, cuda_addone_plan_array_out) == (void *)Z);
    EXPECT(cuda_addone_plan_memory(a, 2) == NULL);

    /* four launches in one stream, no wait between them */
    twice<<<(N + 63) / 64, 64, 0, s>>>(X, N);
    EXPECT(cuda_addone_plan_launch_batch_async(a, 1) == cuda_addone_OK);
    EXPECT(cuda_addone_plan_launch_batch_async(b, 1) == cuda_addone_OK);
    twice<<<(N + 63) / 64, 64, 0, s>>>(Z, N);
    EXPECT(cudaStreamSynchronize(s) == cudaSuccess);
    EXPECT(cudaMemcpy(z, Z, bytes, cudaMemcpyDeviceToHost) == cudaSuccess);
    int wrong = 0;
    for (int i = 0; i < N; i++)
        wrong += z[i] != 4.0f * h[i] + 4.0f;
    EXPECT(wrong == 0);
    EXPECT(cuda_addone_plan_wait(a) == cuda_addone_OK && cuda_addone_plan_wait(b) == cuda_addone_OK);
    /* a swap exchanges whose buffers they are too: plan A's own 'out' stays its own */
    EXPECT(cuda_addone_plan_download_out(b, z) == cuda_addone_OK && z[5] == 4.0f * h[5] + 4.0f);
    cuda_addone_plan_destroy(a);
    cuda_addone_plan_destroy(b);

    /* the one-shot wrapper in the application's stream, then in the default one again */
    EXPECT(cuda_addone(h, NX, NY, z, NX, NY) == cuda_addone_OK && z[9] == h[9] + 1.0f);
    EXPECT(cuda_addone_use_queue(NULL, NULL, NULL) == cuda_addone_OK);
    EXPECT(cuda_addone(h, NX, NY, z, NX, NY) == cuda_addone_OK && z[9] == h[9] + 1.0f);

    /* the buffers are still the application's: Y holds 2h + 1 */
    EXPECT(cudaMemcpy(z, Y, bytes, cudaMemcpyDeviceToHost) == cudaSuccess && z[6] == 2.0f * h[6] + 1.0f);
    EXPECT(cudaFree(X) == cudaSuccess && cudaFree(Y) == cudaSuccess && cudaFree(Z) == cudaSuccess);
    EXPECT(cudaStreamDestroy(s) == cudaSuccess);
    printf("%s [interop]: CUDA plans in the application's stream and buffers\n", failures ? "FAIL" : "PASS");
    return failures ? 1 : 0;
}
