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

int mesh_alloc(Mesh *m, int n, int blocks, int vars)
{
    memset(m, 0, sizeof *m);
    m->n = n;
    m->blocks = blocks;
    m->vars = vars;
    mesh_arrange(blocks, &m->bx, &m->by, &m->bz);
    m->grid = (size_t)(n + 2) * (n + 2) * (n + 2);
    m->cell = calloc((size_t)blocks * vars * m->grid, sizeof *m->cell);
    return m->cell ? 0 : -1;
}

void mesh_free(Mesh *m)
{
    free(m->cell);
    m->cell = NULL;
}

void mesh_init(Mesh *m, unsigned seed)
{
    size_t total = (size_t)m->blocks * m->vars * m->grid;
    unsigned long long s = seed * 2654435761ull + 1;
    for (size_t i = 0; i < total; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        m->cell[i] = (double)(s >> 11) * 0x1p-53;
    }
}

/* The face of block b's grid v normal to dimension `dim` at coordinate c (0..n+1):
 * copies `from`'s face at coordinate fc into it, interior cells of the face only. */
static void copy_face(const Mesh *m, double *to, int c, const double *from, int fc, int dim)
{
    int n = m->n;
    for (int q = 1; q <= n; q++)
        for (int p = 1; p <= n; p++) {
            size_t t, f;
            if (dim == 0) {
                t = mesh_at(m, c, p, q);
                f = mesh_at(m, fc, p, q);
            } else if (dim == 1) {
                t = mesh_at(m, p, c, q);
                f = mesh_at(m, p, fc, q);
            } else {
                t = mesh_at(m, p, q, c);
                f = mesh_at(m, p, q, fc);
            }
            to[t] = from[f];
        }
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
                    double *g = mesh_grid(m, b, v);
                    for (int dim = 0; dim < 3; dim++) {
                        /* low face: the neighbour's last interior layer, or our first */
                        if (pos[dim] > 0)
                            copy_face(m, g, 0, mesh_grid(m, b - step[dim], v), n, dim);
                        else
                            copy_face(m, g, 0, g, 1, dim);
                        /* high face: the neighbour's first interior layer, or our last */
                        if (pos[dim] < count[dim] - 1)
                            copy_face(m, g, n + 1, mesh_grid(m, b + step[dim], v), 1, dim);
                        else
                            copy_face(m, g, n + 1, g, n, dim);
                    }
                }
            }
}

void mesh_stencil_reference(Mesh *m, double *tmp)
{
    int n = m->n;
    size_t sx = 1, sy = (size_t)n + 2, sz = sy * sy;
    for (int b = 0; b < m->blocks; b++)
        for (int v = 0; v < m->vars; v++) {
            double *g = mesh_grid(m, b, v);
            double *t = tmp;
            for (int z = 1; z <= n; z++)
                for (int y = 1; y <= n; y++)
                    for (int x = 1; x <= n; x++) {
                        size_t c = mesh_at(m, x, y, z);
                        *t++ = (g[c - sx] + g[c - sy] + g[c - sz] + g[c] + g[c + sz] + g[c + sy] + g[c + sx]) / 7.0;
                    }
            t = tmp;
            for (int z = 1; z <= n; z++)
                for (int y = 1; y <= n; y++)
                    for (int x = 1; x <= n; x++)
                        g[mesh_at(m, x, y, z)] = *t++;
        }
}

void mesh_checksums(const Mesh *m, double *sum)
{
    int n = m->n;
    for (int v = 0; v < m->vars; v++) {
        double s = 0.0;
        for (int b = 0; b < m->blocks; b++) {
            const double *g = mesh_grid(m, b, v);
            for (int z = 1; z <= n; z++)
                for (int y = 1; y <= n; y++)
                    for (int x = 1; x <= n; x++)
                        s += g[mesh_at(m, x, y, z)];
        }
        sum[v] = s;
    }
}

long mesh_compare(const Mesh *got, const Mesh *want, double rtol, int stage)
{
    int n = want->n;
    long bad = 0;
    for (int b = 0; b < want->blocks; b++)
        for (int v = 0; v < want->vars; v++) {
            const double *g = mesh_grid(got, b, v), *w = mesh_grid(want, b, v);
            for (int z = 1; z <= n; z++)
                for (int y = 1; y <= n; y++)
                    for (int x = 1; x <= n; x++) {
                        size_t c = mesh_at(want, x, y, z);
                        /* written so that a NaN never passes */
                        if (fabs(g[c] - w[c]) <= rtol * fabs(w[c]))
                            continue;
                        if (bad++ < 5)
                            fprintf(stderr,
                                    "miniamr-proxy: stage %d, block %d, var %d, cell (%d,%d,%d): kernel %.17g, reference %.17g\n",
                                    stage, b, v, x, y, z, g[c], w[c]);
                    }
        }
    return bad;
}
