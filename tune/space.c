/* The tuning space: only what imcl can compile now is listed. */
#include "space.h"

#include <cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "budget.h"
#include "params.h"
#include "registers.h"
#include "unparse.h"
#include "unrolled.h"

#define SPACE_MAX_COARSEN PARAMS_MAX_COARSEN
/* The largest stream_z listed (powers of two from 2), and with --size a whole column. */
#define SPACE_MAX_STREAM_Z 64

typedef struct Param {
    const char *name;
    int ints[16];
    const char *strs[8];
    int n;
    bool is_str;
    int def_int;
    const char *def_str;
} Param;

typedef struct Space {
    Param *p;   /* in the arena, as many as the kernel has */
    int n, cap;
    const char *restrict_[12];
    int nr;
    const char *prune[4];   /* valid but unlikely to be fast (space_prune) */
    int np;
} Space;

/* A new, zeroed parameter at the end of the list. */
static Param *new_param(Space *s, Arena *a)
{
    ARENA_GROW(a, s->p, s->n, s->cap);
    return &s->p[s->n++];
}

/* Parameter `id` (tune/params.def) with the powers of two up to max. */
static Param *add_int_param(Space *s, Arena *a, ParamId id, int max, int def)
{
    Param *p = new_param(s, a);
    p->name = params_table[id].name;
    for (int v = 1; v <= max && p->n < 16; v *= 2)
        p->ints[p->n++] = v;
    p->def_int = def;
    return p;
}

/* A 0-or-1 parameter, with its default. */
static Param *add_flag_param(Space *s, Arena *a, ParamId id)
{
    Param *p = new_param(s, a);
    p->name = params_table[id].name;
    p->ints[p->n++] = 0;
    p->ints[p->n++] = 1;
    p->def_int = params_table[id].def;
    return p;
}

/* The restriction of stream_z (params_for_kernel's check_stream_z): one thread
 * per block in z, no Block in shared memory, and some array that can have a window
 * left in global memory; NULL when no array can have one. */
static const char *stream_restriction(Arena *a, Function *k, const SpaceOptions *o)
{
    StrBuf shared = {0}, global = {0};
    int windows = 0, fixed = 0;
    const Symbol *only = NULL;  /* the one array that may have a window */
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < k->nparams; i++) {
            Symbol *sym = k->params[i];
            if (!sym->type || sym->type->kind != TY_BLOCK)
                continue;
            const char *why;
            StreamWindow w;
            bool in_shared = placement_allowed(a, k, sym, MEM_SHARED, o, &why);
            if (pass == 1) {
                /* `mem_a == 'global'` already says that a is not in shared memory. */
                if (in_shared && !(only == sym && !fixed))
                    sb_printf(&shared, " and %s", params_mem_test(a, sym->name, "!=", MEM_SHARED));
                continue;
            }
            if (!placement_stream_window(a, k, sym, &w, &why))
                continue;
            only = windows++ ? NULL : sym;
            /* An array only global memory may hold is always in it. */
            if (!in_shared && !placement_allowed(a, k, sym, MEM_TEXTURE, o, &why) &&
                !placement_allowed(a, k, sym, MEM_CONSTANT, o, &why))
                fixed++;
            sb_printf(&global, "%s%s", global.len ? " or " : "", params_mem_test(a, sym->name, "==", MEM_GLOBAL));
        }
    const char *r = NULL;
    if (windows)
        r = arena_printf(a, "%s == 0 or (%s == 1 and %s == 1%s%s%s%s)", PARAM_NAME(stream_z),
                         PARAM_NAME(block_size_z), PARAM_NAME(coarsen_z), sb_str(&shared),
                         fixed ? "" : windows > 1 ? " and (" : " and ", fixed ? "" : sb_str(&global),
                         fixed || windows == 1 ? "" : ")");
    sb_free(&shared);
    sb_free(&global);
    return r;
}

/* The values of time_tile the space lists, 0 first: the choice at run time
 * (backend_c/plan_c.c and backend_opencl/plan_opencl.c, iterate_choice). */
static const int time_tiles[] = {0, 1, 2, 3, 4, 6, 8};

/* The C reference's own space: the schedule of its OpenMP loop over rows and the
 * rows of a chunk (docs/tuning.md, "The C reference's space"). No restriction ties
 * them: every pair compiles. */
static void build_c_space(Space *s, Arena *a, const Function *k)
{
    /* steps fused per pass (PK_plan_iterate), where analyze_iterate allows it */
    if (k->iterate[0] && k->iterate_radius >= 0) {
        Param *t = new_param(s, a);
        t->name = PARAM_NAME(time_tile);
        for (size_t i = 0; i < sizeof time_tiles / sizeof time_tiles[0]; i++)
            t->ints[t->n++] = time_tiles[i];
        t->def_int = params_table[P_time_tile].def;
    }
    Param *sched = new_param(s, a);
    sched->name = PARAM_NAME(omp_schedule);
    sched->is_str = true;
    for (OmpSchedule k = OMP_STATIC; k <= OMP_GUIDED; k++)
        sched->strs[sched->n++] = omp_schedule_name(k);
    sched->def_str = omp_schedule_name(params_table[P_omp_schedule].def);
    Param *chunk = add_int_param(s, a, P_omp_chunk, params_table[P_omp_chunk].hi, params_table[P_omp_chunk].def);
    /* 0: the schedule's own chunk, first */
    memmove(chunk->ints + 1, chunk->ints, sizeof chunk->ints[0] * (size_t)chunk->n++);
    chunk->ints[0] = 0;
}

