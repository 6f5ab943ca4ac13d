/* cuda_runtime.h of nvcc-cpu: the CUDA runtime and device code that imcl's generated
 * .cu files use, emulated on the CPU (tools/nvcc-cpu/README.md, docs/testing.md,
 * "Running CUDA without a GPU").
 *
 * scripts/nvcc-cpu compiles every .cu file as C++17 with this header force-included
 * and its kernel launches rewritten into imcl_emu::launch. Everything is inline here,
 * so each object that nvcc-cpu makes carries the emulator and links without a library.
 *
 * The threads of a block are fibers (ucontext) on one host thread; a grid runs one
 * block at a time, so __shared__ variables are function statics. A thread runs until
 * it reaches __syncthreads(), a warp shuffle or its end; then the next one runs.
 * IMCL_EMU_ORDER (forward, reverse, shuffle; default shuffle, seeded by IMCL_EMU_SEED)
 * sets the order of the threads between two barriers and of the blocks of a grid, so a
 * missing barrier or an order dependence shows. __shared__ memory is filled with 0xFF
 * bytes (NaN, -1) at the start of every block and cudaMalloc'd memory and CUDA arrays
 * when allocated. Only what imcl emits is here; anything else fails to compile or stops
 * the program with a message that starts with "nvcc-cpu:". */
#ifndef IMCL_NVCC_CPU_CUDA_RUNTIME_H
#define IMCL_NVCC_CPU_CUDA_RUNTIME_H

#define IMCL_NVCC_CPU 1
#ifndef __CUDACC__
#define __CUDACC__ 1
#endif
#define CUDART_VERSION 12000

/* nvcc-cpu preprocesses each .cu file once with IMCL_EMU_SCAN defined, to see which of
 * its lines are compiled: then only the macros above are wanted. */
#ifndef IMCL_EMU_SCAN

#if !defined(__cplusplus) || __cplusplus < 201703L
#error "nvcc-cpu: cuda_runtime.h is for .cu files, compiled as C++17 by scripts/nvcc-cpu"
#endif

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include <tuple>
#include <type_traits>
#include <utility>

#if defined(__SANITIZE_ADDRESS__)
#define IMCL_EMU_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define IMCL_EMU_ASAN 1
#endif
#endif
#ifdef IMCL_EMU_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

/* ---- qualifiers ---------------------------------------------------------------- */
#define __global__
#define __device__
#define __host__
#define __constant__
/* one block runs at a time: a block's shared variables are statics of the function */
#define __shared__ static
#define __forceinline__ inline
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...)
#define __restrict__ __restrict

/* ---- vector types ---------------------------------------------------------------- */
struct uint3 {
    unsigned int x, y, z;
};
struct dim3 {
    unsigned int x, y, z;
    constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
    constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
};
struct __attribute__((aligned(8))) int2 {
    int x, y;
};
static inline int2 make_int2(int x, int y)
{
    int2 v = {x, y};
    return v;
}

/* ---- errors ---------------------------------------------------------------------- */
enum cudaError {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorInvalidConfiguration = 9,
    cudaErrorInvalidPitchValue = 12,
    cudaErrorInvalidSymbol = 13,
    cudaErrorInvalidTexture = 18,
    cudaErrorInvalidChannelDescriptor = 20,
    cudaErrorInvalidMemcpyDirection = 21,
    cudaErrorNoDevice = 100,
    cudaErrorInvalidDevice = 101,
    cudaErrorInvalidResourceHandle = 400,
    cudaErrorNotReady = 600,
    cudaErrorLaunchOutOfResources = 701,
};
typedef enum cudaError cudaError_t;

enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4,
};

/* ---- CUDA arrays and textures ------------------------------------------------------ */
enum cudaChannelFormatKind {
    cudaChannelFormatKindSigned = 0,
    cudaChannelFormatKindUnsigned = 1,
    cudaChannelFormatKindFloat = 2,
    cudaChannelFormatKindNone = 3,
};
struct cudaChannelFormatDesc {
    int x, y, z, w;
    enum cudaChannelFormatKind f;
};
struct cudaExtent {
    size_t width, height, depth;
};
struct cudaPos {
    size_t x, y, z;
};
struct cudaPitchedPtr {
    void *ptr;
    size_t pitch, xsize, ysize;
};
struct cudaArray;
typedef struct cudaArray *cudaArray_t;
typedef const struct cudaArray *cudaArray_const_t;
struct cudaMemcpy3DParms {
    cudaArray_t srcArray;
    struct cudaPos srcPos;
    struct cudaPitchedPtr srcPtr;
    cudaArray_t dstArray;
    struct cudaPos dstPos;
    struct cudaPitchedPtr dstPtr;
    struct cudaExtent extent;
    enum cudaMemcpyKind kind;
};
enum cudaResourceType {
    cudaResourceTypeArray = 0,
    cudaResourceTypeMipmappedArray = 1,
    cudaResourceTypeLinear = 2,
    cudaResourceTypePitch2D = 3,
};
struct cudaResourceDesc {
    enum cudaResourceType resType;
    union {
        struct {
            cudaArray_t array;
        } array;
        struct {
            void *devPtr;
            struct cudaChannelFormatDesc desc;
            size_t sizeInBytes;
        } linear;
        struct {
            void *devPtr;
            struct cudaChannelFormatDesc desc;
            size_t width, height, pitchInBytes;
        } pitch2D;
    } res;
};
enum cudaTextureAddressMode {
    cudaAddressModeWrap = 0,
    cudaAddressModeClamp = 1,
    cudaAddressModeMirror = 2,
    cudaAddressModeBorder = 3,
};
enum cudaTextureFilterMode {
    cudaFilterModePoint = 0,
    cudaFilterModeLinear = 1,
};
enum cudaTextureReadMode {
    cudaReadModeElementType = 0,
    cudaReadModeNormalizedFloat = 1,
};
struct cudaTextureDesc {
    enum cudaTextureAddressMode addressMode[3];
    enum cudaTextureFilterMode filterMode;
    enum cudaTextureReadMode readMode;
    int sRGB;
    float borderColor[4];
    int normalizedCoords;
    unsigned int maxAnisotropy;
    enum cudaTextureFilterMode mipmapFilterMode;
    float mipmapLevelBias;
    float minMipmapLevelClamp;
    float maxMipmapLevelClamp;
    int disableTrilinearOptimization;
    int seamlessCubemap;
};
struct cudaResourceViewDesc;
typedef unsigned long long cudaTextureObject_t;

/* ---- events, streams, devices ------------------------------------------------------ */
struct CUevent_st;
typedef struct CUevent_st *cudaEvent_t;
/* a stream: work runs when it is issued, so a stream only has to be valid */
struct CUstream_st {
    unsigned magic;
};
typedef struct CUstream_st *cudaStream_t;

enum cudaDeviceAttr {
    cudaDevAttrMaxThreadsPerBlock = 1,
    cudaDevAttrMaxBlockDimX = 2,
    cudaDevAttrMaxBlockDimY = 3,
    cudaDevAttrMaxBlockDimZ = 4,
    cudaDevAttrMaxGridDimX = 5,
    cudaDevAttrMaxGridDimY = 6,
    cudaDevAttrMaxGridDimZ = 7,
    cudaDevAttrMaxSharedMemoryPerBlock = 8,
    cudaDevAttrTotalConstantMemory = 9,
    cudaDevAttrWarpSize = 10,
    cudaDevAttrMaxRegistersPerBlock = 12,
    cudaDevAttrMultiProcessorCount = 16,
    cudaDevAttrMaxTexture2DWidth = 22,
    cudaDevAttrMaxTexture2DHeight = 23,
    cudaDevAttrMaxTexture3DWidth = 24,
    cudaDevAttrMaxTexture3DHeight = 25,
    cudaDevAttrMaxTexture3DDepth = 26,
    cudaDevAttrComputeCapabilityMajor = 75,
    cudaDevAttrComputeCapabilityMinor = 76,
};
/* The fields of cudaDeviceProp that describe what the emulator enforces. */
struct cudaDeviceProp {
    char name[256];
    size_t totalGlobalMem;
    size_t sharedMemPerBlock;
    int regsPerBlock;
    int warpSize;
    int maxThreadsPerBlock;
    int maxThreadsDim[3];
    int maxGridSize[3];
    size_t totalConstMem;
    int major;
    int minor;
    int multiProcessorCount;
    int maxTexture2D[2];
    int maxTexture3D[3];
};

