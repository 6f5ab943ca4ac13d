// The declarations of the distributed plans' runtime, written into every output folder of
// imcl --mpi as imcl_runtime_dist.h beside imcl_runtime_dist.c (wrappers/dist.c,
// docs/mpi.md). Every K_dist.c of the folder includes it. These lines are not copied;
// IMCLTAG becomes a digest of the folder's runtime files when imcl is built.
/* The distributed plans' runtime (imcl --mpi, docs/mpi.md): the grid cut into parts
 * over a Cartesian communicator, one part per rank with a ghost layer around it;
 * the exchange of the ghost layers between neighbours, the boundary conditions at the
 * edges of the whole grid, and scatter and gather of whole arrays on rank 0. The
 * same for every kernel and backend: PK_dist_* (K_dist.c) call it. */
#ifndef IMCL_RUNTIME_DIST_H_IMCLTAG
#define IMCL_RUNTIME_DIST_H_IMCLTAG

#include <mpi.h>
#include <stddef.h>

/* Link names with a digest of this runtime, weak where the compiler has them, as the
 * other runtimes' (imcl_runtime_c.h says why). */
#if defined(__GNUC__)
#define IMCL_DIST_WEAK __attribute__((weak))
#else
#define IMCL_DIST_WEAK
#endif
#define imcl_dist_init imcl_dist_init_IMCLTAG
#define imcl_dist_array_init imcl_dist_array_init_IMCLTAG
#define imcl_dist_agree imcl_dist_agree_IMCLTAG
#define imcl_dist_device_aware imcl_dist_device_aware_IMCLTAG
#define imcl_dist_use_device imcl_dist_use_device_IMCLTAG
#define imcl_dist_exchange_begin imcl_dist_exchange_begin_IMCLTAG
#define imcl_dist_exchange_end imcl_dist_exchange_end_IMCLTAG
#define imcl_dist_boxes imcl_dist_boxes_IMCLTAG
#define imcl_dist_scatter imcl_dist_scatter_IMCLTAG
#define imcl_dist_gather imcl_dist_gather_IMCLTAG
#define imcl_dist_swap imcl_dist_swap_IMCLTAG
#define imcl_dist_destroy imcl_dist_destroy_IMCLTAG
#define imcl_dist_stage imcl_dist_stage_IMCLTAG
#define imcl_dist_stage_all imcl_dist_stage_all_IMCLTAG
#define imcl_dist_written imcl_dist_written_IMCLTAG

/* The boundary conditions, as the kernel's pragma names them. */
enum {
    IMCL_DIST_CONSTANT, IMCL_DIST_CLAMPED, IMCL_DIST_NONE, IMCL_DIST_PERIODIC, IMCL_DIST_MIRROR
};

/* The return codes, those of PK_ (K.h). */
enum { IMCL_DIST_OK = 0, IMCL_DIST_ERR_ARGUMENT = -1, IMCL_DIST_ERR_MEMORY = -3 };

/* The 3 x 3 x 3 neighbours of a part (itself in the middle): direction (dx, dy, dz) is
 * number (dx + 1) + 3 (dy + 1) + 9 (dz + 1). */
#define IMCL_DIST_DIRS 27

/* A whole array's copy between the plan's memory and host memory (PK_plan_upload_<a> or
 * PK_plan_download_<a> of the local variant's plan). */
typedef int (*imcl_dist_copy)(void *plan, void *host);

typedef struct imcl_dist_array {
    void *host;             /* a distributed array: its part with the ghost layer (storage[]);
                             * else the whole array (count elements), on every rank */
    void *data;             /* the memory MPI sends from and receives into: host, or the
                             * plan's device memory (on_device, imcl_dist_use_device) */
    int on_device;
    size_t elem;            /* bytes of an element */
    MPI_Datatype type;      /* the MPI type of an element */
    int distributed;
    int exchanged;          /* read at offsets: its ghost layer is filled before a launch */
    int bc;                 /* IMCL_DIST_* */
    void *values;           /* IMCL_DIST_CONSTANT and exchanged: the largest plane of the
                             * storage, full of the boundary value */
    size_t count;           /* elements of a whole array */
    /* the cells sent to the neighbour in each direction and the ghost cells received
     * from it, as subarray types of the storage; MPI_DATATYPE_NULL where none */
    MPI_Datatype send[IMCL_DIST_DIRS], recv[IMCL_DIST_DIRS];
    /* where the plan does not compute in `host` (a device's memory): its copies of the
     * whole array, and which of the two holds the array's values; NULL where it does */
    imcl_dist_copy upload, download;
    int host_ok, device_ok;
} imcl_dist_array;

