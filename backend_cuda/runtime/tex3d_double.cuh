// imcl_tex3D_double: a double read from a 3D texture of int2 texels, in K.cu when some
// 3D array of doubles is in texture memory (backend_cuda.c copies this file into it).
// These // lines are not copied (docs/architecture.md, "Host runtime").
/* A double texel: textures have no double format, so it is stored as an int2. */
__device__ static inline double imcl_tex3D_double(cudaTextureObject_t t, float x, float y, float z)
{
    const int2 v = tex3D<int2>(t, x, y, z);
    return __hiloint2double(v.y, v.x);
}
