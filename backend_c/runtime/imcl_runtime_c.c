// The C reference's host runtime, written once into every output folder of C kernels as
// imcl_runtime_c.c (backend_c.c; docs/architecture.md, "Host runtime"): what every K_ref.c
// calls and nothing of any one kernel. Compiled on its own by the cases of tests/runtime.
// These // lines are not copied.
#include "imcl_runtime_c.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "imcl_runtime_rows.h"

/* ---- the threads of a parallel loop ---- */

/* Epochs between trials of another count: 32 at first and after a trial that won, up to
 * 8 times that after trials that lost (about 5 s of back-to-back calls, the longest a
 * node that became idle runs on fewer threads than it could). */
enum { IMCL_C_TRIAL_GAP = 32 };

IMCL_C_WEAK int imcl_c_threads_pick(imcl_c_threads *s, int max)
{
    if (!s->max) {
        const char *fixed = getenv("IMCL_FIXED_THREADS");
        s->max = max > 0 ? max : 1;
        s->counts = 1;
        for (int n = s->max / 2; n > 0 && s->counts < 8 && !(fixed && *fixed == '1'); n /= 2)
            s->counts++;
        s->step = 1;
        s->gap = IMCL_C_TRIAL_GAP;
        s->next = 1;
    }
    return s->max >> s->shift;
}

IMCL_C_WEAK void imcl_c_threads_done(imcl_c_threads *s, double seconds, double points)
{
    if (!s->warm) {
        s->warm = 1;
        return;
    }
    s->seconds += seconds;
    s->points += points;
    /* The first epoch of a count, and a trial more than twice as slow as the best count,
     * end after 1 ms: beside a busy process two threads ran sum7 140x slower than one,
     * and a whole epoch of it cost 20 ms. */
    const int first = s->ns[s->shift] <= 0;
    const int losing = s->trial && s->seconds * 1e9 > 2 * s->ns[s->best] * s->points;
    if (s->seconds < ((first || losing) ? 0.001 : 0.02) || s->points <= 0)
        return;
    const double ns = s->seconds * 1e9 / s->points;
    const int i = s->shift;
    s->ns[i] = i == s->best && s->ns[i] > 0 ? 0.5 * (s->ns[i] + ns) : ns;
    s->seconds = s->points = 0;
    for (int j = 0; j < s->counts; j++)
        if (s->ns[j] > 0 && (s->ns[s->best] <= 0 || s->ns[j] < s->ns[s->best]))
            s->best = j;
    if (s->trial) {
        /* a trial that lost waits twice as long for the next (a loaded node then pays
         * for the slower count ever more rarely); one that won, the shortest gap */
        s->gap = s->best == i ? IMCL_C_TRIAL_GAP : s->gap < 8 * IMCL_C_TRIAL_GAP ? 2 * s->gap : s->gap;
        s->next = s->epochs + s->gap;
        s->trial = 0;
    }
    s->shift = s->best;
    if (s->counts > 1 && ++s->epochs >= s->next) {
        /* a trial: the neighbouring count, each side in turn */
        if (s->best + s->step < 0 || s->best + s->step >= s->counts)
            s->step = -s->step;
        s->shift = s->best + s->step;
        s->step = -s->step;
        s->trial = 1;
    }
}

IMCL_C_WEAK double imcl_c_now_ms(void)
{
#ifdef TIME_UTC
    struct timespec t;
    timespec_get(&t, TIME_UTC);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
#else
    return (double)clock() * 1e3 / CLOCKS_PER_SEC;
#endif
}

IMCL_C_WEAK size_t imcl_c_fuse_bytes(void)
{
    /* Measured on a machine of 32 MiB of L3 (docs/iterate.md): the fused steps won from
     * about 24 MiB of the two arrays on; the cache is read as Linux lists it, in C alone. */
    const char *env = getenv("IMCL_FUSE_BYTES");
    if (env && *env) {
        char *end;
        unsigned long long v = strtoull(env, &end, 10);
        if (!*end)
            return (size_t)v;
    }
    int level = 0;
    size_t bytes = 0;
    for (int i = 0; i < 16; i++) {
        char path[64], unit = 0;
        int lv = 0;
        unsigned long size = 0;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
        FILE *f = fopen(path, "r");
        if (!f)
            break;
        int ok = fscanf(f, "%d", &lv) == 1;
        fclose(f);
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        if (!ok || !(f = fopen(path, "r")))
            continue;
        ok = fscanf(f, "%lu%c", &size, &unit) >= 1;
        fclose(f);
        size_t b = (size_t)size << (unit == 'K' ? 10 : unit == 'M' ? 20 : unit == 'G' ? 30 : 0);
        if (ok && lv >= level && b) {
            bytes = lv > level ? b : (b > bytes ? b : bytes);
            level = lv;
        }
    }
    return level >= 2 && bytes ? bytes / 4 * 3 : (size_t)24 << 20;
}

