/* The mesh of the miniAMR proxy: allocation, initial values, ghost exchange, the
 * reference stencil (a hand-written loop, independent of imcl), checksums and the
 * cell-by-cell comparison. Layout: see proxy.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proxy.h"

void mesh_arrange(int blocks, int *bx, int *by, int *bz)
{
    *bx = blocks;
    *by = *bz = 1;
    for (int z = 1; z * z * z <= blocks; z++) {
        if (blocks % z)
            continue;
        for (int y = z; y * y <= blocks / z; y++) {
            if ((blocks / z) % y)
                continue;
            int x = blocks / z / y;
            if (x <= *bx) { /* on a tie the later one, with the larger bz */
                *bx = x;
                *by = y;
                *bz = z;
            }
        }
    }
}

/* One grid's table of rows: the rows of the grid at `base` (e^3 elements), or, with
 * base NULL, rows that are allocations of their own (one per row, as miniAMR
 * allocates its blocks). NULL when out of memory (what was allocated is in *t). */
static double ***grid_table(double ****t, size_t e, double *base)
{
    if (!(*t = calloc(e, sizeof **t)))
        return NULL;
    for (size_t z = 0; z < e; z++) {
        if (!((*t)[z] = calloc(e, sizeof *(*t)[z])))
            return NULL;
        for (size_t y = 0; y < e; y++)
            if (!((*t)[z][y] = base ? base + (z * e + y) * e : calloc(e, sizeof(double))))
                return NULL;
    }
    return *t;
}

/* The tables of rows of m, whose n, vars, capacity, cell, slab and stride are set: the
 * rows point into m->cell (dense: grid (b, v) at (b*vars + v) * grid; over slabs:
 * at v * slab + slot(b) * grid, the spare's at (vars + v) * slab + slot(b) * grid), or are
 * allocations of their own (miniAMR's layout). */
static int mesh_tables(Mesh *m, int spare)
{
    size_t e = (size_t)m->n + 2, grids = (size_t)m->capacity * m->vars;
    m->rows = calloc(grids, sizeof *m->rows);
    if (!m->rows || (spare && !(m->spare = calloc(grids, sizeof *m->spare))))
        return -1;
    for (size_t g = 0; g < grids; g++) {
        size_t b = g / (size_t)m->vars, v = g % (size_t)m->vars;
        size_t slot = (size_t)mesh_slot(m, (int)b);
        double *base = !m->cell ? NULL : m->slab ? m->cell + v * m->slab + slot * m->grid : m->cell + g * m->grid;
        if (!grid_table(&m->rows[g], e, base) ||
            (spare && !grid_table(&m->spare[g], e, m->cell + (m->vars + v) * m->slab + slot * m->grid)))
            return -1;
    }
    return 0;
}

/* slabs: 0 (dense, or miniAMR's own layout with `tables`), 1 (over slabs), 2 (over
 * slabs with a spare) */
static int mesh_start(Mesh *m, int n, int blocks, int vars, int capacity, int tables, int slabs,
                      int stride)
{
    memset(m, 0, sizeof *m);
    m->stride = stride;
    m->n = n;
    m->blocks = blocks;
    m->vars = vars;
    m->capacity = capacity;
    m->tables = tables;
    mesh_arrange(blocks, &m->bx, &m->by, &m->bz);
    size_t e = (size_t)n + 2;
    m->grid = e * e * e;
    if (slabs) {
        /* each slab page-aligned, as OpenCL's CL_MEM_USE_HOST_PTR wants it */
        m->slab = ((size_t)capacity * stride * m->grid + 511) / 512 * 512;
        size_t bytes = (size_t)slabs * vars * m->slab * sizeof *m->cell;
        if (!(m->cell = aligned_alloc(4096, bytes)))
            return -1;
        memset(m->cell, 0, bytes);
    } else if (!tables && !(m->cell = calloc((size_t)blocks * vars * m->grid, sizeof *m->cell)))
        return -1;
    return mesh_tables(m, slabs == 2);
}

int mesh_alloc(Mesh *m, int n, int blocks, int vars)
{
    return mesh_start(m, n, blocks, vars, blocks, 0, 0, 1);
}

