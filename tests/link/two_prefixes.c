/* Two CUDA builds of samples/sum7 with the prefixes a_ and b_ in one program
 * (tests/link/prefixes.test): each computes the 7-point sum of the same grid, and the
 * two results are the same. Exits 0 when they are, 1 otherwise. */
#include <stdio.h>
#include <stdlib.h>

#include "a/sum7.h"
#include "b/sum7.h"

enum { N = 9 };

int main(void)
{
    static double in[N * N * N], out_a[N * N * N], out_b[N * N * N];
    for (int i = 0; i < N * N * N; i++)
        in[i] = (double)(i % 17) - 8.0;
    int st_a = a_sum7(in, N, N, N, out_a, N, N, N);
    int st_b = b_sum7(in, N, N, N, out_b, N, N, N);
    if (st_a != a_sum7_OK || st_b != b_sum7_OK) {
        fprintf(stderr, "a_sum7: %s; b_sum7: %s\n", a_sum7_strerror(st_a), b_sum7_strerror(st_b));
        return 1;
    }
    /* the centre point: its six neighbours and itself */
    const int c = (4 * N + 4) * N + 4;
    const double want = in[c - 1] + in[c + 1] + in[c - N] + in[c + N] + in[c - N * N]
                        + in[c + N * N] + in[c];
    for (int i = 0; i < N * N * N; i++)
        if (out_a[i] != out_b[i]) {
            fprintf(stderr, "element %d: a_sum7 %g, b_sum7 %g\n", i, out_a[i], out_b[i]);
            return 1;
        }
    if (out_a[c] != want) {
        fprintf(stderr, "the centre: %g, want %g\n", out_a[c], want);
        return 1;
    }
    puts("a_sum7 and b_sum7 agree");
    return 0;
}
