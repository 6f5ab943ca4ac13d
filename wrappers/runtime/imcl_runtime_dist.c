// The distributed plans' runtime, written into every output folder of imcl --mpi as
// imcl_runtime_dist.c (wrappers/dist.c; docs/mpi.md): what every K_dist.c calls and nothing
// of any one kernel. Compiled on its own with mpicc by tests/runtime. These // lines are
// not copied.
#include "imcl_runtime_dist.h"

#include <stdlib.h>
#include <string.h>

#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h> /* MPIX_CUDA_AWARE_SUPPORT, MPIX_Query_cuda_support */
#endif

/* Part c of P along an extent of N: N / P points each, the first N % P parts one more. */
static void imcl_dist_part(int N, int P, int c, int *lo, int *n)
{
    *n = N / P + (c < N % P);
    *lo = c * (N / P) + (c < N % P ? c : N % P);
}

IMCL_DIST_WEAK int imcl_dist_init(imcl_dist *d, MPI_Comm comm, int nd, const int global[3],
        const int ghost[3], unsigned dirs, int narrays)
{
    memset(d, 0, sizeof *d);
    d->comm = MPI_COMM_NULL;
    d->nd = nd;
    int topo = MPI_UNDEFINED, cart_nd = 0, periods[3] = {0, 0, 0};
    MPI_Topo_test(comm, &topo);
    if (topo == MPI_CART)
        MPI_Cartdim_get(comm, &cart_nd);
    if (topo == MPI_CART && cart_nd == nd) {
        int coords[3];
        MPI_Cart_get(comm, nd, d->dims, periods, coords);
    } else {
        int size;
        MPI_Comm_size(comm, &size);
        MPI_Dims_create(size, nd, d->dims);
    }
    /* the caller's ranks as they are (no reorder): rank 0 is comm's rank 0 */
    periods[0] = periods[1] = periods[2] = 0;
    MPI_Cart_create(comm, nd, d->dims, periods, 0, &d->comm);
    MPI_Comm_rank(d->comm, &d->rank);
    MPI_Comm_size(d->comm, &d->size);
    MPI_Cart_coords(d->comm, d->rank, nd, d->coords);
    int ok = 1;
    for (int k = 0; k < 3; k++) {
        d->global[k] = k < nd ? global[k] : 1;
        d->dims[k] = k < nd ? d->dims[k] : 1;
        d->coords[k] = k < nd ? d->coords[k] : 0;
        d->ghost[k] = k < nd ? ghost[k] : 0;
        imcl_dist_part(d->global[k], d->dims[k], d->coords[k], &d->lo[k], &d->n[k]);
        d->storage[k] = d->n[k] + 2 * d->ghost[k];
        /* the cells sent are the part's own: a part at least as thick as its ghost layer
         * (and as 1), whichever rank holds it, so every rank decides alike */
        if (d->global[k] / d->dims[k] < (d->ghost[k] > 1 ? d->ghost[k] : 1))
            ok = 0;
    }
    /* a neighbour across an edge or a corner is read through the ghost cells of the
     * faces beside it too (the boundary fill at the grid's edges copies them): every
     * direction with some of its components zeroed is exchanged as well */
    for (int i = 0; i < IMCL_DIST_DIRS; i++)
        if (dirs >> i & 1)
            for (int m = 0; m < 8; m++) {
                int o[3] = {i % 3 - 1, i / 3 % 3 - 1, i / 9 - 1};
                for (int k = 0; k < 3; k++)
                    if (m >> k & 1)
                        o[k] = 0;
                int j = (o[0] + 1) + 3 * (o[1] + 1) + 9 * (o[2] + 1);
                if (j != 13)
                    dirs |= 1u << j;
            }
    d->dirs = dirs;
    d->narrays = narrays;
    d->arrays = calloc((size_t)(narrays ? narrays : 1), sizeof *d->arrays);
    d->req = malloc(sizeof *d->req * (size_t)(2 * IMCL_DIST_DIRS * (narrays ? narrays : 1)));
    for (int i = 0; d->arrays && i < narrays; i++)
        for (int j = 0; j < IMCL_DIST_DIRS; j++)
            d->arrays[i].send[j] = d->arrays[i].recv[j] = MPI_DATATYPE_NULL;
    int code = !ok ? IMCL_DIST_ERR_ARGUMENT
        : !d->arrays || !d->req ? IMCL_DIST_ERR_MEMORY : IMCL_DIST_OK;
    return imcl_dist_agree(d, code);
}

