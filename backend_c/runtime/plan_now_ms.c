// imcl_plan_now_ms: the clock of the C reference's plan (plan_c.c copies this file into
// K_ref.c, which includes <time.h> at its top). These // lines are not copied
// (docs/architecture.md, "Host runtime").
/* Milliseconds of the wall clock (C11 timespec_get), else of processor time. */
static double imcl_plan_now_ms(void)
{
#ifdef TIME_UTC
    struct timespec t;
    timespec_get(&t, TIME_UTC);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
#else
    return (double)clock() * 1e3 / CLOCKS_PER_SEC;
#endif
}