static const int warpSize = 32;

/* ---- the emulator ------------------------------------------------------------------ */
namespace imcl_emu {

/* The device it emulates: the limits of compute capability 8.0. */
enum : unsigned {
    max_threads = 1024,
    max_block_x = 1024,
    max_block_y = 1024,
    max_block_z = 64,
    max_grid_x = 2147483647u,
    max_grid_yz = 65535,
    shared_per_block = 49152,
    constant_bytes = 65536,
    tex2d_w = 131072,
    tex2d_h = 65536,
    tex3d_max = 16384,
};

[[noreturn]] __attribute__((format(printf, 1, 2))) inline void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fflush(stdout);
    fputs("nvcc-cpu: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    abort();
}

/* A growing array of POD records (zero-initialised as a static: usable from static
 * constructors of any translation unit). */
template <class T> struct list {
    T *v;
    size_t n, cap;
    void push(const T &x)
    {
        if (n == cap) {
            size_t c = cap ? 2 * cap : 16;
            T *nv = (T *)realloc((void *)v, c * sizeof(T));
            if (!nv)
                die("out of host memory");
            v = nv;
            cap = c;
        }
        v[n++] = x;
    }
    void remove(size_t i)
    {
        memmove((void *)(v + i), (void *)(v + i + 1), (n - i - 1) * sizeof(T));
        n--;
    }
};

struct alloc_rec {
    char *p;
    size_t n;
};
struct symbol_rec {
    const char *p;
    size_t n;
    const char *name;
};
struct config {
    int ready;
    int devices;         /* IMCL_EMU_DEVICES: 1, or 0 for "no device" */
    int order;           /* IMCL_EMU_ORDER: 0 forward, 1 reverse, 2 shuffle */
    unsigned long long seed; /* IMCL_EMU_SEED */
    size_t stack;        /* IMCL_EMU_STACK: bytes of each thread's stack */
    size_t memory;       /* IMCL_EMU_MEMORY: bytes of device memory */
    int leaks;           /* IMCL_EMU_LEAKS: 0 off, 1 warn, 2 fail */
};

inline config g_cfg;
inline cudaError_t g_last_error;
inline list<alloc_rec> g_allocs;   /* device memory, sorted by address */
inline list<symbol_rec> g_symbols; /* __constant__ symbols */
inline size_t g_used;              /* bytes of device memory in use */
inline long g_arrays, g_textures, g_events, g_streams; /* live objects (leak report) */
const unsigned stream_magic = 0x57A357A3u;
/* 0 (the default stream) or a stream cudaStreamCreate made and nobody destroyed. */
inline bool valid_stream(cudaStream_t s) { return !s || s->magic == stream_magic; }
inline int g_atexit;

inline unsigned long long env_number(const char *name, unsigned long long dflt)
{
    const char *s = getenv(name);
    if (!s || !*s)
        return dflt;
    char *end;
    unsigned long long v = strtoull(s, &end, 0);
    if (*end)
        die("%s=%s is not a number", name, s);
    return v;
}

inline void leak_report()
{
    size_t bytes = 0;
    for (size_t i = 0; i < g_allocs.n; i++)
        bytes += g_allocs.v[i].n;
    if (!g_allocs.n && !g_arrays && !g_textures && !g_events && !g_streams)
        return;
    fflush(stdout);
    fprintf(stderr,
            "nvcc-cpu: at exit: %zu device allocation(s) of %zu bytes, %ld CUDA array(s), %ld texture "
            "object(s), %ld event(s), %ld stream(s) not freed\n",
            g_allocs.n, bytes, g_arrays, g_textures, g_events, g_streams);
    if (g_cfg.leaks == 2) {
        fflush(NULL);
        _exit(1);
    }
}

inline const config &cfg()
{
    if (!g_cfg.ready) {
        g_cfg.devices = (int)env_number("IMCL_EMU_DEVICES", 1);
        const char *o = getenv("IMCL_EMU_ORDER");
        if (!o || !*o || !strcmp(o, "shuffle"))
            g_cfg.order = 2;
        else if (!strcmp(o, "forward"))
            g_cfg.order = 0;
        else if (!strcmp(o, "reverse"))
            g_cfg.order = 1;
        else
            die("IMCL_EMU_ORDER=%s: expected forward, reverse or shuffle", o);
        g_cfg.seed = env_number("IMCL_EMU_SEED", 1);
        g_cfg.stack = (size_t)env_number("IMCL_EMU_STACK", 64 * 1024);
        if (g_cfg.stack < 16 * 1024)
            die("IMCL_EMU_STACK=%zu: at least 16384 bytes", g_cfg.stack);
        g_cfg.memory = (size_t)env_number("IMCL_EMU_MEMORY", (unsigned long long)16 << 30);
        const char *l = getenv("IMCL_EMU_LEAKS");
        if (!l || !*l || !strcmp(l, "off"))
            g_cfg.leaks = 0;
        else if (!strcmp(l, "warn"))
            g_cfg.leaks = 1;
        else if (!strcmp(l, "fail"))
            g_cfg.leaks = 2;
        else
            die("IMCL_EMU_LEAKS=%s: expected off, warn or fail", l);
        g_cfg.ready = 1;
    }
    return g_cfg;
}

inline void track_exit()
{
    if (!g_atexit && cfg().leaks) {
        g_atexit = 1;
        atexit(leak_report);
    }
}

inline cudaError_t fail(cudaError_t e)
{
    g_last_error = e;
    return e;
}

/* The device allocation holding [p, p + n), or NULL. */
inline const alloc_rec *find_alloc(const void *p, size_t n)
{
    const char *c = (const char *)p;
    size_t lo = 0, hi = g_allocs.n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (g_allocs.v[mid].p <= c)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return NULL;
    const alloc_rec *a = &g_allocs.v[lo - 1];
    if (c >= a->p && (size_t)(c - a->p) <= a->n && n <= a->n - (size_t)(c - a->p))
        return a;
    return NULL;
}

inline const symbol_rec *find_symbol(const void *p)
{
    for (size_t i = 0; i < g_symbols.n; i++)
        if (g_symbols.v[i].p == (const char *)p)
            return &g_symbols.v[i];
    return NULL;
}

/* A __constant__ symbol, registered by the line nvcc-cpu adds after its declaration. */
struct symbol_reg {
    symbol_reg(const void *p, size_t n, const char *name)
    {
        symbol_rec r = {(const char *)p, n, name};
        g_symbols.push(r);
    }
};

/* ---- fibers ------------------------------------------------------------------------ */
enum { F_RUN, F_BARRIER, F_WARP, F_DONE };

struct fiber {
    ucontext_t ctx;
    char *stack;
    unsigned state;
    unsigned lin; /* linear thread index in the block */
    uint3 tid;
    void *fake; /* ASan's fake stack while switched out */
};

struct warp_rec {
    unsigned arrived; /* lanes waiting in the current shuffle */
    unsigned ready;   /* lanes whose result is in res */
    unsigned mask;    /* the mask of the current shuffle */
    unsigned char op[32], size[32];
    int arg[32], width[32];
    unsigned long long val[32], res[32];
};

struct kernel_info {
    const char *name;
    unsigned max_threads;  /* __launch_bounds__, 0 when none */
    size_t static_shared;  /* bytes of its __shared__ variables */
};

struct sched {
    fiber *f;
    unsigned cap;         /* fibers (and stacks) allocated */
    char *stacks;
    size_t stack_size, stride, map_bytes;
    warp_rec *w;
    unsigned *perm;
    unsigned n;           /* threads in the block */
    fiber *cur;           /* the fiber running, NULL on the host */
    ucontext_t main;
    unsigned long long block_serial;
    unsigned long long rng;
    void (*thunk)(void *);
    void *args;
    const char *kname;
    void *main_fake;
    const void *main_bottom;
    size_t main_size;
};
inline sched g_sched;

inline unsigned long long next_random()
{
    unsigned long long x = g_sched.rng;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    g_sched.rng = x;
    return x;
}

inline void switch_start(void **fake, const void *bottom, size_t size)
{
#ifdef IMCL_EMU_ASAN
    __sanitizer_start_switch_fiber(fake, bottom, size);
#else
    (void)fake;
    (void)bottom;
    (void)size;
#endif
}

inline void switch_finish(void *fake, const void **bottom, size_t *size)
{
#ifdef IMCL_EMU_ASAN
    __sanitizer_finish_switch_fiber(fake, bottom, size);
#else
    (void)fake;
    (void)bottom;
    (void)size;
#endif
}

/* From the running fiber back to the scheduler, leaving it in `state`. */
__attribute__((noinline)) inline void yield(unsigned state)
{
    sched &s = g_sched;
    fiber *f = s.cur;
    f->state = state;
    switch_start(state == F_DONE ? NULL : &f->fake, s.main_bottom, s.main_size);
    swapcontext(&f->ctx, &s.main);
    switch_finish(f->fake, NULL, NULL);
}

inline void fiber_main()
{
    sched &s = g_sched;
    switch_finish(NULL, &s.main_bottom, &s.main_size);
    s.thunk(s.args);
    yield(F_DONE);
    die("a finished thread was resumed");
}

}  /* namespace imcl_emu */

