// Texture memory in K.cu, when some array of the kernel is in texture memory:
// imcl_texture_copy and imcl_texture_create (backend_cuda.c copies this file into it, with
// every PK_ replaced by the kernel's host name). These // lines are not copied
// (docs/architecture.md, "Host runtime").
/* Texture memory: an array there is a CUDA array of its storage (halo included), read
 * through a texture object with point sampling and unnormalized coordinates; a double
 * is stored as it is, in an int2 texel (textures have no double format). */

/* Copies all of CUDA array a (a 2D array when its depth is 0) from or to host, whose
 * elements have `bytes` each. */
static cudaError_t imcl_texture_copy(cudaArray_t a, void *host, size_t bytes, cudaMemcpyKind kind)
{
    cudaChannelFormatDesc imcl_format;
    cudaExtent imcl_extent;
    unsigned int imcl_flags = 0;
    const cudaError_t imcl_err = cudaArrayGetInfo(&imcl_format, &imcl_extent, &imcl_flags, a);
    if (imcl_err != cudaSuccess)
        return imcl_err;
    const size_t imcl_pitch = imcl_extent.width * bytes;
    if (imcl_extent.depth == 0) {
        if (kind == cudaMemcpyHostToDevice)
            return cudaMemcpy2DToArray(a, 0, 0, host, imcl_pitch, imcl_pitch, imcl_extent.height, kind);
        return cudaMemcpy2DFromArray(host, imcl_pitch, a, 0, 0, imcl_pitch, imcl_extent.height, kind);
    }
    cudaMemcpy3DParms imcl_copy;
    memset(&imcl_copy, 0, sizeof imcl_copy);
    const cudaPitchedPtr imcl_host = make_cudaPitchedPtr(host, imcl_pitch, imcl_extent.width, imcl_extent.height);
    if (kind == cudaMemcpyHostToDevice) {
        imcl_copy.srcPtr = imcl_host;
        imcl_copy.dstArray = a;
    } else {
        imcl_copy.srcArray = a;
        imcl_copy.dstPtr = imcl_host;
    }
    imcl_copy.extent = imcl_extent;
    imcl_copy.kind = kind;
    return cudaMemcpy3D(&imcl_copy);
}

/* A CUDA array of `extent` texels of `format` (a 2D array when extent.depth is 0) holding
 * host's elements of `bytes` each (zeros when host is NULL), and the texture object over
 * it, with addressing mode `mode` on every axis. What it made is in *a and *t (else NULL
 * and 0), on failure too: the caller frees them.
 * Returns PK_OK, PK_ERR_MEMORY or PK_ERR_TRANSFER. */
static int imcl_texture_create(cudaArray_t *a, cudaTextureObject_t *t, cudaChannelFormatDesc format,
                               cudaExtent extent, cudaTextureAddressMode mode, const void *host,
                               size_t bytes)
{
    *t = 0;
    const cudaError_t imcl_alloc = extent.depth == 0
                                       ? cudaMallocArray(a, &format, extent.width, extent.height)
                                       : cudaMalloc3DArray(a, &format, extent, 0);
    if (imcl_alloc != cudaSuccess) {
        *a = NULL;
        return PK_ERR_MEMORY;
    }
    void *imcl_zeros = NULL;
    if (!host) {
        imcl_zeros = calloc(extent.width * extent.height * (extent.depth ? extent.depth : 1), bytes);
        if (!imcl_zeros)
            return PK_ERR_MEMORY;
    }
    const cudaError_t imcl_err = imcl_texture_copy(*a, host ? (void *)host : imcl_zeros, bytes, cudaMemcpyHostToDevice);
    free(imcl_zeros);
    if (imcl_err != cudaSuccess)
        return PK_ERR_TRANSFER;
    struct cudaResourceDesc imcl_res;
    memset(&imcl_res, 0, sizeof imcl_res);
    imcl_res.resType = cudaResourceTypeArray;
    imcl_res.res.array.array = *a;
    struct cudaTextureDesc imcl_desc;
    memset(&imcl_desc, 0, sizeof imcl_desc);
    for (int d = 0; d < 3; d++)
        imcl_desc.addressMode[d] = mode;
    imcl_desc.filterMode = cudaFilterModePoint;
    imcl_desc.readMode = cudaReadModeElementType;
    imcl_desc.normalizedCoords = 0;
    if (cudaCreateTextureObject(t, &imcl_res, &imcl_desc, NULL) != cudaSuccess) {
        *t = 0;
        return PK_ERR_MEMORY;
    }
    return PK_OK;
}
