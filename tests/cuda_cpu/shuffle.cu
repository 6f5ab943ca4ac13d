/* Warp shuffles (tests/cuda_cpu): __shfl_sync, __shfl_up_sync, __shfl_down_sync and
 * __shfl_xor_sync of int, long long, float and double, every width from 1 to 32, in
 * full warps, a partial warp and a 3D block, against the rules of the CUDA programming
 * guide computed on the host; lane masks with lanes that do not take part.
 *   shuffle                  the checks; exit 0
 *   shuffle bad-width        width 3: the emulator stops ("not a power of 2")
 *   shuffle bad-mask         a lane outside its own mask: stops ("lacks it")
 *   shuffle deadlock         half a warp at __syncthreads, half in a shuffle: stops
 * -DSHFL_FAULT shifts every down delta by one: the checks must fail. */
#include "common.h"

#define NARGS 6
#define NWIDTHS 6
#define NCASES (4 * NARGS * NWIDTHS)
__constant__ int c_args[4][NARGS] = {{0, 3, 7, 31, -1, 40}, {0, 1, 2, 5, 16, 31}, {0, 1, 2, 5, 16, 31},
                                      {1, 2, 7, 16, 31, 32}};
static const int h_args[4][NARGS] = {{0, 3, 7, 31, -1, 40}, {0, 1, 2, 5, 16, 31}, {0, 1, 2, 5, 16, 31},
                                     {1, 2, 7, 16, 31, 32}};
static const int widths[NWIDTHS] = {1, 2, 4, 8, 16, 32};

template <class T> __host__ __device__ T value(int lin, int block)
{
    return (T)(lin * 3 + 1 + block * 1000) + (T)(sizeof(T) == 8 ? 0.5 : 0.25) * (T)(lin % 2);
}
template <> __host__ __device__ long long value<long long>(int lin, int block)
{
    return ((long long)(lin + 1) << 33) + block;
}

template <class T> __device__ T shfl(int op, T v, int arg, int width)
{
#ifdef SHFL_FAULT
    const int fault = 1;
#else
    const int fault = 0;
#endif
    switch (op) {
    case 0: return __shfl_sync(0xffffffffu, v, arg, width);
    case 1: return __shfl_up_sync(0xffffffffu, v, (unsigned)arg, width);
    case 2: return __shfl_down_sync(0xffffffffu, v, (unsigned)(arg + fault), width);
    default: return __shfl_xor_sync(0xffffffffu, v, arg, width);
    }
}

template <class T> __global__ void all_cases(T *out)
{
    const int n = blockDim.x * blockDim.y * blockDim.z;
    const int lin = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    const T v = value<T>(lin, blockIdx.x);
    int c = 0;
    for (int op = 0; op < 4; op++)
        for (int a = 0; a < NARGS; a++)
            for (int w = 1; w <= 32; w *= 2, c++)
                out[(blockIdx.x * NCASES + c) * n + lin] = shfl<T>(op, v, c_args[op][a], w);
}

/* The source lane of `lane` by the programming guide, or -1 for its own value. */
static int source(int op, int lane, int arg, int w)
{
    const int seg = lane / w * w;
    switch (op) {
    case 0: return seg + ((arg % w) + w) % w;
    case 1: return lane - seg >= arg ? lane - arg : lane;
    case 2: return lane - seg + arg < w ? lane + arg : lane;
    default: {
        const int s = lane ^ arg;
        return s >= seg + w ? lane : s;
    }
    }
}