int mesh_alloc_tables(Mesh *m, int n, int blocks, int vars, int capacity)
{
    return mesh_start(m, n, blocks, vars, capacity, 1, 0, 1);
}

int mesh_alloc_slabs(Mesh *m, int n, int blocks, int vars, int capacity, int spare, int stride)
{
    return mesh_start(m, n, blocks, vars, capacity, 1, spare ? 2 : 1, stride);
}

/* Frees the tables of rows of ts[0..grids-1] (and the rows, if they are their own). */
static void free_tables(double ****ts, size_t grids, size_t e, int own_rows)
{
    for (size_t g = 0; ts && g < grids; g++) {
        for (size_t z = 0; ts[g] && z < e; z++) {
            for (size_t y = 0; own_rows && ts[g][z] && y < e; y++)
                free(ts[g][z][y]);
            free(ts[g][z]);
        }
        free(ts[g]);
    }
    free(ts);
}

void mesh_free(Mesh *m)
{
    size_t e = (size_t)m->n + 2, grids = (size_t)m->capacity * m->vars;
    free_tables(m->rows, grids, e, !m->cell);
    free_tables(m->spare, grids, e, 0);
    free(m->cell);
    memset(m, 0, sizeof *m);
}

void mesh_swap_var(Mesh *m, int v)
{
    for (int b = 0; b < m->capacity; b++) {
        size_t g = (size_t)b * m->vars + v;
        double ***t = m->rows[g];
        m->rows[g] = m->spare[g];
        m->spare[g] = t;
    }
}

void mesh_init(Mesh *m, unsigned seed)
{
    int e = m->n + 2;
    unsigned long long s = seed * 2654435761ull + 1;
    for (int b = 0; b < m->blocks; b++)
        for (int v = 0; v < m->vars; v++)
            for (int z = 0; z < e; z++)
                for (int y = 0; y < e; y++)
                    for (int x = 0; x < e; x++) {
                        s = s * 6364136223846793005ull + 1442695040888963407ull;
                        mesh_table(m, b, v)[z][y][x] = (double)(s >> 11) * 0x1p-53;
                    }
}

/* Cell (p, q) of table t's face normal to dimension `dim` at coordinate c: p and q
 * run along the other two dimensions, the lower one first. */
static double *face_cell(double ***t, int dim, int c, int p, int q)
{
    return dim == 0 ? &t[q][p][c] : dim == 1 ? &t[q][c][p] : &t[c][q][p];
}

/* The face of table `to` normal to dimension `dim` at coordinate c (0..n+1) from
 * `from`'s face at coordinate fc, interior cells of the face only. */
static void copy_face(const Mesh *m, double ***to, int c, double ***from, int fc, int dim)
{
    for (int q = 1; q <= m->n; q++)
        for (int p = 1; p <= m->n; p++)
            *face_cell(to, dim, c, p, q) = *face_cell(from, dim, fc, p, q);
}

size_t mesh_layer(const Mesh *m, int b, int dim, int c, double *buf, int out)
{
    size_t k = 0;
    for (int v = 0; v < m->vars; v++)
        for (int q = 1; q <= m->n; q++)
            for (int p = 1; p <= m->n; p++, k++) {
                double *cell = face_cell(mesh_table(m, b, v), dim, c, p, q);
                if (out)
                    buf[k] = *cell;
                else
                    *cell = buf[k];
            }
    return k;
}

size_t mesh_block(const Mesh *m, int b, double *buf, int out)
{
    size_t k = 0, e = (size_t)m->n + 2;
    for (int v = 0; v < m->vars; v++)
        for (size_t z = 0; z < e; z++)
            for (size_t y = 0; y < e; y++, k += e) {
                double *row = mesh_table(m, b, v)[z][y];
                memcpy(out ? buf + k : row, out ? row : buf + k, e * sizeof *row);
            }
    return k;
}