/* ---- the persistent plan ---- */

IMCL_C_WEAK int imcl_c_plan_create(imcl_c_plan **plan, int capacity, int n,
                                   const imcl_c_layout *layout, const int (*extent)[3])
{
    *plan = NULL;
    imcl_c_plan *q = (imcl_c_plan *)calloc(1, sizeof *q + (size_t)n * sizeof(imcl_c_array));
    if (!q)
        return IMCL_C_ERR_MEMORY;
    q->capacity = q->count = capacity;
    q->n = n;
    q->layout = layout;
    q->array = (imcl_c_array *)(q + 1);
    /* the extents of each array and its memory, zero-filled: capacity blocks of an Image
     * or Block, each its storage (halo included) */
    for (int i = 0; i < n; i++) {
        imcl_c_array *m = &q->array[i];
        memcpy(m->extent, extent[i], sizeof m->extent);
        m->bytes = imcl_rows_bytes(layout[i].dims, layout[i].halo, layout[i].elem, layout[i].count,
                                   capacity, extent[i]);
        if (!(m->buf = m->own = calloc(1, m->bytes ? m->bytes : 1))) {
            imcl_c_plan_destroy(q);
            return IMCL_C_ERR_MEMORY;
        }
    }
    *plan = q;
    return IMCL_C_OK;
}

IMCL_C_WEAK int imcl_c_plan_upload(imcl_c_plan *plan, int a, const void *host)
{
    if (!plan || !host || a < 0 || a >= plan->n)
        return IMCL_C_ERR_ARGUMENT;
    memmove(plan->array[a].buf, host, plan->array[a].bytes);
    return IMCL_C_OK;
}

IMCL_C_WEAK int imcl_c_plan_download(imcl_c_plan *plan, int a, void *host)
{
    if (!plan || !host || a < 0 || a >= plan->n)
        return IMCL_C_ERR_ARGUMENT;
    memmove(host, plan->array[a].buf, plan->array[a].bytes);
    return IMCL_C_OK;
}

IMCL_C_WEAK int imcl_c_plan_rows(imcl_c_plan *plan, int a, int up, int first, int count,
                                 const void *tables, const void *src, void *dst,
                                 ptrdiff_t row_pitch, ptrdiff_t plane_pitch,
                                 ptrdiff_t block_pitch)
{
    if (!plan || a < 0 || a >= plan->n
            || imcl_rows_refused(plan->layout[a].dims, plan->capacity, up, first, count, tables,
                                 src, dst))
        return IMCL_C_ERR_ARGUMENT;
    const imcl_c_layout *l = &plan->layout[a];
    imcl_rows_shape s;
    if (imcl_rows_shape_of(&s, l->dims, l->halo, plan->array[a].extent, tables, row_pitch,
                           plane_pitch, block_pitch) != 0)
        return IMCL_C_ERR_ARGUMENT;
    /* the blocks' storage is the plan's memory itself */
    unsigned char *dense = (unsigned char *)plan->array[a].buf
                           + (size_t)first * s.rows * s.w * l->elem;
    imcl_rows_copy(&s, dense, l->elem, count, up, tables, src, dst, row_pitch, plane_pitch,
                   block_pitch);
    return IMCL_C_OK;
}

IMCL_C_WEAK int imcl_c_plan_ready(imcl_c_plan *plan, int count)
{
    return !plan || count < 0 || count > plan->count ? IMCL_C_ERR_ARGUMENT : IMCL_C_OK;
}

IMCL_C_WEAK int imcl_c_plan_select(imcl_c_plan *plan, int count, const int *blocks)
{
    if (!plan || imcl_select_refused(plan->capacity, count, blocks))
        return IMCL_C_ERR_ARGUMENT;
    return imcl_select_keep(plan->capacity, count, blocks, &plan->selected, &plan->count);
}

