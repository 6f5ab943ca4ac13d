/* miniamr-proxy: miniAMR's stencil phase on a mesh of equal blocks, run by a plain C
 * loop (the reference) and by the kernels imcl generated from samples/miniamr/v1..v3
 * (thesis section 4.2) or stencil7 (miniAMR's loop body, on miniAMR's own row tables,
 * with refinement) through their persistent plans, from the same initial data,
 * compared cell by cell (--validate) or by miniAMR's checksums.
 *
 *   miniamr-proxy [--kernel v1|v2|v3|stencil7] [--backend c|opencl|cuda] [--n N]
 *                 [--blocks B] [--vars V] [--steps S] [--stages T] [--refine R]
 *                 [--attach [--blocking]] [--validate] [--resident] [-t params.json] ...
 *
 * See README.md beside this file for what is run, the data movement and the
 * output. The last line of the output is one JSON object. Exit status: 0 success,
 * 1 a difference from the reference or a failure of the kernels, 2 usage. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "proxy.h"

#ifdef PROXY_MPI
/* miniamr-proxy-mpi (README.md, "On several ranks"): the blocks in contiguous ranges, a
 * range a rank (miniAMR's own is a space-filling order); every rank holds the whole
 * mesh, but computes its range only, and keeps the blocks of the others current where
 * its blocks read them (the faces between ranks, every stage) or where the run reads
 * every block (checks, refinement: the mesh shared from the blocks' ranks). */
#include <mpi.h>

static int mpi_rank, mpi_size = 1;

/* The rank that computes block b of a mesh of `blocks`: the first of its range. */
static int mpi_owner(int blocks, int b)
{
    return (int)(((long long)b * mpi_size + mpi_size - 1) / blocks);
}

static void mpi_range(int blocks, int *first, int *count)
{
    int b0 = (int)((long long)blocks * mpi_rank / mpi_size), b1 = (int)((long long)blocks * (mpi_rank + 1) / mpi_size);
    *first = b0;
    *count = b1 - b0;
}

/* miniAMR's communication between ranks: for every face between a block of this rank
 * and a block of another, this block's interior layer next to the face goes there, and
 * the other block's comes here, into that block's cells, from which mesh_fill_ghosts
 * then fills this block's ghost layer as on one rank. */