/* A subarray type of the storage: in dimension k, `n[k]` cells from `start[k]` (MPI
 * counts C's order, the last dimension fastest: x is the last). */
static MPI_Datatype imcl_dist_subarray(const imcl_dist *d, const int *extent, const int *n,
        const int *start, MPI_Datatype elem)
{
    int sizes[3], subs[3], starts[3];
    for (int k = 0; k < d->nd; k++) {
        sizes[d->nd - 1 - k] = extent[k];
        subs[d->nd - 1 - k] = n[k];
        starts[d->nd - 1 - k] = start[k];
    }
    MPI_Datatype t;
    MPI_Type_create_subarray(d->nd, sizes, subs, starts, MPI_ORDER_C, elem, &t);
    MPI_Type_commit(&t);
    return t;
}

IMCL_DIST_WEAK int imcl_dist_array_init(imcl_dist *d, int i, size_t elem, MPI_Datatype type,
        int distributed, size_t count, int bc, const void *value, int exchanged)
{
    imcl_dist_array *a = &d->arrays[i];
    a->elem = elem;
    a->type = type;
    a->distributed = distributed;
    a->exchanged = distributed && exchanged;
    a->bc = bc;
    a->count = distributed ? (size_t)d->storage[0] * d->storage[1] * d->storage[2] : count;
    a->host = a->data = calloc(a->count ? a->count : 1, elem);
    if (!a->host)
        return IMCL_DIST_ERR_MEMORY;
    if (a->exchanged && bc == IMCL_DIST_CONSTANT && value) {
        /* the largest plane of the storage */
        const int *s = d->storage;
        size_t most = (size_t)s[1] * s[2];
        if ((size_t)s[0] * s[2] > most)
            most = (size_t)s[0] * s[2];
        if ((size_t)s[0] * s[1] > most)
            most = (size_t)s[0] * s[1];
        a->values = malloc(most * elem);
        if (!a->values)
            return IMCL_DIST_ERR_MEMORY;
        for (size_t v = 0; v < most; v++)
            memcpy((unsigned char *)a->values + v * elem, value, elem);
    }
    a->host_ok = a->device_ok = 1;  /* zeros both, as the plan's memory starts */
    for (int j = 0; a->exchanged && j < IMCL_DIST_DIRS; j++) {
        if (!(d->dirs >> j & 1) && !(d->dirs >> (26 - j) & 1))
            continue;
        /* in each dimension, the direction's side: the part's first or last ghost[k]
         * cells go to the neighbour below or above, whose cells arrive in the ghost
         * layer on that side; along the part, all of it */
        int o[3] = {j % 3 - 1, j / 3 % 3 - 1, j / 9 - 1}, n[3], send[3], recv[3];
        for (int k = 0; k < d->nd; k++) {
            int g = d->ghost[k];
            n[k] = o[k] ? g : d->n[k];
            send[k] = o[k] < 0 ? g : o[k] > 0 ? d->n[k] : g;
            recv[k] = o[k] < 0 ? 0 : o[k] > 0 ? g + d->n[k] : g;
        }
        /* what this rank receives from direction j, and sends there: the ghost cells its
         * neighbour there reads, which lie in direction 26 - j of it */
        if (d->dirs >> j & 1)
            a->recv[j] = imcl_dist_subarray(d, d->storage, n, recv, type);
        if (d->dirs >> (26 - j) & 1)
            a->send[j] = imcl_dist_subarray(d, d->storage, n, send, type);
    }
    return IMCL_DIST_OK;
}

IMCL_DIST_WEAK int imcl_dist_agree(const imcl_dist *d, int code)
{
    int all = code;
    MPI_Allreduce(&code, &all, 1, MPI_INT, MPI_MIN, d->comm);
    return all;
}

IMCL_DIST_WEAK int imcl_dist_device_aware(const imcl_dist *d)
{
    int yes = 0;
    const char *say = getenv("IMCL_MPI_DEVICE");
    if (say && *say) {
        yes = strcmp(say, "0") != 0;
    } else {
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
        yes = MPIX_Query_cuda_support() == 1;
#elif defined(MPIX_GPU_SUPPORT_CUDA)
        MPIX_GPU_query_support(MPIX_GPU_SUPPORT_CUDA, &yes);
#endif
    }
    return imcl_dist_agree(d, yes != 0);
}