void mesh_fill_ghosts(Mesh *m)
{
    int n = m->n;
    for (int k = 0; k < m->bz; k++)
        for (int j = 0; j < m->by; j++)
            for (int i = 0; i < m->bx; i++) {
                int b = (k * m->by + j) * m->bx + i;
                int pos[3] = {i, j, k}, count[3] = {m->bx, m->by, m->bz};
                int step[3] = {1, m->bx, m->bx * m->by};
                for (int v = 0; v < m->vars; v++) {
                    double ***g = mesh_table(m, b, v);
                    for (int dim = 0; dim < 3; dim++) {
                        /* low face: the neighbour's last interior layer, or our first */
                        if (pos[dim] > 0)
                            copy_face(m, g, 0, mesh_table(m, b - step[dim], v), n, dim);
                        else
                            copy_face(m, g, 0, g, 1, dim);
                        /* high face: the neighbour's first interior layer, or our last */
                        if (pos[dim] < count[dim] - 1)
                            copy_face(m, g, n + 1, mesh_table(m, b + step[dim], v), 1, dim);
                        else
                            copy_face(m, g, n + 1, g, n, dim);
                    }
                }
            }
}

void mesh_stencil_reference(Mesh *m, double *tmp)
{
    int n = m->n;
    for (int b = 0; b < m->blocks; b++)
        for (int v = 0; v < m->vars; v++) {
            double ***a = mesh_table(m, b, v);
            double *t = tmp;
            for (int z = 1; z <= n; z++)
                for (int y = 1; y <= n; y++)
                    for (int x = 1; x <= n; x++)
                        *t++ = m->tables ? (a[z - 1][y][x] + a[z][y - 1][x] + a[z][y][x - 1] + a[z][y][x] +
                                            a[z][y][x + 1] + a[z][y + 1][x] + a[z + 1][y][x]) / 7.0
                                         : (a[z][y][x - 1] + a[z][y - 1][x] + a[z - 1][y][x] + a[z][y][x] +
                                            a[z + 1][y][x] + a[z][y + 1][x] + a[z][y][x + 1]) / 7.0;
            t = tmp;
            for (int z = 1; z <= n; z++)
                for (int y = 1; y <= n; y++)
                    for (int x = 1; x <= n; x++)
                        a[z][y][x] = *t++;
        }
}

/* Cell (x, y, z), 1..n each, of grid (b, v) in the dense copy of mesh_take. */
static double *mesh_kept(const Mesh *m, double *keep, int b, int v, int x, int y, int z)
{
    int n = m->n;
    return keep + ((((size_t)b * m->vars + v) * n + z - 1) * n + y - 1) * n + x - 1;
}

/* Every interior cell of the mesh in a dense copy (mesh_kept), and the mesh's tables
 * zero-filled for the new arrangement bx x by x bz; NULL when there is no memory
 * for the copy (the mesh unchanged). */
static double *mesh_take(Mesh *m, int bx, int by, int bz)
{
    int n = m->n, e = n + 2;
    double *keep = malloc((size_t)m->blocks * m->vars * n * n * n * sizeof *keep);
    if (!keep)
        return NULL;
    for (int b = 0; b < m->blocks; b++)
        for (int v = 0; v < m->vars; v++)
            for (int z = 0; z < e; z++)
                for (int y = 0; y < e; y++) {
                    double *row = mesh_table(m, b, v)[z][y];
                    if (z >= 1 && z <= n && y >= 1 && y <= n)
                        memcpy(mesh_kept(m, keep, b, v, 1, y, z), row + 1, (size_t)n * sizeof *keep);
                    memset(row, 0, (size_t)e * sizeof *row);
                }
    m->blocks = bx * by * bz;
    m->bx = bx;
    m->by = by;
    m->bz = bz;
    return keep;
}

int mesh_refine(Mesh *m)
{
    int n = m->n, h = n / 2, pbx = m->bx, pby = m->by;
    if (!m->tables || n % 2 || (size_t)m->blocks * 8 > (size_t)m->capacity)
        return -1;
    double *keep = mesh_take(m, m->bx * 2, m->by * 2, m->bz * 2);
    if (!keep)
        return -1;
    for (int k = 0; k < m->bz; k++)
        for (int j = 0; j < m->by; j++)
            for (int i = 0; i < m->bx; i++) {
                /* block (i, j, k) is octant (i%2, j%2, k%2) of parent (i/2, j/2, k/2) */
                int b = (k * m->by + j) * m->bx + i, parent = ((k / 2) * pby + j / 2) * pbx + i / 2;
                for (int v = 0; v < m->vars; v++) {
                    double ***a = mesh_table(m, b, v);
                    for (int z = 1; z <= n; z++)
                        for (int y = 1; y <= n; y++)
                            for (int x = 1; x <= n; x++)
                                a[z][y][x] = *mesh_kept(m, keep, parent, v, i % 2 * h + (x + 1) / 2,
                                                        j % 2 * h + (y + 1) / 2, k % 2 * h + (z + 1) / 2) / 8.0;
                }
            }
    free(keep);
    return 0;
}