template <class T> static void check_cases(const char *type, dim3 block, int blocks)
{
    const int n = block.x * block.y * block.z;
    const size_t count = (size_t)blocks * NCASES * n;
    T *d, *h = (T *)malloc(count * sizeof(T));
    OK(cudaMalloc((void **)&d, count * sizeof(T)));
    all_cases<T><<<blocks, block>>>(d);
    OK(cudaGetLastError());
    OK(cudaMemcpy(h, d, count * sizeof(T), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int b = 0; b < blocks; b++) {
        int c = 0;
        for (int op = 0; op < 4; op++)
            for (int a = 0; a < NARGS; a++)
                for (int wi = 0; wi < NWIDTHS; wi++, c++)
                    for (int lin = 0; lin < n; lin++) {
                        const int lane = lin % 32, warp0 = lin - lane;
                        const int src = source(op, lane, h_args[op][a], widths[wi]);
                        const T got = h[(b * NCASES + c) * n + lin];
                        T want;
                        if (warp0 + src < n) {
                            want = value<T>(warp0 + src, b);
                        } else {
#ifdef IMCL_NVCC_CPU
                            memset(&want, 0xFF, sizeof want); /* a lane that does not exist: poison */
#else
                            continue; /* undefined on a GPU */
#endif
                        }
                        if (memcmp(&got, &want, sizeof got) != 0) {
                            if (bad < 5)
                                fprintf(stderr, "%s block %ux%ux%u op %d arg %d width %d lane %d: got %g want %g\n",
                                        type, block.x, block.y, block.z, op, h_args[op][a], widths[wi], lin,
                                        (double)got, (double)want);
                            bad++;
                        }
                    }
    }
    CHECK(bad == 0, "%s shuffles in %ux%ux%u blocks: %d wrong", type, block.x, block.y, block.z, bad);
    OK(cudaFree(d));
    free(h);
}

/* only the lanes of `mask` shuffle (xor 1, then down 2 in segments of 8) */
__global__ void masked(int *out, unsigned mask)
{
    const int lane = threadIdx.x % 32;
    int r = -7;
    if (mask >> lane & 1) {
        r = __shfl_xor_sync(mask, lane + 100, 1);
        r = r * 1000 + __shfl_down_sync(mask, lane + 200, 2, 8);
    }
    out[threadIdx.x] = r;
}

static void check_masked(unsigned mask)
{
    int *d, h[64];
    OK(cudaMalloc((void **)&d, sizeof h));
    masked<<<1, 64>>>(d, mask);
    OK(cudaGetLastError());
    OK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int t = 0; t < 64; t++) {
        const int lane = t % 32;
        if (!(mask >> lane & 1)) {
            CHECK(h[t] == -7, "mask 0x%08x: lane %d outside the mask changed", mask, lane);
            continue;
        }
        const int x = lane ^ 1, dn = source(2, lane, 2, 8);
#ifdef IMCL_NVCC_CPU
        /* a source lane outside the mask gives 0xFF bytes on the emulator */
        const int want = ((mask >> x & 1) ? x + 100 : -1) * 1000 + ((mask >> dn & 1) ? dn + 200 : -1);
        CHECK(h[t] == want, "mask 0x%08x lane %d: %d, expected %d", mask, lane, h[t], want);
#else
        if ((mask >> x & 1) && (mask >> dn & 1))
            CHECK(h[t] == (x + 100) * 1000 + dn + 200, "mask 0x%08x lane %d: %d", mask, lane, h[t]);
#endif
    }
    OK(cudaFree(d));
}

__global__ void bad_width(int *out) { out[threadIdx.x] = __shfl_sync(0xffffffffu, (int)threadIdx.x, 0, 3); }
__global__ void bad_mask(int *out) { out[threadIdx.x] = __shfl_sync(0x0000ffffu, (int)threadIdx.x, 0); }
__global__ void deadlock(int *out)
{
    if (threadIdx.x < 16)
        __syncthreads();
    else
        out[threadIdx.x] = __shfl_sync(0xffffffffu, (int)threadIdx.x, 0);
}

int main(int argc, char **argv)
{
    if (argc == 2) {
        int *d;
        OK(cudaMalloc((void **)&d, 32 * sizeof(int)));
        if (!strcmp(argv[1], "bad-width"))
            bad_width<<<1, 32>>>(d);
        else if (!strcmp(argv[1], "bad-mask"))
            bad_mask<<<1, 32>>>(d);
        else if (!strcmp(argv[1], "deadlock"))
            deadlock<<<1, 32>>>(d);
        else
            return 2;
        OK(cudaDeviceSynchronize());
        OK(cudaFree(d));
        return 0; /* the emulator must not get here */
    }
    (void)argv;
    check_cases<int>("int", dim3(64), 2);
    check_cases<int>("int", dim3(48), 1);
    check_cases<int>("int", dim3(8, 4, 2), 1);
    check_cases<long long>("long long", dim3(64), 1);
    check_cases<float>("float", dim3(40), 1);
    check_cases<double>("double", dim3(64), 1);
    check_masked(0xffffffffu);
    check_masked(0x55555555u);
    check_masked(0x0000ffffu);
    check_masked(0xf0f0f0f0u);
    return finish("shuffle");
}
