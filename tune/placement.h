/* Placements (mem_<array>, SPEC 5): which memory each array may live in for a
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
