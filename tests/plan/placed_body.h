/* The plan tests of tests/plan/tex3.imcl and tex2.imcl (arrays in texture, shared
 * and constant memory, with coarsening) for one backend, included by check_plan.c
 * once per backend with T3(x) / T2(x) naming that backend's symbol x of each
 * kernel (e.g. ocl_tex3_x), ONESHOT3 / ONESHOT2 its one-shot functions, and
 * CHECK3_FN / CHECK2_FN the functions to define.
 * Each checks the zero fill, uploads and downloads of every placement (double
 * texels staged through RGBA images in OpenCL), LAUNCHES launches against a host
 * model with texture<->texture and global<->global swaps after each, and the
 * swap refusals (texture<->global, anything with a constant array); and that the
 * one-shot function, which shares the launch and placement code with the plan,
 * computes the model too. */

static int CHECK3_FN(const char *backend)
{
    int fails = 0;
    const double k[3] = {0.25, 0.5, 0.125};
    double *u = alloc_d(ELEMS), *v = alloc_d(ELEMS), *s = alloc_d(ELEMS), *g = alloc_d(ELEMS);
    double *got = alloc_d(ELEMS), *zero = alloc_d(ELEMS), *hout = alloc_d(ELEMS);
    double kgot[3] = {1, 1, 1};
    fill_d(u, ELEMS, 3);
    fill_d(v, ELEMS, 4);
    fill_d(s, ELEMS, 5);
    fill_d(g, ELEMS, 6);

    /* the one-shot function, for comparison */
    double *out1 = alloc_d(ELEMS);
    int rc = ONESHOT3(u, NX, NY, NZ, v, NX, NY, NZ, s, NX, NY, NZ, g, NX, NY, NZ, out1, NX, NY, NZ, k);
    EXPECT(rc == T3(OK));
    model_tex3(u, v, s, g, k, hout);
    EXPECT(same_d(out1, hout, ELEMS, "tex3 one-shot"));
    free(out1);

    T3(plan) *p = NULL;
    rc = T3(plan_create)(&p, NX, NY, NZ, NX, NY, NZ, NX, NY, NZ, NX, NY, NZ, NX, NY, NZ);
    if (rc) {
        fprintf(stderr, "check plan: %s: tex3 plan_create failed: %s\n%s", backend, T3(strerror)(rc), T3(build_log)());
        return 1;
    }
    /* every placement starts zero-filled */
    EXPECT(T3(plan_download_u)(p, got) == T3(OK) && same_d(got, zero, ELEMS, "tex3 u (texture), zero-filled"));
    EXPECT(T3(plan_download_s)(p, got) == T3(OK) && same_d(got, zero, ELEMS, "tex3 s (shared), zero-filled"));
    EXPECT(T3(plan_download_k)(p, kgot) == T3(OK) && same_d(kgot, zero, 3, "tex3 k (constant), zero-filled"));

    EXPECT(T3(plan_upload_u)(p, u) == T3(OK));
    EXPECT(T3(plan_upload_v)(p, v) == T3(OK));
    EXPECT(T3(plan_upload_s)(p, s) == T3(OK));
    EXPECT(T3(plan_upload_g)(p, g) == T3(OK));
    EXPECT(T3(plan_upload_k)(p, k) == T3(OK));
    EXPECT(T3(plan_upload_u)(p, NULL) == T3(ERR_ARGUMENT));
    /* a texture holds one block: no batch */
    {
        T3(plan) *bq = (T3(plan) *)(void *)&fails;
        EXPECT(T3(plan_create_batch)(&bq, 2, NX, NY, NZ, NX, NY, NZ, NX, NY, NZ, NX, NY, NZ, NX, NY, NZ) ==
               T3(ERR_ARGUMENT) && bq == NULL);
    }
    /* a texture's rows (through a host copy) and a shared array's */
    {
        Rows r = rows_from(u, sizeof(double), NX, NY, NZ);
        EXPECT(T3(plan_upload_rows_u)(p, 0, 1, (double ***const *)&r.t) == T3(OK));
        EXPECT(T3(plan_download_u)(p, got) == T3(OK) && same_d(got, u, ELEMS, "tex3 u (texture) from rows"));
        rows_free(&r);
        /* u with pitches: every other row of a host array twice as wide */
        double *pad = calloc(ELEMS * 2, sizeof *pad);
        for (size_t row = 0; row < (size_t)NY * NZ; row++)
            memcpy(pad + 2 * row * NX, u + row * NX, NX * sizeof *pad);
        EXPECT(T3(plan_upload_u)(p, zero) == T3(OK));
        EXPECT(T3(plan_upload_strided_u)(p, 0, 1, pad, 2 * NX, 2 * NX * NY, 2 * (ptrdiff_t)ELEMS) == T3(OK));
        EXPECT(T3(plan_download_u)(p, got) == T3(OK) && same_d(got, u, ELEMS, "tex3 u (texture) from pitches"));
        free(pad);
        r = rows_from(zero, sizeof(double), NX, NY, NZ);
        EXPECT(T3(plan_download_rows_s)(p, 0, 1, (double ***const *)&r.t) == T3(OK));
        rows_to_flat(&r, got);
        EXPECT(same_d(got, s, ELEMS, "tex3 s (shared) into rows"));
        rows_free(&r);
    }
    EXPECT(T3(plan_download_k)(NULL, kgot) == T3(ERR_ARGUMENT));
    /* uploads come back as they went */
    EXPECT(T3(plan_download_u)(p, got) == T3(OK) && same_d(got, u, ELEMS, "tex3 u (texture) after upload"));
    EXPECT(T3(plan_download_k)(p, kgot) == T3(OK) && same_d(kgot, k, 3, "tex3 k (constant) after upload"));

    /* LAUNCHES steps: out from u, v, s and g; then g <-> out (the result becomes the
     * next g) and u <-> v (textures) */
    double *hu = alloc_d(ELEMS), *hv = alloc_d(ELEMS), *hg = alloc_d(ELEMS);
    memcpy(hu, u, ELEMS * sizeof *hu);
    memcpy(hv, v, ELEMS * sizeof *hv);
    memcpy(hg, g, ELEMS * sizeof *hg);
    for (int i = 0; i < LAUNCHES; i++) {
        EXPECT(T3(plan_launch)(p) == T3(OK));
        EXPECT(T3(plan_swap)(p, T3(plan_array_g), T3(plan_array_out)) == T3(OK));
        EXPECT(T3(plan_swap)(p, T3(plan_array_u), T3(plan_array_v)) == T3(OK));
        model_tex3(hu, hv, s, hg, k, hout);
        double *t = hg;
        hg = hout;
        hout = t;
        t = hu;
        hu = hv;
        hv = t;
    }
    EXPECT(T3(plan_download_g)(p, got) == T3(OK) && same_d(got, hg, ELEMS, "tex3 g after the launches"));
    EXPECT(T3(plan_download_out)(p, got) == T3(OK) && same_d(got, hout, ELEMS, "tex3 out after the launches"));
    EXPECT(T3(plan_download_u)(p, got) == T3(OK) && same_d(got, hu, ELEMS, "tex3 u after the swaps"));
    EXPECT(T3(plan_download_v)(p, got) == T3(OK) && same_d(got, hv, ELEMS, "tex3 v after the swaps"));

    /* swaps across placements are refused and change nothing */
    EXPECT(T3(plan_swap)(p, T3(plan_array_u), T3(plan_array_out)) == T3(ERR_ARGUMENT)); /* texture, global */
    EXPECT(T3(plan_swap)(p, T3(plan_array_g), T3(plan_array_v)) == T3(ERR_ARGUMENT));   /* global, texture */
    EXPECT(T3(plan_swap)(p, T3(plan_array_s), T3(plan_array_u)) == T3(ERR_ARGUMENT));   /* shared, texture */
    EXPECT(T3(plan_swap)(p, T3(plan_array_k), T3(plan_array_k)) == T3(ERR_ARGUMENT));   /* constant */
    EXPECT(T3(plan_swap)(p, T3(plan_array_u), T3(plan_array_k)) == T3(ERR_ARGUMENT));
    /* only an array in a buffer computes in host memory (texture, constant: refused) */
    EXPECT(T3(plan_attach)(p, T3(plan_array_u), got) == T3(ERR_ARGUMENT));
    EXPECT(T3(plan_attach)(p, T3(plan_array_k), kgot) == T3(ERR_ARGUMENT));
    EXPECT(T3(plan_download_u)(p, got) == T3(OK) && same_d(got, hu, ELEMS, "tex3 u after refused swaps"));
    EXPECT(T3(plan_download_k)(p, kgot) == T3(OK) && same_d(kgot, k, 3, "tex3 k after refused swaps"));
    /* shared and global memory are both buffers on the host side */
    EXPECT(T3(plan_swap)(p, T3(plan_array_s), T3(plan_array_out)) == T3(OK));
    EXPECT(T3(plan_download_s)(p, got) == T3(OK) && same_d(got, hout, ELEMS, "tex3 s after a swap with out"));
    EXPECT(T3(plan_swap)(p, T3(plan_array_s), T3(plan_array_out)) == T3(OK));
    /* and a launch after all this still computes the model */
    EXPECT(T3(plan_launch)(p) == T3(OK));
    model_tex3(hu, hv, s, hg, k, hout);
    EXPECT(T3(plan_download_out)(p, got) == T3(OK) && same_d(got, hout, ELEMS, "tex3 out after the refused swaps"));
    T3(plan_destroy)(p);

    if (!fails)
        printf("check plan: %s tex3 ok (texture, shared, constant; %d launches with swaps)\n", backend, LAUNCHES);
    free(u);
    free(v);
    free(s);
    free(g);
    free(got);
    free(zero);
    free(hout);
    free(hu);
    free(hv);
    free(hg);
    return fails;
}

