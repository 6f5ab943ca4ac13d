/* Tuning parameters (docs/tuning.md, "Parameters"): loading from a flat JSON object or a legacy
 * ImageCL config.txt, defaults, and validation against a kernel. */
#ifndef IMCL_PARAMS_H
#define IMCL_PARAMS_H

#include <stddef.h>

#include "ast.h"

typedef struct MemChoice {
    const char *array;
    MemKind mem;
    bool used;          /* matched an array of some selected kernel */
} MemChoice;

typedef struct UnrollChoice {
    int line;           /* unroll_L<line>, or 0 */
    const char *label;  /* unroll_<label>, or NULL */
    int factor;
    bool used;
} UnrollChoice;

typedef enum OmpSchedule { OMP_STATIC, OMP_DYNAMIC, OMP_GUIDED } OmpSchedule;

typedef struct TuneParams {
    int block[3];
    bool block_given[3];
    int coarsen[3];
    bool coarsen_given[3];
    int interleaved;
    int interior;           /* 1: inner blocks run a copy without edge guards (pass_interior) */
    bool interior_given;
    /* The size of the unrolled code (tune/unrolled.c, set by params_for_kernel on GPU
     * backends): pass_thread_mapping unrolls a thread's points where it stays small. */
    long long unrolled_size;
    /* z points one thread walks with windows of planes (pass_stream_z), 0: off.
     * params_for_kernel gives the passes and backends coarsen[2] = stream_z. */
    int stream_z;
    /* 1: a batch of blocks runs in one block's work-groups, each work-item looping over
     * the blocks (host_kernel_body); 0: the blocks' work-groups follow each other
     * in z. Only for kernels with an Image or Block, every one in global memory, and
     * stream_z 0 (params_for_kernel). */
    int batch_loop;
    bool geometry_given;    /* some block_size_, coarsen_, interleaved or interior was given */
    bool unrolled_whole;    /* params_cpu_variant unrolled for loops whole */
    bool lanes;             /* params_cpu_variant left the tap loops to the walk's lanes */
    /* The CPU variant's work-groups fit the grid (no tile depends on their shape, and
     * one work-item computes one point): rows of the narrowest power of two from 8
     * that covers the grid's width, block[0] at most, and rows narrower than that (a
     * narrow grid, miniAMR's blocks) several to a work-group, up to PARAMS_CPU_GROUP
     * work-items without passing the grid's height. The launch chooses both. */
    bool row_fit;
    /* The CPU variant's work-items each walk a row of the grid along x, the rows in
     * work-groups of 1 x PARAMS_CPU_ROWS (x 1), with pass_interior's split per row:
     * a loop the device compiler vectorises as a C compiler does the C reference's
     * rows (pass_thread_mapping, row_walk). For CPU variants of one point per
     * work-item, no tile and no lanes (params_cpu_variant). */
    bool row_walk;
    /* This is the CPU variant (params_cpu_variant): pass_thread_mapping tells the
     * device compiler the range of the point's coordinates (see there). */
    bool cpu_variant;
    /* Iterated kernels (iterate pragma): steps PK_plan_iterate fuses in one pass over
     * memory, a wavefront over the last grid dimension (Function.iterate_radius); 1:
     * a launch per step; 0 (the default): PARAMS_AUTO_TIME_TILE where the two arrays
     * outgrow a cache at run time, else 1 (backend_c/plan_c.c). Only where the backend
     * fuses steps (Backend.time_tile): params_for_kernel makes 0 a 1 elsewhere. */
    int time_tile;
    /* The C reference's own space (docs/tuning.md, "The C reference's space"): the
     * schedule of its OpenMP loop over rows, and the rows of a chunk (0: the
     * schedule's own). Every backend accepts them; only the C reference uses them. */
    int omp_schedule;       /* an OmpSchedule */
    int omp_chunk;
    MemChoice *mem;         /* in the arena; copies of a TuneParams share them */
    int nmem, capmem;
    UnrollChoice *unroll;
    int nunroll, capunroll;
} TuneParams;

/* Largest thread block (work-group) imcl targets. */
#define PARAMS_MAX_BLOCK_THREADS 1024
#define PARAMS_MAX_BLOCK_Z 64
/* Most grid points one thread computes in each dimension. */
#define PARAMS_MAX_COARSEN 8

