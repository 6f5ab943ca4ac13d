/* samples/heat3d over MPI: heat3d_main.c's cold cube in a warm box, the grid cut into
 * parts over the ranks (imcl --mpi, docs/mpi.md). Rank 0 scatters the start, STEPS steps
 * run in one call of heat3d_dist_iterate (each rank its part, the ghost layers exchanged
 * before every step), and rank 0 gathers the result and prints what heat3d_main prints:
 * the same temperatures, bit for bit, on any number of ranks.
 *
 *   mpirun -np P heat3d_mpi [N [STEPS]]      (defaults 64 and 200) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "heat3d.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, ranks;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    const int n = argc > 1 ? atoi(argv[1]) : 64, steps = argc > 2 ? atoi(argv[2]) : 200;
    const double c = 1.0 / 8; /* the diffusion number: below 1/6, the explicit step is stable */
    const size_t cells = (size_t)n * n * n;
    /* the whole grid, on rank 0 only */
    double *t = rank == 0 ? calloc(cells, sizeof *t) : NULL;
    heat3d_dist *dist = NULL;
    int rc = heat3d_dist_create(&dist, MPI_COMM_WORLD, n, n, n, n, n, n);
    if (rc == heat3d_OK)
        rc = heat3d_dist_scatter_a(dist, t); /* b needs no start: every step writes all of it */
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    if (rc == heat3d_OK)
        rc = heat3d_dist_iterate(dist, steps, c);
    const double seconds = MPI_Wtime() - t0;
    if (rc == heat3d_OK)
        rc = heat3d_dist_gather_b(dist, t); /* b holds the last step (a the one before) */
    if (rc != heat3d_OK) {
        if (rank == 0)
            fprintf(stderr, "heat3d_mpi: %s\n", heat3d_strerror(rc));
        MPI_Finalize();
        return 1;
    }
    if (rank == 0) {
        double mean = 0;
        for (size_t i = 0; i < cells; i++)
            mean += t[i];
        mean /= (double)cells;
        printf("%d^3 cells, %d steps in %.3f s (%.2f GStencil/s) on %d ranks: centre %.6f, mean %.6f\n", n,
               steps, seconds, (double)cells * steps / seconds * 1e-9, ranks,
               t[(size_t)(n / 2) * n * n + (size_t)(n / 2) * n + n / 2], mean);
    }
    heat3d_dist_destroy(dist);
    free(t);
    MPI_Finalize();
    return 0;
}