static int mpi_exchange_faces(Mesh *m)
{
    int first, count, dims[3] = {m->bx, m->by, m->bz}, step[3] = {1, m->bx, m->bx * m->by};
    mpi_range(m->blocks, &first, &count);
    size_t layer = (size_t)m->vars * m->n * m->n, most = 6 * (size_t)(count ? count : 1);
    double *buf = malloc(sizeof *buf * layer * 2 * most);
    MPI_Request *req = malloc(sizeof *req * 2 * most);
    int (*into)[3] = malloc(sizeof *into * most); /* where each layer that comes goes: block, dim, c */
    int nmsg = 0, fail = !buf || !req || !into;
    for (int b = first; b < first + count && !fail; b++) {
        int pos[3] = {b % m->bx, b / m->bx % m->by, b / (m->bx * m->by)};
        for (int f = 0; f < 6; f++) {
            int dim = f / 2, high = f % 2;
            if (high ? pos[dim] == dims[dim] - 1 : pos[dim] == 0)
                continue;
            int nb = b + (high ? step[dim] : -step[dim]), r = mpi_owner(m->blocks, nb);
            if (r == mpi_rank)
                continue;
            double *out = buf + 2 * (size_t)nmsg * layer;
            mesh_layer(m, b, dim, high ? m->n : 1, out, 1);
            into[nmsg][0] = nb, into[nmsg][1] = dim, into[nmsg][2] = high ? 1 : m->n;
            /* a message's tag: the block it leaves and the face it crosses */
            MPI_Isend(out, (int)layer, MPI_DOUBLE, r, b * 6 + f, MPI_COMM_WORLD, &req[2 * nmsg]);
            MPI_Irecv(out + layer, (int)layer, MPI_DOUBLE, r, nb * 6 + (f ^ 1), MPI_COMM_WORLD, &req[2 * nmsg + 1]);
            nmsg++;
        }
    }
    if (!fail)
        MPI_Waitall(2 * nmsg, req, MPI_STATUSES_IGNORE);
    /* the layers that came, into the neighbours' cells next to the faces */
    for (int i = 0; i < nmsg; i++)
        mesh_layer(m, into[i][0], into[i][1], into[i][2], buf + (2 * (size_t)i + 1) * layer, 0);
    free(buf);
    free(req);
    free(into);
    MPI_Allreduce(MPI_IN_PLACE, &fail, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (fail)
        fprintf(stderr, "miniamr-proxy: out of host memory\n");
    return fail;
}

/* Every block from the rank that computes it to every rank. */
static int mpi_share_blocks(Mesh *m)
{
    size_t e = (size_t)m->n + 2;
    double *buf = malloc(sizeof *buf * (size_t)m->vars * e * e * e);
    int fail = !buf;
    MPI_Allreduce(MPI_IN_PLACE, &fail, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    for (int b = 0; b < m->blocks && !fail; b++) {
        int r = mpi_owner(m->blocks, b);
        size_t count = r == mpi_rank ? mesh_block(m, b, buf, 1) : (size_t)m->vars * e * e * e;
        MPI_Bcast(buf, (int)count, MPI_DOUBLE, r, MPI_COMM_WORLD);
        if (r != mpi_rank)
            mesh_block(m, b, buf, 0);
    }
    free(buf);
    if (fail)
        fprintf(stderr, "miniamr-proxy: out of host memory\n");
    return fail;
}
#endif

double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct Options {
    const char *kernel, *backend, *params;
    int n, blocks, vars, steps, stages, checksum_freq;
    int refine;   /* --refine R: every R stages the mesh refines, or coarsens back */
    int validate, inject_error, keep, bandwidth_mb;
    int resident; /* --resident: the mesh stays on the device (v2r.imcl) */
    int attach;   /* --attach: stencil7's plans compute in the mesh's slabs */
    int blocking; /* --blocking: --attach's launches one after the other */
    int scatter;  /* --scatter S: --attach's blocks in every S-th slot, launched by a list */
    double rtol, checksum_rtol, conservation_rtol;
    unsigned seed;
} Options;

/* Seconds spent in each part of the run. */
typedef struct Timing {
    double reference, reference_ghost;  /* the C loop: stencil, ghost exchange */
    double setup;                       /* plan create (+ warm-up launch) and destroy */
    double ghost;                       /* ghost exchange of the kernel path (host; --resident:
                                           wall time of the ghost launches) */
    double ghost_kernel;                /* --resident: kernel time of the ghost launches */
    double transfer;                    /* uploads, downloads and v1's (un)packing */
    double launch;                      /* wall time of the launch calls */
    double kernel;                      /* kernel time reported by the plans */
    double generate;                    /* -t: imcl and the compilers at run time */
    double refine;                      /* --refine: refining and coarsening both meshes */
} Timing;

/* The kernel path of one run. */
typedef struct Path {
    const Options *o;
    const PlanOps *ops;
    void *plan;
    Mesh *mesh;      /* the kernel path's mesh (canonical layout, proxy.h) */
    Mesh *next;      /* v3: the mesh being written */
    double *pack;    /* v1: the buffer in v1's layout */
    double ****tables; /* stencil7: one variable's table of every block */
    Timing *t;
    void **plans;    /* --attach: one plan per variable, attached to its two slabs */
    int listed;      /* --scatter: the blocks the plans' lists hold (0: none yet) */
} Path;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: miniamr-proxy [options]\n"
            "  --kernel v1|v2|v3|stencil7  imcl kernel of thesis section 4.2 (default v3), or\n"
            "                        miniAMR's loop body on miniAMR's row tables, in batches\n"
            "  --backend c|opencl|cuda  generated code to run (default opencl)\n"
            "  --n N                 cells per block edge (default 10)\n"
            "  --blocks B            blocks, arranged near-cubically (default 8)\n"
            "  --vars V              variables per cell (default 4)\n"
            "  --steps S             timesteps (default 2)\n"
            "  --stages T            stages per timestep (default 5)\n"
            "  --refine R            (--kernel stencil7, N even) after every R stages every block\n"
            "                        splits into 8, or the 8 join again (default 0: never)\n"
            "  --attach              (--kernel stencil7, --backend c or opencl) every variable's\n"
            "                        blocks in one allocation, which its plan computes in: no copies\n"
            "  --blocking            (--attach) each launch waits before the next starts\n"
            "  --scatter S           (--attach) block b in slot b*S + S-1 of S times the slots, as\n"
            "                        an AMR code's active blocks lie: launched by a list of blocks\n"
            "  --validate            compare every cell with the reference after every stage\n"
            "  --resident            (--kernel v2) keep the mesh on the device: ghost exchange by a\n"
            "                        kernel, read and write buffers swapped, downloads only to check\n"
            "  --rtol X              relative tolerance of --validate (default 0: exact)\n"
            "  --checksum-freq F     stages between checksum checks without --validate (default 5)\n"
            "  -t, --params FILE     tuning parameters of the kernel, generated and compiled at\n"
            "                        run time (default: the build's samples/miniamr/<v>.params.json)\n"
            "  --keep                keep the code that -t generated\n"
            "  --bandwidth MB        also measure the copy bandwidth of the backend on MB per array\n"
            "  --seed S              initial values (default 1)\n");
}

static int int_arg(const char *name, const char *v, int lo, int *out)
{
    char *end;
    errno = 0;
    long x = v ? strtol(v, &end, 10) : 0;
    if (!v || *end || errno || x < lo || x > 1000000000L) {
        fprintf(stderr, "miniamr-proxy: %s needs an integer >= %d\n", name, lo);
        return 0;
    }
    *out = (int)x;
    return 1;
}