IMCL_DIST_WEAK void imcl_dist_use_device(imcl_dist *d, int i, void *memory)
{
    imcl_dist_array *a = &d->arrays[i];
    a->data = memory;
    a->on_device = 1;
}

/* The rank of the neighbour of array a in direction j, or -1: none (past an edge of the
 * grid that is not periodic for a). */
static int imcl_dist_neighbour(const imcl_dist *d, const imcl_dist_array *a, int j)
{
    int o[3] = {j % 3 - 1, j / 3 % 3 - 1, j / 9 - 1}, c[3];
    for (int k = 0; k < d->nd; k++) {
        c[k] = d->coords[k] + o[k];
        if (c[k] < 0 || c[k] >= d->dims[k]) {
            if (a->bc != IMCL_DIST_PERIODIC)
                return -1;
            c[k] = (c[k] + d->dims[k]) % d->dims[k];
        }
    }
    int r;
    MPI_Cart_rank(d->comm, c, &r);
    return r;
}

IMCL_DIST_WEAK int imcl_dist_exchange_begin(imcl_dist *d)
{
    int code = IMCL_DIST_OK;
    d->nreq = 0;
    for (int i = 0; i < d->narrays; i++) {
        imcl_dist_array *a = &d->arrays[i];
        if (a->exchanged && code == IMCL_DIST_OK)
            code = imcl_dist_stage(d, i, a->on_device);
        for (int j = 0; a->exchanged && j < IMCL_DIST_DIRS; j++) {
            int r = imcl_dist_neighbour(d, a, j);
            if (r < 0)
                continue;
            /* a message's tag is its array and the direction it travels: what arrives
             * from the neighbour in direction j travels in direction 26 - j; a kernel
             * that reads one way only (upwind) receives from one side, sends to the other */
            if (a->recv[j] != MPI_DATATYPE_NULL)
                MPI_Irecv(a->data, 1, a->recv[j], r, i * IMCL_DIST_DIRS + (26 - j), d->comm,
                        &d->req[d->nreq++]);
            if (a->send[j] != MPI_DATATYPE_NULL)
                MPI_Isend(a->data, 1, a->send[j], r, i * IMCL_DIST_DIRS + j, d->comm,
                        &d->req[d->nreq++]);
        }
    }
    return code;
}

/* Plane p of the storage in dimension k (a storage coordinate), whole in the others. */
static MPI_Datatype imcl_dist_plane(const imcl_dist *d, const imcl_dist_array *a, int k, int p)
{
    int n[3] = {d->storage[0], d->storage[1], d->storage[2]}, start[3] = {0, 0, 0};
    n[k] = 1;
    start[k] = p;
    return imcl_dist_subarray(d, d->storage, n, start, a->type);
}

/* Ghost plane p of dimension k from plane q, or the boundary value when q < 0: a message
 * of this rank to itself, so that MPI copies within the memory it exchanges (host or
 * device) as it copies between ranks. */
static void imcl_dist_fill(const imcl_dist *d, const imcl_dist_array *a, int k, int p, int q)
{
    MPI_Datatype to = imcl_dist_plane(d, a, k, p), from = MPI_DATATYPE_NULL;
    /* the tags past the exchange's, whose messages are all in by now */
    const int tag = d->narrays * IMCL_DIST_DIRS;
    if (q < 0) {
        const int n = (int)((size_t)d->storage[0] * d->storage[1] * d->storage[2] / d->storage[k]);
        MPI_Sendrecv(a->values, n, a->type, d->rank, tag, a->data, 1, to, d->rank, tag, d->comm,
                MPI_STATUS_IGNORE);
    } else {
        from = imcl_dist_plane(d, a, k, q);
        MPI_Sendrecv(a->data, 1, from, d->rank, tag, a->data, 1, to, d->rank, tag, d->comm,
                MPI_STATUS_IGNORE);
        MPI_Type_free(&from);
    }
    MPI_Type_free(&to);
}

