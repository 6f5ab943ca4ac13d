/* A program outside imcl's tree that uses imcl as an application would
 * (README.md beside this file): the heat kernel generated at build time for OpenCL
 * and the C reference (CMakeLists.txt, imcl_add_kernels), each run once on a plate
 * and checked against the loop below, written apart from imcl. Prints one line per
 * backend and exits 0 when both match. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "c/heat.h"
#include "coef.h"
#include "opencl/heat.h"

enum { W = 61, H = 37 };

static float at(const float *t, int x, int y)
{
    x = x < 0 ? 0 : x >= W ? W - 1 : x; /* clamped: the nearest edge point */
    y = y < 0 ? 0 : y >= H ? H - 1 : y;
    return t[y * W + x];
}

static int check(const char *name, int status, const char *(*strerror_)(int), const float *got,
                 const float *want)
{
    if (status != 0) {
        printf("%s: error %d: %s\n", name, status, strerror_(status));
        return 1;
    }
    for (int i = 0; i < W * H; i++)
        if (fabsf(got[i] - want[i]) > 1e-5f * (1.0f + fabsf(want[i]))) {
            printf("%s: point (%d, %d) is %g, expected %g\n", name, i % W, i / W, got[i], want[i]);
            return 1;
        }
    printf("%s: %d x %d points match the loop (ALPHA %g)\n", name, W, H, ALPHA);
    return 0;
}

int main(void)
{
    static float in[W * H], want[W * H], got[W * H];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            in[y * W + x] = (float)((x * 7 + y * 13) % 17) - 8.0f;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            want[y * W + x] = at(in, x, y) + ALPHA * (at(in, x - 1, y) + at(in, x + 1, y) + at(in, x, y - 1)
                                                      + at(in, x, y + 1) - 4.0f * at(in, x, y));
    int failed = check("c", app_c_heat(in, W, H, got, W, H), app_c_heat_strerror, got, want);
    failed |= check("opencl", app_opencl_heat(in, W, H, got, W, H), app_opencl_heat_strerror, got, want);
    app_opencl_heat_release();
    return failed;
}