/* The tuning space's prune (the dump's "prune", docs/tuning.md): restrictions that
 * leave out configurations imcl compiles but that no device runs well, for a tuner's
 * search: blocks of fewer threads than a warp (a GPU idles the other lanes; PoCL
 * vectorises and schedules a work-group as a whole), or as many as the grid has points
 * where it is smaller; with --size, coarsening factors that leave a ragged last tile
 * in a dimension (its threads idle while the others finish). */
static void space_prune(Space *s, Arena *a, const SpaceOptions *o, bool three, const int maxb[3])
{
    long long points = 1, most = (long long)maxb[0] * maxb[1] * maxb[2];
    for (int d = 0; o->size && d < o->size_dims && d < 3; d++)
        points *= o->size[d];
    long long least = o->size && points < PLACEMENT_WARP ? points : PLACEMENT_WARP;
    if (least > most)
        least = most;
    if (least > 1)
        s->prune[s->np++] = arena_printf(a, "%s >= %lld", params_threads(a), least);
    for (int d = 0; o->size && d < o->size_dims && d < (three ? 3 : 2); d++) {
        const Param *c = NULL;
        for (int i = 0; i < s->n; i++)
            if (strcmp(s->p[i].name, params_table[P_coarsen_x + d].name) == 0)
                c = &s->p[i];
        bool ragged = false;
        for (int i = 0; c && i < c->n; i++)
            ragged |= o->size[d] % c->ints[i] != 0;
        if (ragged)
            s->prune[s->np++] = arena_printf(a, "%d %% %s == 0", o->size[d], c->name);
    }
}

