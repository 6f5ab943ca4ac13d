/* --batch: many configurations of one source in one run. The source is parsed,
 * checked and analysed once; each line of the batch file is a configuration (a flat
 * JSON object, as `-t` reads) generated in an arena of its own into
 * OUTDIR/<line number>/. A line that fails is reported with its number and the
 * others go on. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver.h"
#include "emit.h"
#include "params.h"

/* One line: 0 when its files were written, else the status it failed with. */
static int batch_line(const DriverOptions *o, const DriverUnit *u, const Diag *diag, const char *where,
                      const char *text, const char *dir)
{
    Arena *a = arena_new();
    Diag d = *diag; /* the source cache of the unit, an error count of its own */
    d.arena = a;
    d.errors = d.warnings = d.internal = 0;
    TuneParams given;
    params_init(&given);
    const char *p = text;
    while (*p == ' ' || *p == '\t')
        p++;
    int status = 0;
    if (*p != '{') {
        diag_plain_error(&d, "%s: expected a flat JSON object", where);
        status = 2;
    } else if (!params_load_text(&given, where, text, a, &d)) {
        status = 2;
    }
    Outputs out = {0};
    if (!status)
        status = driver_generate(a, &d, o, u, &given, &out);
    if (!status)
        status = driver_write(&d, dir, &out);
    outputs_free(&out);
    arena_free(a);
    return status;
}

int driver_batch(Arena *a, Diag *diag, const DriverOptions *o, const DriverUnit *u)
{
    bool from_stdin = strcmp(o->batch_file, "-") == 0;
    FILE *f = from_stdin ? stdin : fopen(o->batch_file, "rb");
    if (!f) {
        diag_plain_error(diag, "cannot open batch file '%s': %s", o->batch_file, strerror(errno));
        return 2;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    int lineno = 0, done = 0, failed = 0, internal = 0;
    while ((len = getline(&line, &cap, f)) >= 0) {
        lineno++;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = 0;
        if (strspn(line, " \t") == (size_t)len)
            continue; /* an empty line */
        if (strlen(line) != (size_t)len) {
            diag_plain_error(diag, "%s:%d: line contains a NUL byte", o->batch_file, lineno);
            failed++;
            continue;
        }
        char *where = arena_printf(a, "%s:%d", o->batch_file, lineno);
        char *dir = arena_printf(a, "%s/%d", o->output_dir, lineno);
        int status = batch_line(o, u, diag, where, line, dir);
        if (status) {
            diag_plain_error(diag, "%s: configuration not generated (status %d)", where, status);
            failed++;
            internal += status == 3;
        } else {
            done++;
        }
    }
    bool read_error = ferror(f);
    free(line);
    if (!from_stdin)
        fclose(f);
    if (read_error) {
        diag_plain_error(diag, "cannot read batch file '%s'", o->batch_file);
        return 2;
    }
    if (failed && diag->out)
        fprintf(diag->out, "imcl: %d of %d configurations generated, %d failed\n", done, done + failed, failed);
    return internal ? 3 : failed ? 1 : 0;
}
