/* __constant__ symbols (tests/cuda_cpu): cudaMemcpyToSymbol and cudaMemcpyFromSymbol
 * through the symbol itself and through a const void * (as the CUDA runtime's plan passes
 * it), with offsets, and the exact errors of a copy too large, past the end, of something
 * that is not a symbol, and in the wrong direction. */
#include "common.h"

__constant__ float c_table[16];
static __constant__ double c_d[4];
static float not_a_symbol[4];

__global__ void read_table(float *out, double *dout)
{
    const int t = threadIdx.x;
    out[t] = c_table[t] * 2.0f;
    if (t < 4)
        dout[t] = c_d[t];
}

/* zero-fills a symbol given as a pointer, as the CUDA runtime's plan does */
static cudaError_t zero_symbol(const void *symbol, size_t bytes)
{
    void *z = calloc(1, bytes);
    const cudaError_t e = cudaMemcpyToSymbol(symbol, z, bytes);
    free(z);
    return e;
}

int main(void)
{
    float h[16], back[16], out[16];
    double hd[4] = {1.0 / 3.0, -2.5e300, 4.0, 5.5}, dback[4];
    for (int i = 0; i < 16; i++)
        h[i] = 1.5f * i;
    float *d;
    double *dd;
    OK(cudaMalloc((void **)&d, sizeof out));
    OK(cudaMalloc((void **)&dd, sizeof dback));

    OK(cudaMemcpyToSymbol(c_table, h, sizeof h));
    OK(cudaMemcpyToSymbol(c_d, hd, sizeof hd));
    read_table<<<1, 16>>>(d, dd);
    OK(cudaGetLastError());
    OK(cudaMemcpy(out, d, sizeof out, cudaMemcpyDeviceToHost));
    OK(cudaMemcpy(dback, dd, sizeof dback, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 16; i++)
        CHECK(out[i] == 3.0f * i, "c_table[%d] read as %g", i, out[i] / 2);
    CHECK(memcmp(dback, hd, sizeof hd) == 0, "c_d read back wrong");

    /* an offset, and the copy back */
    const float v = -7.0f;
    OK(cudaMemcpyToSymbol(c_table, &v, sizeof v, 5 * sizeof(float)));
    OK(cudaMemcpyFromSymbol(back, c_table, sizeof back));
    for (int i = 0; i < 16; i++)
        CHECK(back[i] == (i == 5 ? -7.0f : 1.5f * i), "c_table[%d] = %g after the offset copy", i, back[i]);
    double two[2];
    OK(cudaMemcpyFromSymbol(two, c_d, sizeof two, 2 * sizeof(double)));
    CHECK(two[0] == 4.0 && two[1] == 5.5, "c_d[2..3] read from an offset: %g %g", two[0], two[1]);

    /* through a const void * */
    OK(zero_symbol(c_table, sizeof(float) * 8));
    OK(cudaMemcpyFromSymbol(back, c_table, sizeof back));
    for (int i = 0; i < 16; i++)
        CHECK(back[i] == (i < 8 ? 0.0f : 1.5f * i), "c_table[%d] = %g after zeroing 8", i, back[i]);

    /* errors */
    float big[17] = {0};
    FAILS(cudaErrorInvalidValue, cudaMemcpyToSymbol(c_table, big, sizeof big));
    FAILS(cudaErrorInvalidValue, cudaMemcpyToSymbol(c_table, h, 8 * sizeof(float), 9 * sizeof(float)));
    FAILS(cudaErrorInvalidValue, cudaMemcpyFromSymbol(big, c_table, sizeof big));
    FAILS(cudaErrorInvalidValue, zero_symbol(c_d, sizeof(double) * 5));
    FAILS(cudaErrorInvalidSymbol, zero_symbol(not_a_symbol, sizeof not_a_symbol));
    FAILS(cudaErrorInvalidMemcpyDirection, cudaMemcpyToSymbol(c_table, h, 4, 0, cudaMemcpyDeviceToHost));
    CHECK(cudaGetLastError() == cudaSuccess, "cudaGetLastError resets the last error");
    /* what failed changed nothing */
    OK(cudaMemcpyFromSymbol(back, c_table, sizeof back));
    for (int i = 0; i < 16; i++)
        CHECK(back[i] == (i < 8 ? 0.0f : 1.5f * i), "c_table[%d] = %g after failed copies", i, back[i]);

    OK(cudaFree(d));
    OK(cudaFree(dd));
    return finish("constant");
}