static void build_space(Space *s, Arena *a, Function *k, const SpaceOptions *o)
{
    memset(s, 0, sizeof *s);
    /* The block shape, coarsening, placements and unrolling change nothing in the
     * C reference: its space is its own. */
    if (!o->backend->gpu) {
        build_c_space(s, a, k);
        return;
    }
    bool three = k->grid_dims == 3;
    /* With --size, blocks larger than the problem (rounded up to a power of two)
     * only add idle threads: they are left out. */
    int maxb[3] = {PARAMS_MAX_BLOCK_THREADS, PARAMS_MAX_BLOCK_THREADS, three ? PARAMS_MAX_BLOCK_Z : 1};
    for (int d = 0; d < 3 && o->size; d++) {
        if (d >= o->size_dims)
            continue;
        int p2 = 1;
        while (p2 < o->size[d] && p2 < maxb[d])
            p2 *= 2;
        maxb[d] = p2 < maxb[d] ? p2 : maxb[d];
    }
    /* What the register estimate leaves to each parameter's own term: a value over it
     * is not listed, since no configuration of the space could hold it. */
    RegTerms regs;
    int room = registers_room(a, k, o, &regs);
    int def[3]; /* 32x4x1 on GPU backends, 8x8x8 or 8x8x1 on C (tune/registers.c) */
    registers_default_block(k, o, def);
    for (int d = 0; d < 3; d++)
        add_int_param(s, a, P_block_size_x + d, maxb[d], d < 2 || three ? (maxb[d] < def[d] ? maxb[d] : def[d]) : 1);
    /* Coarsening: every factor up to PARAMS_MAX_COARSEN (the mapping handles
     * extents that are not multiples of block x coarsening). */
    int coarsen[3]; /* the default configuration's (registers_default_coarsen) */
    registers_default_coarsen(a, k, o, coarsen);
    for (int d = 0; d < 3; d++) {
        Param *c = add_int_param(s, a, P_coarsen_x + d, 1, coarsen[d]);
        for (int v = 2; v <= SPACE_MAX_COARSEN && (d < 2 || three) && regs.coarsen <= room; v++)
            c->ints[c->n++] = v;
    }
    add_flag_param(s, a, P_interleaved);
    /* A copy of the body without edge guards for inner blocks (pass_interior):
     * listed where it changes something, that is where some guard can go, and where
     * the copy keeps the code within the size bound (tune/unrolled.c). */
    long long least_size = unrolled_size_at(a, k, NULL, false);
    bool fits = least_size > UNROLLED_MAX_SIZE || 2 * least_size <= UNROLLED_MAX_SIZE;
    bool interior = analyze_interior(a, k, NULL) && fits;
    if (interior)
        add_flag_param(s, a, P_interior);
    /* z-marching (pass_stream_z): a thread walks stream_z points up its column
     * with windows of planes; listed for Block grids where some array can have one. */
    const char *stream = three && regs.coarsen + regs.window <= room ? stream_restriction(a, k, o) : NULL;
    if (stream) {
        Param *sp = new_param(s, a);
        sp->name = PARAM_NAME(stream_z);
        sp->ints[sp->n++] = 0;
        int most = o->size && o->size_dims > 2 ? o->size[2] : SPACE_MAX_STREAM_Z;
        for (int v = 2; v <= SPACE_MAX_STREAM_Z && v < 2 * most; v *= 2)
            sp->ints[sp->n++] = v;
        /* With --size, a whole column per thread as well. */
        if (o->size && o->size_dims > 2 && most > 1 && most <= PARAMS_MAX_STREAM_Z &&
            sp->ints[sp->n - 1] != most && (most & (most - 1)))
            sp->ints[sp->n++] = most;
        sp->def_int = params_table[P_stream_z].def;
    }
    /* The loop over a batch's blocks inside each work-item (host_kernel_body), for
     * kernels with an Image or Block; its restriction is built with the placements. */
    bool batch = function_has_grid(k) && regs.batch <= room;
    if (batch)
        add_flag_param(s, a, P_batch_loop);
    StrBuf batch_r = {0};   /* what batch_loop 1 needs */
    if (stream)
        sb_printf(&batch_r, "%s == 0", PARAM_NAME(stream_z));
    /* Placements, and what they cost in shared and constant memory. */
    Budget shared, constant;
    budget_init(&shared, MEM_SHARED, o);
    budget_init(&constant, MEM_CONSTANT, o);
    static const MemKind kinds[] = {MEM_GLOBAL, MEM_SHARED, MEM_TEXTURE, MEM_CONSTANT, MEM_REGISTER};
    StrBuf registers = {0};  /* register caching needs whole warps along x */
    for (int i = 0; i < k->nparams; i++) {
        Symbol *sym = k->params[i];
        if (!type_is_grid(sym->type) && sym->type->kind != TY_ARRAY)
            continue;
        Param *p = new_param(s, a);
        p->name = params_family_name(a, P_mem, sym->name);
        p->is_str = true;
        p->def_str = "global";
        bool allowed[MEM_REGISTER + 1] = {false};
        for (size_t j = 0; j < sizeof kinds / sizeof kinds[0]; j++) {
            const char *why;
            allowed[kinds[j]] = placement_allowed(a, k, sym, kinds[j], o, &why) &&
                                (kinds[j] != MEM_REGISTER || regs.cache[i] <= room);
            if (allowed[kinds[j]])
                p->strs[p->n++] = mem_kind_name(kinds[j]);
        }
        if (allowed[MEM_SHARED])
            budget_add(&shared, a, k, sym, o);
        if (allowed[MEM_CONSTANT])
            budget_add(&constant, a, k, sym, o);
        if (allowed[MEM_REGISTER])
            sb_printf(&registers, "%s%s", registers.len ? " and " : "", params_mem_test(a, sym->name, "!=", MEM_REGISTER));
        /* (a fixed-size array is never in shared memory) */
        if (p->n > 1 && type_is_grid(sym->type))
            sb_printf(&batch_r, "%s%s", batch_r.len ? " and " : "", params_mem_test(a, sym->name, "==", MEM_GLOBAL));
    }
    /* One unroll_L<line> per line on which a for loop starts, unroll_<label> for a
     * labelled one (loops_unroll_factors says which factors); [1] for a loop that
     * cannot be unrolled. */
    LoopTable loops = analyze_loops(a, k);
    int *largest = arena_alloc(a, sizeof(int) * (size_t)(loops.n + 1));
    int *alone = arena_alloc(a, sizeof(int) * (size_t)(loops.n + 1));
    for (int i = 0; i < loops.n; i++)
        alone[i] = 1;
    for (int i = 0; i < loops.n; i++) {
        Param *p = new_param(s, a);
        p->name = params_loop_name(a, &loops.items[i]);
        p->n = regs.unroll[i] <= room ? loops_unroll_factors(&loops.items[i], p->ints, 16) : 1;
        p->ints[0] = 1;
        /* no factor that unrolls the code past the size bound by itself */
        for (; p->n > 1 && least_size <= UNROLLED_MAX_SIZE; p->n--) {
            alone[i] = p->ints[p->n - 1];
            if (unrolled_size_at(a, k, alone, false) <= UNROLLED_MAX_SIZE)
                break;
        }
        alone[i] = 1;
        largest[i] = p->ints[p->n - 1];
        p->def_int = 1;
    }
    s->restrict_[s->nr++] = arena_printf(a, "%s <= %d", params_threads(a), PARAMS_MAX_BLOCK_THREADS);
    if (stream)
        s->restrict_[s->nr++] = stream;
    if (batch && batch_r.len)
        s->restrict_[s->nr++] = arena_printf(a, "%s == 0 or (%s)", PARAM_NAME(batch_loop), sb_str(&batch_r));
    sb_free(&batch_r);
    if (registers.len)
        s->restrict_[s->nr++] = arena_printf(a, "(%s %% %d == 0 and (%s == 1 or %s == 1)) or (%s)",
                                             PARAM_NAME(block_size_x), PLACEMENT_WARP, PARAM_NAME(coarsen_x),
                                             PARAM_NAME(interleaved), sb_str(&registers));
    sb_free(&registers);
    const char *r;
    if ((r = unrolled_restriction(a, k, largest, interior)))
        s->restrict_[s->nr++] = r;
    if (o->backend->gpu && (r = budget_restriction(&shared, a)))
        s->restrict_[s->nr++] = r;
    if (o->backend->gpu && (r = budget_restriction(&constant, a)))
        s->restrict_[s->nr++] = r;
    /* The registers a thread needs within what the device gives (tune/registers.c). */
    long long threads = (long long)maxb[0] * maxb[1] * maxb[2];
    s->nr += registers_restrictions(a, k, o, threads < PARAMS_MAX_BLOCK_THREADS ? (int)threads : PARAMS_MAX_BLOCK_THREADS,
                                    &s->restrict_[s->nr]);
    space_prune(s, a, o, three, maxb);
}

static cJSON *values(const Param *p)
{
    cJSON *arr = cJSON_CreateArray();
    for (int i = 0; i < p->n; i++)
        cJSON_AddItemToArray(arr, p->is_str ? cJSON_CreateString(p->strs[i]) : cJSON_CreateNumber(p->ints[i]));
    return arr;
}

