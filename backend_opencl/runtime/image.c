// Image memory in K_host.c, when some array of the kernel is in texture memory:
// imcl_stage, imcl_image_create, imcl_image_region, imcl_image_write, imcl_image_read
// (backend_opencl.c copies this file into it). These // lines are not copied
// (docs/architecture.md, "Host runtime").
/* Image memory: an array there is an image of its storage (halo included), one element
 * per texel. An element narrower than its texel travels through a staging copy on the
 * host: a double fills the first two channels of an RGBA texel of 32-bit uints, no
 * image format having doubles. */

/* n texels of `texel` bytes, each starting with an element of host of `bytes` bytes
 * (zeros when host is NULL), the rest zero: calloc'd, NULL when out of memory. */
static unsigned char *imcl_stage(const void *host, size_t n, size_t bytes, size_t texel)
{
    unsigned char *imcl_texels = (unsigned char *)calloc(n, texel);
    if (imcl_texels && host)
        for (size_t imcl_i = 0; imcl_i < n; imcl_i++)
            memcpy(imcl_texels + imcl_i * texel, (const unsigned char *)host + imcl_i * bytes, bytes);
    return imcl_texels;
}

/* An image of *imcl_format and *imcl_desc, read-only for kernels (the host writes it),
 * holding host's elements of `bytes` each in texels of `texel` bytes, or zeros when host
 * is NULL. NULL on failure, with the reason in *imcl_err. */
static cl_mem imcl_image_create(cl_context imcl_ctx, const cl_image_format *imcl_format,
                                const cl_image_desc *imcl_desc, const void *host, size_t bytes,
                                size_t texel, cl_int *imcl_err)
{
    const size_t imcl_n = imcl_desc->image_width * imcl_desc->image_height *
                          (imcl_desc->image_depth ? imcl_desc->image_depth : 1);
    unsigned char *imcl_texels = NULL;
    if (!host || bytes != texel) {
        imcl_texels = imcl_stage(host, imcl_n, bytes, texel);
        if (!imcl_texels) {
            *imcl_err = CL_OUT_OF_HOST_MEMORY;
            return NULL;
        }
    }
    cl_mem imcl_img = clCreateImage(imcl_ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, imcl_format,
                                    imcl_desc, imcl_texels ? (void *)imcl_texels : (void *)host,
                                    imcl_err);
    free(imcl_texels);
    return imcl_img;
}

/* The extents of image img in texels (depth 1 for a 2D image), and the bytes of a texel. */
static cl_int imcl_image_region(cl_mem img, size_t region[3], size_t *texel)
{
    region[0] = region[1] = region[2] = 0;
    cl_int imcl_err = clGetImageInfo(img, CL_IMAGE_WIDTH, sizeof(size_t), &region[0], NULL);
    imcl_err |= clGetImageInfo(img, CL_IMAGE_HEIGHT, sizeof(size_t), &region[1], NULL);
    imcl_err |= clGetImageInfo(img, CL_IMAGE_DEPTH, sizeof(size_t), &region[2], NULL);
    imcl_err |= clGetImageInfo(img, CL_IMAGE_ELEMENT_SIZE, sizeof(size_t), texel, NULL);
    if (region[2] == 0)
        region[2] = 1;
    return imcl_err;
}

/* Copies host's elements of `bytes` each into all of image img; blocks until done. */
static cl_int imcl_image_write(cl_command_queue imcl_queue, cl_mem img, const void *host, size_t bytes)
{
    const size_t imcl_origin[3] = {0, 0, 0};
    size_t imcl_region[3], imcl_texel = 0;
    cl_int imcl_err = imcl_image_region(img, imcl_region, &imcl_texel);
    if (imcl_err != CL_SUCCESS)
        return imcl_err;
    if (imcl_texel == bytes)
        return clEnqueueWriteImage(imcl_queue, img, CL_TRUE, imcl_origin, imcl_region, 0, 0, host, 0, NULL, NULL);
    unsigned char *imcl_texels = imcl_stage(host, imcl_region[0] * imcl_region[1] * imcl_region[2], bytes, imcl_texel);
    if (!imcl_texels)
        return CL_OUT_OF_HOST_MEMORY;
    imcl_err = clEnqueueWriteImage(imcl_queue, img, CL_TRUE, imcl_origin, imcl_region, 0, 0, imcl_texels, 0, NULL, NULL);
    free(imcl_texels);
    return imcl_err;
}

/* Copies all of image img into host's elements of `bytes` each; blocks until done. */
static cl_int imcl_image_read(cl_command_queue imcl_queue, cl_mem img, void *host, size_t bytes)
{
    const size_t imcl_origin[3] = {0, 0, 0};
    size_t imcl_region[3], imcl_texel = 0;
    cl_int imcl_err = imcl_image_region(img, imcl_region, &imcl_texel);
    if (imcl_err != CL_SUCCESS)
        return imcl_err;
    if (imcl_texel == bytes)
        return clEnqueueReadImage(imcl_queue, img, CL_TRUE, imcl_origin, imcl_region, 0, 0, host, 0, NULL, NULL);
    const size_t imcl_n = imcl_region[0] * imcl_region[1] * imcl_region[2];
    unsigned char *imcl_texels = (unsigned char *)malloc(imcl_n * imcl_texel);
    if (!imcl_texels)
        return CL_OUT_OF_HOST_MEMORY;
    imcl_err = clEnqueueReadImage(imcl_queue, img, CL_TRUE, imcl_origin, imcl_region, 0, 0, imcl_texels, 0, NULL, NULL);
    if (imcl_err == CL_SUCCESS)
        for (size_t imcl_i = 0; imcl_i < imcl_n; imcl_i++)
            memcpy((unsigned char *)host + imcl_i * bytes, imcl_texels + imcl_i * imcl_texel, bytes);
    free(imcl_texels);
    return imcl_err;
}