static int parse_args(int argc, char **argv, Options *o)
{
    *o = (Options){"v3", "opencl", NULL, 10, 8, 4, 2, 5, 5, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0.0, 1e-10, 1e-8, 1};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int ok = 1, used = 1, seed = 1;
        if (!strcmp(a, "--kernel") && v)
            o->kernel = v;
        else if (!strcmp(a, "--backend") && v)
            o->backend = v;
        else if ((!strcmp(a, "-t") || !strcmp(a, "--params")) && v)
            o->params = v;
        else if (!strcmp(a, "--n"))
            ok = int_arg(a, v, 1, &o->n);
        else if (!strcmp(a, "--blocks"))
            ok = int_arg(a, v, 1, &o->blocks);
        else if (!strcmp(a, "--vars"))
            ok = int_arg(a, v, 1, &o->vars);
        else if (!strcmp(a, "--steps"))
            ok = int_arg(a, v, 1, &o->steps);
        else if (!strcmp(a, "--stages"))
            ok = int_arg(a, v, 1, &o->stages);
        else if (!strcmp(a, "--refine"))
            ok = int_arg(a, v, 0, &o->refine);
        else if (!strcmp(a, "--scatter"))
            ok = int_arg(a, v, 1, &o->scatter);
        else if (!strcmp(a, "--checksum-freq"))
            ok = int_arg(a, v, 1, &o->checksum_freq);
        else if (!strcmp(a, "--bandwidth"))
            ok = int_arg(a, v, 1, &o->bandwidth_mb);
        else if (!strcmp(a, "--seed")) {
            ok = int_arg(a, v, 0, &seed);
            o->seed = (unsigned)seed;
        } else if (!strcmp(a, "--rtol") && v) {
            char *end;
            o->rtol = strtod(v, &end);
            ok = !*end && o->rtol >= 0;
        } else {
            used = 0;
            if (!strcmp(a, "--validate"))
                o->validate = 1;
            else if (!strcmp(a, "--resident"))
                o->resident = 1;
            else if (!strcmp(a, "--attach"))
                o->attach = 1;
            else if (!strcmp(a, "--blocking"))
                o->blocking = 1;
            else if (!strcmp(a, "--keep"))
                o->keep = 1;
            else if (!strcmp(a, "--inject-error")) /* for the tests: perturbs one cell of the kernel result */
                o->inject_error = 1;
            else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
                usage(stdout);
                exit(0);
            } else {
                fprintf(stderr, "miniamr-proxy: unknown or incomplete option '%s'\n", a);
                ok = 0;
            }
        }
        if (!ok)
            return 0;
        i += used;
    }
    if (strcmp(o->kernel, "v1") && strcmp(o->kernel, "v2") && strcmp(o->kernel, "v3") &&
        strcmp(o->kernel, "stencil7")) {
        fprintf(stderr, "miniamr-proxy: --kernel must be v1, v2, v3 or stencil7\n");
        return 0;
    }
    if (o->refine && (strcmp(o->kernel, "stencil7") || o->n % 2)) {
        fprintf(stderr, "miniamr-proxy: --refine needs --kernel stencil7 and an even --n\n");
        return 0;
    }
    if (o->attach && (strcmp(o->kernel, "stencil7") || !strcmp(o->backend, "cuda"))) {
        fprintf(stderr, "miniamr-proxy: --attach needs --kernel stencil7 and --backend c or opencl\n");
        return 0;
    }
    if (o->scatter > 1 && !o->attach) {
        fprintf(stderr, "miniamr-proxy: --scatter needs --attach\n");
        return 0;
    }
    if (o->blocking && !o->attach) {
        fprintf(stderr, "miniamr-proxy: --blocking needs --attach\n");
        return 0;
    }
    if (o->resident && (strcmp(o->kernel, "v2") || o->params)) {
        fprintf(stderr, "miniamr-proxy: --resident needs --kernel v2 and no -t (it runs the built-in v2r.imcl)\n");
        return 0;
    }
#ifdef PROXY_MPI
    if (strcmp(o->kernel, "stencil7") || o->attach || o->params || strcmp(o->backend, "cuda") == 0) {
        fprintf(stderr, "miniamr-proxy: on several ranks (miniamr-proxy-mpi) only --kernel stencil7 runs, "
                        "without --attach and -t, on --backend c or opencl\n");
        return 0;
    }
#endif
    if (strcmp(o->backend, "c") && strcmp(o->backend, "opencl") && strcmp(o->backend, "cuda")) {
        fprintf(stderr, "miniamr-proxy: --backend must be c, opencl or cuda\n");
        return 0;
    }
    return 1;
}

/* --inject-error: one cell of the kernel path's result perturbed, in a block and
 * variable in the middle of the mesh. */
static void inject_error(Mesh *m)
{
    int c = (m->n + 1) / 2;
    mesh_table(m, m->blocks / 2, m->vars - 1)[c][c][c] += 1.0;
    printf("  (--inject-error: one cell of the kernel result perturbed by 1.0)\n");
}

/* A failed plan call: says which and why, then the run ends with status 1. */
static int plan_error(const Path *p, const char *what, int rc)
{
    fprintf(stderr, "miniamr-proxy: %s %s failed: %s\n", p->ops->kernel, what, p->ops->strerror(rc));
    const char *log = p->ops->build_log();
    if (log && *log)
        fprintf(stderr, "%s\n", log);
    return rc;
}

/* ---- the kernel path: one stage of each version ---------------------------------- */

/* One launch per variable (scalars n, v, blocks, vars; v2r's stencil phase also
 * bx, by, ghost = 0 and gz = n), timed. */
static int launch_vars(Path *p)
{
    const Options *o = p->o;
    for (int v = 0; v < o->vars; v++) {
        const int s[8] = {o->n, v, o->blocks, o->vars, p->mesh->bx, p->mesh->by, 0, o->n};
        double t0 = now_s();
        int rc = p->ops->launch(p->plan, s);
        p->t->launch += now_s() - t0;
        if (rc)
            return plan_error(p, "launch", rc);
        p->t->kernel += p->ops->kernel_ms(p->plan) * 1e-3;
    }
    return 0;
}

