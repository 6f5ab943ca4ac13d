/* libFuzzer harness over source and configuration together (tests/fuzz/README.md):
 * the input is a configuration (a flat JSON object, as -t reads), a NUL byte, and an
 * ImageCL source; without a NUL byte the whole input is the configuration of a fixed
 * 3D stencil. Each is generated for every backend. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "imcl.h"

static const char fixed_source[] =
    "#pragma imcl grid(in)\n"
    "#pragma imcl halo(h:1)\n"
    "#pragma imcl boundary_cond(in:clamped, h:none)\n"
    "void k(Block<float> in, Block<float> h, Block<float> out, float m[3])\n"
    "{\n"
    "    float s = 0.0f;\n"
    "    taps: for (int i = -1; i <= 1; i++)\n"
    "        s += m[i + 1] * in[idx + i][idy][idz] + h[idx][idy][idz + i];\n"
    "    out[idx][idy][idz] = s;\n"
    "}\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *buf = malloc(size + 1);
    if (!buf)
        return 0;
    memcpy(buf, data, size);
    buf[size] = '\0';
    const char *config = buf;
    const char *source = fixed_source;
    size_t n = strlen(buf);
    if (n < size)
        source = buf + n + 1;
    imcl_unit *u = imcl_open("fuzz.imcl", source, NULL);
    if (u && imcl_unit_status(u) == 0)
        imcl_result_free(imcl_generate(u, config, "c,opencl,cuda"));
    imcl_close(u);
    free(buf);
    return 0;
}
