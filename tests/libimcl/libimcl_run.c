/* libimcl_run: drives libimcl (driver/imcl.h) as a tool would, for the tests
 * (tests/libimcl, tests/lit/libimcl) and bench/compile_speed.sh.
 *
 *   libimcl_run [-b BACKENDS] [-s SIZE] [-k KERNEL] [-o OUTDIR] [-r REPEAT] [-q] [-m] FILE CONFIGS
 *   libimcl_run -d FORMAT [-b BACKEND] [-s SIZE] [-k KERNEL] FILE
 *
 * Opens FILE once (imcl_open) and generates every line of CONFIGS (a flat JSON object
 * per line; empty lines are skipped) REPEAT times (default 1). With -o, the files of
 * line N go to OUTDIR/N/, its status to OUTDIR/N.status and its diagnostics to
 * OUTDIR/N.stderr, as `imcl -t` would write and print them. With REPEAT > 1 every
 * repeat must give the same status, files and diagnostics as the first (an FNV-1a
 * hash of each line is compared): a difference is an error. -q: print only the count and the time
 * (seconds of generation, the open included) as "variants N seconds S".
 * -m: the source is read here and handed over as text (imcl_open's `source`).
 * -d: prints the space (imcl_dump_space) and exits with its status.
 * Exit status: 0, or 1 when a repeat differed or a file could not be written. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "imcl.h"

static uint64_t fnv(uint64_t h, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
    return h;
}

static int write_text(const char *path, const char *text, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(text, 1, n, f) != n || fclose(f) != 0) {
        fprintf(stderr, "libimcl_run: cannot write %s: %s\n", path, strerror(errno));
        return 1;
    }
    return 0;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    const char *backends = NULL, *outdir = NULL, *dump = NULL;
    char options[512] = "{";
    int repeat = 1;
    int quiet = 0, in_memory = 0;
    int i = 1;
    for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
        const char *opt = argv[i];
        if (strcmp(opt, "-q") == 0 || strcmp(opt, "-m") == 0) {
            *(opt[1] == 'q' ? &quiet : &in_memory) = 1;
            continue;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "libimcl_run: %s needs a value\n", opt);
            return 2;
        }
        const char *v = argv[++i];
        size_t n = strlen(options);
        if (strcmp(opt, "-b") == 0)
            backends = v;
        else if (strcmp(opt, "-o") == 0)
            outdir = v;
        else if (strcmp(opt, "-d") == 0)
            dump = v;
        else if (strcmp(opt, "-r") == 0)
            repeat = atoi(v);
        else if (strcmp(opt, "-s") == 0)
            snprintf(options + n, sizeof options - n, "%s\"size\": \"%s\"", n > 1 ? ", " : "", v);
        else if (strcmp(opt, "-k") == 0)
            snprintf(options + n, sizeof options - n, "%s\"kernel\": \"%s\"", n > 1 ? ", " : "", v);
        else {
            fprintf(stderr, "libimcl_run: unknown option %s\n", opt);
            return 2;
        }
    }
    strcat(options, "}");
    if (i >= argc || (!dump && i + 2 != argc)) {
        fprintf(stderr, "usage: libimcl_run [-b BACKENDS] [-s SIZE] [-k KERNEL] [-o OUTDIR] [-r N] [-q] [-m] FILE CONFIGS\n"
                        "       libimcl_run -d FORMAT [-b BACKEND] [-s SIZE] [-k KERNEL] FILE\n");
        return 2;
    }
    const char *file = argv[i];
    char *source = NULL;
    if (in_memory) {
        FILE *sf = fopen(file, "rb");
        size_t cap = 0, len = 0;
        if (!sf) {
            fprintf(stderr, "libimcl_run: cannot open %s: %s\n", file, strerror(errno));
            return 2;
        }
        for (int ch; (ch = fgetc(sf)) != EOF;) {
            if (len + 2 > cap) {
                cap = cap ? cap * 2 : 4096;
                source = realloc(source, cap);
                if (!source)
                    return 2;
            }
            source[len++] = (char)ch;
            source[len] = 0;
        }
        fclose(sf);
        if (!source)
            source = strdup("");
    }

    if (dump) {
        imcl_unit *u = imcl_open(file, source, options);
        imcl_result *r = imcl_dump_space(u, dump, backends);
        fputs(imcl_result_diagnostics(r), stderr);
        if (imcl_result_status(r) == 0)
            fputs(imcl_result_file(r, "space.json"), stdout);
        int status = imcl_result_status(r);
        imcl_result_free(r);
        imcl_close(u);
        free(source);
        return status;
    }

    /* The configurations, in memory before the clock starts. */
    FILE *cf = fopen(argv[i + 1], "rb");
    if (!cf) {
        fprintf(stderr, "libimcl_run: cannot open %s: %s\n", argv[i + 1], strerror(errno));
        return 2;
    }
    char **lines = NULL;
    int *numbers = NULL;
    int n = 0, cap = 0, lineno = 0;
    char *line = NULL;
    size_t lcap = 0;
    ssize_t len;
    while ((len = getline(&line, &lcap, cf)) >= 0) {
        lineno++;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = 0;
        if (!line[strspn(line, " \t")])
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            lines = realloc(lines, sizeof *lines * (size_t)cap);
            numbers = realloc(numbers, sizeof *numbers * (size_t)cap);
            if (!lines || !numbers)
                return 2;
        }
        lines[n] = strdup(line);
        numbers[n++] = lineno;
    }
    free(line);
    fclose(cf);

    uint64_t *hashes = calloc((size_t)n + 1, sizeof *hashes);
    int failed = 0, generated = 0;
    double t0 = now();
    imcl_unit *u = imcl_open(file, source, options);
    for (int rep = 0; rep < repeat; rep++) {
        for (int c = 0; c < n; c++) {
            imcl_result *r = imcl_generate(u, lines[c], backends);
            generated++;
            int status = imcl_result_status(r);
            const char *diag = imcl_result_diagnostics(r);
            uint64_t h = fnv(14695981039346656037ULL, (const char *)&status, sizeof status);
            h = fnv(h, diag, strlen(diag));
            for (int f = 0; repeat > 1 && f < imcl_result_count(r); f++) {
                const char *name = imcl_result_name(r, f);
                h = fnv(h, name, strlen(name) + 1);
                h = fnv(h, imcl_result_text(r, f), imcl_result_length(r, f));
            }
            if (rep == 0) {
                hashes[c] = h;
            } else if (hashes[c] != h) {
                fprintf(stderr, "libimcl_run: line %d: repeat %d differs from the first\n", numbers[c], rep + 1);
                failed = 1;
            }
            if (rep == 0 && outdir) {
                char path[4096];
                mkdir(outdir, 0777);
                snprintf(path, sizeof path, "%s/%d.stderr", outdir, numbers[c]);
                failed |= write_text(path, diag, strlen(diag));
                char st[16];
                snprintf(st, sizeof st, "%d\n", status);
                snprintf(path, sizeof path, "%s/%d.status", outdir, numbers[c]);
                failed |= write_text(path, st, strlen(st));
                if (status == 0) {
                    snprintf(path, sizeof path, "%s/%d", outdir, numbers[c]);
                    mkdir(path, 0777);
                    for (int f = 0; f < imcl_result_count(r); f++) {
                        snprintf(path, sizeof path, "%s/%d/%s", outdir, numbers[c], imcl_result_name(r, f));
                        failed |= write_text(path, imcl_result_text(r, f), imcl_result_length(r, f));
                    }
                }
            }
            imcl_result_free(r);
        }
    }
    int ustatus = imcl_unit_status(u);
    if (ustatus)
        fputs(imcl_unit_diagnostics(u), stderr);
    imcl_close(u);
    double t = now() - t0;
    if (quiet)
        printf("variants %d seconds %.6f\n", generated, t);
    for (int c = 0; c < n; c++)
        free(lines[c]);
    free(lines);
    free(numbers);
    free(hashes);
    free(source);
    return failed;
}