/* v1: the host mesh is packed into v1's layout (block b's variable v in slot v+1
 * of the block's num_vars+1 slots), uploaded, updated by one launch per variable
 * in increasing order (each moves its variable from slot v+1 to slot v), and
 * downloaded and unpacked from slots 0..num_vars-1. */
static int stage_v1(Path *p)
{
    const Options *o = p->o;
    Mesh *m = p->mesh;
    size_t vg = (size_t)o->vars * m->grid;
    double t0 = now_s();
    for (int b = 0; b < o->blocks; b++)
        memcpy(p->pack + ((size_t)b * (o->vars + 1) + 1) * m->grid, mesh_grid(m, b, 0), vg * sizeof(double));
    int rc = p->ops->upload(p->plan, 0, p->pack);
    p->t->transfer += now_s() - t0;
    if (rc)
        return plan_error(p, "upload", rc);
    if ((rc = launch_vars(p)))
        return rc;
    t0 = now_s();
    rc = p->ops->download(p->plan, 0, p->pack);
    for (int b = 0; b < o->blocks && !rc; b++)
        memcpy(mesh_grid(m, b, 0), p->pack + (size_t)b * (o->vars + 1) * m->grid, vg * sizeof(double));
    p->t->transfer += now_s() - t0;
    return rc ? plan_error(p, "download", rc) : 0;
}

/* v2: the host mesh is uploaded whole into `input`, one launch per variable
 * writes the interior of `output`, which is downloaded into the host mesh (its
 * ghost cells, never written on the device, are refilled before the next stage). */
static int stage_v2(Path *p)
{
    double t0 = now_s();
    int rc = p->ops->upload(p->plan, 0, p->mesh->cell);
    p->t->transfer += now_s() - t0;
    if (rc)
        return plan_error(p, "upload", rc);
    if ((rc = launch_vars(p)))
        return rc;
    t0 = now_s();
    rc = p->ops->download(p->plan, 1, p->mesh->cell);
    p->t->transfer += now_s() - t0;
    return rc ? plan_error(p, "download", rc) : 0;
}

/* v3: one grid at a time: upload block b's variable v into `in`, launch, download
 * `out` into the next mesh; then the meshes change roles. */
static int stage_v3(Path *p)
{
    const Options *o = p->o;
    for (int b = 0; b < o->blocks; b++)
        for (int v = 0; v < o->vars; v++) {
            double t0 = now_s();
            int rc = p->ops->upload(p->plan, 0, mesh_grid(p->mesh, b, v));
            p->t->transfer += now_s() - t0;
            if (rc)
                return plan_error(p, "upload", rc);
            t0 = now_s();
            rc = p->ops->launch(p->plan, NULL);
            p->t->launch += now_s() - t0;
            if (rc)
                return plan_error(p, "launch", rc);
            p->t->kernel += p->ops->kernel_ms(p->plan) * 1e-3;
            t0 = now_s();
            rc = p->ops->download(p->plan, 1, mesh_grid(p->next, b, v));
            p->t->transfer += now_s() - t0;
            if (rc)
                return plan_error(p, "download", rc);
        }
    Mesh *t = p->mesh;
    p->mesh = p->next;
    p->next = t;
    return 0;
}

/* stencil7: miniAMR's blocks where they lie, one variable at a time for all blocks:
 * the rows of every block's variable v go up from miniAMR's tables into `array`,
 * one launch computes every block, and `work` comes back into the same tables (its
 * ghost cells too, zeros, refilled before they are read). */
static int stage_stencil7(Path *p)
{
    Mesh *m = p->mesh;
    int first = 0, count = m->blocks;
#ifdef PROXY_MPI
    mpi_range(m->blocks, &first, &count); /* this rank's blocks */
    if (!count)
        return 0;
#endif
    for (int v = 0; v < m->vars; v++) {
        for (int b = 0; b < count; b++)
            p->tables[b] = mesh_table(m, first + b, v);
        double t0 = now_s();
        int rc = p->ops->upload_rows(p->plan, 0, 0, count, p->tables);
        p->t->transfer += now_s() - t0;
        if (rc)
            return plan_error(p, "upload_rows", rc);
        t0 = now_s();
        rc = p->ops->launch_batch(p->plan, count);
        p->t->launch += now_s() - t0;
        if (rc)
            return plan_error(p, "launch_batch", rc);
        p->t->kernel += p->ops->kernel_ms(p->plan) * 1e-3;
        t0 = now_s();
        rc = p->ops->download_rows(p->plan, 1, 0, count, p->tables);
        p->t->transfer += now_s() - t0;
        if (rc)
            return plan_error(p, "download_rows", rc);
    }
    return 0;
}

/* stencil7 --attach: each variable's plan computes in the variable's slab and its
 * spare (PK_plan_attach), so nothing is copied. Every variable's launch (all blocks)
 * starts at once, side by side with the others (PK_plan_launch_batch_async; with
 * --blocking one after the other); then, as each ends (PK_plan_wait), the plan's two
 * arrays and the mesh's two tables of the variable trade places, so that the spare,
 * which now holds the results, is the variable. */
