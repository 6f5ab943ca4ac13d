/* Texture objects over CUDA arrays (tests/cuda_cpu): 2D and 3D, float, int, unsigned
 * char, short and doubles stored as int2 (read with __hiloint2double), with
 * cudaAddressModeClamp and cudaAddressModeBorder, point filtering and unnormalized
 * coordinates, read at every texel centre and at fractional coordinates from 2 texels
 * before to 2 after each axis; the copies in and out (cudaMemcpy2DToArray,
 * cudaMemcpy2DFromArray, cudaMemcpy3D), cudaArrayGetInfo and copy errors. */
#include "common.h"

#define LO (-2)
#define HI 2
/* the coordinates read on each axis, for an axis of n texels: i + frac */
static const float fracs[3] = {0.5f, 0.0f, 0.99f};

template <class T> __global__ void read2d(cudaTextureObject_t t, T *out, int w, int h)
{
    const int nx = w - LO + HI, ny = h - LO + HI;
    for (int f = 0; f < 3; f++) {
        const float fr = f == 0 ? 0.5f : f == 1 ? 0.0f : 0.99f;
        for (int j = threadIdx.y; j < ny; j += blockDim.y)
            for (int i = threadIdx.x; i < nx; i += blockDim.x)
                out[(f * ny + j) * nx + i] = tex2D<T>(t, i + LO + fr, j + LO + fr);
    }
}

template <class T> __global__ void read3d(cudaTextureObject_t t, T *out, int w, int h, int d)
{
    const int nx = w - LO + HI, ny = h - LO + HI, nz = d - LO + HI;
    for (int k = threadIdx.z; k < nz; k += blockDim.z)
        for (int j = threadIdx.y; j < ny; j += blockDim.y)
            for (int i = threadIdx.x; i < nx; i += blockDim.x)
                out[(k * ny + j) * nx + i] = tex3D<T>(t, i + LO + 0.5f, j + LO + 0.99f, k + LO + 0.0f);
}

__global__ void read2d_double(cudaTextureObject_t t, double *out, int w, int h)
{
    const int nx = w - LO + HI, ny = h - LO + HI;
    for (int j = threadIdx.y; j < ny; j += blockDim.y)
        for (int i = threadIdx.x; i < nx; i += blockDim.x) {
            const int2 v = tex2D<int2>(t, i + LO + 0.5f, j + LO + 0.5f);
            out[j * nx + i] = __hiloint2double(v.y, v.x);
        }
}

__global__ void read3d_double(cudaTextureObject_t t, double *out, int w, int h, int d)
{
    const int nx = w - LO + HI, ny = h - LO + HI, nz = d - LO + HI;
    for (int k = threadIdx.z; k < nz; k += blockDim.z)
        for (int j = threadIdx.y; j < ny; j += blockDim.y)
            for (int i = threadIdx.x; i < nx; i += blockDim.x) {
                const int2 v = tex3D<int2>(t, i + LO + 0.5f, j + LO + 0.5f, k + LO + 0.5f);
                out[(k * ny + j) * nx + i] = __hiloint2double(v.y, v.x);
            }
}

/* the kernel that reads texels of T (doubles: int2 texels) */
template <class T> static void launch2d(cudaTextureObject_t t, T *d, int w, int h)
{
    read2d<T><<<1, dim3(8, 4)>>>(t, d, w, h);
}
template <> void launch2d<double>(cudaTextureObject_t t, double *d, int w, int h)
{
    read2d_double<<<1, dim3(4, 8)>>>(t, d, w, h);
}
template <class T> static void launch3d(cudaTextureObject_t t, T *d, int w, int h, int dep)
{
    read3d<T><<<1, dim3(4, 4, 2)>>>(t, d, w, h, dep);
}
template <> void launch3d<double>(cudaTextureObject_t t, double *d, int w, int h, int dep)
{
    read3d_double<<<1, dim3(4, 4, 4)>>>(t, d, w, h, dep);
}

static cudaTextureObject_t make_texture(cudaArray_t a, cudaTextureAddressMode mode)
{
    struct cudaResourceDesc res;
    memset(&res, 0, sizeof res);
    res.resType = cudaResourceTypeArray;
    res.res.array.array = a;
    struct cudaTextureDesc desc;
    memset(&desc, 0, sizeof desc);
    for (int d = 0; d < 3; d++)
        desc.addressMode[d] = mode;
    desc.filterMode = cudaFilterModePoint;
    desc.readMode = cudaReadModeElementType;
    desc.normalizedCoords = 0;
    cudaTextureObject_t t = 0;
    OK(cudaCreateTextureObject(&t, &res, &desc, NULL));
    return t;
}