int mesh_coarsen(Mesh *m)
{
    int n = m->n, h = n / 2, cbx = m->bx, cby = m->by;
    if (!m->tables || n % 2 || m->bx % 2 || m->by % 2 || m->bz % 2)
        return -1;
    double *keep = mesh_take(m, m->bx / 2, m->by / 2, m->bz / 2);
    if (!keep)
        return -1;
    for (int b = 0; b < m->blocks; b++)
        for (int v = 0; v < m->vars; v++) {
            double ***a = mesh_table(m, b, v);
            int i = b % m->bx, j = b / m->bx % m->by, k = b / m->bx / m->by;
            for (int z = 1; z <= n; z++)
                for (int y = 1; y <= n; y++)
                    for (int x = 1; x <= n; x++) {
                        /* the child holding this cell, and its 2x2x2 cells (x2, y2, z2) */
                        int ox = (x - 1) / h, oy = (y - 1) / h, oz = (z - 1) / h;
                        int c = ((2 * k + oz) * cby + 2 * j + oy) * cbx + 2 * i + ox;
                        int x2 = 2 * (x - 1 - ox * h) + 1, y2 = 2 * (y - 1 - oy * h) + 1,
                            z2 = 2 * (z - 1 - oz * h) + 1;
                        /* in miniAMR's order (consolidate_blocks): z changes first, then y, then x */
                        a[z][y][x] = *mesh_kept(m, keep, c, v, x2, y2, z2) + *mesh_kept(m, keep, c, v, x2, y2, z2 + 1) +
                                     *mesh_kept(m, keep, c, v, x2, y2 + 1, z2) +
                                     *mesh_kept(m, keep, c, v, x2, y2 + 1, z2 + 1) +
                                     *mesh_kept(m, keep, c, v, x2 + 1, y2, z2) +
                                     *mesh_kept(m, keep, c, v, x2 + 1, y2, z2 + 1) +
                                     *mesh_kept(m, keep, c, v, x2 + 1, y2 + 1, z2) +
                                     *mesh_kept(m, keep, c, v, x2 + 1, y2 + 1, z2 + 1);
                    }
        }
    free(keep);
    return 0;
}

void mesh_checksums(const Mesh *m, double *sum)
{
    int n = m->n;
    for (int v = 0; v < m->vars; v++) {
        double s = 0.0;
        for (int b = 0; b < m->blocks; b++) {
            double ***a = mesh_table(m, b, v);
            for (int z = 1; z <= n; z++)
                for (int y = 1; y <= n; y++)
                    for (int x = 1; x <= n; x++)
                        s += a[z][y][x];
        }
        sum[v] = s;
    }
}

long mesh_compare(const Mesh *got, const Mesh *want, double rtol, int stage)
{
    return mesh_compare_blocks(got, want, rtol, stage, 0, want->blocks);
}

long mesh_compare_blocks(const Mesh *got, const Mesh *want, double rtol, int stage, int first, int count)
{
    int n = want->n;
    long bad = 0;
    for (int b = first; b < first + count; b++)
        for (int v = 0; v < want->vars; v++) {
            double ***g = mesh_table(got, b, v), ***w = mesh_table(want, b, v);
            for (int z = 1; z <= n; z++)
                for (int y = 1; y <= n; y++)
                    for (int x = 1; x <= n; x++) {
                        /* written so that a NaN never passes */
                        if (fabs(g[z][y][x] - w[z][y][x]) <= rtol * fabs(w[z][y][x]))
                            continue;
                        if (bad++ < 5)
                            fprintf(stderr,
                                    "miniamr-proxy: stage %d, block %d, var %d, cell (%d,%d,%d): kernel %.17g, reference %.17g\n",
                                    stage, b, v, x, y, z, g[z][y][x], w[z][y][x]);
                    }
        }
    return bad;
}
