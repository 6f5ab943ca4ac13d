/* The exchange of a distributed plan against its computation (docs/performance.md, "MPI"):
 * samples/heat3d (7-point, double) on an N^3 grid over the ranks it runs on. Per step, on
 * the slowest rank (max over ranks), min and median over REPS: the exchange alone
 * (heat3d_dist_exchange), the whole launch, and of the launch its interior, the wait for
 * the ghost layers after it and the shell (heat3d_dist_times); the fraction of the
 * exchange hidden behind the interior, 1 - wait / exchange; the part's extents and the
 * bytes a rank sends per step; and beside them the single-process plan's launch on the
 * whole grid, on rank 0 alone.
 *
 *   mpirun -np P overlap N REPS */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "heat3d.h"

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, ranks;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    const int n = argc > 1 ? atoi(argv[1]) : 128, reps = argc > 2 ? atoi(argv[2]) : 20;
    heat3d_dist *d = NULL;
    if (heat3d_dist_create(&d, MPI_COMM_WORLD, n, n, n, n, n, n) != heat3d_OK) {
        if (rank == 0)
            fprintf(stderr, "overlap: no plan for %d^3 on %d ranks\n", n, ranks);
        MPI_Finalize();
        return 1;
    }
    /* [rep][what]: exchange alone, launch, interior, wait, shell (ms, max over ranks) */
    double (*t)[5] = malloc(sizeof *t * (size_t)reps);
    for (int r = -2; r < reps; r++) { /* two to warm up */
        double mine[5], ms[4];
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        heat3d_dist_exchange(d);
        mine[0] = 1e3 * (MPI_Wtime() - t0);
        MPI_Barrier(MPI_COMM_WORLD);
        heat3d_dist_launch(d, 0.125);
        heat3d_dist_times(d, ms);
        for (int i = 0; i < 4; i++)
            mine[1 + i] = ms[i];
        if (r >= 0)
            MPI_Allreduce(mine, t[r], 5, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        else
            MPI_Allreduce(MPI_IN_PLACE, mine, 5, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    }
    int off[3], ext[3];
    heat3d_dist_local_a(d, off, ext, NULL);
    /* a 7-point star exchanges faces: 2 per dimension cut, one plane of doubles each */
    long long faces = 0;
    int cuts[3] = {ext[0] < n, ext[1] < n, ext[2] < n};
    faces += cuts[0] ? 2LL * ext[1] * ext[2] : 0;
    faces += cuts[1] ? 2LL * ext[0] * ext[2] : 0;
    faces += cuts[2] ? 2LL * ext[0] * ext[1] : 0;
    if (rank == 0) {
        static const char *what[5] = {"exchange alone", "launch", "  interior", "  wait", "  shell"};
        double med[5];
        printf("%d^3 on %d ranks, part %dx%dx%d (rank 0), %.2f MB sent a step by rank 0;"
               " ms a step, slowest rank, min / median of %d\n",
               n, ranks, ext[0], ext[1], ext[2], 8e-6 * (double)faces, reps);
        for (int i = 0; i < 5; i++) {
            double *v = malloc(sizeof *v * (size_t)reps);
            for (int r = 0; r < reps; r++)
                v[r] = t[r][i];
            qsort(v, (size_t)reps, sizeof *v, by_value);
            med[i] = v[reps / 2];
            printf("  %-15s %8.3f %8.3f\n", what[i], v[0], med[i]);
            free(v);
        }
        printf("  hidden          %.2f of the exchange (1 - wait / exchange alone, medians)\n",
               med[0] > 0 ? 1.0 - med[3] / med[0] : 0.0);
    }
    free(t);
    heat3d_dist_destroy(d);
    /* the single-process plan on the whole grid, rank 0 alone (the others wait) */
    if (rank == 0) {
        heat3d_plan *p = NULL;
        double *v = malloc(sizeof *v * (size_t)reps);
        if (v && heat3d_plan_create(&p, n, n, n, n, n, n) == heat3d_OK) {
            for (int r = -2; r < reps; r++) {
                double t0 = MPI_Wtime();
                heat3d_plan_launch(p, 0.125);
                if (r >= 0)
                    v[r] = 1e3 * (MPI_Wtime() - t0);
            }
            qsort(v, (size_t)reps, sizeof *v, by_value);
            printf("  %-15s %8.3f %8.3f   (the single-process plan, %d^3 on rank 0 alone)\n", "plan", v[0],
                   v[reps / 2], n);
        }
        heat3d_plan_destroy(p);
        free(v);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