/* the texel index read at coordinate i + frac on an axis of n, or -1 for the border */
static int texel(int i, float frac, int n, cudaTextureAddressMode mode)
{
    const int k = (int)floorf((float)i + frac);
    if (k >= 0 && k < n)
        return k;
    if (mode == cudaAddressModeClamp)
        return k < 0 ? 0 : n - 1;
    return -1;
}

template <class T> static T value(int x, int y, int z) { return (T)(x + 10 * y + 100 * z + 1) + (T)0.25f; }
template <> double value<double>(int x, int y, int z) { return (x + 10 * y + 100 * z + 1) / 3.0 + 1e200 * (x == 1); }

template <class T> static void test2d(const char *type, int w, int h, T *stored, void *host, size_t bytes,
                                      cudaChannelFormatDesc fmt, bool as_double)
{
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            stored[y * w + x] = value<T>(x, y, 0);
    cudaArray_t a;
    OK(cudaMallocArray(&a, &fmt, w, h));
    OK(cudaMemcpy2DToArray(a, 0, 0, host, w * bytes, w * bytes, h, cudaMemcpyHostToDevice));
    cudaChannelFormatDesc f2;
    cudaExtent e;
    unsigned flags = 1;
    OK(cudaArrayGetInfo(&f2, &e, &flags, a));
    CHECK(e.width == (size_t)w && e.height == (size_t)h && e.depth == 0 && flags == 0,
          "cudaArrayGetInfo of a 2D array: %zux%zux%zu flags %u", e.width, e.height, e.depth, flags);
    CHECK(f2.x == fmt.x && f2.y == fmt.y && f2.f == fmt.f, "cudaArrayGetInfo: format");
    /* the copy back gives what went in */
    T *back = (T *)malloc(w * h * bytes);
    OK(cudaMemcpy2DFromArray(back, w * bytes, a, 0, 0, w * bytes, h, cudaMemcpyDeviceToHost));
    CHECK(memcmp(back, stored, w * h * bytes) == 0, "%s: cudaMemcpy2DFromArray gives back something else", type);
    free(back);
    /* a copy past the array fails */
    FAILS(cudaErrorInvalidValue, cudaMemcpy2DToArray(a, bytes, 0, host, w * bytes, w * bytes, h, cudaMemcpyHostToDevice));
    FAILS(cudaErrorInvalidValue, cudaMemcpy2DToArray(a, 0, 0, host, w * bytes, w * bytes, h + 1, cudaMemcpyHostToDevice));

    const int nx = w - LO + HI, ny = h - LO + HI, planes = as_double ? 1 : 3;
    const size_t n = (size_t)nx * ny * planes;
    for (int m = 0; m < 2; m++) {
        const cudaTextureAddressMode mode = m ? cudaAddressModeBorder : cudaAddressModeClamp;
        cudaTextureObject_t t = make_texture(a, mode);
        T *d, *out = (T *)malloc(n * sizeof(T));
        OK(cudaMalloc((void **)&d, n * sizeof(T)));
        launch2d<T>(t, d, w, h);
        OK(cudaGetLastError());
        OK(cudaMemcpy(out, d, n * sizeof(T), cudaMemcpyDeviceToHost));
        int bad = 0;
        for (int f = 0; f < planes; f++)
            for (int j = 0; j < ny; j++)
                for (int i = 0; i < nx; i++) {
                    const int x = texel(i + LO, fracs[f], w, mode), y = texel(j + LO, fracs[f], h, mode);
                    const T want = x < 0 || y < 0 ? (T)0 : value<T>(x, y, 0);
                    bad += out[(f * ny + j) * nx + i] != want;
                }
        CHECK(bad == 0, "2D %s texture, %s: %d of %zu reads wrong", type, m ? "border" : "clamp", bad, n);
        OK(cudaDestroyTextureObject(t));
        OK(cudaFree(d));
        free(out);
    }
    OK(cudaFreeArray(a));
}

