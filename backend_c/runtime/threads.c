// imcl_threads: the thread count of the C reference's parallel loops, chosen by
// measurement (backend_c.c copies this file into every K_ref.c; docs/wrappers.md, "The C
// reference's threads"). These // lines are not copied (docs/architecture.md, "Host runtime").
#ifdef _OPENMP
#include <omp.h>

/* The threads a parallel loop of this file runs on, chosen by measurement. The counts
 * tried are omp_get_max_threads(), half of it, a quarter, ..., 1. Time is measured in
 * epochs of at least 20 ms of loops on one count (so that the rare long waits, which
 * cost the most, are in every measure); an epoch runs on the count whose time per point
 * has been lowest, and every 32nd epoch tries a neighbouring count, so that the choice
 * follows the machine. Why: OpenMP's threads wait at the end of a loop for the thread
 * another process keeps off its core, and on a loaded node fewer threads finish sooner
 * (sum7 at 32^3 on 2 cores beside a busy process: 2 threads 1.8x slower than 1, most
 * loops 20 us and one in a few hundred 1 ms). IMCL_FIXED_THREADS=1 in the environment
 * keeps the maximum. Each calling thread has its own choice per function (a
 * _Thread_local state). */
typedef struct imcl_threads {
    int max;            /* omp_get_max_threads() at the first call; 0 before it */
    int counts;         /* the counts tried: max >> 0, max >> 1, ..., 1 */
    int best;           /* the shift of the count with the lowest time per point */
    int shift;          /* the shift of this epoch's count */
    int step;           /* the neighbour the next trial takes: +1 or -1 */
    int warm;           /* the first loop ran (the thread pool starting: not measured) */
    unsigned epochs;
    double seconds, points;     /* this epoch's so far */
    double ns[8];       /* nanoseconds per point of each count; 0: not measured */
} imcl_threads;

/* The number of threads the next loop runs on. */
static int imcl_threads_pick(imcl_threads *s)
{
    if (!s->max) {
        const char *fixed = getenv("IMCL_FIXED_THREADS");
        s->max = omp_get_max_threads();
        s->counts = 1;
        for (int n = s->max / 2; n > 0 && s->counts < 8 && !(fixed && *fixed == '1'); n /= 2)
            s->counts++;
        s->step = 1;
    }
    return s->max >> s->shift;
}

/* The loop took `seconds` for `points` points: at the end of an epoch its time per point
 * is recorded (a trial's replaces what its count had, the best count's is a running
 * mean) and the next epoch's count chosen. */
static void imcl_threads_done(imcl_threads *s, double seconds, double points)
{
    if (!s->warm) {
        s->warm = 1;
        return;
    }
    s->seconds += seconds;
    s->points += points;
    if (s->seconds < 0.02 || s->points <= 0)
        return;
    const double ns = s->seconds * 1e9 / s->points;
    const int i = s->shift;
    s->ns[i] = i == s->best && s->ns[i] > 0 ? 0.5 * (s->ns[i] + ns) : ns;
    s->seconds = s->points = 0;
    for (int j = 0; j < s->counts; j++)
        if (s->ns[j] > 0 && (s->ns[s->best] <= 0 || s->ns[j] < s->ns[s->best]))
            s->best = j;
    s->shift = s->best;
    if (s->counts > 1 && ++s->epochs % 32 == 1) {
        /* a trial: the neighbouring count, each side in turn */
        if (s->best + s->step < 0 || s->best + s->step >= s->counts)
            s->step = -s->step;
        s->shift = s->best + s->step;
        s->step = -s->step;
    }
}
#endif