IMCL_DIST_WEAK void imcl_dist_exchange_end(imcl_dist *d)
{
    MPI_Waitall(d->nreq, d->req, MPI_STATUSES_IGNORE);
    d->nreq = 0;
    /* dimension after dimension, over the whole storage in the others: a corner past two
     * edges takes the value the kernel's condition gives it (x filled first, y then
     * copies the filled cells, ...) */
    for (int k = 0; k < d->nd; k++)
        for (int i = 0; i < d->narrays; i++) {
            const imcl_dist_array *a = &d->arrays[i];
            if (!a->exchanged || a->bc == IMCL_DIST_PERIODIC || a->bc == IMCL_DIST_NONE)
                continue;
            int g = d->ghost[k], n = d->n[k];
            for (int c = 0; c < g; c++) {
                /* ghost cell c below the part (storage g - 1 - c) and above (g + n + c) */
                int clamped = a->bc == IMCL_DIST_CLAMPED, mirror = a->bc == IMCL_DIST_MIRROR;
                int below = clamped ? g : mirror ? g + c : -1;
                int above = clamped ? g + n - 1 : mirror ? g + n - 1 - c : -1;
                if (d->coords[k] == 0)
                    imcl_dist_fill(d, a, k, g - 1 - c, below);
                if (d->coords[k] == d->dims[k] - 1)
                    imcl_dist_fill(d, a, k, g + n + c, above);
            }
        }
    /* the exchanged arrays' values are where MPI wrote them */
    for (int i = 0; i < d->narrays; i++)
        if (d->arrays[i].exchanged)
            imcl_dist_written(d, i, d->arrays[i].on_device);
}

IMCL_DIST_WEAK int imcl_dist_boxes(const imcl_dist *d, imcl_dist_box box[7])
{
    /* in each dimension the interior starts past the ghost width and ends that far
     * before the part does (or is empty); the shell's boxes in dimension k cover the
     * rest in k, the interior's range in the dimensions before k, all after it */
    int in_lo[3], in_hi[3];
    for (int k = 0; k < 3; k++) {
        in_lo[k] = d->ghost[k] < d->n[k] ? d->ghost[k] : d->n[k];
        in_hi[k] = d->n[k] - d->ghost[k] > in_lo[k] ? d->n[k] - d->ghost[k] : in_lo[k];
    }
    int nbox = 0;
    imcl_dist_box *b = &box[nbox++];
    for (int k = 0; k < 3; k++) {
        b->first[k] = d->lo[k] + in_lo[k];
        b->n[k] = in_hi[k] - in_lo[k];
    }
    for (int k = 0; k < d->nd; k++)
        for (int side = 0; side < 2; side++) {
            b = &box[nbox++];
            for (int m = 0; m < 3; m++) {
                int lo = m < k ? in_lo[m] : 0, hi = m < k ? in_hi[m] : d->n[m];
                if (m == k) {
                    lo = side ? in_hi[m] : 0;
                    hi = side ? d->n[m] : in_lo[m];
                }
                b->first[m] = d->lo[m] + lo;
                b->n[m] = hi - lo;
            }
        }
    return nbox;
}

/* Array i's part on rank r as a subarray of the whole array, and this rank's own part
 * as a subarray of its storage. */
static MPI_Datatype imcl_dist_part_of(const imcl_dist *d, const imcl_dist_array *a, int r)
{
    int c[3] = {0, 0, 0}, lo[3], n[3];
    MPI_Cart_coords(d->comm, r, d->nd, c);
    for (int k = 0; k < d->nd; k++)
        imcl_dist_part(d->global[k], d->dims[k], c[k], &lo[k], &n[k]);
    return imcl_dist_subarray(d, d->global, n, lo, a->type);
}

static MPI_Datatype imcl_dist_own(const imcl_dist *d, const imcl_dist_array *a)
{
    return imcl_dist_subarray(d, d->storage, d->n, d->ghost, a->type);
}