/* The indices of the running thread: set by the scheduler each time it resumes one. */
inline uint3 threadIdx;
inline uint3 blockIdx;
inline dim3 blockDim;
inline dim3 gridDim;

namespace imcl_emu {

__attribute__((noinline)) inline void resume(fiber *f)
{
    sched &s = g_sched;
    s.cur = f;
    threadIdx = f->tid;
    switch_start(&s.main_fake, f->stack, s.stack_size);
    swapcontext(&s.main, &f->ctx);
    switch_finish(s.main_fake, NULL, NULL);
    s.cur = NULL;
}

/* Room for n fibers, their stacks (with a guard page below each) and their warps. */
inline void reserve(unsigned n)
{
    sched &s = g_sched;
    if (n <= s.cap)
        return;
    if (s.stacks)
        munmap(s.stacks, s.map_bytes);
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    s.stack_size = (cfg().stack + page - 1) / page * page;
    s.stride = s.stack_size + page;
    s.map_bytes = s.stride * n;
    void *m = mmap(NULL, s.map_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED)
        die("cannot map %zu bytes of thread stacks", s.map_bytes);
    s.stacks = (char *)m;
    for (unsigned i = 0; i < n; i++)
        if (mprotect(s.stacks + i * s.stride, page, PROT_NONE) != 0)
            die("mprotect of a stack guard page failed");
    fiber *f = (fiber *)realloc((void *)s.f, n * sizeof(fiber));
    warp_rec *w = (warp_rec *)realloc((void *)s.w, ((n + 31) / 32) * sizeof(warp_rec));
    unsigned *p = (unsigned *)realloc((void *)s.perm, n * sizeof(unsigned));
    if (!f || !w || !p)
        die("out of host memory");
    s.f = f;
    s.w = w;
    s.perm = p;
    for (unsigned i = 0; i < n; i++)
        s.f[i].stack = s.stacks + i * s.stride + page;
    s.cap = n;
}

/* The order of this round: a permutation of 0..n-1 in s.perm. */
inline void make_order(unsigned n)
{
    sched &s = g_sched;
    for (unsigned i = 0; i < n; i++)
        s.perm[i] = cfg().order == 1 ? n - 1 - i : i;
    if (cfg().order == 2)
        for (unsigned i = n; i > 1; i--) {
            unsigned j = (unsigned)(next_random() % i);
            unsigned t = s.perm[i - 1];
            s.perm[i - 1] = s.perm[j];
            s.perm[j] = t;
        }
}

inline unsigned live_lanes(unsigned warp)
{
    sched &s = g_sched;
    unsigned m = 0;
    for (unsigned l = 0; l < 32 && warp * 32 + l < s.n; l++)
        if (s.f[warp * 32 + l].state != F_DONE)
            m |= 1u << l;
    return m;
}

/* The shuffle of warp `warp` when every live lane of its mask has arrived: the result
 * of each lane as PTX shfl.sync computes it (a lane that did not take part yields all
 * one bits: undefined on a GPU). */
inline bool warp_try_complete(unsigned warp)
{
    sched &s = g_sched;
    warp_rec &W = s.w[warp];
    if (!W.arrived)
        return false;
    const unsigned need = W.mask & live_lanes(warp);
    if ((W.arrived & need) != need)
        return false;
    for (unsigned l = 0; l < 32; l++) {
        if (!(W.arrived >> l & 1))
            continue;
        const int width = W.width[l];
        const int seg = (32 - width) & 31;
        const int lane = (int)l;
        const int cval = W.op[l] == 1 ? 0 : 31;
        const int max_lane = (lane & seg) | (cval & ~seg);
        const int min_lane = lane & seg;
        const int b = W.arg[l];
        int j = lane;
        bool pval = true;
        switch (W.op[l]) {
        case 0: j = min_lane | (b & ~seg & 31); pval = j <= max_lane; break; /* idx */
        case 1: j = lane - b; pval = j >= max_lane; break;                   /* up */
        case 2: j = lane + b; pval = j <= max_lane; break;                   /* down */
        default: j = lane ^ b; pval = j <= max_lane; break;                  /* xor */
        }
        if (!pval)
            j = lane;
        W.res[l] = j >= 0 && j < 32 && (W.arrived >> j & 1) ? W.val[j] : ~0ull;
        W.ready |= 1u << l;
        fiber &f = s.f[warp * 32 + l];
        if (f.state == F_WARP)
            f.state = F_RUN;
    }
    W.arrived = 0;
    return true;
}

template <class T> inline T shuffle(const char *what, int op, unsigned mask, T var, int arg, int width)
{
    static_assert(std::is_arithmetic<T>::value && sizeof(T) <= 8, "nvcc-cpu: shuffles of 1 to 8 byte numbers");
    sched &s = g_sched;
    fiber *f = s.cur;
    if (!f)
        die("%s called outside a kernel", what);
    if (width < 1 || width > 32 || (width & (width - 1)))
        die("%s in kernel %s: width %d is not a power of 2 from 1 to 32", what, s.kname, width);
    const unsigned lane = f->lin & 31, warp = f->lin >> 5;
    warp_rec &W = s.w[warp];
    if (!(mask >> lane & 1))
        die("%s in kernel %s: lane %u (thread %u,%u,%u) calls it with mask 0x%08x, which lacks it", what, s.kname,
            lane, f->tid.x, f->tid.y, f->tid.z, mask);
    if (W.arrived && W.mask != mask)
        die("%s in kernel %s: the lanes of warp %u disagree on the mask (0x%08x, 0x%08x)", what, s.kname, warp,
            W.mask, mask);
    W.mask = mask;
    unsigned long long v = 0;
    memcpy(&v, &var, sizeof var);
    W.val[lane] = v;
    W.op[lane] = (unsigned char)op;
    W.size[lane] = (unsigned char)sizeof(T);
    W.arg[lane] = arg;
    W.width[lane] = width;
    W.arrived |= 1u << lane;
    for (unsigned l = 0; l < 32; l++)
        if ((W.arrived >> l & 1) && (W.size[l] != sizeof(T) || W.op[l] != op))
            die("%s in kernel %s: the lanes of warp %u are in different shuffles", what, s.kname, warp);
    if (!warp_try_complete(warp))
        yield(F_WARP);
    if (!(W.ready >> lane & 1))
        die("%s in kernel %s: resumed without a result", what, s.kname);
    W.ready &= ~(1u << lane);
    T r;
    memcpy(&r, &W.res[lane], sizeof r);
    return r;
}

/* A fresh context for f, to run the kernel from the start of its stack. */
__attribute__((noinline)) inline void start_fiber(fiber *f)
{
    f->fake = NULL;
#ifdef IMCL_EMU_ASAN
    __asan_unpoison_memory_region(f->stack, g_sched.stack_size);
#endif
    if (getcontext(&f->ctx) != 0)
        die("getcontext failed");
    f->ctx.uc_stack.ss_sp = f->stack;
    f->ctx.uc_stack.ss_size = g_sched.stack_size;
    f->ctx.uc_link = NULL;
    makecontext(&f->ctx, fiber_main, 0);
}

/* A block: its threads as fibers, resumed in the configured order until all are done;
 * a barrier opens when every thread still running waits at it. */
inline void run_block(unsigned n)
{
    sched &s = g_sched;
    s.block_serial++;
    for (unsigned i = 0; i < n; i++) {
        fiber &f = s.f[i];
        f.state = F_RUN;
        f.lin = i;
        f.tid.x = i % blockDim.x;
        f.tid.y = i / blockDim.x % blockDim.y;
        f.tid.z = i / (blockDim.x * blockDim.y);
        start_fiber(&f);
    }
    for (unsigned w = 0; w < (n + 31) / 32; w++) {
        s.w[w].arrived = 0;
        s.w[w].ready = 0;
    }
    unsigned live = n;
    while (live) {
        make_order(n);
        for (unsigned k = 0; k < n; k++) {
            fiber &f = s.f[s.perm[k]];
            if (f.state != F_RUN)
                continue;
            resume(&f);
            if (f.state == F_DONE) {
                live--;
                warp_try_complete(f.lin >> 5); /* a lane that left may complete a shuffle */
            }
        }
        if (!live)
            break;
        unsigned run = 0, bar = 0;
        for (unsigned i = 0; i < n; i++) {
            run += s.f[i].state == F_RUN;
            bar += s.f[i].state == F_BARRIER;
        }
        if (run)
            continue;
        if (bar == live) {
            for (unsigned i = 0; i < n; i++)
                if (s.f[i].state == F_BARRIER)
                    s.f[i].state = F_RUN;
            continue;
        }
        die("kernel %s, block (%u,%u,%u): deadlock: %u thread(s) wait at __syncthreads() and %u in a warp "
            "shuffle whose lanes never all arrive",
            s.kname, blockIdx.x, blockIdx.y, blockIdx.z, bar, live - bar);
    }
}

inline unsigned long long gcd(unsigned long long a, unsigned long long b)
{
    while (b) {
        unsigned long long t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* Every launch that breaks a limit fails with cudaErrorInvalidValue, as CUDA 13.0 with
 * driver 580 reports it on an H100 (scripts/gpu-check.sh; CUDA 12 reported
 * cudaErrorInvalidConfiguration, and cudaErrorLaunchOutOfResources past
 * __launch_bounds__). */
inline cudaError_t launch_check(const kernel_info &k, dim3 g, dim3 b, size_t shmem)
{
    if (!cfg().devices)
        return cudaErrorNoDevice;
    const unsigned long long threads = (unsigned long long)b.x * b.y * b.z;
    if (!b.x || !b.y || !b.z || !g.x || !g.y || !g.z || b.x > max_block_x || b.y > max_block_y ||
        b.z > max_block_z || threads > max_threads || g.x > max_grid_x || g.y > max_grid_yz ||
        g.z > max_grid_yz || k.static_shared + shmem > shared_per_block ||
        (k.max_threads && threads > k.max_threads))
        return cudaErrorInvalidValue;
    return cudaSuccess;
}

/* A launch: checked as a GPU checks it, then every block run before it returns. */
inline void run_grid(const kernel_info &k, dim3 g, dim3 b, size_t shmem, void (*thunk)(void *), void *args)
{
    sched &s = g_sched;
    if (s.cur)
        die("kernel %s launched from inside kernel %s", k.name, s.kname);
    const cudaError_t e = launch_check(k, g, b, shmem);
    if (e != cudaSuccess) {
        fail(e);
        return;
    }
    const unsigned n = b.x * b.y * b.z;
    reserve(n);
    s.n = n;
    s.thunk = thunk;
    s.args = args;
    s.kname = k.name;
    if (!s.rng)
        s.rng = cfg().seed * 0x9E3779B97F4A7C15ull + 1;
    gridDim = g;
    blockDim = b;
    const unsigned long long nb = (unsigned long long)g.x * g.y * g.z;
    unsigned long long mul = 1, add = 0;
    if (cfg().order == 2 && nb > 1) {
        /* blocks in the order i -> (mul * i + add) mod nb, mul prime to nb */
        do
            mul = next_random() % nb;
        while (mul == 0 || gcd(mul, nb) != 1);
        add = next_random() % nb;
    }
    for (unsigned long long i = 0; i < nb; i++) {
        unsigned long long j = cfg().order == 1 ? nb - 1 - i : i;
        if (cfg().order == 2)
            j = (unsigned long long)(((unsigned __int128)mul * i + add) % nb);
        blockIdx.x = (unsigned)(j % g.x);
        blockIdx.y = (unsigned)(j / g.x % g.y);
        blockIdx.z = (unsigned)(j / ((unsigned long long)g.x * g.y));
        run_block(n);
    }
}

template <class... P> struct launcher {
    void (*k)(P...);
    const kernel_info *info;
    dim3 g, b;
    size_t shmem;
    template <class... A> void operator()(A &&...a) const
    {
        static_assert(sizeof...(A) == sizeof...(P), "nvcc-cpu: wrong number of kernel arguments");
        struct pack {
            void (*k)(P...);
            std::tuple<typename std::decay<P>::type...> args;
            static void run(void *p)
            {
                pack *q = (pack *)p;
                std::tuple<typename std::decay<P>::type...> mine = q->args; /* each thread's own copy */
                std::apply(q->k, mine);
            }
        };
        pack pk = {k, std::tuple<typename std::decay<P>::type...>(std::forward<A>(a)...)};
        run_grid(*info, g, b, shmem, &pack::run, &pk);
    }
};

struct kernel_rec {
    const void *k;
    const kernel_info *info;
};
inline list<kernel_rec> g_kernels;

/* A kernel's limits, registered by the line nvcc-cpu adds after its body. */
struct kernel_reg {
    kernel_reg(const void *k, const kernel_info *info)
    {
        kernel_rec r = {k, info};
        g_kernels.push(r);
    }
};

inline const kernel_info *info_of(const void *k)
{
    static const kernel_info unknown = {"(a kernel template)", 0, 0};
    for (size_t i = 0; i < g_kernels.n; i++)
        if (g_kernels.v[i].k == k)
            return g_kernels.v[i].info;
    return &unknown;
}

/* k<<<g, b, shmem, stream>>>(args) becomes launch(k, g, b, shmem, stream)(args). */
template <class... P>
inline launcher<P...> launch(void (*k)(P...), dim3 g, dim3 b, size_t shmem = 0, cudaStream_t stream = 0)
{
    if (!valid_stream(stream))
        die("kernel %s launched into a stream that is not one", info_of((const void *)k)->name);
    launcher<P...> l = {k, info_of((const void *)k), g, b, shmem};
    return l;
}

/* __shared__ variable v is poisoned by the first thread of each block to reach it. */
inline void shared_touch(unsigned long long *serial, void *p, size_t n)
{
    if (*serial != g_sched.block_serial) {
        *serial = g_sched.block_serial;
        memset(p, 0xFF, n);
    }
}

inline void barrier()
{
    if (!g_sched.cur)
        die("__syncthreads() called outside a kernel");
    yield(F_BARRIER);
}

}  /* namespace imcl_emu */

#define IMCL_EMU_SHARED(name)                                                                                 \
    static unsigned long long imcl_emu_serial_##name;                                                          \
    ::imcl_emu::shared_touch(&imcl_emu_serial_##name, (void *)&(name), sizeof(name))

/* ---- device functions ------------------------------------------------------------- */
inline void __syncthreads() { imcl_emu::barrier(); }

template <class T> inline T __shfl_sync(unsigned mask, T var, int srcLane, int width = warpSize)
{
    return imcl_emu::shuffle("__shfl_sync", 0, mask, var, srcLane, width);
}
template <class T> inline T __shfl_up_sync(unsigned mask, T var, unsigned int delta, int width = warpSize)
{
    return imcl_emu::shuffle("__shfl_up_sync", 1, mask, var, delta > 64 ? 64 : (int)delta, width);
}
template <class T> inline T __shfl_down_sync(unsigned mask, T var, unsigned int delta, int width = warpSize)
{
    return imcl_emu::shuffle("__shfl_down_sync", 2, mask, var, delta > 64 ? 64 : (int)delta, width);
}
template <class T> inline T __shfl_xor_sync(unsigned mask, T var, int laneMask, int width = warpSize)
{
    return imcl_emu::shuffle("__shfl_xor_sync", 3, mask, var, laneMask, width);
}

inline double __hiloint2double(int hi, int lo)
{
    const unsigned long long bits = (unsigned long long)(unsigned)hi << 32 | (unsigned)lo;
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

/* min and max of CUDA's device code, for every arithmetic type */
#define IMCL_EMU_MINMAX(T)                                                                                    \
    inline T min(T a, T b) { return a < b ? a : b; }                                                          \
    inline T max(T a, T b) { return a > b ? a : b; }
IMCL_EMU_MINMAX(int)
IMCL_EMU_MINMAX(unsigned int)
IMCL_EMU_MINMAX(long)
IMCL_EMU_MINMAX(unsigned long)
IMCL_EMU_MINMAX(long long)
IMCL_EMU_MINMAX(unsigned long long)
#undef IMCL_EMU_MINMAX
inline float min(float a, float b) { return fminf(a, b); }
inline float max(float a, float b) { return fmaxf(a, b); }
inline double min(double a, double b) { return fmin(a, b); }
inline double max(double a, double b) { return fmax(a, b); }

/* ---- errors and devices ------------------------------------------------------------- */
inline const char *cudaGetErrorName(cudaError_t e)
{
    switch (e) {
    case cudaSuccess: return "cudaSuccess";
    case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
    case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
    case cudaErrorInvalidConfiguration: return "cudaErrorInvalidConfiguration";
    case cudaErrorInvalidPitchValue: return "cudaErrorInvalidPitchValue";
    case cudaErrorInvalidSymbol: return "cudaErrorInvalidSymbol";
    case cudaErrorInvalidTexture: return "cudaErrorInvalidTexture";
    case cudaErrorInvalidChannelDescriptor: return "cudaErrorInvalidChannelDescriptor";
    case cudaErrorInvalidMemcpyDirection: return "cudaErrorInvalidMemcpyDirection";
    case cudaErrorNoDevice: return "cudaErrorNoDevice";
    case cudaErrorInvalidDevice: return "cudaErrorInvalidDevice";
    case cudaErrorInvalidResourceHandle: return "cudaErrorInvalidResourceHandle";
    case cudaErrorNotReady: return "cudaErrorNotReady";
    case cudaErrorLaunchOutOfResources: return "cudaErrorLaunchOutOfResources";
    }
    return "cudaErrorUnknown";
}

inline const char *cudaGetErrorString(cudaError_t e)
{
    switch (e) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInvalidConfiguration: return "invalid configuration argument";
    case cudaErrorInvalidPitchValue: return "invalid pitch argument";
    case cudaErrorInvalidSymbol: return "invalid device symbol";
    case cudaErrorInvalidTexture: return "invalid texture reference";
    case cudaErrorInvalidChannelDescriptor: return "invalid channel descriptor";
    case cudaErrorInvalidMemcpyDirection: return "invalid copy direction for memcpy";
    case cudaErrorNoDevice: return "no CUDA-capable device is detected";
    case cudaErrorInvalidDevice: return "invalid device ordinal";
    case cudaErrorInvalidResourceHandle: return "invalid resource handle";
    case cudaErrorNotReady: return "device not ready";
    case cudaErrorLaunchOutOfResources: return "too many resources requested for launch";
    }
    return "unrecognized error code";
}

inline cudaError_t cudaGetLastError()
{
    const cudaError_t e = imcl_emu::g_last_error;
    imcl_emu::g_last_error = cudaSuccess;
    return e;
}

inline cudaError_t cudaPeekAtLastError() { return imcl_emu::g_last_error; }

#define IMCL_EMU_DEVICE()                                                                                     \
    do {                                                                                                       \
        if (!imcl_emu::cfg().devices)                                                                          \
            return imcl_emu::fail(cudaErrorNoDevice);                                                          \
    } while (0)

inline cudaError_t cudaGetDeviceCount(int *count)
{
    if (!count)
        return imcl_emu::fail(cudaErrorInvalidValue);
    *count = imcl_emu::cfg().devices ? 1 : 0;
    IMCL_EMU_DEVICE();
    return cudaSuccess;
}

inline cudaError_t cudaGetDevice(int *device)
{
    IMCL_EMU_DEVICE();
    if (!device)
        return imcl_emu::fail(cudaErrorInvalidValue);
    *device = 0;
    return cudaSuccess;
}

inline cudaError_t cudaSetDevice(int device)
{
    IMCL_EMU_DEVICE();
    return device == 0 ? cudaSuccess : imcl_emu::fail(cudaErrorInvalidDevice);
}

inline cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device)
{
    IMCL_EMU_DEVICE();
    if (device != 0)
        return imcl_emu::fail(cudaErrorInvalidDevice);
    if (!value)
        return imcl_emu::fail(cudaErrorInvalidValue);
    using namespace imcl_emu;
    switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: *value = max_threads; break;
    case cudaDevAttrMaxBlockDimX: *value = max_block_x; break;
    case cudaDevAttrMaxBlockDimY: *value = max_block_y; break;
    case cudaDevAttrMaxBlockDimZ: *value = max_block_z; break;
    case cudaDevAttrMaxGridDimX: *value = (int)max_grid_x; break;
    case cudaDevAttrMaxGridDimY:
    case cudaDevAttrMaxGridDimZ: *value = max_grid_yz; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: *value = shared_per_block; break;
    case cudaDevAttrTotalConstantMemory: *value = constant_bytes; break;
    case cudaDevAttrWarpSize: *value = 32; break;
    case cudaDevAttrMaxRegistersPerBlock: *value = 65536; break;
    case cudaDevAttrMultiProcessorCount: *value = 1; break;
    case cudaDevAttrMaxTexture2DWidth: *value = tex2d_w; break;
    case cudaDevAttrMaxTexture2DHeight: *value = tex2d_h; break;
    case cudaDevAttrMaxTexture3DWidth:
    case cudaDevAttrMaxTexture3DHeight:
    case cudaDevAttrMaxTexture3DDepth: *value = tex3d_max; break;
    case cudaDevAttrComputeCapabilityMajor: *value = 8; break;
    case cudaDevAttrComputeCapabilityMinor: *value = 0; break;
    default: return imcl_emu::fail(cudaErrorInvalidValue);
    }
    return cudaSuccess;
}

inline cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device)
{
    IMCL_EMU_DEVICE();
    if (device != 0)
        return imcl_emu::fail(cudaErrorInvalidDevice);
    if (!prop)
        return imcl_emu::fail(cudaErrorInvalidValue);
    using namespace imcl_emu;
    memset(prop, 0, sizeof *prop);
    snprintf(prop->name, sizeof prop->name, "nvcc-cpu emulated device (compute capability 8.0)");
    prop->totalGlobalMem = cfg().memory;
    prop->sharedMemPerBlock = shared_per_block;
    prop->regsPerBlock = 65536;
    prop->warpSize = 32;
    prop->maxThreadsPerBlock = max_threads;
    prop->maxThreadsDim[0] = max_block_x;
    prop->maxThreadsDim[1] = max_block_y;
    prop->maxThreadsDim[2] = max_block_z;
    prop->maxGridSize[0] = (int)max_grid_x;
    prop->maxGridSize[1] = max_grid_yz;
    prop->maxGridSize[2] = max_grid_yz;
    prop->totalConstMem = constant_bytes;
    prop->major = 8;
    prop->minor = 0;
    prop->multiProcessorCount = 1;
    prop->maxTexture2D[0] = tex2d_w;
    prop->maxTexture2D[1] = tex2d_h;
    prop->maxTexture3D[0] = prop->maxTexture3D[1] = prop->maxTexture3D[2] = tex3d_max;
    return cudaSuccess;
}

