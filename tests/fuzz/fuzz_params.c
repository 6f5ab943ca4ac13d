/* libFuzzer harness over parameter parsing (tests/fuzz/README.md): the input is a
 * parameter file (a JSON object or a legacy ImageCL config.txt), loaded and checked
 * against a fixed kernel with a labelled loop, fixed-size and grid arrays, for the
 * OpenCL backend. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "imcl.h"

static const char source[] =
    "#pragma imcl grid(in)\n"
    "#pragma imcl boundary_cond(in:constant(2))\n"
    "void p(Block<double> in, Block<double> out, int mask[4])\n"
    "{\n"
    "    double s = 0;\n"
    "    row: for (int i = 0; i < 4; i++)\n"
    "        s += mask[i] * in[idx + i][idy][idz - 1];\n"
    "    for (int j = 0; j < 3; j++)\n"
    "        s += in[idx][idy + j][idz];\n"
    "    out[idx][idy][idz] = s;\n"
    "}\n";

static imcl_unit *unit;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!unit)
        unit = imcl_open("params.imcl", source, NULL);
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    /* an empty configuration means the defaults, which another harness covers */
    if (size)
        imcl_result_free(imcl_generate(unit, text, "opencl"));
    free(text);
    return 0;
}
