/* The plan test of one backend, included by check_plan.c once per backend with
 * API(x) naming that backend's symbol x (e.g. ocl_relax_x) and CHECK_FN the
 * function to define. See check_plan.c. */

static int CHECK_FN(const char *backend)
{
    int fails = 0;
    const float w = 0.75f;
    float *in = alloc_f(HALO_ELEMS), *src = alloc_f(ELEMS);
    float *got = alloc_f(HALO_ELEMS), *zero = alloc_f(HALO_ELEMS);
    float *ain = alloc_f(HALO_ELEMS), *aout = alloc_f(HALO_ELEMS), *ain2 = alloc_f(HALO_ELEMS);
    int *hits = malloc(NX * NY * sizeof *hits);
    if (!hits)
        return 1;
    fill(in, HALO_ELEMS, 1);
    fill(src, ELEMS, 2);
    for (size_t i = 0; i < ELEMS; i++)
        src[i] *= 0.125f;

    API(plan) *p = NULL, *q = NULL;
    /* refused creations leave no plan */
    EXPECT(API(plan_create)(NULL, NX, NY, NZ, NX, NY, NZ, NX, NY, NZ, NX, NY, NZ, NX, NY) == API(ERR_ARGUMENT));
    p = (API(plan) *)(void *)&fails; /* any non-NULL value: a refusal must reset it to NULL */
    EXPECT(API(plan_create)(&p, 0, NY, NZ, NX, NY, NZ, NX, NY, NZ, NX, NY, NZ, NX, NY) == API(ERR_ARGUMENT));
    EXPECT(p == NULL);
    EXPECT(API(plan_create)(&p, NX, NY, NZ, NX, NY, -3, NX, NY, NZ, NX, NY, NZ, NX, NY) == API(ERR_ARGUMENT));
    EXPECT(API(plan_kernel_ms)(NULL) == 0.0);
    API(plan_destroy)(NULL);

    int rc = API(plan_create)(&p, NX, NY, NZ, NX, NY, NZ, NX, NY, NZ, NX, NY, NZ, NX, NY);
    if (rc) {
        fprintf(stderr, "check plan: %s: plan_create failed: %s\n%s", backend, API(strerror)(rc), API(build_log)());
        return 1;
    }
    EXPECT(API(plan_kernel_ms)(p) == 0.0);
    /* buffers start zero-filled */
    EXPECT(API(plan_download_out)(p, got) == API(OK) && same(got, zero, HALO_ELEMS, "out, zero-filled"));
    EXPECT(API(plan_download_spare)(p, got) == API(OK) && same(got, zero, ELEMS, "spare, zero-filled"));

    EXPECT(API(plan_upload_in)(p, in) == API(OK));
    EXPECT(API(plan_upload_src)(p, src) == API(OK));
    EXPECT(API(plan_upload_in)(NULL, in) == API(ERR_ARGUMENT));
    EXPECT(API(plan_upload_in)(p, NULL) == API(ERR_ARGUMENT));
    EXPECT(API(plan_download_in)(p, NULL) == API(ERR_ARGUMENT));

    /* LAUNCHES steps, ping-pong through swaps, against the host model */
    float *hin = alloc_f(HALO_ELEMS), *hout = alloc_f(HALO_ELEMS);
    memcpy(hin, in, HALO_ELEMS * sizeof *hin);
    double kernel_ms = 0.0;
    for (int i = 0; i < LAUNCHES; i++) {
        EXPECT(API(plan_launch)(p, w) == API(OK));
        EXPECT(API(plan_kernel_ms)(p) > 0.0);
        kernel_ms += API(plan_kernel_ms)(p);
        EXPECT(API(plan_swap)(p, API(plan_array_in), API(plan_array_out)) == API(OK));
        model_step(hin, hout, src, w);
        float *t = hin;
        hin = hout;
        hout = t;
    }
    EXPECT(API(plan_launch)(NULL, w) == API(ERR_ARGUMENT));
    /* the latest result is `in`, the one before it `out`, ghost layers included */
    EXPECT(API(plan_download_in)(p, got) == API(OK) && same(got, hin, HALO_ELEMS, "in after the swaps"));
    EXPECT(API(plan_download_out)(p, got) == API(OK) && same(got, hout, HALO_ELEMS, "out after the swaps"));
    /* hits stayed on the device: one per launch */
    EXPECT(API(plan_download_hits)(p, hits) == API(OK));
    for (int i = 0; i < NX * NY; i++)
        if (hits[i] != LAUNCHES) {
            fprintf(stderr, "check plan: %s: hits[%d] = %d, not %d\n", backend, i, hits[i], LAUNCHES);
            fails++;
            break;
        }

    /* row tables (ghost layer included): the latest result read into one, another
     * array written from one, and an Image's rows */
    {
        Rows r = rows_from(zero, sizeof(float), NX + 2, NY + 2, NZ + 2);
        EXPECT(API(plan_download_rows_in)(p, 0, 1, (float ***const *)&r.t) == API(OK));
        rows_to_flat(&r, got);
        EXPECT(same(got, hin, HALO_ELEMS, "in read into a row table"));
        rows_free(&r);
        float *alt = alloc_f(HALO_ELEMS);
        fill(alt, HALO_ELEMS, 7);
        r = rows_from(alt, sizeof(float), NX + 2, NY + 2, NZ + 2);
        EXPECT(API(plan_upload_rows_out)(p, 0, 1, (float ***const *)&r.t) == API(OK));
        EXPECT(API(plan_download_out)(p, got) == API(OK) && same(got, alt, HALO_ELEMS, "out written from rows"));
        EXPECT(API(plan_upload_rows_out)(p, 0, 1, NULL) == API(ERR_ARGUMENT));
        EXPECT(API(plan_upload_rows_out)(p, 1, 1, (float ***const *)&r.t) == API(ERR_ARGUMENT)); /* past the capacity */
        EXPECT(API(plan_upload_rows_out)(p, 0, 0, NULL) == API(ERR_ARGUMENT));
        EXPECT(API(plan_download_rows_out)(NULL, 0, 1, (float ***const *)&r.t) == API(ERR_ARGUMENT));
        EXPECT(API(plan_download_rows_out)(p, 1, 0, (float ***const *)&r.t) == API(OK)); /* no block */
        rows_free(&r);
        /* a padded host array (pitches of its own): out from it, in into another */
        const ptrdiff_t rp = NX + 2 + 3, pp = rp * (NY + 2) + 7;
        float *pad = calloc((size_t)(pp * (NZ + 2)), sizeof *pad), *pad2 = calloc((size_t)(pp * (NZ + 2)), sizeof *pad2);
        for (int z = 0; z < NZ + 2; z++)
            for (int y = 0; y < NY + 2; y++)
                memcpy(pad + z * pp + y * rp, alt + ((size_t)z * (NY + 2) + y) * (NX + 2), (NX + 2) * sizeof *pad);
        EXPECT(API(plan_upload_strided_out)(p, 0, 1, pad, rp, pp, pp * (NZ + 2)) == API(OK));
        EXPECT(API(plan_download_out)(p, got) == API(OK) && same(got, alt, HALO_ELEMS, "out written from pitches"));
        EXPECT(API(plan_download_strided_in)(p, 0, 1, pad2, rp, pp, pp * (NZ + 2)) == API(OK));
        for (int z = 0; z < NZ + 2; z++)
            for (int y = 0; y < NY + 2; y++)
                memcpy(got + ((size_t)z * (NY + 2) + y) * (NX + 2), pad2 + z * pp + y * rp, (NX + 2) * sizeof *got);
        EXPECT(same(got, hin, HALO_ELEMS, "in read with pitches"));
        EXPECT(pad2[NX + 2] == 0.0f && pad2[pp - 1] == 0.0f); /* the padding is left alone */
        EXPECT(API(plan_upload_strided_out)(p, 0, 1, pad, NX + 1, pp, pp * (NZ + 2)) == API(ERR_ARGUMENT)); /* rows overlap */
        EXPECT(API(plan_upload_strided_out)(p, 0, 1, pad, rp, rp * (NY + 1), pp * (NZ + 2)) == API(ERR_ARGUMENT)); /* planes */
        EXPECT(API(plan_upload_strided_out)(p, 0, 1, pad, rp, pp, pp * (NZ + 1)) == API(ERR_ARGUMENT)); /* blocks */
        EXPECT(API(plan_download_strided_out)(p, 0, 1, NULL, rp, pp, pp * (NZ + 2)) == API(ERR_ARGUMENT));
        free(pad);
        free(pad2);
        /* and back, for the swaps below */
        EXPECT(API(plan_upload_out)(p, hout) == API(OK));
        int *hrow = calloc(NX * NY, sizeof *hrow);
        Rows ri = rows_from(hrow, sizeof(int), NX, NY, 1);
        EXPECT(API(plan_download_rows_hits)(p, 0, 1, (int **const *)&ri.t[0]) == API(OK));
        rows_to_flat(&ri, hrow);
        for (int i = 0; i < NX * NY; i++)
            if (hrow[i] != LAUNCHES) {
                fprintf(stderr, "check plan: %s: hits[%d] read into rows = %d, not %d\n", backend, i, hrow[i],
                        LAUNCHES);
                fails++;
                break;
            }
        rows_free(&ri);
        free(hrow);
        free(alt);
    }

    /* launches that return at once (plan_launch_batch_async): every other call on the plan
     * waits for the launch first, and two plans' launches run side by side */
    {
        API(plan) *pa = NULL, *pb = NULL;
        EXPECT(API(plan_wait)(NULL) == API(ERR_ARGUMENT));
        EXPECT(API(plan_launch_batch_async)(NULL, 1, w) == API(ERR_ARGUMENT));
        if (API(plan_create)(&pa, NX, NY, NZ, NX, NY, NZ, NX, NY, NZ, NX, NY, NZ, NX, NY) == API(OK) &&
            API(plan_create)(&pb, NX, NY, NZ, NX, NY, NZ, NX, NY, NZ, NX, NY, NZ, NX, NY) == API(OK)) {
            /* the model: one step (m1) and two (m2, whose ghost layer is in's: the swap
             * below gives `out` the memory `in` had) */
            float *m1 = alloc_f(HALO_ELEMS), *m2 = alloc_f(HALO_ELEMS);
            model_step(in, m1, src, w);
            memcpy(m2, in, HALO_ELEMS * sizeof *m2);
            model_step(m1, m2, src, w);
            EXPECT(API(plan_upload_in)(pa, in) == API(OK) && API(plan_upload_src)(pa, src) == API(OK));
            EXPECT(API(plan_upload_in)(pb, in) == API(OK) && API(plan_upload_src)(pb, src) == API(OK));
            EXPECT(API(plan_wait)(pa) == API(OK)); /* nothing to wait for */
            EXPECT(API(plan_launch_batch_async)(pa, 2, w) == API(ERR_ARGUMENT));
            EXPECT(API(plan_launch_batch_async)(pa, 1, w) == API(OK));
            EXPECT(API(plan_launch_batch_async)(pb, 1, w) == API(OK));
            EXPECT(API(plan_wait)(pa) == API(OK) && API(plan_kernel_ms)(pa) > 0.0);
            EXPECT(API(plan_wait)(pa) == API(OK)); /* nothing left */
            EXPECT(API(plan_swap)(pa, API(plan_array_in), API(plan_array_out)) == API(OK));
            EXPECT(API(plan_launch_batch_async)(pa, 1, w) == API(OK));
            /* the download waits for the launch: the second step, after the first */
            EXPECT(API(plan_download_out)(pa, got) == API(OK) && same(got, m2, HALO_ELEMS, "two launches, async"));
            EXPECT(API(plan_kernel_ms)(pa) > 0.0);
            /* pb was never waited for: its download waits */
            EXPECT(API(plan_download_out)(pb, got) == API(OK) && same(got, m1, HALO_ELEMS, "one launch, async"));
            /* a launch still running when the plan is destroyed: destroy waits */
            EXPECT(API(plan_launch_batch_async)(pb, 1, w) == API(OK));
            free(m1);
            free(m2);
        } else {
            fprintf(stderr, "check plan: %s: plan_create for the async launches failed\n", backend);
            fails++;
        }
        API(plan_destroy)(pa);
        API(plan_destroy)(pb);
    }

    /* arrays attached in host memory (PK_plan_attach): launches compute there, in place;
     * where the device cannot (ATTACHES 0: CUDA), PK_ERR_DEVICE */
    EXPECT(API(plan_attach)(NULL, API(plan_array_in), ain) == API(ERR_ARGUMENT));
    EXPECT(API(plan_attach)(p, 6, ain) == API(ERR_ARGUMENT));
    EXPECT(API(plan_attach)(p, -1, ain) == API(ERR_ARGUMENT));
    EXPECT(API(plan_attach)(p, API(plan_array_in), NULL) == API(ERR_ARGUMENT));
    fill(ain, HALO_ELEMS, 5);
    memcpy(hin, ain, HALO_ELEMS * sizeof *hin);
    memset(hout, 0, HALO_ELEMS * sizeof *hout);
    rc = API(plan_attach)(p, API(plan_array_in), ain);
    if (!ATTACHES) {
        EXPECT(rc == API(ERR_DEVICE));
    } else {
        EXPECT(rc == API(OK));
        EXPECT(API(plan_attach)(p, API(plan_array_out), aout) == API(OK));
        EXPECT(API(plan_launch)(p, w) == API(OK));
        model_step(hin, hout, src, w);
        EXPECT(same(aout, hout, HALO_ELEMS, "attached out after a launch"));
        /* the host changes an attached array between launches */
        ain[AT(1, 2, 3)] += 1.0f;
        hin[AT(1, 2, 3)] += 1.0f;
        EXPECT(API(plan_launch)(p, w) == API(OK));
        model_step(hin, hout, src, w);
        EXPECT(same(aout, hout, HALO_ELEMS, "attached out after the host wrote in"));
        /* whole-array transfers of attached arrays copy on the host */
        EXPECT(API(plan_download_in)(p, got) == API(OK) && same(got, hin, HALO_ELEMS, "attached in downloaded"));
        EXPECT(API(plan_upload_in)(p, hout) == API(OK) && same(ain, hout, HALO_ELEMS, "attached in uploaded"));
        /* a swap exchanges attached memory too: out is ain's now */
        EXPECT(API(plan_swap)(p, API(plan_array_in), API(plan_array_out)) == API(OK));
        EXPECT(API(plan_launch)(p, w) == API(OK));
        memcpy(hin, hout, HALO_ELEMS * sizeof *hin); /* the ghost layer the kernel leaves alone */
        model_step(hout, hin, src, w);
        EXPECT(same(ain, hin, HALO_ELEMS, "attached in, the output after a swap"));
        /* attaching again replaces the earlier attachment */
        memcpy(ain2, hin, HALO_ELEMS * sizeof *ain2);
        EXPECT(API(plan_attach)(p, API(plan_array_in), ain2) == API(OK));
        EXPECT(API(plan_launch)(p, w) == API(OK));
        model_step(hin, hout, src, w);
        EXPECT(same(ain, hout, HALO_ELEMS, "out after attaching in again"));
    }

    /* the swap rules: same element type, dimensions, halo and extents */
    EXPECT(API(plan_swap)(p, API(plan_array_in), API(plan_array_src)) == API(ERR_ARGUMENT));  /* halo */
    EXPECT(API(plan_swap)(p, API(plan_array_src), API(plan_array_hits)) == API(ERR_ARGUMENT)); /* type */
    EXPECT(API(plan_swap)(p, API(plan_array_in), 5) == API(ERR_ARGUMENT));
    EXPECT(API(plan_swap)(p, -1, API(plan_array_in)) == API(ERR_ARGUMENT));
    EXPECT(API(plan_swap)(NULL, API(plan_array_in), API(plan_array_out)) == API(ERR_ARGUMENT));
    EXPECT(API(plan_swap)(p, API(plan_array_in), API(plan_array_in)) == API(OK));
    EXPECT(API(plan_swap)(p, API(plan_array_src), API(plan_array_spare)) == API(OK));
    EXPECT(API(plan_download_src)(p, got) == API(OK) && same(got, zero, ELEMS, "src after swap with spare"));
    EXPECT(API(plan_download_spare)(p, got) == API(OK) && same(got, src, ELEMS, "spare after swap with src"));
    API(plan_destroy)(p);

    /* a batch of 3 blocks: filled by rows and pitches, 2 of them launched, then all */
    {
        enum { NB = 3 };
        API(plan) *bp = NULL;
        EXPECT(API(plan_create_batch)(&bp, 0, NX, NY, NZ, NX, NY, NZ, NX, NY, NZ, NX, NY, NZ, NX, NY) ==
               API(ERR_ARGUMENT));
        rc = API(plan_create_batch)(&bp, NB, NX, NY, NZ, NX, NY, NZ, NX, NY, NZ, NX, NY, NZ, NX, NY);
        EXPECT(rc == API(OK));
        float *bin = alloc_f(NB * HALO_ELEMS), *bsrc = alloc_f(NB * ELEMS), *bout = alloc_f(NB * HALO_ELEMS);
        float *want = alloc_f(HALO_ELEMS);
        int *bhits = calloc(NB * NX * NY, sizeof *bhits);
        Rows r[NB];
        void ***tabs[NB];
        for (int b = 0; b < NB; b++) {
            fill(bin + b * HALO_ELEMS, HALO_ELEMS, 10 + b);
            fill(bsrc + b * ELEMS, ELEMS, 20 + b);
            r[b] = rows_from(bin + b * HALO_ELEMS, sizeof(float), NX + 2, NY + 2, NZ + 2);
            tabs[b] = r[b].t;
        }
        if (rc == API(OK)) {
            /* in: blocks 1 and 2 from rows, then block 0; src: all three with dense pitches */
            EXPECT(API(plan_upload_rows_in)(bp, 1, 2, (float ***const *)&tabs[1]) == API(OK));
            EXPECT(API(plan_upload_rows_in)(bp, 0, 1, (float ***const *)&tabs[0]) == API(OK));
            EXPECT(API(plan_upload_rows_in)(bp, 2, 2, (float ***const *)tabs) == API(ERR_ARGUMENT));
            EXPECT(API(plan_upload_strided_src)(bp, 0, NB, bsrc, NX, (ptrdiff_t)NX * NY, (ptrdiff_t)ELEMS) == API(OK));
            EXPECT(API(plan_launch_batch)(bp, NB + 1, w) == API(ERR_ARGUMENT));
            EXPECT(API(plan_launch_batch)(bp, 0, w) == API(OK));
            EXPECT(API(plan_launch_batch)(bp, 2, w) == API(OK));
            EXPECT(API(plan_download_out)(bp, bout) == API(OK));
            EXPECT(API(plan_download_hits)(bp, bhits) == API(OK));
            for (int b = 0; b < NB; b++) {
                memset(want, 0, HALO_ELEMS * sizeof *want);
                if (b < 2)
                    model_step(bin + b * HALO_ELEMS, want, bsrc + b * ELEMS, w);
                EXPECT(same(bout + b * HALO_ELEMS, want, HALO_ELEMS, b < 2 ? "a launched block" : "a block not launched"));
                for (int i = 0; i < NX * NY; i++)
                    if (bhits[b * NX * NY + i] != (b < 2)) {
                        fprintf(stderr, "check plan: %s: batch block %d hits[%d] = %d\n", backend, b, i,
                                bhits[b * NX * NY + i]);
                        fails++;
                        break;
                    }
            }
            /* the whole batch; block 2 read back into rows */
            EXPECT(API(plan_launch)(bp, w) == API(OK));
            EXPECT(API(plan_download_rows_out)(bp, 2, 1, (float ***const *)&tabs[2]) == API(OK));
            rows_to_flat(&r[2], got);
            memset(want, 0, HALO_ELEMS * sizeof *want);
            model_step(bin + 2 * HALO_ELEMS, want, bsrc + 2 * ELEMS, w);
            EXPECT(same(got, want, HALO_ELEMS, "the last block of the whole batch"));

            /* a list of blocks (plan_select): blocks 2 and 0 only, in that order */
            const int list[3] = {2, 0, 1}, bad[2] = {0, NB};
            float *zeros = alloc_f(NB * HALO_ELEMS);
            memset(zeros, 0, NB * HALO_ELEMS * sizeof *zeros);
            EXPECT(API(plan_select)(NULL, 2, list) == API(ERR_ARGUMENT));
            EXPECT(API(plan_select)(bp, 2, list) == API(OK));
            /* refused lists change nothing: an index past the capacity, a negative count,
             * more blocks than the capacity */
            EXPECT(API(plan_select)(bp, 2, bad) == API(ERR_ARGUMENT));
            EXPECT(API(plan_select)(bp, -1, list) == API(ERR_ARGUMENT));
            EXPECT(API(plan_select)(bp, NB + 1, list) == API(ERR_ARGUMENT));
            EXPECT(API(plan_upload_out)(bp, zeros) == API(OK));
            memset(bhits, 0, NB * NX * NY * sizeof *bhits);
            EXPECT(API(plan_upload_hits)(bp, bhits) == API(OK));
            EXPECT(API(plan_launch_batch)(bp, 3, w) == API(ERR_ARGUMENT)); /* 2 selected */
            EXPECT(API(plan_launch)(bp, w) == API(OK));
            EXPECT(API(plan_download_out)(bp, bout) == API(OK));
            EXPECT(API(plan_download_hits)(bp, bhits) == API(OK));
            for (int b = 0; b < NB; b++) {
                memset(want, 0, HALO_ELEMS * sizeof *want);
                if (b != 1)
                    model_step(bin + b * HALO_ELEMS, want, bsrc + b * ELEMS, w);
                EXPECT(same(bout + b * HALO_ELEMS, want, HALO_ELEMS,
                            b != 1 ? "a selected block" : "a block not selected"));
                EXPECT(bhits[b * NX * NY] == (b != 1) && bhits[(b + 1) * NX * NY - 1] == (b != 1));
            }
            /* the first of the list only (block 2); the list holds across a swap: in and
             * out trade memory, and block 2 steps from what was out */
            EXPECT(API(plan_upload_out)(bp, zeros) == API(OK));
            EXPECT(API(plan_launch_batch)(bp, 1, w) == API(OK));
            EXPECT(API(plan_download_out)(bp, bout) == API(OK));
            memset(want, 0, HALO_ELEMS * sizeof *want);
            model_step(bin + 2 * HALO_ELEMS, want, bsrc + 2 * ELEMS, w);
            EXPECT(same(bout + 2 * HALO_ELEMS, want, HALO_ELEMS, "the first selected block"));
            EXPECT(same(bout, zeros, 2 * HALO_ELEMS, "blocks past the launch's count"));
            EXPECT(API(plan_swap)(bp, API(plan_array_in), API(plan_array_out)) == API(OK));
            EXPECT(API(plan_launch_batch)(bp, 1, w) == API(OK));
            EXPECT(API(plan_download_out)(bp, bout) == API(OK));
            float *twice = alloc_f(HALO_ELEMS); /* out's halo: in's (relax writes none) */
            memcpy(twice, bin + 2 * HALO_ELEMS, HALO_ELEMS * sizeof *twice);
            model_step(want, twice, bsrc + 2 * ELEMS, w);
            EXPECT(same(bout + 2 * HALO_ELEMS, twice, HALO_ELEMS, "a selected block after a swap"));
            EXPECT(API(plan_swap)(bp, API(plan_array_in), API(plan_array_out)) == API(OK));
            /* an empty list computes nothing; NULL, every block again */
            EXPECT(API(plan_select)(bp, 0, list) == API(OK));
            EXPECT(API(plan_upload_out)(bp, zeros) == API(OK));
            EXPECT(API(plan_launch)(bp, w) == API(OK));
            EXPECT(API(plan_download_out)(bp, bout) == API(OK));
            EXPECT(same(bout, zeros, NB * HALO_ELEMS, "an empty selection"));
            EXPECT(API(plan_select)(bp, 0, NULL) == API(OK));
            EXPECT(API(plan_launch)(bp, w) == API(OK));
            EXPECT(API(plan_download_rows_out)(bp, 1, 1, (float ***const *)&tabs[1]) == API(OK));
            rows_to_flat(&r[1], got);
            memset(want, 0, HALO_ELEMS * sizeof *want);
            model_step(bin + HALO_ELEMS, want, bsrc + ELEMS, w);
            EXPECT(same(got, want, HALO_ELEMS, "block 1 once every block is selected again"));
            free(zeros);
            free(twice);
            API(plan_destroy)(bp);
        }
        for (int b = 0; b < NB; b++)
            rows_free(&r[b]);
        free(bin);
        free(bsrc);
        free(bout);
        free(want);
        free(bhits);
    }

    /* arrays of one class but other extents do not swap */
    EXPECT(API(plan_create)(&q, NX, NY, NZ, NX, NY, NZ, NX, NY, NZ, NX, NY, NZ + 1, NX, NY) == API(OK));
    EXPECT(API(plan_swap)(q, API(plan_array_src), API(plan_array_spare)) == API(ERR_ARGUMENT));
    API(plan_destroy)(q);

    if (!fails)
        printf("check plan: %s ok (%d launches with swaps, %.3f ms of kernel time)\n", backend, LAUNCHES, kernel_ms);
    free(in);
    free(src);
    free(got);
    free(zero);
    free(hits);
    free(hin);
    free(hout);
    free(ain); /* (the plan that computed in them is gone) */
    free(aout);
    free(ain2);
    return fails;
}
