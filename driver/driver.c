/* The pipeline: parse, check, analyse, then for each kernel and backend run the
 * passes on a copy of the kernel and print it. Outputs are written only when
 * everything succeeded, each through a temporary file, so that no half-written
 * file is ever left behind. */
#include "driver.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "emit.h"
#include "frontend.h"
#include "layout.h"
#include "params.h"
#include "passes.h"
#include "registers.h"
#include "space.h"
#include "unrolled.h"

void driver_options_init(DriverOptions *o)
{
    memset(o, 0, sizeof *o);
    o->output_dir = ".";
    o->prefix = "";
    o->dump_format = "imcl";
}

bool driver_add_backend(DriverOptions *o, const char *name)
{
    for (int i = 0; i < driver_nbackends; i++)
        if (strcmp(name, driver_backends[i]->name) == 0) {
            o->backends |= 1u << i;
            return true;
        }
    return false;
}

bool driver_parse_size(DriverOptions *o, const char *text)
{
    int n = 0;
    const char *p = text;
    while (*p && n < 3) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p || v < 1 || v > (1L << 30))
            return false;
        o->size[n++] = (int)v;
        p = end;
        if (*p == 'x' || *p == 'X')
            p++;
        else
            break;
    }
    if (*p || n == 0)
        return false;
    o->size_dims = n;
    return true;
}

SpaceOptions driver_space_options(const DriverOptions *o, const Backend *b)
{
    SpaceOptions so = {b, o->size_dims ? o->size : NULL, o->size_dims, b->shared_limit, b->constant_limit,
                       o->prefix ? o->prefix : ""};
    if (o->shared_limit)
        so.shared_limit = o->shared_limit;
    return so;
}

/* A copy of kernel k whose body the passes may rewrite; symbols are shared. On a GPU
 * backend the body goes into a point loop (AST_POINTS), which the passes fill and
 * pass_thread_mapping lowers. */
static Function *copy_kernel(Arena *a, const Function *k, const Backend *b)
{
    Function *c = ARENA_NEW(a, Function);
    *c = *k;
    c->body = ast_copy(a, k->body);
    if (b->gpu) {
        Node *body = ast_build_block(a, k->body->loc);
        ast_append_stmt(a, body, ast_build_points(a, c->body, k->body->loc));
        c->body = body;
    }
    ast_fix_parents(c->body);
    c->reg_terms = NULL;
    return c;
}

/* The passes of the pass table (passes/passes.c, which says why in that order) on a
 * copy of kernel k, the GPU-only ones for GPU backends; `variant` names the variant in
 * what --emit-ast prints. Returns the copy, or NULL when a pass reported errors. */
static Function *run_passes(Arena *a, Diag *diag, const Function *k, const Backend *b, const TuneParams *tp,
                            const char *variant, const DriverOptions *o)
{
    Function *c = copy_kernel(a, k, b);
    if (!verify_function(diag, c, "sema", false))
        return NULL;
    PassCtx pc = {a, diag, tp, b};
    bool lowered = false;
    for (int i = 0; i < pass_count; i++) {
        const Pass *p = &pass_table[i];
        if (p->gpu_only && !b->gpu)
            continue;
        if (p->run(&pc, c))
            return NULL;
        lowered |= p->lowers;
        /* the tree check, in every build: a broken tree stops here, and no file is
         * written */
        if (!verify_function(diag, c, p->name, lowered))
            return NULL;
        if (o->emit_ast_after && strcmp(o->emit_ast_after, p->name) == 0) {
            printf("/* %s%s, %s backend, after pass %s */\n", k->name, variant, b->name, p->name);
            ast_dump_function(stdout, c);
        }
    }
    if (o->emit_ast && !o->emit_ast_after) {
        printf("/* %s%s, %s backend, after the passes */\n", k->name, variant, b->name);
        ast_dump_function(stdout, c);
    }
    return c;
}

/* The pipeline of one kernel for one backend: the passes, for the CPU variant too
 * when there is one (tp_cpu), then the backend's emitter. */
static int compile_kernel(Arena *a, Diag *diag, const Program *prog, const Function *k, const Backend *b,
                          const TuneParams *tp, const TuneParams *tp_cpu, const SpaceOptions *so,
                          const DriverOptions *o, Outputs *out)
{
    Function *c = run_passes(a, diag, k, b, tp, "", o);
    Function *c_cpu = tp_cpu && c ? run_passes(a, diag, k, b, tp_cpu, " (CPU variant)", o) : NULL;
    if (!c || (tp_cpu && !c_cpu))
        return 1;
    EmitCtx e = {a, diag, prog, c, o->prefix, arena_printf(a, "%s%s", o->prefix, k->name), tp, so, c_cpu,
                 c_cpu ? tp_cpu : NULL, false};
    return b->emit(&e, out);
}

