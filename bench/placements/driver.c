/* bench/placements: times one generated kernel through its persistent plan.
 *
 *   driver N REPS
 *
 * Built by bench/placements.sh with -DK=<kernel> -DIN=<input> -DOUT=<output>
 * -DHALO=<h> against one configuration's K.h / K_host.c. Creates a plan for two
 * N^3 Blocks of doubles, uploads a fixed input, launches once to warm up, then
 * REPS times, and prints one line: "<median kernel ms> <min kernel ms> <checksum>".
 * The checksum (sum of the output's interior, with a position weight) lets the
 * script check that every configuration computes the same result. */
#include <stdio.h>
#include <stdlib.h>

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define P(suffix) CAT(K, suffix)

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int fail(const char *what, int rc)
{
    printf("error %s: %s\n", what, P(_strerror)(rc));
    return 1;
}

int main(int argc, char **argv)
{
    if (argc != 3)
        return 2;
    int n = atoi(argv[1]), reps = atoi(argv[2]);
    int s = n + 2 * HALO;
    size_t cells = (size_t)s * s * s;
    double *in = malloc(cells * sizeof *in), *out = calloc(cells, sizeof *out);
    double *times = malloc((size_t)reps * sizeof *times);
    if (!in || !out || !times)
        return 2;
    for (size_t i = 0; i < cells; i++)
        in[i] = (double)((i * 2654435761u) % 1000) / 8.0;
    P(_plan) *plan;
    int rc = P(_plan_create)(&plan, n, n, n, n, n, n);
    if (rc)
        return fail("create", rc);
    if ((rc = CAT(P(_plan_upload_), IN)(plan, in)) || (rc = CAT(P(_plan_upload_), OUT)(plan, out)))
        return fail("upload", rc);
    if ((rc = P(_plan_launch)(plan)))
        return fail("launch", rc);
    for (int r = 0; r < reps; r++) {
        if ((rc = P(_plan_launch)(plan)))
            return fail("launch", rc);
        times[r] = P(_plan_kernel_ms)(plan);
    }
    if ((rc = CAT(P(_plan_download_), OUT)(plan, out)))
        return fail("download", rc);
    P(_plan_destroy)(plan);
    double sum = 0;
    for (int z = HALO; z < n + HALO; z++)
        for (int y = HALO; y < n + HALO; y++)
            for (int x = HALO; x < n + HALO; x++)
                sum += out[((size_t)z * s + y) * s + x] * (1 + (x + 3 * y + 7 * z) % 5);
    qsort(times, (size_t)reps, sizeof *times, cmp);
    printf("%.4f %.4f %.17g\n", times[reps / 2], times[0], sum);
    free(in);
    free(out);
    free(times);
    return 0;
}