/* Kernels run when launched: there is never anything to wait for. */
inline cudaError_t cudaDeviceSynchronize()
{
    IMCL_EMU_DEVICE();
    return cudaSuccess;
}

/* ---- device memory -------------------------------------------------------------------- */
inline cudaError_t cudaMalloc(void **p, size_t n)
{
    IMCL_EMU_DEVICE();
    if (!p)
        return imcl_emu::fail(cudaErrorInvalidValue);
    *p = NULL;
    if (n == 0)
        return cudaSuccess;
    using namespace imcl_emu;
    track_exit();
    if (n > cfg().memory - g_used)
        return fail(cudaErrorMemoryAllocation);
    const size_t rounded = (n + 255) / 256 * 256;
    char *m = (char *)aligned_alloc(256, rounded);
    if (!m)
        return fail(cudaErrorMemoryAllocation);
    memset(m, 0xFF, rounded); /* device memory starts undefined */
    alloc_rec r = {m, n};
    size_t i = g_allocs.n;
    g_allocs.push(r);
    while (i > 0 && g_allocs.v[i - 1].p > m) {
        g_allocs.v[i] = g_allocs.v[i - 1];
        i--;
    }
    g_allocs.v[i] = r;
    g_used += n;
    *p = m;
    return cudaSuccess;
}