static bool write_file(Diag *diag, const char *dir, const OutFile *f)
{
    size_t n = strlen(dir) + strlen(f->name) + 32;
    char *path = malloc(n), *tmp = malloc(n);
    snprintf(path, n, "%s/%s", dir, f->name);
    snprintf(tmp, n, "%s/.%s.tmp%ld", dir, f->name, (long)getpid());
    bool ok = false;
    FILE *fp = fopen(tmp, "wb");
    if (fp) {
        ok = fwrite(f->text.data ? f->text.data : "", 1, f->text.len, fp) == f->text.len;
        ok = (fclose(fp) == 0) && ok;
        if (ok)
            ok = rename(tmp, path) == 0;
        if (!ok)
            remove(tmp);
    }
    if (!ok)
        diag_plain_error(diag, "cannot write '%s': %s", path, strerror(errno));
    free(path);
    free(tmp);
    return ok;
}

/* mkdir -p */
static bool make_dirs(const char *path)
{
    char *p = strdup(path);
    bool ok = true;
    for (char *q = p + 1; ok && *q; q++) {
        if (*q != '/')
            continue;
        *q = 0;
        ok = mkdir(p, 0777) == 0 || errno == EEXIST;
        *q = '/';
    }
    if (ok)
        ok = mkdir(p, 0777) == 0 || errno == EEXIST;
    free(p);
    return ok;
}

/* --analyze: the cost of one grid point of k (analyze_cost) and, given a bandwidth
 * and a peak, the roofline bound min(bandwidth / bytes, peak / flops). */
static void print_cost(FILE *out, Arena *a, Function *k, const DriverOptions *o)
{
    KernelCost c = analyze_cost(a, k);
    double bytes = c.bytes_read + c.bytes_written;
    fprintf(out, "kernel %s: per grid point\n", k->name);
    fprintf(out, "  flops               %g%s\n", c.flops,
            c.exact ? " (+ - * / and math calls on float and double)"
                    : " or more (a loop of unknown trip count counted once)");
    fprintf(out, "  grid reads          %g as written\n", c.loads);
    fprintf(out, "  compulsory bytes    %g read + %g written = %g%s\n", c.bytes_read, c.bytes_written, bytes,
            c.no_reuse ? " (no reuse assumed where a footprint is unknown: an upper bound)"
                       : " (neighbouring points share their reads)");
    if (bytes > 0)
        fprintf(out, "  intensity           %.3g flop/byte\n", c.flops / bytes);
    /* (every loop unrolled as far as loops_unroll_factors goes) */
    LoopTable loops = analyze_loops(a, k);
    int *whole = arena_alloc(a, sizeof(int) * (size_t)(loops.n + 1));
    for (int i = 0; i < loops.n; i++) {
        int f[16];
        whole[i] = f[loops_unroll_factors(&loops.items[i], f, 16) - 1];
    }
    fprintf(out, "  code size           %lld, %lld with every loop unrolled by its largest factor\n"
                "                      (the device backends take at most %d)\n",
            unrolled_size_at(a, k, NULL, false), unrolled_size_at(a, k, whole, false), UNROLLED_MAX_SIZE);
    double mem = o->bandwidth > 0 && bytes > 0 ? o->bandwidth / bytes : 0;
    double fp = o->peak > 0 && c.flops > 0 ? o->peak / c.flops : 0;
    double bound = mem && fp ? (mem < fp ? mem : fp) : mem ? mem : fp;
    if (bound > 0) {
        fprintf(out, "  roofline            %.4g GStencil/s at", bound);
        if (o->bandwidth > 0)
            fprintf(out, " %g GB/s", o->bandwidth);
        if (o->peak > 0)
            fprintf(out, "%s %g GFLOP/s", o->bandwidth > 0 ? " and" : "", o->peak);
        fprintf(out, "%s\n", bound == mem ? " (memory bound)" : " (compute bound)");
    }
}