static int stage_stencil7_attached(Path *p)
{
    Mesh *m = p->mesh;
    double t0 = now_s();
    int rc = 0, v = 0;
    if (m->stride > 1 && p->listed != m->blocks) {
        /* --scatter: the blocks' slots, sent to the plans when refinement changed them */
        int *list = malloc((size_t)m->blocks * sizeof *list);
        for (int b = 0; list && b < m->blocks; b++)
            list[b] = mesh_slot(m, b);
        for (int u = 0; u < m->vars && !rc; u++)
            rc = list ? p->ops->select(p->plans[u], m->blocks, list) : -3;
        free(list);
        if (rc)
            return plan_error(p, "plan_select", rc);
        p->listed = m->blocks;
    }
    for (; v < m->vars && !rc; v++)
        rc = p->o->blocking ? p->ops->launch_batch(p->plans[v], m->blocks)
                            : p->ops->launch_batch_async(p->plans[v], m->blocks);
    for (int u = 0; u < v; u++) {
        int w = p->ops->wait(p->plans[u]);
        if (!w)
            w = p->ops->swap(p->plans[u], 0, 1);
        if (!rc)
            rc = w;
        p->t->kernel += p->ops->kernel_ms(p->plans[u]) * 1e-3;
        mesh_swap_var(m, u);
    }
    p->t->launch += now_s() - t0;
    return rc ? plan_error(p, p->o->blocking ? "launch_batch" : "launch_batch_async", rc) : 0;
}

/* --resident (v2r.imcl): the mesh lives in the plan's `input` (uploaded once,
 * before the first stage). A stage is one launch of the ghost phase (every face
 * ghost cell of every block and variable of `input`, on the device), the V
 * launches of the stencil phase (input -> output, as v2) and a swap of `input`
 * and `output`, so that `input` holds the new values; nothing is copied. The
 * caller downloads `input` when it needs the values (resident_transfer). */
static int stage_resident(Path *p)
{
    const Options *o = p->o;
    const int s[8] = {o->n, 0, o->blocks, o->vars, p->mesh->bx, p->mesh->by, 1, 6 * o->blocks * o->vars};
    double t0 = now_s();
    int rc = p->ops->launch(p->plan, s);
    p->t->ghost += now_s() - t0;
    if (rc)
        return plan_error(p, "ghost launch", rc);
    p->t->ghost_kernel += p->ops->kernel_ms(p->plan) * 1e-3;
    if ((rc = launch_vars(p)))
        return rc;
    t0 = now_s();
    rc = p->ops->swap(p->plan, 0, 1);
    p->t->launch += now_s() - t0;
    return rc ? plan_error(p, "swap", rc) : 0;
}

/* --resident: `input` (the values after the last stage) into the host mesh, or
 * the host mesh into `input` (up != 0). */
static int resident_transfer(Path *p, int up)
{
    double t0 = now_s();
    int rc = up ? p->ops->upload(p->plan, 0, p->mesh->cell) : p->ops->download(p->plan, 0, p->mesh->cell);
    p->t->transfer += now_s() - t0;
    return rc ? plan_error(p, up ? "upload" : "download", rc) : 0;
}

/* The plan of the chosen version, sized from the mesh, and one warm-up launch
 * (OpenCL implementations may finish compiling at the first launch: that is
 * setup, not kernel time). Returns 0 or the plan's error code. */
static int path_create(Path *p)
{
    const Options *o = p->o;
    int e = o->n + 2;
    int rc;
    if (o->attach) {
        /* a plan per variable over its slab and spare, each for every block the mesh can
         * hold; plans of one program share its context and build */
        const int ext[2][3] = {{o->n, o->n, o->n}, {o->n, o->n, o->n}};
        for (int v = 0; v < o->vars; v++) {
            rc = p->ops->create_batch(&p->plans[v], p->mesh->capacity * p->mesh->stride, ext);
            if (rc)
                return plan_error(p, "plan_create_batch", rc);
            if ((rc = p->ops->attach(p->plans[v], 0, mesh_slab(p->mesh, v, 0))) ||
                (rc = p->ops->attach(p->plans[v], 1, mesh_slab(p->mesh, v, 1))))
                return plan_error(p, "plan_attach", rc);
            if ((rc = p->ops->launch_batch(p->plans[v], 1)))
                return plan_error(p, "warm-up launch", rc);
        }
        return 0;
    }
    if (!strcmp(o->kernel, "stencil7")) {
        /* one plan for as many blocks as the mesh can hold (miniAMR's max_num_blocks) */
        const int ext[2][3] = {{o->n, o->n, o->n}, {o->n, o->n, o->n}};
        rc = p->ops->create_batch(&p->plan, p->mesh->capacity, ext);
        if (rc)
            return plan_error(p, "plan_create_batch", rc);
        rc = p->ops->launch_batch(p->plan, 1);
        return rc ? plan_error(p, "warm-up launch", rc) : 0;
    }
    if (!strcmp(o->kernel, "v3")) {
        const int ext[2][3] = {{o->n, o->n, o->n}, {o->n, o->n, o->n}};
        rc = p->ops->create(&p->plan, ext);
    } else {
        /* one Block whose depth stacks every grid of the buffer */
        long long grids = (long long)o->blocks * (o->vars + (strcmp(o->kernel, "v1") ? 0 : 1));
        if (grids * e * e * e > 2147483647LL) {
            fprintf(stderr, "miniamr-proxy: mesh too large for %s, whose kernel indexes its buffer with int "
                            "(at most 2^31-1 elements)\n", o->kernel);
            return -1;
        }
        const int ext[2][3] = {{e, e, (int)grids * e}, {e, e, (int)grids * e}};
        rc = p->ops->create(&p->plan, ext);
    }
    if (rc)
        return plan_error(p, "plan_create", rc);
    const int s[8] = {o->n, 0, o->blocks, o->vars, p->mesh->bx, p->mesh->by, 0, o->n};
    rc = p->ops->launch(p->plan, s);
    return rc ? plan_error(p, "warm-up launch", rc) : 0;
}