template <class T> inline cudaError_t cudaMalloc(T **p, size_t n) { return cudaMalloc((void **)p, n); }

inline cudaError_t cudaFree(void *p)
{
    IMCL_EMU_DEVICE();
    if (!p)
        return cudaSuccess;
    using namespace imcl_emu;
    for (size_t i = 0; i < g_allocs.n; i++)
        if (g_allocs.v[i].p == (char *)p) {
            g_used -= g_allocs.v[i].n;
            g_allocs.remove(i);
            free(p);
            return cudaSuccess;
        }
    return fail(cudaErrorInvalidValue);
}

namespace imcl_emu {
/* Checks the device side(s) of a copy of n bytes: each must lie in one allocation. */
inline cudaError_t check_copy(void *dst, const void *src, size_t n, cudaMemcpyKind kind)
{
    switch (kind) {
    case cudaMemcpyHostToHost: return cudaSuccess;
    case cudaMemcpyHostToDevice: return find_alloc(dst, n) ? cudaSuccess : cudaErrorInvalidValue;
    case cudaMemcpyDeviceToHost: return find_alloc(src, n) ? cudaSuccess : cudaErrorInvalidValue;
    case cudaMemcpyDeviceToDevice:
        return find_alloc(dst, n) && find_alloc(src, n) ? cudaSuccess : cudaErrorInvalidValue;
    case cudaMemcpyDefault: return cudaSuccess;
    }
    return cudaErrorInvalidMemcpyDirection;
}
}  /* namespace imcl_emu */