static int CHECK2_FN(const char *backend)
{
    int fails = 0;
    const float w = 0.5f;
    float *pp = alloc_f(HALO2_ELEMS), *q = alloc_f(HALO2_ELEMS), *c = alloc_f(ELEMS2), *sh = alloc_f(ELEMS2);
    float *acc = alloc_f(ELEMS2), *got = alloc_f(HALO2_ELEMS), *zero = alloc_f(HALO2_ELEMS), *hout = alloc_f(ELEMS2);
    fill(pp, HALO2_ELEMS, 7);
    fill(q, HALO2_ELEMS, 8);
    fill(c, ELEMS2, 9);
    fill(sh, ELEMS2, 10);
    fill(acc, ELEMS2, 11);

    float *out1 = alloc_f(ELEMS2);
    int rc = ONESHOT2(pp, NX, NY, q, NX, NY, c, NX, NY, sh, NX, NY, acc, NX, NY, out1, NX, NY, w);
    EXPECT(rc == T2(OK));
    model_tex2(pp, q, c, sh, acc, w, hout);
    EXPECT(same(out1, hout, ELEMS2, "tex2 one-shot"));
    free(out1);

    T2(plan) *p = NULL;
    rc = T2(plan_create)(&p, NX, NY, NX, NY, NX, NY, NX, NY, NX, NY, NX, NY);
    if (rc) {
        fprintf(stderr, "check plan: %s: tex2 plan_create failed: %s\n%s", backend, T2(strerror)(rc), T2(build_log)());
        return 1;
    }
    EXPECT(T2(plan_download_p)(p, got) == T2(OK) && same(got, zero, HALO2_ELEMS, "tex2 p (texture), zero-filled"));
    EXPECT(T2(plan_download_c)(p, got) == T2(OK) && same(got, zero, ELEMS2, "tex2 c (constant), zero-filled"));
    EXPECT(T2(plan_upload_p)(p, pp) == T2(OK));
    EXPECT(T2(plan_upload_q)(p, q) == T2(OK));
    EXPECT(T2(plan_upload_c)(p, c) == T2(OK));
    EXPECT(T2(plan_upload_sh)(p, sh) == T2(OK));
    EXPECT(T2(plan_upload_acc)(p, acc) == T2(OK));
    EXPECT(T2(plan_download_q)(p, got) == T2(OK) && same(got, q, HALO2_ELEMS, "tex2 q (texture) after upload"));
    EXPECT(T2(plan_download_c)(p, got) == T2(OK) && same(got, c, ELEMS2, "tex2 c (constant) after upload"));

    /* LAUNCHES steps: acc <-> out and p <-> q after each */
    float *hp = alloc_f(HALO2_ELEMS), *hq = alloc_f(HALO2_ELEMS), *hacc = alloc_f(ELEMS2);
    memcpy(hp, pp, HALO2_ELEMS * sizeof *hp);
    memcpy(hq, q, HALO2_ELEMS * sizeof *hq);
    memcpy(hacc, acc, ELEMS2 * sizeof *hacc);
    for (int i = 0; i < LAUNCHES; i++) {
        EXPECT(T2(plan_launch)(p, w) == T2(OK));
        EXPECT(T2(plan_swap)(p, T2(plan_array_acc), T2(plan_array_out)) == T2(OK));
        EXPECT(T2(plan_swap)(p, T2(plan_array_q), T2(plan_array_p)) == T2(OK));
        model_tex2(hp, hq, c, sh, hacc, w, hout);
        float *t = hacc;
        hacc = hout;
        hout = t;
        t = hp;
        hp = hq;
        hq = t;
    }
    EXPECT(T2(plan_download_acc)(p, got) == T2(OK) && same(got, hacc, ELEMS2, "tex2 acc after the launches"));
    EXPECT(T2(plan_download_out)(p, got) == T2(OK) && same(got, hout, ELEMS2, "tex2 out after the launches"));
    EXPECT(T2(plan_download_p)(p, got) == T2(OK) && same(got, hp, HALO2_ELEMS, "tex2 p after the swaps"));

    EXPECT(T2(plan_swap)(p, T2(plan_array_c), T2(plan_array_sh)) == T2(ERR_ARGUMENT));  /* constant, shared */
    EXPECT(T2(plan_swap)(p, T2(plan_array_acc), T2(plan_array_c)) == T2(ERR_ARGUMENT)); /* global, constant */
    EXPECT(T2(plan_swap)(p, T2(plan_array_c), T2(plan_array_c)) == T2(ERR_ARGUMENT));
    EXPECT(T2(plan_swap)(p, T2(plan_array_p), T2(plan_array_out)) == T2(ERR_ARGUMENT)); /* texture, global */
    EXPECT(T2(plan_swap)(p, T2(plan_array_sh), T2(plan_array_out)) == T2(OK));          /* shared, global */
    EXPECT(T2(plan_swap)(p, T2(plan_array_out), T2(plan_array_sh)) == T2(OK));
    EXPECT(T2(plan_download_c)(p, got) == T2(OK) && same(got, c, ELEMS2, "tex2 c after refused swaps"));
    T2(plan_destroy)(p);

#ifdef CHECK_CUDA
    /* CUDA's constant copy of c holds the NX x NY of --size: a larger c does not fit */
    p = NULL;
    EXPECT(T2(plan_create)(&p, NX, NY, NX, NY, NX + 1, NY, NX, NY, NX, NY, NX, NY) == T2(ERR_ARGUMENT) && !p);
#endif

    if (!fails)
        printf("check plan: %s tex2 ok (texture, shared, constant; %d launches with swaps)\n", backend, LAUNCHES);
    free(pp);
    free(q);
    free(c);
    free(sh);
    free(acc);
    free(got);
    free(zero);
    free(hout);
    free(hp);
    free(hq);
    free(hacc);
    return fails;
}