IMCL_C_WEAK int imcl_c_plan_block(const imcl_c_plan *plan, int i)
{
    return plan->selected ? plan->selected[i] : i;
}

IMCL_C_WEAK void **imcl_c_plan_tables(imcl_c_plan *plan, int a)
{
    imcl_c_array *m = &plan->array[a];
    const int dims = plan->layout[a].dims;
    const size_t halo = (size_t)plan->layout[a].halo, elem = plan->layout[a].elem;
    const size_t nb = (size_t)plan->capacity, w = (size_t)m->extent[0] + 2 * halo;
    const size_t h = (size_t)m->extent[1] + 2 * halo;
    const size_t d = dims == 3 ? (size_t)m->extent[2] + 2 * halo : 1;
    /* the blocks' tables, then (a Block) the planes' tables, then the rows, then the
     * blocks' tables in the order of the selection (PK_plan_select) */
    const size_t planes = dims == 3 ? nb * d : 0;
    if (!m->rows)
        m->rows = (void **)malloc(sizeof(void *) * (nb + planes + nb * d * h + nb));
    if (!m->rows)
        return NULL;
    void **blocks = m->rows, **plane = blocks + nb, **row = plane + planes;
    if (m->rows_for != m->buf) {
        for (size_t b = 0; b < nb; b++)
            blocks[b] = dims == 3 ? (void *)(plane + b * d) : (void *)(row + b * h);
        for (size_t z = 0; z < planes; z++)
            plane[z] = row + z * h;
        for (size_t r = 0; r < nb * d * h; r++)
            row[r] = (char *)m->buf + r * w * elem;
        m->rows_for = m->buf;
    }
    if (!plan->selected)
        return blocks;
    void **chosen = row + nb * d * h;
    for (int i = 0; i < plan->count; i++)
        chosen[i] = blocks[plan->selected[i]];
    return chosen;
}

IMCL_C_WEAK int imcl_c_plan_attach(imcl_c_plan *plan, int a, void *host)
{
    if (!plan || !host || a < 0 || a >= plan->n || !plan->layout[a].attach)
        return IMCL_C_ERR_ARGUMENT;
    /* the array's memory is the caller's from now on; the plan's own goes */
    imcl_c_array *m = &plan->array[a];
    free(m->own);
    m->own = NULL;
    m->buf = host;
    return IMCL_C_OK;
}

IMCL_C_WEAK int imcl_c_plan_use_memory(imcl_c_plan *plan, int a, void *memory)
{
    return imcl_c_plan_attach(plan, a, memory);
}

IMCL_C_WEAK void *imcl_c_plan_memory(imcl_c_plan *plan, int a)
{
    return plan && a >= 0 && a < plan->n && plan->layout[a].attach ? plan->array[a].buf : NULL;
}

IMCL_C_WEAK int imcl_c_plan_swap(imcl_c_plan *plan, int a, int b)
{
    if (!plan || a < 0 || a >= plan->n || b < 0 || b >= plan->n
            || plan->layout[a].swap_class < 0
            || plan->layout[a].swap_class != plan->layout[b].swap_class)
        return IMCL_C_ERR_ARGUMENT;
    imcl_c_array *x = &plan->array[a], *y = &plan->array[b];
    for (int d = 0; d < 3; d++)
        if (x->extent[d] != y->extent[d])
            return IMCL_C_ERR_ARGUMENT;
    /* the arrays exchange their memory, and the row tables into it; nothing is copied
     * (the same class and extents: the same bytes) */
    const imcl_c_array t = *x;
    *x = *y;
    *y = t;
    return IMCL_C_OK;
}

IMCL_C_WEAK double imcl_c_plan_kernel_ms(const imcl_c_plan *plan)
{
    return plan ? plan->kernel_ms : 0.0;
}

IMCL_C_WEAK void imcl_c_plan_destroy(imcl_c_plan *plan)
{
    if (!plan)
        return;
    for (int i = 0; i < plan->n; i++) {
        free(plan->array[i].own);
        free(plan->array[i].rows);
    }
    free(plan->selected);
    free(plan);
}

IMCL_C_WEAK const char *imcl_c_strerror(int code)
{
    return imcl_runtime_strerror(code);
}