/* ---- bandwidth of the backend: the copy kernel -------------------------------------- */

static double copy_bandwidth(const KernelSet *ks, int mb)
{
    const PlanOps *ops = ks->copy;
    if (!ops)
        return 0.0;
    int depth = (int)((long long)mb * 1048576 / 8 / (256 * 256));
    if (depth < 1)
        depth = 1;
    const int ext[2][3] = {{256, 256, depth}, {256, 256, depth}};
    void *plan = NULL;
    int rc = ops->create(&plan, ext);
    double best = 0.0;
    for (int i = 0; i < 6 && !rc; i++) {
        rc = ops->launch(plan, NULL);
        double ms = ops->kernel_ms(plan);
        if (!rc && i > 0 && ms > 0 && (best == 0.0 || ms < best))
            best = ms; /* the first launch warms up */
    }
    ops->destroy(plan);
    if (rc || best == 0.0) {
        fprintf(stderr, "miniamr-proxy: copy kernel failed: %s\n", ops->strerror(rc));
        return 0.0;
    }
    return 2.0 * 256 * 256 * (double)depth * sizeof(double) / (best * 1e-3) * 1e-9;
}

/* ---- main ---------------------------------------------------------------------------- */

static void json_string(const char *name, const char *v)
{
    printf(", \"%s\": \"", name);
    for (const unsigned char *c = (const unsigned char *)v; *c; c++)
        if (*c == '"' || *c == '\\')
            printf("\\%c", *c);
        else if (*c < 32)
            printf("\\u%04x", *c);
        else
            putchar(*c);
    putchar('"');
}

static void json_number(const char *name, double v)
{
    if (isfinite(v))
        printf(", \"%s\": %.6g", name, v);
    else
        printf(", \"%s\": null", name);
}

#ifdef PROXY_MPI
static int proxy_main(int argc, char **argv);

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &mpi_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &mpi_size);
    /* rank 0 reports; every rank says what went wrong on its own */
    if (mpi_rank && !freopen("/dev/null", "w", stdout))
        return 1;
    int status = proxy_main(argc, argv);
    MPI_Allreduce(MPI_IN_PLACE, &status, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Finalize();
    return status;
}