inline cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, cudaMemcpyKind kind)
{
    IMCL_EMU_DEVICE();
    if (n == 0)
        return cudaSuccess;
    const cudaError_t e = imcl_emu::check_copy(dst, src, n, kind);
    if (e != cudaSuccess)
        return imcl_emu::fail(e);
    memmove(dst, src, n);
    return cudaSuccess;
}

inline cudaError_t cudaMemset(void *p, int value, size_t n)
{
    IMCL_EMU_DEVICE();
    if (n == 0)
        return cudaSuccess;
    if (!imcl_emu::find_alloc(p, n))
        return imcl_emu::fail(cudaErrorInvalidValue);
    memset(p, value, n);
    return cudaSuccess;
}

/* ---- __constant__ symbols ------------------------------------------------------------ */
inline cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset = 0,
                                      cudaMemcpyKind kind = cudaMemcpyHostToDevice)
{
    IMCL_EMU_DEVICE();
    const imcl_emu::symbol_rec *s = imcl_emu::find_symbol(symbol);
    if (!s)
        return imcl_emu::fail(cudaErrorInvalidSymbol);
    if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
        return imcl_emu::fail(cudaErrorInvalidMemcpyDirection);
    if (offset > s->n || count > s->n - offset)
        return imcl_emu::fail(cudaErrorInvalidValue);
    if (kind == cudaMemcpyDeviceToDevice && !imcl_emu::find_alloc(src, count))
        return imcl_emu::fail(cudaErrorInvalidValue);
    memcpy((char *)s->p + offset, src, count);
    return cudaSuccess;
}

template <class T>
inline cudaError_t cudaMemcpyToSymbol(const T &symbol, const void *src, size_t count, size_t offset = 0,
                                      cudaMemcpyKind kind = cudaMemcpyHostToDevice)
{
    return cudaMemcpyToSymbol((const void *)&symbol, src, count, offset, kind);
}

inline cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset = 0,
                                        cudaMemcpyKind kind = cudaMemcpyDeviceToHost)
{
    IMCL_EMU_DEVICE();
    const imcl_emu::symbol_rec *s = imcl_emu::find_symbol(symbol);
    if (!s)
        return imcl_emu::fail(cudaErrorInvalidSymbol);
    if (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
        return imcl_emu::fail(cudaErrorInvalidMemcpyDirection);
    if (offset > s->n || count > s->n - offset)
        return imcl_emu::fail(cudaErrorInvalidValue);
    if (kind == cudaMemcpyDeviceToDevice && !imcl_emu::find_alloc(dst, count))
        return imcl_emu::fail(cudaErrorInvalidValue);
    memcpy(dst, s->p + offset, count);
    return cudaSuccess;
}

template <class T>
inline cudaError_t cudaMemcpyFromSymbol(void *dst, const T &symbol, size_t count, size_t offset = 0,
                                        cudaMemcpyKind kind = cudaMemcpyDeviceToHost)
{
    return cudaMemcpyFromSymbol(dst, (const void *)&symbol, count, offset, kind);
}

/* ---- CUDA arrays ------------------------------------------------------------------------ */
struct cudaArray {
    unsigned magic;
    struct cudaChannelFormatDesc desc;
    size_t w, h, d;  /* as allocated: h is 0 for 1D, d is 0 for 1D and 2D */
    size_t elem;     /* bytes of one texel */
    char *data;
};

namespace imcl_emu {
enum : unsigned { array_magic = 0xA7A7A7A7u, texture_magic = 0x7E7E7E7Eu, event_magic = 0xE7E7E7E7u };

inline bool valid_array(cudaArray_const_t a) { return a && a->magic == array_magic; }

inline cudaError_t make_array(cudaArray_t *out, const cudaChannelFormatDesc *desc, size_t w, size_t h, size_t d)
{
    if (!out || !desc)
        return fail(cudaErrorInvalidValue);
    *out = NULL;
    const int bits = desc->x + desc->y + desc->z + desc->w;
    if (desc->x < 0 || desc->y < 0 || desc->z < 0 || desc->w < 0 || bits <= 0 || bits % 8 ||
        desc->f == cudaChannelFormatKindNone)
        return fail(cudaErrorInvalidChannelDescriptor);
    if (w == 0 || (d && !h))
        return fail(cudaErrorInvalidValue);
    if (d ? (w > tex3d_max || h > tex3d_max || d > tex3d_max) : (w > tex2d_w || h > tex2d_h))
        return fail(cudaErrorInvalidValue);
    const size_t elem = (size_t)bits / 8;
    const size_t bytes = w * (h ? h : 1) * (d ? d : 1) * elem;
    if (bytes > cfg().memory - g_used)
        return fail(cudaErrorMemoryAllocation);
    cudaArray *a = (cudaArray *)calloc(1, sizeof *a);
    char *data = (char *)malloc(bytes);
    if (!a || !data) {
        free(a);
        free(data);
        return fail(cudaErrorMemoryAllocation);
    }
    memset(data, 0xFF, bytes); /* undefined until written */
    a->magic = array_magic;
    a->desc = *desc;
    a->w = w;
    a->h = h;
    a->d = d;
    a->elem = elem;
    a->data = data;
    g_used += bytes;
    g_arrays++;
    track_exit();
    *out = a;
    return cudaSuccess;
}

inline size_t array_bytes(cudaArray_const_t a) { return a->w * (a->h ? a->h : 1) * (a->d ? a->d : 1) * a->elem; }
}  /* namespace imcl_emu */

inline cudaError_t cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc, size_t width,
                                   size_t height = 0, unsigned int flags = 0)
{
    IMCL_EMU_DEVICE();
    if (flags)
        imcl_emu::die("cudaMallocArray: flags 0x%x are not emulated", flags);
    return imcl_emu::make_array(array, desc, width, height, 0);
}

inline cudaError_t cudaMalloc3DArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                                     struct cudaExtent extent, unsigned int flags = 0)
{
    IMCL_EMU_DEVICE();
    if (flags)
        imcl_emu::die("cudaMalloc3DArray: flags 0x%x are not emulated", flags);
    return imcl_emu::make_array(array, desc, extent.width, extent.height, extent.depth);
}

inline cudaError_t cudaFreeArray(cudaArray_t a)
{
    IMCL_EMU_DEVICE();
    if (!a)
        return cudaSuccess;
    if (!imcl_emu::valid_array(a))
        return imcl_emu::fail(cudaErrorInvalidResourceHandle);
    imcl_emu::g_used -= imcl_emu::array_bytes(a);
    imcl_emu::g_arrays--;
    a->magic = 0;
    free(a->data);
    free(a);
    return cudaSuccess;
}