/* Scatter (to_parts) or gather: rank 0 sends or receives every rank's part. */
static int imcl_dist_move(imcl_dist *d, int i, void *global, int to_parts)
{
    imcl_dist_array *a = &d->arrays[i];
    int ok = d->rank != 0 || global != NULL;
    MPI_Bcast(&ok, 1, MPI_INT, 0, d->comm);
    if (!ok)
        return IMCL_DIST_ERR_ARGUMENT;
    if (!a->distributed) {
        if (to_parts) {
            if (d->rank == 0)
                memcpy(a->host, global, a->count * a->elem);
            MPI_Bcast(a->host, (int)a->count, a->type, 0, d->comm);
        } else if (d->rank == 0) {
            memcpy(global, a->host, a->count * a->elem);
        }
        return IMCL_DIST_OK;
    }
    MPI_Request *req = malloc(sizeof *req * (size_t)(d->rank == 0 ? d->size + 1 : 1));
    MPI_Datatype *parts = malloc(sizeof *parts * (size_t)(d->rank == 0 ? d->size : 1));
    int code = req && parts ? IMCL_DIST_OK : IMCL_DIST_ERR_MEMORY;
    if (imcl_dist_agree(d, code) != IMCL_DIST_OK) {
        free(req);
        free(parts);
        return IMCL_DIST_ERR_MEMORY;
    }
    int nreq = 0;
    MPI_Datatype own = imcl_dist_own(d, a);
    if (to_parts)
        MPI_Irecv(a->data, 1, own, 0, i, d->comm, &req[nreq++]);
    else
        MPI_Isend(a->data, 1, own, 0, i, d->comm, &req[nreq++]);
    if (d->rank == 0)
        for (int r = 0; r < d->size; r++) {
            parts[r] = imcl_dist_part_of(d, a, r);
            if (to_parts)
                MPI_Isend(global, 1, parts[r], r, i, d->comm, &req[nreq++]);
            else
                MPI_Irecv(global, 1, parts[r], r, i, d->comm, &req[nreq++]);
        }
    MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE);
    MPI_Type_free(&own);
    for (int r = 0; d->rank == 0 && r < d->size; r++)
        MPI_Type_free(&parts[r]);
    free(req);
    free(parts);
    return IMCL_DIST_OK;
}

IMCL_DIST_WEAK int imcl_dist_scatter(imcl_dist *d, int i, const void *global)
{
    int code = imcl_dist_move(d, i, (void *)global, 1);
    if (code == IMCL_DIST_OK)
        imcl_dist_written(d, i, d->arrays[i].on_device);
    return code;
}

IMCL_DIST_WEAK int imcl_dist_gather(imcl_dist *d, int i, void *global)
{
    int code = imcl_dist_agree(d, imcl_dist_stage(d, i, d->arrays[i].on_device));
    return code == IMCL_DIST_OK ? imcl_dist_move(d, i, global, 0) : code;
}

IMCL_DIST_WEAK int imcl_dist_stage(imcl_dist *d, int i, int to_device)
{
    imcl_dist_array *a = &d->arrays[i];
    if (!a->upload || (to_device ? a->device_ok : a->host_ok))
        return IMCL_DIST_OK;
    int code = to_device ? a->upload(d->plan, a->host) : a->download(d->plan, a->host);
    if (code == IMCL_DIST_OK)
        a->host_ok = a->device_ok = 1;
    return code;
}

IMCL_DIST_WEAK int imcl_dist_stage_all(imcl_dist *d, int to_device, int exchanged)
{
    int code = IMCL_DIST_OK;
    for (int i = 0; i < d->narrays && code == IMCL_DIST_OK; i++)
        if (!exchanged || d->arrays[i].exchanged)
            code = imcl_dist_stage(d, i, to_device);
    return code;
}

IMCL_DIST_WEAK void imcl_dist_written(imcl_dist *d, int i, int on_device)
{
    imcl_dist_array *a = &d->arrays[i];
    a->host_ok = !on_device || !a->upload;
    a->device_ok = on_device || !a->upload;
}

IMCL_DIST_WEAK void imcl_dist_swap(imcl_dist *d, int i, int j)
{
    /* the memory and what holds the values go together; the types and the boundary
     * stay with the kernel's parameter */
    imcl_dist_array *a = &d->arrays[i], *b = &d->arrays[j];
    void *host = a->host, *data = a->data;
    int on_device = a->on_device, h = a->host_ok, v = a->device_ok;
    a->host = b->host;
    a->data = b->data;
    a->on_device = b->on_device;
    a->host_ok = b->host_ok;
    a->device_ok = b->device_ok;
    b->host = host;
    b->data = data;
    b->on_device = on_device;
    b->host_ok = h;
    b->device_ok = v;
}

IMCL_DIST_WEAK void imcl_dist_destroy(imcl_dist *d)
{
    for (int i = 0; d->arrays && i < d->narrays; i++) {
        free(d->arrays[i].host);
        free(d->arrays[i].values);
        for (int j = 0; j < IMCL_DIST_DIRS; j++) {
            if (d->arrays[i].send[j] != MPI_DATATYPE_NULL)
                MPI_Type_free(&d->arrays[i].send[j]);
            if (d->arrays[i].recv[j] != MPI_DATATYPE_NULL)
                MPI_Type_free(&d->arrays[i].recv[j]);
        }
    }
    free(d->arrays);
    free(d->req);
    if (d->comm != MPI_COMM_NULL)
        MPI_Comm_free(&d->comm);
    memset(d, 0, sizeof *d);
}
