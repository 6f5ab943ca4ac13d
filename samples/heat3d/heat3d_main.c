/* samples/heat3d: a cold cube in a warm box. The cube starts at 0, the walls outside it
 * are held at 1 (heat3d.imcl's constant boundary), and STEPS explicit steps of the heat
 * equation run in one call of heat3d_plan_iterate, on whichever backend the program is
 * linked with (README.md). Prints the temperature at the centre and the mean.
 *
 *   heat3d_main [N [STEPS]]      (defaults 64 and 200) */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "heat3d.h"

static double now(void)
{
    struct timespec t;
    timespec_get(&t, TIME_UTC);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
    const int n = argc > 1 ? atoi(argv[1]) : 64, steps = argc > 2 ? atoi(argv[2]) : 200;
    const double c = 1.0 / 8; /* the diffusion number: below 1/6, the explicit step is stable */
    const size_t cells = (size_t)n * n * n;
    double *t = calloc(cells, sizeof *t);
    heat3d_plan *plan = NULL;
    int rc = t ? heat3d_plan_create(&plan, n, n, n, n, n, n) : heat3d_ERR_MEMORY;
    if (rc == heat3d_OK)
        rc = heat3d_plan_upload_a(plan, t); /* b needs no start: every step writes all of it */
    const double t0 = now();
    if (rc == heat3d_OK)
        rc = heat3d_plan_iterate(plan, steps, c);
    const double seconds = now() - t0;
    if (rc == heat3d_OK)
        rc = heat3d_plan_download_b(plan, t); /* b holds the last step (a the one before) */
    if (rc != heat3d_OK) {
        fprintf(stderr, "heat3d: %s\n", heat3d_strerror(rc));
        return 1;
    }
    double mean = 0;
    for (size_t i = 0; i < cells; i++)
        mean += t[i];
    mean /= (double)cells;
    printf("%d^3 cells, %d steps in %.3f s (%.2f GStencil/s): centre %.6f, mean %.6f\n", n, steps,
           seconds, (double)cells * steps / seconds * 1e-9, t[(size_t)(n / 2) * n * n + (size_t)(n / 2) * n + n / 2],
           mean);
    heat3d_plan_destroy(plan);
    free(t);
    return 0;
}
