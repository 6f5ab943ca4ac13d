/* libimcl from a C program (pkg-config --cflags --libs imcl): generates a kernel in
 * memory and writes its files, which must be the bytes `imcl` writes for the same
 * command line (tests/install/run_install.sh compares them).
 *
 *     pkg KERNEL.imcl CONFIG.json BACKEND OUTDIR */
#include <stdio.h>
#include <stdlib.h>

#include <imcl/imcl.h>

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *text = calloc(1, 1 << 20);
    size_t n = text ? fread(text, 1, (1 << 20) - 1, f) : 0;
    fclose(f);
    if (text)
        text[n] = 0;
    return text;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: pkg KERNEL.imcl CONFIG.json BACKEND OUTDIR\n");
        return 2;
    }
    char *config = slurp(argv[2]);
    if (!config) {
        fprintf(stderr, "pkg: cannot read %s\n", argv[2]);
        return 2;
    }
    printf("libimcl %s\n", imcl_version());
    imcl_unit *u = imcl_open(argv[1], NULL, NULL);
    int status = u ? imcl_unit_status(u) : 2;
    if (status) {
        fputs(u ? imcl_unit_diagnostics(u) : "out of memory\n", stderr);
        imcl_close(u);
        free(config);
        return status;
    }
    imcl_result *r = imcl_generate(u, config, argv[3]);
    status = r ? imcl_result_status(r) : 2;
    fputs(r ? imcl_result_diagnostics(r) : "", stderr);
    for (int i = 0; !status && i < imcl_result_count(r); i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", argv[4], imcl_result_name(r, i));
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(imcl_result_text(r, i), 1, imcl_result_length(r, i), f) != imcl_result_length(r, i))
            status = 2;
        if (f)
            fclose(f);
        printf("%s: %zu bytes\n", imcl_result_name(r, i), imcl_result_length(r, i));
    }
    imcl_result_free(r);
    imcl_close(u);
    free(config);
    return status;
}