static const char *t1_type(TypeKind k);

/* The device function's parameters in the order the backend declares them (the
 * imcl dump's "arguments", docs/tuning.md): arrays (each Image/Block followed by
 * its extents), then scalars, then the grid extent W, H, D and the blocks of a batch,
 * imcl_count and imcl_blocks (device backends; the last two for kernels with an Image
 * or Block: one grid is a count of 1 and a list of one element, block 0). */
static cJSON *space_arguments(Arena *a, const Function *k, bool device)
{
    cJSON *args = cJSON_CreateArray();
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < k->nparams; i++) {
            const Symbol *sym = k->params[i];
            bool array = type_is_grid(sym->type) || sym->type->kind == TY_ARRAY;
            if (array != (pass == 0))
                continue;
            const char *name = unparse_name(sym);
            cJSON *arg = cJSON_CreateObject();
            cJSON_AddStringToObject(arg, "name", name);
            cJSON_AddStringToObject(arg, "kind", !array ? "scalar" : type_is_grid(sym->type) ? "grid" : "array");
            cJSON_AddStringToObject(arg, "type", t1_type(array ? sym->type->elem->kind : sym->type->kind));
            cJSON_AddItemToArray(args, arg);
            if (!array)
                continue;
            bool rd = sym->access & ACC_READ, wr = sym->access & ACC_WRITE;
            cJSON_AddStringToObject(arg, "access", wr ? (rd ? "readwrite" : "write") : "read");
            if (!type_is_grid(sym->type)) {
                long long elems = 1;
                for (int d = 0; d < sym->type->ndims; d++)
                    elems *= sym->type->dims[d];
                cJSON_AddNumberToObject(arg, "elements", (double)elems);
                continue;
            }
            int dims = type_grid_dims(sym->type);
            cJSON_AddNumberToObject(arg, "dims", dims);
            cJSON_AddNumberToObject(arg, "halo", sym->halo);
            for (int d = 0; d < dims; d++) {
                cJSON *e = cJSON_CreateObject();
                cJSON_AddStringToObject(e, "name", arena_printf(a, "%s%s", name, unparse_extent_suffix(d)));
                cJSON_AddStringToObject(e, "kind", "extent");
                cJSON_AddStringToObject(e, "type", "int32");
                cJSON_AddItemToArray(args, e);
            }
        }
    }
    static const char *const tail[][2] = {
        {"W", "grid extent"}, {"H", "grid extent"}, {"D", "grid extent"},
        /* the blocks of a batch (host_kernel_params) */
        {"imcl_count", "batch count"}, {"imcl_blocks", "block list"},
    };
    for (int d = 0; device && d < 5; d++) {
        if (d == 3 && !function_has_grid(k))
            break;
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "name", tail[d][0]);
        cJSON_AddStringToObject(e, "kind", tail[d][1]);
        cJSON_AddStringToObject(e, "type", "int32");
        if (d == 4) {
            cJSON_AddStringToObject(e, "access", "read");
            cJSON_AddNumberToObject(e, "elements", 1);
        }
        cJSON_AddItemToArray(args, e);
    }
    return args;
}

/* The name of the device function the backend generates for kernel k. */
static const char *space_kernel_name(Arena *a, const Function *k, const SpaceOptions *o)
{
    const char *prefix = o->backend->kernel_prefixed && o->prefix ? o->prefix : "";
    return arena_printf(a, o->backend->t1_kernel_name, arena_printf(a, "%s%s", prefix, k->name));
}