typedef struct imcl_dist {
    MPI_Comm comm;          /* Cartesian, over the grid's dimensions, the caller's ranks */
    int nd, rank, size;
    int dims[3], coords[3]; /* the process grid, and this rank's place in it */
    int global[3];          /* the whole grid's extents */
    int lo[3], n[3];        /* this rank's part: its first point and its extents */
    int ghost[3];
    int storage[3];         /* n + 2 ghost */
    unsigned dirs;          /* the directions exchanged (bits by direction number) */
    int narrays;
    imcl_dist_array *arrays;
    MPI_Request *req;       /* 2 IMCL_DIST_DIRS per array */
    int nreq;
    void *plan;             /* the local variant's plan (upload, download) */
} imcl_dist;

/* A box of grid points, in the whole grid's coordinates. */
typedef struct imcl_dist_box {
    int first[3], n[3];
} imcl_dist_box;

/* The parts of a grid of extents global[0..nd-1] over the ranks of comm (its own
 * process grid when comm is Cartesian of nd dimensions, else MPI_Dims_create's), each
 * with a ghost layer ghost[d] wide, for narrays arrays (imcl_dist_array_init each).
 * Collective; IMCL_DIST_ERR_ARGUMENT on every rank when a part would be thinner than
 * its ghost layer (or than 1). */
int imcl_dist_init(imcl_dist *d, MPI_Comm comm, int nd, const int global[3], const int ghost[3],
        unsigned dirs, int narrays);
/* Array i: elements of elem bytes and MPI type `type`; distributed (storage zero-filled)
 * or whole on every rank (count elements); its boundary condition and value (elem bytes,
 * or NULL); exchanged or not. IMCL_DIST_OK or IMCL_DIST_ERR_MEMORY (not collective). */
int imcl_dist_array_init(imcl_dist *d, int i, size_t elem, MPI_Datatype type, int distributed,
        size_t count, int bc, const void *value, int exchanged);
/* The same code on every rank: the lowest (an error where any rank has one). */
int imcl_dist_agree(const imcl_dist *d, int code);
/* 1 on every rank where MPI takes CUDA device memory (Open MPI's MPIX_Query_cuda_support,
 * MPICH's MPIX_GPU_query_support), or where IMCL_MPI_DEVICE=1 says so on every rank (an
 * MPI that cannot tell); 0 where any rank's does not, or IMCL_MPI_DEVICE=0. Collective. */
int imcl_dist_device_aware(const imcl_dist *d);
/* Distributed array i's values live in `memory`, the plan's device memory of its storage:
 * MPI sends and receives there, and the host copy is staged only for the caller. */
void imcl_dist_use_device(imcl_dist *d, int i, void *memory);
/* Starts the exchange of the ghost layers of the exchanged arrays (non-blocking), each
 * staged first where MPI reads it; the staging's code (the exchange starts anyway: the
 * neighbours wait for it). */
int imcl_dist_exchange_begin(imcl_dist *d);
/* Waits for it, then fills the ghost cells at the edges of the whole grid by each
 * array's boundary condition (periodic ones came from the neighbours across): the
 * exchanged arrays' values are where MPI put them (imcl_dist_written). */
void imcl_dist_exchange_end(imcl_dist *d);
/* The points of this rank's part as boxes: box[0] the interior, whose points read no
 * ghost cell, then the shell around it in up to 2 nd boxes; some may be empty (n 0).
 * Returns the count, 1 + 2 nd. */
int imcl_dist_boxes(const imcl_dist *d, imcl_dist_box box[7]);
/* Array i from / into `global`, the whole array on rank 0 (ignored elsewhere), through
 * the memory MPI uses for it (gather: staged there first). Collective. */
int imcl_dist_scatter(imcl_dist *d, int i, const void *global);
int imcl_dist_gather(imcl_dist *d, int i, void *global);
/* Array i's values where they are needed next, on the host (to_device 0) or in the plan's
 * memory (1), copied there when the other holds them; the plan's code where a copy
 * fails. Nothing to do where the plan computes in host memory. */
int imcl_dist_stage(imcl_dist *d, int i, int to_device);
/* imcl_dist_stage of every array (with `exchanged`, of those exchanged); the first
 * failure's code. */
int imcl_dist_stage_all(imcl_dist *d, int to_device, int exchanged);
/* Array i was written on the host (on_device 0) or by the plan (1): the other copy is
 * stale. */
void imcl_dist_written(imcl_dist *d, int i, int on_device);
/* Arrays i and j trade their memory. */
void imcl_dist_swap(imcl_dist *d, int i, int j);
/* Frees what init and array_init made (collective: it frees the communicator). */
void imcl_dist_destroy(imcl_dist *d);

#endif
