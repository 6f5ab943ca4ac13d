/* Placements (mem_<array>, docs/tuning.md): which memory each array may live in for a
 * backend and device, and what shared-memory tiles and constant copies take. */
#ifndef IMCL_PLACEMENT_H
#define IMCL_PLACEMENT_H

#include "analysis.h"
#include "backend.h"

/* What a placement depends on beyond the kernel: the backend and the device. */
typedef struct SpaceOptions {
    const Backend *backend;
    const int *size;       /* --size, or NULL */
    int size_dims;
    long long shared_limit;   /* bytes of shared (local) memory per block */
    long long constant_limit; /* bytes of constant memory */
    const char *prefix;       /* --prefix ("" when none) */
} SpaceOptions;

/* The shared-memory tile of a read-only array: the view every access goes
 * through, and the range of offsets from the grid point in each dimension. */
typedef struct SharedTile {
    Symbol *view;        /* the array itself or the one alias it is read through */
    Node *alias_decl;    /* that alias's declaration (top level of the body), or NULL */
    int dims;
    long long min[3], max[3];
} SharedTile;

/* Whether array s of kernel k may live in memory m for the backend of o; when
 * not, *why says why in words that follow "cannot be in <m> memory: ". */
bool placement_allowed(Arena *a, Function *k, Symbol *s, MemKind m, const SpaceOptions *o, const char **why);
/* The tile of s (false, with *why, when shared memory cannot hold it). */
bool placement_shared_tile(Arena *a, Function *k, Symbol *s, SharedTile *t, const char **why);
/* Widest footprint (points in a dimension) a stream_z window covers. */
#define PLACEMENT_MAX_WINDOW 16
/* The window of planes a thread walking z keeps of one array (stream_z,
 * pass_stream_z): the box of the footprint's offsets and, per column
 * c = (dx - min[0]) + n[0] * (dy - min[1]) of it, the planes zlo[c]..zhi[c]
 * (indices from min[2]) the body reads there; zlo[c] > zhi[c] for a column it
 * never reads. */
typedef struct StreamWindow {
    SharedTile t;        /* the view, its alias declaration, the box min..max */
    int n[3];            /* the box's extent */
    int *zlo, *zhi;
    int columns;         /* columns read: loads per point */
    int values;          /* values the window holds */
} StreamWindow;
/* Whether a thread walking z can keep the reads of array s of kernel k in a
 * window (*w): a read-only Block whose footprint is known, read through one view;
 * when not, *why says why. */
bool placement_stream_window(Arena *a, Function *k, Symbol *s, StreamWindow *w, const char **why);
/* Threads of a warp along x (register caching). */
#define PLACEMENT_WARP 32
/* Register caching of one array (mem_<array> register, pass_register_cache): the
 * warp's threads hold the rows of the footprint's box the body reads, one register
 * per row (element idx + x0 of the row, x0 its first offset read) or two where it
 * reads further (idx + x0 + 32 too), and every element of the box the body reads
 * (used, x fastest) is fetched from the lane that holds it. */
typedef struct RegisterCache {
    SharedTile t;        /* the view, its alias declaration, the box min..max */
    int n[3];            /* the box's extent (1 past the dimensions) */
    bool *used;          /* per element of the box */
    int rows;            /* rows of the box the body reads */
    int registers;       /* the registers that hold them, per thread */
    int values;          /* elements of the box the body reads */
} RegisterCache;
/* Whether array s of kernel k can be cached in registers of a warp (*rc): a
 * read-only Image or Block whose footprint is known (as for a shared tile) and
 * narrower than a warp in x; when not, *why says why. The backend must have warp
 * shuffles too (placement_allowed). */
bool placement_register_cache(Arena *a, Function *k, Symbol *s, RegisterCache *rc, const char **why);
/* Elements a constant-memory copy of s must hold: fixed-size arrays their size,
 * grid arrays the grid (from --size or literal grid_size) plus halo; -1 when not
 * known at compile time. */
long long placement_constant_elems(const Function *k, const Symbol *s, const SpaceOptions *o);

/* How a texture (image) read of grid array s meets its boundary condition: the
 * addressing mode of the sampler alone, when one matches over the whole storage
 * (halo included), or explicit index arithmetic in the kernel. */
typedef enum TextureAddress {
    TEXTURE_EXPLICIT,     /* guards and imcl_* index functions, as in global memory */
    TEXTURE_CLAMP_EDGE,   /* clamped: clamp-to-edge addressing */
    TEXTURE_BORDER_ZERO,  /* constant 0: a border of zeros */
} TextureAddress;
TextureAddress placement_texture_address(const Symbol *s);

#endif