cJSON *space_json_doc(Arena *a, Function *k, const SpaceOptions *o)
{
    Space s;
    build_space(&s, a, k, o);
    cJSON *root = cJSON_CreateObject();
    cJSON_AddNumberToObject(root, "imcl_space_version", 1);
    cJSON_AddStringToObject(root, "kernel", k->name);
    cJSON_AddStringToObject(root, "backend", o->backend->name);
    cJSON *params = cJSON_AddObjectToObject(root, "parameters");
    cJSON *defs = cJSON_AddObjectToObject(root, "defaults");
    for (int i = 0; i < s.n; i++) {
        cJSON_AddItemToObject(params, s.p[i].name, values(&s.p[i]));
        if (s.p[i].is_str)
            cJSON_AddStringToObject(defs, s.p[i].name, s.p[i].def_str);
        else
            cJSON_AddNumberToObject(defs, s.p[i].name, s.p[i].def_int);
    }
    cJSON *r = cJSON_AddArrayToObject(root, "restrictions");
    for (int i = 0; i < s.nr; i++)
        cJSON_AddItemToArray(r, cJSON_CreateString(s.restrict_[i]));
    cJSON *pr = cJSON_AddArrayToObject(root, "prune");
    for (int i = 0; i < s.np; i++)
        cJSON_AddItemToArray(pr, cJSON_CreateString(s.prune[i]));
    /* What a caller needs to launch the generated device function. */
    cJSON_AddStringToObject(root, "function", space_kernel_name(a, k, o));
    cJSON_AddStringToObject(root, "grid", k->grid_kind == GRID_SIZE ? "grid_size" : "grid");
    cJSON_AddNumberToObject(root, "grid_dims", k->grid_dims == 3 ? 3 : 2);
    /* What sets the grid: the arrays of grid(...), whose first one's extents it is, or
     * grid_size's expressions as C over the scalar parameters (C's division) */
    cJSON *of = cJSON_AddArrayToObject(root, "grid_of");
    for (int i = 0; k->grid_kind == GRID_ARRAYS && i < k->ngrid_arrays; i++)
        cJSON_AddItemToArray(of, cJSON_CreateString(unparse_name(k->grid_arrays[i])));
    for (int d = 0; k->grid_kind == GRID_SIZE && d < k->grid_dims; d++) {
        StrBuf sb = {0};
        Unparser u;
        unparse_init(&u, &sb, &unparse_target_scalars);
        if (k->grid_size[d])
            unparse_expr(&u, k->grid_size[d]);
        else
            sb_puts(&sb, "1");
        cJSON_AddItemToArray(of, cJSON_CreateString(sb_str(&sb)));
        sb_free(&sb);
    }
    /* iterate(A, B): each step computes B from A, then the two trade roles */
    if (k->iterate[0]) {
        cJSON *it = cJSON_AddArrayToObject(root, "iterate");
        for (int i = 0; i < 2; i++)
            cJSON_AddItemToArray(it, cJSON_CreateString(unparse_name(k->iterate[i])));
    }
    cJSON_AddItemToObject(root, "arguments", space_arguments(a, k, o->backend->gpu));
    /* What a run on a CPU device gets without -t (params_cpu_variant), so that a tuner
     * compares its best with that too; with --size the work-group its launch fits to
     * that grid (a narrow grid's rows several to a group). */
    TuneParams none, cpu;
    params_init(&none);
    if (params_cpu_variant(&none, k, o, a, &cpu)) {
        cJSON *dc = cJSON_Duplicate(defs, true);
        int block[3];
        params_cpu_fit(&cpu, o->size && o->size_dims > 0 ? o->size[0] : PARAMS_CPU_BLOCK_X,
                       o->size && o->size_dims > 1 ? o->size[1] : 1, block);
        for (int d = 0; d < 3; d++) {
            if (cJSON_HasObjectItem(dc, params_table[P_block_size_x + d].name))
                cJSON_ReplaceItemInObjectCaseSensitive(dc, params_table[P_block_size_x + d].name,
                                                       cJSON_CreateNumber(block[d]));
            /* one point per work-item (the defaults' coarsening is the GPU kernel's) */
            if (cJSON_HasObjectItem(dc, params_table[P_coarsen_x + d].name))
                cJSON_ReplaceItemInObjectCaseSensitive(dc, params_table[P_coarsen_x + d].name,
                                                       cJSON_CreateNumber(cpu.coarsen[d]));
        }
        if (cJSON_HasObjectItem(dc, PARAM_NAME(interior)))
            cJSON_ReplaceItemInObjectCaseSensitive(dc, PARAM_NAME(interior), cJSON_CreateNumber(cpu.interior));
        for (int i = 0; i < cpu.nunroll; i++) {
            const UnrollChoice *u = &cpu.unroll[i];
            const char *name = params_unroll_name(a, u);
            if (cJSON_HasObjectItem(dc, name))
                cJSON_ReplaceItemInObjectCaseSensitive(dc, name, cJSON_CreateNumber(u->factor));
        }
        cJSON_AddItemToObject(root, "defaults_cpu", dc);
        /* the variant's own device function, in the same file (backend_opencl.c) */
        cJSON_AddStringToObject(root, "function_cpu", arena_printf(a, "%s_cpu",
                                cJSON_GetStringValue(cJSON_GetObjectItem(root, "function"))));
        /* its work-items each walk a row along x: one work-item in x (TuneParams.row_walk) */
        if (cpu.row_walk)
            cJSON_AddBoolToObject(root, "row_walk_cpu", true);
        /* the steps PK_plan_iterate fuses there (Backend.time_tile_cpu), -t's time_tile
         * without a geometry; 0 the default */
        if (params_cpu_parts(&cpu) && o->backend->time_tile_cpu) {
            cJSON *tt = cJSON_AddArrayToObject(root, "time_tile_cpu");
            for (size_t i = 0; i < sizeof time_tiles / sizeof time_tiles[0]; i++)
                cJSON_AddItemToArray(tt, cJSON_CreateNumber(time_tiles[i]));
            /* and the variant takes, after `arguments`, the rows or planes of its launch */
            cJSON *more = cJSON_AddArrayToObject(root, "arguments_cpu");
            for (Builtin b = BI_PART_FROM; b <= BI_PART_TO; b++) {
                cJSON *arg = cJSON_CreateObject();
                cJSON_AddStringToObject(arg, "name", builtin_spelling(b));
                cJSON_AddStringToObject(arg, "kind", b == BI_PART_FROM ? "part from" : "part to");
                cJSON_AddStringToObject(arg, "type", "int32");
                cJSON_AddItemToArray(more, arg);
            }
        }
    }
    return root;
}

static void print_json(FILE *out, cJSON *j)
{
    char *text = cJSON_Print(j);
    if (text) {
        fputs(text, out);
        fputc('\n', out);
        free(text);
    }
    cJSON_Delete(j);
}

void space_dump_imcl(FILE *out, Arena *a, Function **kernels, int n, const SpaceOptions *o)
{
    if (n == 1) {
        print_json(out, space_json_doc(a, kernels[0], o));
        return;
    }
    cJSON *arr = cJSON_CreateArray();
    for (int i = 0; i < n; i++)
        cJSON_AddItemToArray(arr, space_json_doc(a, kernels[i], o));
    print_json(out, arr);
}