inline cudaError_t cudaArrayGetInfo(struct cudaChannelFormatDesc *desc, struct cudaExtent *extent,
                                    unsigned int *flags, cudaArray_t a)
{
    IMCL_EMU_DEVICE();
    if (!imcl_emu::valid_array(a))
        return imcl_emu::fail(cudaErrorInvalidResourceHandle);
    if (desc)
        *desc = a->desc;
    if (extent) {
        extent->width = a->w;
        extent->height = a->h;
        extent->depth = a->d;
    }
    if (flags)
        *flags = 0;
    return cudaSuccess;
}

inline cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                       size_t spitch, size_t width, size_t height, cudaMemcpyKind kind)
{
    IMCL_EMU_DEVICE();
    if (!imcl_emu::valid_array(dst))
        return imcl_emu::fail(cudaErrorInvalidResourceHandle);
    if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
        return imcl_emu::fail(cudaErrorInvalidMemcpyDirection);
    const size_t row = dst->w * dst->elem, rows = dst->h ? dst->h : 1;
    if (dst->d || wOffset > row || width > row - wOffset || hOffset > rows || height > rows - hOffset)
        return imcl_emu::fail(cudaErrorInvalidValue);
    if (spitch < width)
        return imcl_emu::fail(cudaErrorInvalidPitchValue);
    if (kind == cudaMemcpyDeviceToDevice && height && !imcl_emu::find_alloc(src, spitch * (height - 1) + width))
        return imcl_emu::fail(cudaErrorInvalidValue);
    for (size_t y = 0; y < height; y++)
        memcpy(dst->data + (hOffset + y) * row + wOffset, (const char *)src + y * spitch, width);
    return cudaSuccess;
}

inline cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                         size_t hOffset, size_t width, size_t height, cudaMemcpyKind kind)
{
    IMCL_EMU_DEVICE();
    if (!imcl_emu::valid_array(src))
        return imcl_emu::fail(cudaErrorInvalidResourceHandle);
    if (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
        return imcl_emu::fail(cudaErrorInvalidMemcpyDirection);
    const size_t row = src->w * src->elem, rows = src->h ? src->h : 1;
    if (src->d || wOffset > row || width > row - wOffset || hOffset > rows || height > rows - hOffset)
        return imcl_emu::fail(cudaErrorInvalidValue);
    if (dpitch < width)
        return imcl_emu::fail(cudaErrorInvalidPitchValue);
    if (kind == cudaMemcpyDeviceToDevice && height && !imcl_emu::find_alloc(dst, dpitch * (height - 1) + width))
        return imcl_emu::fail(cudaErrorInvalidValue);
    for (size_t y = 0; y < height; y++)
        memcpy((char *)dst + y * dpitch, src->data + (hOffset + y) * row + wOffset, width);
    return cudaSuccess;
}

static inline struct cudaExtent make_cudaExtent(size_t w, size_t h, size_t d)
{
    struct cudaExtent e = {w, h, d};
    return e;
}
static inline struct cudaPos make_cudaPos(size_t x, size_t y, size_t z)
{
    struct cudaPos p = {x, y, z};
    return p;
}
static inline struct cudaPitchedPtr make_cudaPitchedPtr(void *d, size_t p, size_t xsz, size_t ysz)
{
    struct cudaPitchedPtr r = {d, p, xsz, ysz};
    return r;
}

/* A 3D copy between a CUDA array and linear memory (pitched pointer); the extent is in
 * elements of the array, positions in the array in elements, in linear memory in bytes. */
inline cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p)
{
    IMCL_EMU_DEVICE();
    if (!p)
        return imcl_emu::fail(cudaErrorInvalidValue);
    const bool to_array = p->dstArray != NULL;
    if ((p->srcArray != NULL) == to_array || (to_array ? p->srcPtr.ptr == NULL : p->dstPtr.ptr == NULL) ||
        (to_array ? p->dstPtr.ptr != NULL : p->srcPtr.ptr != NULL))
        imcl_emu::die("cudaMemcpy3D: only copies between a CUDA array and linear memory are emulated");
    cudaArray_const_t a = to_array ? p->dstArray : p->srcArray;
    if (!imcl_emu::valid_array(a))
        return imcl_emu::fail(cudaErrorInvalidResourceHandle);
    const cudaMemcpyKind k = p->kind;
    if (k == cudaMemcpyHostToHost || (to_array && k == cudaMemcpyDeviceToHost) ||
        (!to_array && k == cudaMemcpyHostToDevice) || k > cudaMemcpyDefault)
        return imcl_emu::fail(cudaErrorInvalidMemcpyDirection);
    const struct cudaPos ap = to_array ? p->dstPos : p->srcPos, lp = to_array ? p->srcPos : p->dstPos;
    const struct cudaPitchedPtr lin = to_array ? p->srcPtr : p->dstPtr;
    const struct cudaExtent e = p->extent;
    const size_t ah = a->h ? a->h : 1, ad = a->d ? a->d : 1;
    if (ap.x > a->w || e.width > a->w - ap.x || ap.y > ah || e.height > ah - ap.y || ap.z > ad ||
        e.depth > ad - ap.z)
        return imcl_emu::fail(cudaErrorInvalidValue);
    const size_t row = e.width * a->elem;
    if (lin.pitch < lp.x + row)
        return imcl_emu::fail(cudaErrorInvalidPitchValue);
    if (e.height > 1 && lin.ysize < lp.y + e.height)
        return imcl_emu::fail(cudaErrorInvalidValue);
    const size_t ys = lin.ysize ? lin.ysize : 1;
    for (size_t z = 0; z < e.depth; z++)
        for (size_t y = 0; y < e.height; y++) {
            char *l = (char *)lin.ptr + ((lp.z + z) * ys + lp.y + y) * lin.pitch + lp.x;
            char *c = a->data + (((ap.z + z) * ah + ap.y + y) * a->w + ap.x) * a->elem;
            if (to_array)
                memcpy(c, l, row);
            else
                memcpy(l, c, row);
        }
    return cudaSuccess;
}

/* ---- channel formats ------------------------------------------------------------------- */
inline struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, enum cudaChannelFormatKind f)
{
    struct cudaChannelFormatDesc d = {x, y, z, w, f};
    return d;
}
template <class T> struct imcl_emu_channel;
#define IMCL_EMU_CHANNEL(T, X, Y, K)                                                                          \
    template <> struct imcl_emu_channel<T> {                                                                  \
        static struct cudaChannelFormatDesc get() { return cudaCreateChannelDesc(X, Y, 0, 0, K); }            \
    };
IMCL_EMU_CHANNEL(char, 8, 0, cudaChannelFormatKindSigned)
IMCL_EMU_CHANNEL(signed char, 8, 0, cudaChannelFormatKindSigned)
IMCL_EMU_CHANNEL(unsigned char, 8, 0, cudaChannelFormatKindUnsigned)
IMCL_EMU_CHANNEL(short, 16, 0, cudaChannelFormatKindSigned)
IMCL_EMU_CHANNEL(unsigned short, 16, 0, cudaChannelFormatKindUnsigned)
IMCL_EMU_CHANNEL(int, 32, 0, cudaChannelFormatKindSigned)
IMCL_EMU_CHANNEL(unsigned int, 32, 0, cudaChannelFormatKindUnsigned)
IMCL_EMU_CHANNEL(float, 32, 0, cudaChannelFormatKindFloat)
IMCL_EMU_CHANNEL(int2, 32, 32, cudaChannelFormatKindSigned)
#undef IMCL_EMU_CHANNEL
template <class T> inline struct cudaChannelFormatDesc cudaCreateChannelDesc() { return imcl_emu_channel<T>::get(); }