static int proxy_main(int argc, char **argv)
#else
int main(int argc, char **argv)
#endif
{
    Options o;
    if (!parse_args(argc, argv, &o)) {
        usage(stderr);
        return 2;
    }
    double wall0 = now_s();
    Timing t = {0};

    /* the kernels: built in, or generated now for -t */
    const KernelSet *ks = !strcmp(o.backend, "c") ? &c_kernels : !strcmp(o.backend, "opencl") ? &ocl_kernels : NULL;
#ifdef PROXY_HAVE_CUDA
    if (!strcmp(o.backend, "cuda"))
        ks = &cuda_kernels;
#endif
    if (!ks) {
        fprintf(stderr, "miniamr-proxy: built without the %s backend (CMake found no nvcc)\n", o.backend);
        return 1;
    }
    const KernelSet *built_in = ks;
    if (o.params) {
        double t0 = now_s();
        ks = runtime_kernels(o.backend, o.kernel, o.params, o.keep);
        t.generate = now_s() - t0;
        if (!ks) {
            runtime_cleanup();
            return 1;
        }
    }
    const PlanOps *ops = o.resident ? ks->v2r : !strcmp(o.kernel, "v1") ? ks->v1 : !strcmp(o.kernel, "v2") ? ks->v2
                       : !strcmp(o.kernel, "v3") ? ks->v3 : ks->stencil7;
    if (!ops) {
        fprintf(stderr, "miniamr-proxy: the %s backend has no %s kernel\n", o.backend, o.resident ? "v2r" : o.kernel);
        runtime_cleanup();
        return 1;
    }

    /* the meshes: the reference's and the kernel path's, from the same values; for
     * stencil7 both in miniAMR's layout, with room for the refined mesh */
    Mesh ref = {0}, mesh = {0}, next = {0};
    int tables = !strcmp(o.kernel, "stencil7"), capacity = o.refine ? 8 * o.blocks : o.blocks;
    double *tmp = malloc((size_t)o.n * o.n * o.n * sizeof *tmp);
    double *pack = NULL;
    double ****tab = NULL;
    void **plans = NULL;
    if (!tmp ||
        (o.attach ? mesh_alloc_slabs(&ref, o.n, o.blocks, o.vars, capacity, 0, 1) ||
                        mesh_alloc_slabs(&mesh, o.n, o.blocks, o.vars, capacity, 1, o.scatter) ||
                        !(plans = calloc((size_t)o.vars, sizeof *plans))
         : tables ? mesh_alloc_tables(&ref, o.n, o.blocks, o.vars, capacity) ||
                      mesh_alloc_tables(&mesh, o.n, o.blocks, o.vars, capacity) ||
                      !(tab = malloc((size_t)capacity * sizeof *tab))
                : mesh_alloc(&ref, o.n, o.blocks, o.vars) || mesh_alloc(&mesh, o.n, o.blocks, o.vars)) ||
        (!strcmp(o.kernel, "v3") && mesh_alloc(&next, o.n, o.blocks, o.vars)) ||
        (!strcmp(o.kernel, "v1") &&
         !(pack = calloc((size_t)o.blocks * (o.vars + 1) * ref.grid, sizeof *pack)))) {
        fprintf(stderr, "miniamr-proxy: out of host memory\n");
        return 1;
    }
    mesh_init(&ref, o.seed);
    mesh_init(&mesh, o.seed);
    const int layout[3] = {ref.bx, ref.by, ref.bz}; /* the arrangement at the start */
    double *sum0 = calloc((size_t)o.vars * 3, sizeof *sum0), *sum_ref = sum0 + o.vars, *sum_k = sum0 + 2 * o.vars;
    if (!sum0)
        return 1;
    mesh_checksums(&ref, sum0);

    printf("miniamr-proxy: kernel %s%s, backend %s%s%s; %d blocks (%dx%dx%d) of %d^3 cells, %d variables, "
           "%d timesteps x %d stages\n",
           o.kernel, o.resident ? " (resident: v2r)" : o.attach ? " (attached: no copies)" : "", o.backend,
           o.params ? ", parameters " : "", o.params ? o.params : "", o.blocks, ref.bx, ref.by,
           ref.bz, o.n, o.vars, o.steps, o.stages);
    if (o.refine)
        printf("  refinement every %d stages: %d blocks <-> %d blocks\n", o.refine, o.blocks, capacity);
#ifdef PROXY_MPI
    printf("  on %d ranks, each computing a range of the blocks, faces between ranks over MPI\n", mpi_size);
#endif

    Path p = {&o, ops, NULL, &mesh, &next, pack, tab, &t, plans, 0};
    double t0 = now_s();
    int rc = path_create(&p);
    t.setup += now_s() - t0;
    if (!rc && o.resident)
        rc = resident_transfer(&p, 1); /* the mesh, once */

    int stage = 0, total_stages = o.steps * o.stages;
    double block_stages = 0; /* the sum over stages of the blocks computed */
    int validated = o.validate, checksum_ok = 1;
    long differences = 0;
    for (int ts = 0; ts < o.steps && !rc; ts++)
        for (int st = 0; st < o.stages && !rc; st++) {
            stage++;
            block_stages += ref.blocks;
            /* the reference: a plain C loop */
            t0 = now_s();
            mesh_fill_ghosts(&ref);
            t.reference_ghost += now_s() - t0;
            t0 = now_s();
            mesh_stencil_reference(&ref, tmp);
            t.reference += now_s() - t0;

            /* the generated kernels, through the plan */
            int check = o.validate || stage % o.checksum_freq == 0 || stage == total_stages;
            if (o.resident) {
                rc = stage_resident(&p);
                if (!rc && (check || (o.inject_error && stage == 1)))
                    rc = resident_transfer(&p, 0);
                if (rc)
                    break;
                if (o.inject_error && stage == 1) {
                    /* perturbed on the device too, where the next stages read it */
                    inject_error(p.mesh);
                    if ((rc = resident_transfer(&p, 1)))
                        break;
                }
            } else {
                t0 = now_s();
#ifdef PROXY_MPI
                if ((rc = mpi_exchange_faces(p.mesh)))
                    break;
#endif
                mesh_fill_ghosts(p.mesh);
                t.ghost += now_s() - t0;
                if (!strcmp(o.kernel, "v1"))
                    rc = stage_v1(&p);
                else if (!strcmp(o.kernel, "v2"))
                    rc = stage_v2(&p);
                else if (!strcmp(o.kernel, "v3"))
                    rc = stage_v3(&p);
                else if (o.attach)
                    rc = stage_stencil7_attached(&p);
                else
                    rc = stage_stencil7(&p);
                if (rc)
                    break;
            }
            if (o.inject_error && stage == 1 && !o.resident) {
                inject_error(p.mesh);
            }
#ifdef PROXY_MPI
            /* what reads every block (the checksums, refinement) gets every rank's; each
             * rank validates its own blocks */
            if (((check && !o.validate) || (o.refine && stage % o.refine == 0 && stage < total_stages)) &&
                (rc = mpi_share_blocks(p.mesh)))
                break;
#endif

            if (o.validate) {
#ifdef PROXY_MPI
                int first, count;
                mpi_range(ref.blocks, &first, &count);
                long bad = mesh_compare_blocks(p.mesh, &ref, o.rtol, stage, first, count);
                MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
#else
                long bad = mesh_compare(p.mesh, &ref, o.rtol, stage);
#endif
                if (bad) {
                    fprintf(stderr, "miniamr-proxy: stage %d: %ld cells differ from the reference\n", stage, bad);
                    differences += bad;
                    validated = 0;
                    rc = 1;
                }
            } else if (check) {
                /* miniAMR's check: the sum of each variable, against the reference and,
                 * since the stencil with reflective ghosts conserves it, the start */
                mesh_checksums(p.mesh, sum_k);
                mesh_checksums(&ref, sum_ref);
                for (int v = 0; v < o.vars; v++) {
                    double dr = fabs(sum_k[v] - sum_ref[v]), d0 = fabs(sum_k[v] - sum0[v]);
                    if (!(dr <= o.checksum_rtol * fabs(sum_ref[v])) || !(d0 <= o.conservation_rtol * fabs(sum0[v]))) {
                        fprintf(stderr,
                                "miniamr-proxy: stage %d, var %d: checksum %.17g, reference %.17g, start %.17g\n",
                                stage, v, sum_k[v], sum_ref[v], sum0[v]);
                        checksum_ok = 0;
                        rc = 1;
                    }
                }
                printf("  stage %d: checksums of %d variables %s\n", stage, o.vars,
                       checksum_ok ? "match the reference and the start" : "DIFFER");
            }
            if (!rc && o.refine && stage % o.refine == 0 && stage < total_stages) {
                /* both meshes alike: all blocks split, or join back */
                int fine = ref.blocks > o.blocks;
                t0 = now_s();
                if (fine ? mesh_coarsen(&ref) || mesh_coarsen(p.mesh) : mesh_refine(&ref) || mesh_refine(p.mesh)) {
                    fprintf(stderr, "miniamr-proxy: out of host memory\n");
                    rc = 1;
                }
                t.refine += now_s() - t0;
                printf("  after stage %d: %s to %d blocks (%dx%dx%d)\n", stage, fine ? "coarsened" : "refined",
                       ref.blocks, ref.bx, ref.by, ref.bz);
            }
        }
    t0 = now_s();
    ops->destroy(p.plan);
    for (int v = 0; plans && v < o.vars; v++)
        ops->destroy(plans[v]);
    t.setup += now_s() - t0;

    if (o.validate && !rc)
        printf("  every cell of every stage equals the reference%s\n", o.rtol > 0 ? " (within --rtol)" : " (exactly)");
    double copy_gbs = 0.0;
    if (o.bandwidth_mb && !rc)
        copy_gbs = copy_bandwidth(built_in, o.bandwidth_mb); /* -t regenerates the stencil only */

    double cells = (double)o.blocks * o.n * o.n * o.n;
    double updates = block_stages * o.n * o.n * o.n * o.vars;
    double total = t.setup + t.ghost + t.transfer + t.launch;
    double stencil_gbs = t.kernel > 0 ? 16.0 * updates / t.kernel * 1e-9 : NAN;
    printf("  reference %.4f s (+ %.4f s ghosts); kernels %.4f s, launches %.4f s, transfers %.4f s, "
           "ghosts %.4f s, setup %.4f s, total %.4f s\n",
           t.reference, t.reference_ghost, t.kernel, t.launch, t.transfer, t.ghost, t.setup, total);

    printf("{\"kernel\": \"%s\", \"backend\": \"%s\", \"resident\": %s, \"attach\": %s, \"blocking\": %s", o.kernel,
           o.backend, o.resident ? "true" : "false", o.attach ? "true" : "false",
           o.blocking ? "true" : "false"); /* both checked above */
    json_string("params", o.params ? o.params : "default");
    printf(", \"refine\": %d, \"max_blocks\": %d, \"scatter\": %d", o.refine, capacity, o.scatter);
#ifdef PROXY_MPI
    printf(", \"ranks\": %d", mpi_size);
#endif
    printf(", \"n\": %d, \"blocks\": %d, \"layout\": \"%dx%dx%d\", \"vars\": %d, \"steps\": %d, \"stages\": %d", o.n,
           o.blocks, layout[0], layout[1], layout[2], o.vars, o.steps, o.stages);
    printf(", \"cells\": %.0f, \"updates\": %.0f, \"validated\": %s, \"checksum_ok\": %s, \"differences\": %ld", cells,
           updates, validated && !rc ? "true" : "false", o.validate ? "null" : checksum_ok ? "true" : "false",
           differences);
    json_number("reference_s", t.reference);
    json_number("reference_ghost_s", t.reference_ghost);
    json_number("kernel_s", t.kernel);
    json_number("launch_s", t.launch);
    json_number("transfer_s", t.transfer);
    json_number("ghost_s", t.ghost);
    json_number("ghost_kernel_s", t.ghost_kernel);
    json_number("setup_s", t.setup);
    json_number("total_s", total);
    json_number("generate_s", t.generate);
    json_number("refine_s", t.refine);
    json_number("wall_s", now_s() - wall0);
    json_number("gstencil_per_s", t.kernel > 0 ? updates / t.kernel * 1e-9 : NAN);
    json_number("reference_gstencil_per_s", t.reference > 0 ? updates / t.reference * 1e-9 : NAN);
    json_number("speedup_kernel", t.kernel > 0 ? t.reference / t.kernel : NAN);
    json_number("speedup_total", total > 0 ? (t.reference + t.reference_ghost) / total : NAN);
    json_number("stencil_gb_per_s", stencil_gbs);
    json_number("copy_gb_per_s", copy_gbs > 0 ? copy_gbs : NAN);
    json_number("bandwidth_fraction", copy_gbs > 0 ? stencil_gbs / copy_gbs : NAN);
    printf("}\n");

    runtime_cleanup();
    mesh_free(&ref);
    mesh_free(&mesh);
    mesh_free(&next);
    free(pack);
    free(tab);
    free(plans);
    free(tmp);
    free(sum0);
    return rc ? 1 : 0;
}