/* ---- T1 (the JSON tuning-space schema of Kernel Tuner's tune_kernel_T1, KTT, BAT) ----
 * See docs/tuning.md for the mapping. A T1 document describes one kernel; for
 * several kernels we print an array of documents, like the imcl format. */

/* T1's spelling of a scalar element type. */
static const char *t1_type(TypeKind k)
{
    switch (k) {
    case TY_CHAR: return "int8";
    case TY_UCHAR: return "uint8";
    case TY_SHORT: return "int16";
    case TY_USHORT: return "uint16";
    case TY_INT: return "int32";
    case TY_UINT: return "uint32";
    case TY_FLOAT: return "float";
    case TY_DOUBLE: return "double";
    default: return "custom";
    }
}

static bool ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* The parameters an expression uses, in order of first use. */
static cJSON *t1_condition_params(const Space *s, const char *expr)
{
    cJSON *ps = cJSON_CreateArray();
    bool *used = calloc((size_t)s->n + 1, sizeof *used);
    for (const char *p = expr; *p;) {
        if (!ident_char(*p) || (*p >= '0' && *p <= '9')) {
            /* skip numbers whole, so "1e5" or "0x1f" is not read as a name */
            if (*p >= '0' && *p <= '9')
                while (ident_char(*p))
                    p++;
            else
                p++;
            continue;
        }
        const char *b = p;
        while (ident_char(*p))
            p++;
        size_t len = (size_t)(p - b);
        for (int i = 0; i < s->n; i++)
            if (!used[i] && strlen(s->p[i].name) == len && strncmp(s->p[i].name, b, len) == 0) {
                used[i] = true;
                cJSON_AddItemToArray(ps, cJSON_CreateString(s->p[i].name));
            }
    }
    free(used);
    return ps;
}

/* A Python list literal of the values, as a string (T1's "Values"). */
static void t1_add_values(cJSON *tp, const Param *p)
{
    cJSON *arr = values(p);
    char *text = cJSON_PrintUnformatted(arr);
    cJSON_AddStringToObject(tp, "Values", text ? text : "[]");
    free(text);
    cJSON_Delete(arr);
}

/* {"X": x, "Y": y, "Z": z} */
static void t1_add_xyz(cJSON *obj, const char *key, const char *const xyz[3])
{
    cJSON *o = cJSON_AddObjectToObject(obj, key);
    static const char *const names[] = {"X", "Y", "Z"};
    for (int d = 0; d < 3; d++)
        cJSON_AddStringToObject(o, names[d], xyz[d]);
}

static cJSON *t1_scalar_arg(const char *name, const char *type, double value)
{
    cJSON *arg = cJSON_CreateObject();
    cJSON_AddStringToObject(arg, "Name", name);
    cJSON_AddStringToObject(arg, "Type", type);
    cJSON_AddStringToObject(arg, "MemoryType", "Scalar");
    cJSON_AddStringToObject(arg, "AccessType", "ReadOnly");
    cJSON_AddNumberToObject(arg, "FillValue", value);
    return arg;
}

/* The kernel's arguments (space_arguments: the imcl dump's "arguments") as T1
 * arguments, with the sizes and extents of the problem size `ext`. */
static void t1_add_arguments(cJSON *ks, Arena *a, const Function *k, const long long ext[3], bool device)
{
    cJSON *args = cJSON_AddArrayToObject(ks, "Arguments");
    cJSON *list = space_arguments(a, k, device);
    int extent = 0, grid_extent = 0;
    const cJSON *it;
    cJSON_ArrayForEach(it, list) {
        const char *name = cJSON_GetObjectItem(it, "name")->valuestring;
        const char *kind = cJSON_GetObjectItem(it, "kind")->valuestring;
        const char *type = cJSON_GetObjectItem(it, "type")->valuestring;
        if (strcmp(kind, "extent") == 0) {
            cJSON_AddItemToArray(args, t1_scalar_arg(name, "int32", (double)ext[extent++]));
            continue;
        }
        if (strcmp(kind, "grid extent") == 0) {
            cJSON_AddItemToArray(args, t1_scalar_arg(name, "int32", (double)ext[grid_extent++]));
            continue;
        }
        if (strcmp(kind, "scalar") == 0 || strcmp(kind, "batch count") == 0) {
            cJSON_AddItemToArray(args, t1_scalar_arg(name, type, 1));
            continue;
        }
        const Symbol *sym = NULL;
        for (int i = 0; i < k->nparams && !sym; i++)
            if (strcmp(unparse_name(k->params[i]), name) == 0)
                sym = k->params[i];
        const char *access = cJSON_GetObjectItem(it, "access")->valuestring;
        bool rd = strcmp(access, "write") != 0;
        /* imcl_blocks: one element, block 0, as a float 0 filled in (its bits are the int 0,
         * and Kernel Tuner's T1 reader converts float vectors only) */
        bool list = strcmp(kind, "block list") == 0, random = rd && !list;
        long long elems = 1;
        if (strcmp(kind, "grid") == 0) {
            int halo = cJSON_GetObjectItem(it, "halo")->valueint;
            for (int d = 0; d < cJSON_GetObjectItem(it, "dims")->valueint; d++)
                elems *= ext[d] + 2LL * halo;
        } else {
            elems = (long long)cJSON_GetObjectItem(it, "elements")->valuedouble;
        }
        cJSON *arg = cJSON_CreateObject();
        cJSON_AddStringToObject(arg, "Name", name);
        cJSON_AddStringToObject(arg, "Type", list ? "float" : type);
        cJSON_AddStringToObject(arg, "MemoryType", "Vector");
        cJSON_AddStringToObject(arg, "AccessType",
                                strcmp(access, "read") == 0 ? "ReadOnly" : rd ? "ReadWrite" : "WriteOnly");
        cJSON_AddNumberToObject(arg, "Size", (double)elems);
        cJSON_AddNumberToObject(arg, "TypeSize", sym ? type_size(sym->type->elem) : 4);
        cJSON_AddStringToObject(arg, "FillType", random ? "Random" : "Constant");
        cJSON_AddNumberToObject(arg, "FillValue", random ? 1.0 : 0.0);
        cJSON_AddItemToArray(args, arg);
        extent = 0;
    }
    cJSON_Delete(list);
}