/* The most steps time_tile fuses; the steps time_tile 0 fuses where it does, and the bytes
 * of the two arrays from which it does (docs/iterate.md, "Measured"). */
#define PARAMS_MAX_TIME_TILE 16
#define PARAMS_AUTO_TIME_TILE 8

/* The most rows of a chunk of the C reference's OpenMP loop (omp_chunk). */
#define PARAMS_MAX_OMP_CHUNK 64

/* Most z points one thread walks with stream_z. */
#define PARAMS_MAX_STREAM_Z 4096

/* The largest unroll factor -t takes (the space lists fewer: loops_unroll_factors). */
#define PARAMS_MAX_UNROLL (1 << 16)

/* The table of tuning parameters (tune/params.def): a row per parameter, P_<name> its
 * index (P_mem, P_unroll_line, P_unroll_label for the families). */
typedef enum ParamKind { PARAM_INT, PARAM_FLAG, PARAM_OFF_OR, PARAM_SCHEDULE, PARAM_FAMILY } ParamKind;

typedef struct ParamRow {
    const char *name;       /* "block_size_x"; a family's "mem_<array>" */
    ParamKind kind;
    int lo, hi, def;
    ptrdiff_t field, given; /* offsets of its int and of its given flag in TuneParams, or -1 */
    bool geometry;
    const char *expect, *doc;
} ParamRow;

typedef enum ParamId {
#define PARAM(id, ...) P_##id,
#define FAMILY(id, ...) P_##id,
#include "params.def"
#undef PARAM
#undef FAMILY
    PARAM_COUNT
} ParamId;

extern const ParamRow params_table[PARAM_COUNT];
#define PARAM_NAME(id) (params_table[P_##id].name)
/* The row of the parameter (not a family) named `name`, or NULL. */
const ParamRow *params_find(const char *name);
/* What a value of r must be, as messages say it ("0, or 2 to 4096 z points per thread"). */
const char *params_expected(Arena *a, const ParamRow *r);
/* Every name, as messages list them: "block_size_x/y/z, coarsen_x/y/z, ..., omp_chunk". */
const char *params_names(Arena *a);
/* A family's parameter for `what`: params_family_name(a, P_mem, "in") is "mem_in". */
const char *params_family_name(Arena *a, ParamId family, const char *what);
/* The same into buf (size bytes, cut short if need be). */
void params_family_snprint(char *buf, size_t size, ParamId family, const char *what);
/* The part of `name` after the prefix of family's parameters ("in" of "mem_in" for
 * P_mem), or NULL when `name` is none of them. */
const char *params_family_member(const char *name, ParamId family);
/* The restrictions' test of array's placement: params_mem_test(a, "in", "==", MEM_GLOBAL)
 * is "mem_in == 'global'". */
const char *params_mem_test(Arena *a, const char *array, const char *op, MemKind m);
/* The threads of a block, as restrictions and messages write it: "block_size_x*block_size_y*block_size_z". */
const char *params_threads(Arena *a);
/* The points of a thread: "coarsen_x*coarsen_y*coarsen_z". */
const char *params_points(Arena *a);

/* The work-group rows of the CPU variant (params_cpu_variant), the most work-items
 * of its work-groups when rows fit the grid (TuneParams.row_fit), and the most copies
 * of a body its unrolled for loops may make. */
#define PARAMS_CPU_BLOCK_X 128
#define PARAMS_CPU_GROUP 256
#define PARAMS_CPU_UNROLLED 64
/* The rows of a work-group of a row walk (TuneParams.row_walk); measured on PoCL
 * (bench/an5d/run.sh): star3d1r double at 256^3 1.32 GStencil/s with 1 row, 1.38-1.41
 * with 4 to 64; 2D float stencils at 4096^2 noisy, best with 32 (j2d5pt 2.1-3.0 with
 * 8 rows, 2.2-3.5 with 32). */
#define PARAMS_CPU_ROWS 32
/* The vectors of points a row walk's guard-free run computes side by side
 * (Node.u.loop.interleave); measured on PoCL (bench/an5d/run.sh), against 1: box3d1r
 * double 0.36-0.37 -> 0.42 GStencil/s, j3d27pt float 0.78-0.80 -> 0.83-0.84, the kernels
 * bound by memory unchanged; 4 no better than 2 (box3d1r double 0.51 against 0.50). */
#define PARAMS_CPU_INTERLEAVE 2

struct SpaceOptions;