template <class T> static void test3d(const char *type, int w, int h, int dep, T *stored, void *host,
                                      size_t bytes, cudaChannelFormatDesc fmt, bool as_double)
{
    for (int z = 0; z < dep; z++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                stored[(z * h + y) * w + x] = value<T>(x, y, z);
    cudaArray_t a;
    OK(cudaMalloc3DArray(&a, &fmt, make_cudaExtent(w, h, dep), 0));
    cudaExtent e;
    OK(cudaArrayGetInfo(NULL, &e, NULL, a));
    CHECK(e.width == (size_t)w && e.height == (size_t)h && e.depth == (size_t)dep, "cudaArrayGetInfo of a 3D array");
    cudaMemcpy3DParms p;
    memset(&p, 0, sizeof p);
    p.srcPtr = make_cudaPitchedPtr(host, w * bytes, w, h);
    p.dstArray = a;
    p.extent = e;
    p.kind = cudaMemcpyHostToDevice;
    OK(cudaMemcpy3D(&p));
    T *back = (T *)calloc((size_t)w * h * dep, bytes);
    memset(&p, 0, sizeof p);
    p.srcArray = a;
    p.dstPtr = make_cudaPitchedPtr(back, w * bytes, w, h);
    p.extent = e;
    p.kind = cudaMemcpyDeviceToHost;
    OK(cudaMemcpy3D(&p));
    CHECK(memcmp(back, stored, (size_t)w * h * dep * bytes) == 0, "%s: cudaMemcpy3D gives back something else", type);
    p.extent.depth = dep + 1;
    FAILS(cudaErrorInvalidValue, cudaMemcpy3D(&p));
    free(back);

    const int nx = w - LO + HI, ny = h - LO + HI, nz = dep - LO + HI;
    const size_t n = (size_t)nx * ny * nz;
    for (int m = 0; m < 2; m++) {
        const cudaTextureAddressMode mode = m ? cudaAddressModeBorder : cudaAddressModeClamp;
        cudaTextureObject_t t = make_texture(a, mode);
        T *d, *out = (T *)malloc(n * sizeof(T));
        OK(cudaMalloc((void **)&d, n * sizeof(T)));
        launch3d<T>(t, d, w, h, dep);
        OK(cudaGetLastError());
        OK(cudaMemcpy(out, d, n * sizeof(T), cudaMemcpyDeviceToHost));
        int bad = 0;
        for (int k = 0; k < nz; k++)
            for (int j = 0; j < ny; j++)
                for (int i = 0; i < nx; i++) {
                    const int x = texel(i + LO, 0.5f, w, mode);
                    const int y = texel(j + LO, as_double ? 0.5f : 0.99f, h, mode);
                    const int z = texel(k + LO, as_double ? 0.5f : 0.0f, dep, mode);
                    const T want = x < 0 || y < 0 || z < 0 ? (T)0 : value<T>(x, y, z);
                    bad += out[(k * ny + j) * nx + i] != want;
                }
        CHECK(bad == 0, "3D %s texture, %s: %d of %zu reads wrong", type, m ? "border" : "clamp", bad, n);
        OK(cudaDestroyTextureObject(t));
        OK(cudaFree(d));
        free(out);
    }
    OK(cudaFreeArray(a));
}

int main(void)
{
    const int w = 7, h = 5, d = 3;
    float f[w * h * d];
    test2d<float>("float", w, h, f, f, sizeof(float), cudaCreateChannelDesc<float>(), false);
    test3d<float>("float", w, h, d, f, f, sizeof(float), cudaCreateChannelDesc<float>(), false);
    int i[w * h * d];
    test2d<int>("int", w, h, i, i, sizeof(int), cudaCreateChannelDesc<int>(), false);
    unsigned char uc[w * h * d];
    test2d<unsigned char>("unsigned char", w, h, uc, uc, 1, cudaCreateChannelDesc<unsigned char>(), false);
    short s[w * h * d];
    test3d<short>("short", w, h, d, s, s, sizeof(short), cudaCreateChannelDesc<short>(), false);
    /* doubles in int2 texels, as imcl stores them */
    double dv[w * h * d];
    test2d<double>("double", w, h, dv, dv, sizeof(double), cudaCreateChannelDesc<int2>(), true);
    test3d<double>("double", w, h, d, dv, dv, sizeof(double), cudaCreateChannelDesc<int2>(), true);
    return finish("texture");
}
