/* The C reference's thread count (imcl_c_threads_pick and _done, backend_c/runtime), driven
 * by a model of the machine instead of a clock: each call of 1 ms on one thread (epochs of
 * 20 ms), the time per point of 2 threads given by the phase of the run.
 *   - a loaded node (2 threads 1.5x as slow as 1): after the first epoch the calls run on
 *     1 thread, and trials of 2 grow rarer (gaps 32, 64, 128, 256 epochs);
 *   - an idle node (2 threads 1.67x as fast): 2 threads, trials of 1 as rare;
 *   - a node that becomes loaded: 1 thread from the next epoch on, without a trial;
 *   - one that becomes idle again: 2 threads within 256 epochs (the longest gap);
 *   - a node loaded so that 2 threads are 10x as slow: a trial ends after its first call;
 *   - IMCL_FIXED_THREADS=1: the maximum always.
 * Built with backend_c/runtime/imcl_runtime_c.c by tests/lit/runtime (threads). */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <stdio.h>
#include <stdlib.h>

#include "imcl_runtime_c.h"

static int failures;

static void check(int ok, const char *what)
{
    if (!ok) {
        printf("FAIL %s\n", what);
        failures++;
    }
}

/* ns per point of n threads (of 2) on a node that is idle (0), loaded (1) or heavily
 * loaded (2) */
static double cost(int n, int loaded)
{
    static const double two[] = {0.6, 1.5, 10.0};
    return n == 2 ? two[loaded] : 1.0;
}

/* `calls` calls of 1 ms worth of points on one thread; counts[n] gets the calls on n
 * threads, *last the call of the last change of count */
static void run(imcl_c_threads *s, int calls, int loaded, long counts[3], int *last)
{
    const double points = 1e6; /* 1 ms at 1 ns a point */
    int prev = 0;
    for (int c = 0; c < calls; c++) {
        int n = imcl_c_threads_pick(s, 2);
        if (n < 1 || n > 2) {
            check(0, "a count of 1 or 2 threads");
            return;
        }
        counts[n]++;
        if (n != prev)
            *last = c;
        prev = n;
        imcl_c_threads_done(s, cost(n, loaded) * points * 1e-9, points);
    }
}

int main(void)
{
    /* a loaded node: 40,000 calls, about 2,000 epochs of 20 calls */
    imcl_c_threads s = {0};
    long counts[3] = {0};
    int last = 0;
    run(&s, 40000, 1, counts, &last);
    printf("loaded: %ld calls on 1 thread, %ld on 2\n", counts[1], counts[2]);
    /* the first epoch (14 calls of 1.5 ms on 2 threads, after the unmeasured warm-up call)
     * and trials in epochs 34, 99, 228, 485, 742, ..., 1770: 10 epochs of 14 calls (a
     * trial every 32 epochs would be 62) */
    check(counts[2] <= 11 * 14 + 1, "a loaded node runs 2 threads in trials that grow rarer");
    check(counts[2] >= 8 * 14, "a loaded node still tries 2 threads now and then");

    /* it becomes idle: back to 2 threads within the longest gap (256 epochs of 20 calls) */
    long idle[3] = {0};
    last = -1;
    run(&s, 8000, 0, idle, &last);
    printf("idle again: %ld calls on 1 thread, %ld on 2, last change at call %d\n", idle[1], idle[2],
           last);
    check(idle[2] > idle[1], "a node that became idle runs 2 threads again");
    check(idle[1] <= 257 * 20 + 20, "within the longest gap between trials");

    /* an idle node from the start */
    imcl_c_threads t = {0};
    long fresh[3] = {0};
    run(&t, 80000, 0, fresh, &last);
    printf("idle: %ld calls on 1 thread, %ld on 2\n", fresh[1], fresh[2]);
    /* about 2,300 epochs of 34 calls: 10 trials of 20 calls (every 32 epochs: 72) */
    check(fresh[1] <= 11 * 20, "an idle node runs 1 thread only in trials that grow rarer");
    check(fresh[1] >= 8 * 20, "an idle node still tries 1 thread now and then");

    /* it becomes loaded: 1 thread from the next epoch on (the best count's mean rises
     * past what 1 thread measured), with no trial needed */
    long busy[3] = {0};
    last = -1;
    run(&t, 4000, 1, busy, &last);
    printf("loaded now: %ld calls on 1 thread, %ld on 2\n", busy[1], busy[2]);
    check(busy[2] <= 3 * 14, "a node that became loaded leaves 2 threads within 3 epochs");

    /* a count's first epoch ends after 1 ms: on a fresh state, the warm-up call and one
     * call of 10 ms on 2 threads, and the third call tries 1 thread */
    imcl_c_threads e = {0};
    for (int c = 0; c < 2; c++)
        imcl_c_threads_done(&e, cost(imcl_c_threads_pick(&e, 2), 2) * 1e-3, 1e6);
    check(imcl_c_threads_pick(&e, 2) == 1, "the first epoch of 2 threads ends after 1 ms");

    /* heavily loaded: the first epoch (1 call of 10 ms, after the warm-up call), then one
     * call per trial, 9 of them (a whole epoch of 2 calls each before) */
    imcl_c_threads h = {0};
    long heavy[3] = {0};
    run(&h, 40000, 2, heavy, &last);
    printf("heavily loaded: %ld calls on 1 thread, %ld on 2\n", heavy[1], heavy[2]);
    check(heavy[2] <= 3 + 10, "a trial twice as slow as the best ends after its first call");
    check(heavy[2] >= 3 + 6, "a heavily loaded node still tries 2 threads now and then");

    /* IMCL_FIXED_THREADS=1: the maximum, whatever it costs */
    setenv("IMCL_FIXED_THREADS", "1", 1);
    imcl_c_threads f = {0};
    long fixed[3] = {0};
    run(&f, 4000, 1, fixed, &last);
    check(fixed[1] == 0 && fixed[2] == 4000, "IMCL_FIXED_THREADS=1 keeps 2 threads");

    printf("%s\n", failures ? "threads: FAILED" : "threads: ok");
    return failures != 0;
}