/* ---- texture objects --------------------------------------------------------------------- */
namespace imcl_emu {
struct texture {
    unsigned magic;
    cudaArray_t array;
    enum cudaTextureAddressMode mode[3];
};

inline texture *texture_of(cudaTextureObject_t t, const char *what)
{
    texture *x = (texture *)(uintptr_t)t;
    if (!x || x->magic != texture_magic)
        die("%s: %llu is not a texture object", what, t);
    if (!valid_array(x->array))
        die("%s: the CUDA array of texture object %llu was freed", what, t);
    return x;
}

/* The texel index of unnormalized coordinate c on an axis of n texels (point
 * filtering: floor), or -1 for a zero texel (border mode). */
inline long long texel(float c, size_t n, enum cudaTextureAddressMode mode)
{
    long long i;
    if (!(c >= 0.0f))
        i = -1; /* negative, or NaN */
    else if (c >= (float)n)
        i = (long long)n;
    else
        i = (long long)floorf(c);
    if (i >= 0 && i < (long long)n)
        return i;
    if (mode == cudaAddressModeClamp)
        return i < 0 ? 0 : (long long)n - 1;
    return -1;
}

inline void fetch(cudaTextureObject_t t, int dims, float x, float y, float z, void *out, size_t size,
                  struct cudaChannelFormatDesc want, const char *what)
{
    texture *tx = texture_of(t, what);
    cudaArray_const_t a = tx->array;
    if ((dims == 3) != (a->d != 0) || (dims == 2 && a->h == 0))
        die("%s on a %s CUDA array", what, a->d ? "3D" : a->h ? "2D" : "1D");
    if (memcmp(&want, &a->desc, sizeof want) != 0 || size != a->elem)
        die("%s: the type read does not match the channel format of the CUDA array", what);
    const long long i = texel(x, a->w, tx->mode[0]);
    const long long j = texel(y, a->h, tx->mode[1]);
    const long long k = dims == 3 ? texel(z, a->d, tx->mode[2]) : 0;
    if (i < 0 || j < 0 || k < 0) {
        memset(out, 0, size); /* the border colour, zero */
        return;
    }
    memcpy(out, a->data + (((size_t)k * a->h + (size_t)j) * a->w + (size_t)i) * a->elem, size);
}
}  /* namespace imcl_emu */

inline cudaError_t cudaCreateTextureObject(cudaTextureObject_t *t, const struct cudaResourceDesc *res,
                                           const struct cudaTextureDesc *desc,
                                           const struct cudaResourceViewDesc *view)
{
    IMCL_EMU_DEVICE();
    if (!t || !res || !desc)
        return imcl_emu::fail(cudaErrorInvalidValue);
    if (res->resType != cudaResourceTypeArray)
        imcl_emu::die("cudaCreateTextureObject: only textures over CUDA arrays are emulated");
    if (!imcl_emu::valid_array(res->res.array.array))
        return imcl_emu::fail(cudaErrorInvalidResourceHandle);
    if (view)
        imcl_emu::die("cudaCreateTextureObject: resource views are not emulated");
    if (desc->filterMode != cudaFilterModePoint || desc->readMode != cudaReadModeElementType ||
        desc->normalizedCoords || desc->sRGB)
        imcl_emu::die("cudaCreateTextureObject: only point filtering, element reads and unnormalized "
                      "coordinates are emulated");
    for (int d = 0; d < 3; d++) {
        if (desc->addressMode[d] != cudaAddressModeClamp && desc->addressMode[d] != cudaAddressModeBorder)
            imcl_emu::die("cudaCreateTextureObject: address mode %d is not emulated (clamp and border are)",
                          (int)desc->addressMode[d]);
        if (desc->borderColor[d] != 0.0f)
            imcl_emu::die("cudaCreateTextureObject: only a zero border colour is emulated");
    }
    imcl_emu::texture *x = (imcl_emu::texture *)calloc(1, sizeof *x);
    if (!x)
        return imcl_emu::fail(cudaErrorMemoryAllocation);
    x->magic = imcl_emu::texture_magic;
    x->array = res->res.array.array;
    for (int d = 0; d < 3; d++)
        x->mode[d] = desc->addressMode[d];
    imcl_emu::g_textures++;
    imcl_emu::track_exit();
    *t = (cudaTextureObject_t)(uintptr_t)x;
    return cudaSuccess;
}

inline cudaError_t cudaDestroyTextureObject(cudaTextureObject_t t)
{
    IMCL_EMU_DEVICE();
    imcl_emu::texture *x = (imcl_emu::texture *)(uintptr_t)t;
    if (!x || x->magic != imcl_emu::texture_magic)
        return imcl_emu::fail(cudaErrorInvalidValue);
    x->magic = 0;
    free(x);
    imcl_emu::g_textures--;
    return cudaSuccess;
}

template <class T> inline T tex2D(cudaTextureObject_t t, float x, float y)
{
    T r;
    imcl_emu::fetch(t, 2, x, y, 0.0f, &r, sizeof r, cudaCreateChannelDesc<T>(), "tex2D");
    return r;
}

template <class T> inline T tex3D(cudaTextureObject_t t, float x, float y, float z)
{
    T r;
    imcl_emu::fetch(t, 3, x, y, z, &r, sizeof r, cudaCreateChannelDesc<T>(), "tex3D");
    return r;
}

/* ---- events -------------------------------------------------------------------------- */
struct CUevent_st {
    unsigned magic;
    int recorded;
    double ms;
};

namespace imcl_emu {
inline bool valid_event(cudaEvent_t e) { return e && e->magic == event_magic; }
}  /* namespace imcl_emu */

inline cudaError_t cudaEventCreate(cudaEvent_t *e)
{
    IMCL_EMU_DEVICE();
    if (!e)
        return imcl_emu::fail(cudaErrorInvalidValue);
    cudaEvent_t x = (cudaEvent_t)calloc(1, sizeof *x);
    if (!x)
        return imcl_emu::fail(cudaErrorMemoryAllocation);
    x->magic = imcl_emu::event_magic;
    imcl_emu::g_events++;
    imcl_emu::track_exit();
    *e = x;
    return cudaSuccess;
}

inline cudaError_t cudaEventDestroy(cudaEvent_t e)
{
    IMCL_EMU_DEVICE();
    if (!imcl_emu::valid_event(e))
        return imcl_emu::fail(cudaErrorInvalidResourceHandle);
    e->magic = 0;
    free(e);
    imcl_emu::g_events--;
    return cudaSuccess;
}

inline cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t stream = 0)
{
    IMCL_EMU_DEVICE();
    if (!imcl_emu::valid_stream(stream))
        return imcl_emu::fail(cudaErrorInvalidResourceHandle);
    if (!imcl_emu::valid_event(e))
        return imcl_emu::fail(cudaErrorInvalidResourceHandle);
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    e->ms = (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
    e->recorded = 1;
    return cudaSuccess;
}

/* ---- streams ------------------------------------------------------------------------ */

inline cudaError_t cudaStreamCreate(cudaStream_t *s)
{
    IMCL_EMU_DEVICE();
    if (!s)
        return imcl_emu::fail(cudaErrorInvalidValue);
    cudaStream_t x = (cudaStream_t)calloc(1, sizeof *x);
    if (!x)
        return imcl_emu::fail(cudaErrorMemoryAllocation);
    x->magic = imcl_emu::stream_magic;
    imcl_emu::g_streams++;
    imcl_emu::track_exit();
    *s = x;
    return cudaSuccess;
}

inline cudaError_t cudaStreamDestroy(cudaStream_t s)
{
    IMCL_EMU_DEVICE();
    if (!s || !imcl_emu::valid_stream(s))
        return imcl_emu::fail(cudaErrorInvalidResourceHandle);
    s->magic = 0;
    free(s);
    imcl_emu::g_streams--;
    return cudaSuccess;
}

inline cudaError_t cudaStreamSynchronize(cudaStream_t s)
{
    IMCL_EMU_DEVICE();
    return imcl_emu::valid_stream(s) ? cudaSuccess : imcl_emu::fail(cudaErrorInvalidResourceHandle);
}

inline cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, cudaMemcpyKind kind,
                                   cudaStream_t s = 0)
{
    if (!imcl_emu::valid_stream(s))
        return imcl_emu::fail(cudaErrorInvalidResourceHandle);
    return cudaMemcpy(dst, src, n, kind);
}

inline cudaError_t cudaEventSynchronize(cudaEvent_t e)
{
    IMCL_EMU_DEVICE();
    return imcl_emu::valid_event(e) ? cudaSuccess : imcl_emu::fail(cudaErrorInvalidResourceHandle);
}

inline cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
    IMCL_EMU_DEVICE();
    if (!ms)
        return imcl_emu::fail(cudaErrorInvalidValue);
    if (!imcl_emu::valid_event(start) || !imcl_emu::valid_event(end) || !start->recorded || !end->recorded)
        return imcl_emu::fail(cudaErrorInvalidResourceHandle);
    *ms = (float)(end->ms - start->ms);
    return cudaSuccess;
}

#endif /* IMCL_EMU_SCAN */
#endif /* IMCL_NVCC_CPU_CUDA_RUNTIME_H */
