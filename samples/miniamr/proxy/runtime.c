/* -t FILE: kernels configured at run time. The kernels linked into the proxy were
 * generated at build time with samples/miniamr/<v>.params.json; another
 * configuration needs other generated code (the OpenCL host file embeds the
 * kernel source, the CUDA file is the kernel), so the proxy does at run time what
 * the build does: imcl into a temporary folder, the C compiler (and nvcc) into a
 * shared object together with glue.c, then dlopen. The tools are the ones the
 * build used (PROXY_* below), or IMCL, CC and NVCC from the environment. */
#include <ctype.h>
#include <dirent.h>
#include <dlfcn.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "proxy.h"

extern char **environ;

static char tmpdir[4096];
static void *handle;
static int keep_files;

static const char *tool(const char *env, const char *built_in)
{
    const char *v = getenv(env);
    return v && *v ? v : built_in;
}

/* Runs argv (NULL-terminated); returns its exit status, or -1. */
static int run(char *const *argv)
{
    pid_t pid;
    if (posix_spawnp(&pid, argv[0], NULL, NULL, argv, environ) != 0) {
        fprintf(stderr, "miniamr-proxy: cannot run %s\n", argv[0]);
        return -1;
    }
    int status;
    if (waitpid(pid, &status, 0) < 0)
        return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static char *path(const char *dir, const char *a, const char *b)
{
    size_t n = strlen(dir) + strlen(a) + strlen(b) + 2;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s/%s%s", dir, a, b);
    return p;
}

/* a followed by b, on the heap */
static char *join(const char *a, const char *b)
{
    size_t n = strlen(a) + strlen(b) + 1;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s%s", a, b);
    return p;
}

const KernelSet *runtime_kernels(const char *backend, const char *kernel, const char *params, int keep)
{
    keep_files = keep;
    const char *t = getenv("TMPDIR");
    snprintf(tmpdir, sizeof tmpdir, "%s/miniamr-proxy-XXXXXX", t && *t ? t : "/tmp");
    if (!mkdtemp(tmpdir)) {
        fprintf(stderr, "miniamr-proxy: cannot create a temporary folder in %s\n", t && *t ? t : "/tmp");
        tmpdir[0] = 0;
        return NULL;
    }
    char *src = path(PROXY_KERNEL_DIR, kernel, ".imcl");
    char *glue = path(PROXY_SOURCE_DIR, "glue.c", "");
    char *so = path(tmpdir, "kernels.so", "");
    char *gen = NULL, *obj = NULL, *rt = NULL, *rt_obj = NULL, *incdir = NULL, *incsrc = NULL, *only = NULL;
    const KernelSet *ks = NULL;
    if (!src || !glue || !so)
        goto done;

    /* 1. generate */
    char *imcl_argv[] = {(char *)tool("IMCL", PROXY_IMCL), "-b", (char *)backend, "--prefix", "t_", "-t",
                         (char *)params, "-o", tmpdir, src, NULL};
    int rc = run(imcl_argv);
    if (rc != 0) {
        fprintf(stderr, "miniamr-proxy: imcl failed (status %d) on %s with -t %s\n", rc, src, params);
        goto done;
    }

    /* 2. compile the generated code and glue.c into one shared object */
    const char *suffix = strcmp(backend, "c") == 0 ? "_ref.c" : strcmp(backend, "opencl") == 0 ? "_host.c" : ".cu";
    gen = path(tmpdir, kernel, suffix);
    incdir = join("-I", tmpdir);
    incsrc = join("-I", PROXY_SOURCE_DIR);
    only = join("-DGLUE_ONLY_", kernel); /* GLUE_ONLY_V1 ... GLUE_ONLY_STENCIL7 */
    if (!gen || !incdir || !incsrc || !only)
        goto done;
    for (char *c = only; *c; c++)
        *c = (char)toupper((unsigned char)*c);
    const char *cc = tool("CC", PROXY_CC);
    if (strcmp(backend, "cuda") == 0) {
        const char *nvcc = tool("NVCC", PROXY_NVCC);
        if (!*nvcc) {
            fprintf(stderr, "miniamr-proxy: -t with --backend cuda needs nvcc (set NVCC)\n");
            goto done;
        }
        /* the kernel and the folder's host runtime */
        obj = path(tmpdir, kernel, ".o");
        rt = path(tmpdir, "imcl_runtime_cuda", ".cu");
        rt_obj = path(tmpdir, "imcl_runtime_cuda", ".o");
        char *nvcc_argv[] = {(char *)nvcc, "-O2", "-Xcompiler", "-fPIC", "-c", gen, "-o", obj, NULL};
        char *rt_argv[] = {(char *)nvcc, "-O2", "-Xcompiler", "-fPIC", "-c", rt, "-o", rt_obj, NULL};
        if (!obj || !rt || !rt_obj || run(nvcc_argv) != 0 || run(rt_argv) != 0) {
            fprintf(stderr, "miniamr-proxy: nvcc failed on %s or %s\n", gen, rt);
            goto done;
        }
        char *cc_argv[] = {(char *)cc, "-O2", "-fPIC", "-shared", incdir, incsrc, "-DGLUE_PREFIX=t_", only, glue, obj,
                           rt_obj, "-L" PROXY_CUDA_LIBDIR, "-Wl,-rpath," PROXY_CUDA_LIBDIR, "-lcudart", "-lstdc++",
                           "-o", so, NULL};
        rc = run(cc_argv);
    } else {
        /* the folder's host runtime too */
        const int c = strcmp(backend, "c") == 0;
        obj = path(tmpdir, c ? "imcl_runtime_c" : "imcl_runtime_opencl", ".c");
        char *cc_argv[] = {(char *)cc, "-O2", "-fPIC", "-shared", incdir, incsrc, "-DGLUE_PREFIX=t_", only, glue, gen,
                           obj, c ? "-lm" : "-lOpenCL", "-o", so,
                           c && *PROXY_OPENMP_FLAG ? PROXY_OPENMP_FLAG : NULL, NULL};
        rc = !obj ? -1 : run(cc_argv);
    }
    if (rc != 0) {
        fprintf(stderr, "miniamr-proxy: %s failed to build %s\n", cc, so);
        goto done;
    }

    /* 3. load */
    handle = dlopen(so, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        fprintf(stderr, "miniamr-proxy: %s\n", dlerror());
        goto done;
    }
    ks = dlsym(handle, "t_kernels");
    if (!ks)
        fprintf(stderr, "miniamr-proxy: %s defines no t_kernels\n", so);
done:
    free(src);
    free(glue);
    free(so);
    free(gen);
    free(obj);
    free(rt);
    free(rt_obj);
    free(incdir);
    free(incsrc);
    free(only);
    return ks;
}

void runtime_cleanup(void)
{
    if (handle)
        dlclose(handle);
    handle = NULL;
    if (!tmpdir[0])
        return;
    if (keep_files) {
        fprintf(stderr, "miniamr-proxy: generated code kept in %s\n", tmpdir);
        return;
    }
    DIR *d = opendir(tmpdir);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)))
            if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
                char *p = path(tmpdir, e->d_name, "");
                if (p)
                    unlink(p);
                free(p);
            }
        closedir(d);
    }
    rmdir(tmpdir);
    tmpdir[0] = 0;
}