/* The work-group of the CPU variant `cpu` on a W x H grid: where its rows fit the grid
 * (row_fit), the narrowest power of two from 8 covering W up to its block width, and
 * rows several to a group up to PARAMS_CPU_GROUP work-items without passing H, as its
 * launch computes them (imcl_cl_row_fit, the OpenCL runtime); its block otherwise. */
void params_cpu_fit(const TuneParams *cpu, int W, int H, int block[3]);

void params_init(TuneParams *tp);
/* Reads `path` (JSON object, or KEY:VALUE lines). Reports and returns false on a
 * malformed file or an unknown name or value. */
bool params_load(TuneParams *tp, const char *path, Arena *a, Diag *diag);
/* The same for the text of such a file; `path` names it in messages. */
bool params_load_text(TuneParams *tp, const char *path, const char *text, Arena *a, Diag *diag);
/* The parameters for kernel k on the backend and device of `so`: defaults for
 * what was not given (registers_default_block: 32x4x1 on GPU backends;
 * registers_default_coarsen: 2 points along the slowest axis for most kernels),
 * checked against k (placements through tune/placement.c); marks the
 * mem_/unroll_ entries of `given` that k uses and sets the `mem` of k's array
 * parameters. Reports and returns false on an illegal combination. */
bool params_for_kernel(TuneParams *given, Function *k, const struct SpaceOptions *so, Arena *a,
                       TuneParams *out, Diag *diag);
/* The device-aware default (docs/tuning.md, "Defaults"): when the backend of `so`
 * chooses between two variants at run time and `given` sets no geometry parameter,
 * the parameters of kernel k's variant for CPU devices into *cpu: `given` with rows of
 * PARAMS_CPU_BLOCK_X x 1 x 1 work-items, one guarded body (interior 0) and every for
 * loop `given` does not unroll unrolled whole. Returns false when there is none: the
 * geometry was given, k has a while loop or a for loop that cannot be unrolled whole
 * (unknown trip count, more than PARAMS_CPU_UNROLLED copies), or the variant is not
 * legal for k (its tiles would not fit, say), which is left out without a word: the
 * configuration asked for nothing it lacks. */
bool params_cpu_variant(const TuneParams *given, Function *k, const struct SpaceOptions *so, Arena *a,
                        TuneParams *cpu);
/* Whether the kernel of tp computes the rows (2D) or planes (3D) imcl_from to imcl_to - 1
 * of a launch (BI_PART_FROM, BI_PART_TO) rather than all: the CPU variant's row walk of an
 * iterated kernel whose steps fuse (time_tile not 1), whose PK_plan_iterate launches the
 * parts of the wavefront (backend_opencl/plan_opencl.c). */
static inline bool params_cpu_parts(const TuneParams *tp)
{
    return tp->row_walk && tp->time_tile != 1;
}
/* time_tile above 1 on a backend that fuses steps in its CPU variant alone
 * (Backend.time_tile_cpu): an error unless kernel k has that variant's row walk (cpu,
 * NULL: no CPU variant). */
bool params_check_time_tile_cpu(const TuneParams *tp, const TuneParams *cpu, const Function *k,
                                const struct SpaceOptions *so, Diag *d);
struct LoopInfo;
/* The unroll factor tp gives loop li (1 when it names none): unroll_<label> for a
 * labelled loop, unroll_L<line> for another. */
int params_unroll_factor(const TuneParams *tp, const struct LoopInfo *li);
/* The parameter's name of an unroll choice: unroll_<label>, or unroll_L<line>. */
const char *params_unroll_name(Arena *a, const UnrollChoice *u);
/* The unroll parameter of loop li: unroll_<label> for a labelled loop, else unroll_L<line>. */
const char *params_loop_name(Arena *a, const struct LoopInfo *li);
/* The placement tp gives `array` (global when it names none). */
MemKind params_mem_of(const TuneParams *tp, const char *array);
/* After every kernel: names that matched no kernel are errors. */
bool params_check_unused(const TuneParams *tp, Diag *diag);
const char *mem_kind_name(MemKind m);
/* OpenMP's name of schedule s: "static", "dynamic" or "guided". */
const char *omp_schedule_name(OmpSchedule s);
/* The C reference's OpenMP schedule clause's argument: "static", "dynamic, 4". */
const char *params_omp_schedule(Arena *a, const TuneParams *tp);

#endif