/* T1's GridDiv, LocalSize and GlobalSize: Kernel Tuner's grid is ceil(ProblemSize[d] /
 * product of GridDiv[d]); the C reference is one call that covers the grid. */
static void t1_add_launch(cJSON *ks, Arena *a, const Backend *b, const long long ext[3], int dims,
                          bool has_stream)
{
    if (!b->gpu) {
        static const char *const one[3] = {"1", "1", "1"};
        t1_add_xyz(ks, "LocalSize", one);
        t1_add_xyz(ks, "GlobalSize", one);
        return;
    }
    static const char *const divkey[] = {"GridDivX", "GridDivY", "GridDivZ"};
    /* the z points a thread walks up its column, 1 without z-marching */
    const char *walk = arena_printf(a, "(%s or 1)", PARAM_NAME(stream_z));
    for (int d = 0; d < dims; d++) {
        cJSON *div = cJSON_AddArrayToObject(ks, divkey[d]);
        cJSON_AddItemToArray(div, cJSON_CreateString(params_table[P_block_size_x + d].name));
        cJSON_AddItemToArray(div, cJSON_CreateString(params_table[P_coarsen_x + d].name));
        if (d == 2 && has_stream)
            cJSON_AddItemToArray(div, cJSON_CreateString(walk));
    }
    /* Thesis eq. 3.7-3.9: blocks = ceil(extent / (block size * coarsening)). GlobalSize
     * counts blocks for GlobalSizeType CUDA and work-items for OpenCL. */
    char local[3][160], global[3][200];
    for (int d = 0; d < 3; d++) {
        const char *block = params_table[P_block_size_x + d].name;
        snprintf(local[d], sizeof local[d], "%s", block);
        char blocks[160], span[64];
        snprintf(span, sizeof span, "%s*%s%s%s", block, params_table[P_coarsen_x + d].name,
                 d == 2 && has_stream ? "*" : "", d == 2 && has_stream ? walk : "");
        snprintf(blocks, sizeof blocks, "(%lld + %s - 1) // (%s)", ext[d], span, span);
        if (b->t1_global_size_type && strcmp(b->t1_global_size_type, "CUDA") == 0)
            snprintf(global[d], sizeof global[d], "%s", blocks);
        else
            snprintf(global[d], sizeof global[d], "(%s) * %s", blocks, block);
    }
    t1_add_xyz(ks, "LocalSize", (const char *const[3]){local[0], local[1], local[2]});
    t1_add_xyz(ks, "GlobalSize", (const char *const[3]){global[0], global[1], global[2]});
}