int driver_load(Arena *a, Diag *diag, const DriverOptions *o, const char *text, size_t len, DriverUnit *u)
{
    memset(u, 0, sizeof *u);
    Program *prog = text ? frontend_parse_source(a, diag, o->input, text, len) : frontend_parse_file(a, diag, o->input);
    if (!prog)
        return 2;
    if (diag->errors)
        return 1;
    if (sema_program(prog, diag))
        return 1;

    /* The kernels to compile. */
    Function **kernels = arena_alloc(a, sizeof *kernels * (size_t)(2 * prog->nfuncs + 1));
    int nk = 0;
    for (int i = 0; i < prog->nfuncs; i++) {
        Function *f = prog->funcs[i];
        if (f->is_kernel && (!o->kernel || strcmp(o->kernel, f->name) == 0))
            kernels[nk++] = f;
    }
    if (o->kernel && nk == 0) {
        diag_plain_error(diag, "no kernel named '%s' in %s", o->kernel, o->input);
        return 2;
    }
    /* Dead code out first (warned about once): every analysis, the space and -t see
     * the kernels as they are compiled. */
    dead_code_program(a, diag, prog, kernels, nk);
    for (int i = 0; i < nk; i++)
        analyze_access(a, kernels[i]);
    /* --mpi: each kernel's local variant is a kernel of its own from here on. */
    if (o->mpi) {
        int errors = 0;
        for (int i = 0, n = nk; i < n; i++) {
            int e = distribute_kernel(a, diag, kernels[i]);
            errors += e;
            if (!e) {
                kernels[nk] = kernels[i]->dist->local;
                analyze_access(a, kernels[nk++]);
            }
        }
        if (errors)
            return 1;
    }
    for (int i = 0; i < nk; i++) {
        registers_cache(a, kernels[i]);
        kernels[i]->iterate_radius = analyze_iterate(a, kernels[i], &kernels[i]->iterate_why);
    }
    u->prog = prog;
    u->kernels = kernels;
    u->nk = nk;
    return 0;
}

int driver_first_backend(const DriverOptions *o)
{
    unsigned backends = o->backends ? o->backends : 1u; /* default: the first, cuda */
    for (int b = 0; b < driver_nbackends; b++)
        if (backends & 1u << b)
            return b;
    return 0;
}

int driver_dump_space(FILE *out, Arena *a, Diag *diag, const DriverOptions *o, const DriverUnit *u)
{
    SpaceOptions so = driver_space_options(o, driver_backends[driver_first_backend(o)]);
    if (strcmp(o->dump_format, "t1") == 0)
        return space_dump_t1(out, a, diag, u->kernels, u->nk, &so) ? 0 : 2;
    space_dump_imcl(out, a, u->kernels, u->nk, &so);
    return 0;
}

int driver_generate(Arena *a, Diag *diag, const DriverOptions *o, const DriverUnit *u, TuneParams *given,
                    Outputs *out)
{
    unsigned backends = o->backends ? o->backends : 1u; /* default: the first, cuda */
    int nk = u->nk;
    int status = 0;
    TuneParams *tps = arena_alloc(a, sizeof *tps * (size_t)(nk + 1));
    TuneParams *cpu = arena_alloc(a, sizeof *cpu * (size_t)(nk + 1));
    for (int b = 0; b < driver_nbackends && !status; b++) {
        if (!(backends & 1u << b))
            continue;
        SpaceOptions so = driver_space_options(o, driver_backends[b]);
        for (int i = 0; i < nk; i++)
            if (!params_for_kernel(given, u->kernels[i], &so, a, &tps[i], diag))
                status = 2;
        for (int i = 0; i < nk && !status; i++) {
            const TuneParams *tp_cpu = params_cpu_variant(given, u->kernels[i], &so, a, &cpu[i]) ? &cpu[i] : NULL;
            if (!params_check_time_tile_cpu(&tps[i], tp_cpu, u->kernels[i], &so, diag))
                status = 2;
            else if (compile_kernel(a, diag, u->prog, u->kernels[i], driver_backends[b], &tps[i], tp_cpu, &so, o, out))
                status = 1;
        }
    }
    if (!status && !params_check_unused(given, diag))
        status = 2;
    /* The same header may come from several backends: each name once. */
    int n = 0;
    for (int i = 0; i < out->n; i++) {
        bool dup = false;
        for (int j = 0; j < n; j++)
            dup |= strcmp(out->files[i]->name, out->files[j]->name) == 0;
        if (dup) {
            free(out->files[i]->name);
            sb_free(&out->files[i]->text);
            free(out->files[i]);
            continue;
        }
        if (!status)
            layout_wrap(&out->files[i]->text, LAYOUT_WIDTH);
        out->files[n++] = out->files[i];
    }
    out->n = n;
    if (status == 0 && diag->errors)
        status = 1;
    if (diag->internal)
        status = 3;
    return status;
}

int driver_write(Diag *diag, const char *dir, const Outputs *out)
{
    if (!make_dirs(dir)) {
        diag_plain_error(diag, "cannot create output folder '%s': %s", dir, strerror(errno));
        return 2;
    }
    for (int i = 0; i < out->n; i++)
        if (!write_file(diag, dir, out->files[i]))
            return 2;
    return 0;
}

