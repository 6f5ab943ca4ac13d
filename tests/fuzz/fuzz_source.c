/* libFuzzer harness over the whole compiler from source text (tests/fuzz/README.md):
 * the input is an ImageCL source file; it is read, checked and analysed (imcl_open),
 * generated with the default parameters for every backend, and its space dumped in
 * both formats. Any crash, sanitizer report or leak is a bug; diagnostics are not. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "imcl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    imcl_unit *u = imcl_open("fuzz.imcl", text, NULL);
    if (u && imcl_unit_status(u) == 0) {
        imcl_result_free(imcl_generate(u, NULL, "c,opencl,cuda"));
        imcl_result_free(imcl_dump_space(u, "imcl", "cuda"));
        imcl_result_free(imcl_dump_space(u, "t1", "opencl"));
    }
    imcl_close(u);
    free(text);
    return 0;
}