static cJSON *t1_document(Arena *a, Function *k, const SpaceOptions *o)
{
    Space s;
    build_space(&s, a, k, o);
    bool has_stream = false;
    for (int j = 0; j < s.n; j++)
        has_stream |= strcmp(s.p[j].name, PARAM_NAME(stream_z)) == 0;
    const Backend *b = o->backend;
    cJSON *root = cJSON_CreateObject();

    cJSON *gen = cJSON_AddObjectToObject(root, "General");
    cJSON_AddNumberToObject(gen, "FormatVersion", 1);
    cJSON_AddStringToObject(gen, "BenchmarkName", k->name);
    cJSON_AddStringToObject(gen, "OutputFormat", "JSON");

    cJSON *cs = cJSON_AddObjectToObject(root, "ConfigurationSpace");
    cJSON *tps = cJSON_AddArrayToObject(cs, "TuningParameters");
    for (int j = 0; j < s.n; j++) {
        const Param *p = &s.p[j];
        cJSON *tp = cJSON_CreateObject();
        cJSON_AddStringToObject(tp, "Name", p->name);
        cJSON_AddStringToObject(tp, "Type", p->is_str ? "string" : "int");
        t1_add_values(tp, p);
        if (p->is_str)
            cJSON_AddStringToObject(tp, "Default", p->def_str);
        else
            cJSON_AddNumberToObject(tp, "Default", p->def_int);
        cJSON_AddItemToArray(tps, tp);
    }
    cJSON *conds = cJSON_AddArrayToObject(cs, "Conditions");
    for (int j = 0; j < s.nr; j++) {
        cJSON *c = cJSON_CreateObject();
        cJSON_AddItemToObject(c, "Parameters", t1_condition_params(&s, s.restrict_[j]));
        cJSON_AddStringToObject(c, "Expression", s.restrict_[j]);
        cJSON_AddItemToArray(conds, c);
    }

    /* The problem size: --size when given (missing extents are 1), otherwise a
     * nominal 1024x1024 image or 256x256x256 block. */
    long long ext[3] = {1, 1, 1};
    int dims = k->grid_dims == 3 ? 3 : 2;
    for (int d = 0; d < dims; d++)
        ext[d] = o->size && o->size_dims > 0 ? (d < o->size_dims ? o->size[d] : 1) : (dims == 3 ? 256 : 1024);

    cJSON *ks = cJSON_AddObjectToObject(root, "KernelSpecification");
    /* T1's Language enum has no C; "C" is Kernel Tuner's name of its C backend. */
    cJSON_AddStringToObject(ks, "Language", b->t1_language);
    cJSON_AddStringToObject(ks, "KernelName", space_kernel_name(a, k, o));
    cJSON_AddStringToObject(ks, "KernelFile", arena_printf(a, b->t1_kernel_file, k->name));
    if (b->t1_global_size_type)
        cJSON_AddStringToObject(ks, "GlobalSizeType", b->t1_global_size_type);
    cJSON *ps = cJSON_AddArrayToObject(ks, "ProblemSize");
    for (int d = 0; d < dims; d++)
        cJSON_AddItemToArray(ps, cJSON_CreateNumber((double)ext[d]));
    t1_add_launch(ks, a, b, ext, dims, has_stream);
    t1_add_arguments(ks, a, k, ext, b->gpu);
    /* Kernel Tuner's tune_kernel_T1 requires both (docs/tuning.md): the first device
     * of the first platform (Kernel Tuner 1.5.0 takes Device.Name as the device
     * index; the schema wants a string) and every configuration. */
    cJSON *dev = cJSON_AddObjectToObject(ks, "Device");
    cJSON_AddNumberToObject(dev, "PlatformId", 0);
    cJSON_AddNumberToObject(dev, "DeviceId", 0);
    cJSON_AddStringToObject(dev, "Name", "0");
    cJSON *search = cJSON_AddObjectToObject(root, "Search");
    cJSON_AddStringToObject(search, "Name", "brute_force");
    return root;
}

bool space_dump_t1(FILE *out, Arena *a, Diag *diag, Function **kernels, int n, const SpaceOptions *o)
{
    /* A grid_size grid is set by scalars, and the arrays' sizes and the scalars'
     * values are the caller's: a T1 document would have to invent them, and the
     * launch it described would read past its buffers. */
    bool ok = true;
    for (int i = 0; i < n; i++)
        if (kernels[i]->grid_kind == GRID_SIZE) {
            diag_error(diag, kernels[i]->grid_loc,
                       "no T1 document for kernel '%s': its grid is set by grid_size, so the sizes of its "
                       "arrays and the values of its scalars are the caller's, which T1 cannot express; "
                       "tune it with the Python package (imcl.tune, imcl-tune: docs/autotuning.md)",
                       kernels[i]->name);
            ok = false;
        }
    if (!ok)
        return false;
    if (n == 1) {
        print_json(out, t1_document(a, kernels[0], o));
        return true;
    }
    cJSON *arr = cJSON_CreateArray();
    for (int i = 0; i < n; i++)
        cJSON_AddItemToArray(arr, t1_document(a, kernels[i], o));
    print_json(out, arr);
    return true;
}

void space_print_footprint(FILE *out, Arena *a, Function *k)
{
    Footprint *fp = analyze_footprint(a, k);
    fprintf(out, "footprint of kernel '%s' (offsets from idx, idy, idz):\n", k->name);
    static const char axis[] = "xyz";
    /* One line per array or alias, in order of first access. */
    for (int i = 0; i < fp->n; i++) {
        Symbol *s = fp->items[i].access->u.access.sym;
        bool seen = false;
        for (int j = 0; j < i; j++)
            seen |= fp->items[j].access->u.access.sym == s;
        if (seen)
            continue;
        int dims = type_grid_dims(s->type);
        bool known[3] = {true, true, true};
        long long lo[3] = {0}, hi[3] = {0};
        bool first[3] = {true, true, true};
        int count = 0;
        for (int j = i; j < fp->n; j++) {
            const AccessFootprint *af = &fp->items[j];
            if (af->access->u.access.sym != s)
                continue;
            count++;
            for (int d = 0; d < dims; d++) {
                if (!af->known[d]) {
                    known[d] = false;
                    continue;
                }
                if (first[d] || af->min[d] < lo[d])
                    lo[d] = af->min[d];
                if (first[d] || af->max[d] > hi[d])
                    hi[d] = af->max[d];
                first[d] = false;
            }
        }
        fprintf(out, "  %s", s->name);
        if (s->kind == SYM_ALIAS)
            fprintf(out, " (alias of %s)", symbol_root(s)->name);
        fprintf(out, ": %d access%s;", count, count == 1 ? "" : "es");
        for (int d = 0; d < dims; d++) {
            if (known[d])
                fprintf(out, " %c %lld..%lld", axis[d], lo[d], hi[d]);
            else
                fprintf(out, " %c unknown", axis[d]);
        }
        fputc('\n', out);
        for (int j = i; j < fp->n; j++) {
            const AccessFootprint *af = &fp->items[j];
            if (af->access->u.access.sym != s)
                continue;
            for (int d = 0; d < dims; d++)
                if (!af->known[d])
                    fprintf(out, "    %c unknown at %s:%d:%d: %s\n", axis[d], af->access->loc.file,
                            af->access->loc.line, af->access->loc.col, af->why[d]);
        }
    }
}