/* A path in a make rule: blanks, '#' and '\\' escaped with '\\', '$' doubled. */
static void make_path(FILE *f, const char *path)
{
    for (const char *p = path; *p; p++) {
        if (*p == ' ' || *p == '\t' || *p == '#' || *p == '\\')
            fputc('\\', f);
        else if (*p == '$')
            fputc('$', f);
        fputc(*p, f);
    }
}

static int by_name(const void *a, const void *b)
{
    return strcmp((*(const OutFile *const *)a)->name, (*(const OutFile *const *)b)->name);
}

int driver_write_depfile(Diag *diag, const DriverOptions *o, const Program *prog, const Outputs *out)
{
    if (!o->depfile)
        return 0;
    /* In name order: Ninja takes a depfile whose first target is the rule's first
     * output, and a build system can list them so without knowing imcl's order. */
    const OutFile **files = malloc(sizeof *files * (size_t)(out->n ? out->n : 1));
    if (!files) {
        diag_plain_error(diag, "out of memory");
        return 2;
    }
    /* The host runtime depends on imcl alone: no source or parameter file changes it. */
    int n = 0;
    for (int i = 0; i < out->n; i++)
        if (!out->files[i]->runtime)
            files[n++] = out->files[i];
    qsort(files, (size_t)n, sizeof *files, by_name);
    FILE *f = fopen(o->depfile, "w");
    if (!f) {
        diag_plain_error(diag, "cannot write '%s': %s", o->depfile, strerror(errno));
        free(files);
        return 2;
    }
    for (int i = 0; i < n; i++) {
        fputs(i ? " \\\n" : "", f);
        make_path(f, o->output_dir);
        fputc('/', f);
        make_path(f, files[i]->name);
    }
    free(files);
    fputc(':', f);
    const char *extra[] = {o->params_file, o->recipe_file};
    for (int i = 0; i < prog->nfiles + 2; i++) {
        const char *dep = i < prog->nfiles ? prog->files[i] : extra[i - prog->nfiles];
        if (dep) {
            fputs(" \\\n  ", f);
            make_path(f, dep);
        }
    }
    fputc('\n', f);
    if (fclose(f) != 0) {
        diag_plain_error(diag, "cannot write '%s': %s", o->depfile, strerror(errno));
        return 2;
    }
    return 0;
}

static int run(Arena *a, Diag *diag, const DriverOptions *o)
{
    TuneParams given;
    params_init(&given);
    /* with -r, -t holds the values of the recipe's tunables */
    if (o->params_file && !o->recipe_file && !params_load(&given, o->params_file, a, diag))
        return 2;

    DriverUnit u;
    int status = driver_load(a, diag, o, NULL, 0, &u);
    if (status)
        return status;
    if (o->recipe_file)
        return driver_recipe(a, diag, o, &u);

    if (o->footprint || o->analyze) {
        for (int i = 0; i < u.nk; i++) {
            if (o->footprint)
                space_print_footprint(stdout, a, u.kernels[i]);
            if (o->analyze)
                print_cost(stdout, a, u.kernels[i], o);
        }
        if (!o->dump_space && !o->emit_ast && !o->params_file && !o->backends && !o->batch_file)
            return 0;
    }
    if (o->liveness) {
        /* With -t, the register estimate of that configuration for the first backend. */
        SpaceOptions so = driver_space_options(o, driver_backends[driver_first_backend(o)]);
        for (int i = 0; i < u.nk; i++) {
            TuneParams tp;
            if (o->params_file && !params_for_kernel(&given, u.kernels[i], &so, a, &tp, diag))
                return 2;
            registers_print_liveness(stdout, a, u.prog, u.kernels[i], o->params_file ? &tp : NULL);
        }
        if (!o->dump_space && !o->emit_ast && !o->backends && !o->batch_file)
            return 0;
    }
    if (o->dump_space)
        return driver_dump_space(stdout, a, diag, o, &u);

    if (o->batch_file)
        return driver_batch(a, diag, o, &u);

    Outputs out = {0};
    status = driver_generate(a, diag, o, &u, &given, &out);
    if (!status)
        status = driver_write(diag, o->output_dir, &out);
    if (!status)
        status = driver_write_depfile(diag, o, u.prog, &out);
    outputs_free(&out);
    return status;
}

int driver_run(const DriverOptions *o)
{
    Arena *a = arena_new();
    Diag diag;
    diag_init(&diag, a, stderr);
    int status = run(a, &diag, o);
    if (status == 0 && diag.errors)
        status = 1;
    if (diag.internal)
        status = 3;
    arena_free(a);
    return status;
}
