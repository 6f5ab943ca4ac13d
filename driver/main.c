/* imcl: the command line. Parses options, then runs the pipeline of driver.c. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver.h"
#include "imcl_commit.h" /* IMCL_COMMIT: generated at build time (cmake/build_commit.cmake) */
#include "params.h"
#include "passes.h"

/* The backends' names, as "a | b | c" or "a, b or c". */
static void backend_list(FILE *out, const char *sep, const char *last)
{
    for (int i = 0; i < driver_nbackends; i++)
        fprintf(out, "%s%s", i == 0 ? "" : i + 1 < driver_nbackends ? sep : last, driver_backends[i]->name);
}

static void usage(FILE *out)
{
    fputs("usage: imcl [options] kernel.imcl\n"
          "  -t, --params FILE     tuning parameters: flat JSON object, or legacy config.txt;\n"
          "                        with -r, the values of the recipe's tunables (JSON object)\n"
          "  -r, --recipe FILE     a Lua recipe sets the configuration (docs/recipes.md)\n"
          "      --batch FILE      one configuration per line (flat JSON objects; - reads stdin),\n"
          "                        each generated into DIR/<line number>/ (-o DIR)\n"
          "  -b, --backend NAME    ",
          out);
    backend_list(out, " | ", " | ");
    fprintf(out, "  (repeatable; default: %s)\n", driver_backends[0]->name);
    fputs("  -o, --output-dir DIR  where outputs go (default: .)\n"
          "  -k, --kernel NAME     only this kernel of the file (default: all kernels)\n"
          "      --prefix STR      prepended to every generated host symbol\n"
          "      --depfile FILE    also write FILE, a make rule: the generated files depend on\n"
          "                        the source, the files it includes, and the -t and -r files\n"
          "      --mpi             also distributed plans over MPI ranks (PK_dist_*, docs/mpi.md)\n"
          "      --dump-space[=FMT] print the tuning space and exit; FMT = imcl | t1\n"
          "      --size X[xY[xZ]]  problem size known at compile time\n"
          "      --shared-limit N  bytes of shared (local) memory a block may use\n"
          "                        (default:",
          out);
    for (int i = 0, n = 0; i < driver_nbackends; i++)
        if (driver_backends[i]->gpu)
            fprintf(out, "%s %lld for %s", n++ ? "," : "", driver_backends[i]->shared_limit,
                    driver_backends[i]->name);
    fputs(")\n"
          "      --emit-ast[=after:PASS]  print the AST after the passes, or after PASS:\n",
          out);
    for (int i = 0; i < pass_count; i++)
        fprintf(out, "                        %-15s %s\n", pass_table[i].name, pass_table[i].does);
    fputs("      --footprint       print the footprint table of every array\n"
          "      --liveness        print the scalars live after each line of every kernel;\n"
          "                        with -t, the registers a thread needs (estimate)\n"
          "      --analyze         print the flops and compulsory bytes of a grid point, and\n"
          "                        with --bandwidth and --peak its roofline bound\n"
          "      --bandwidth GB/s  the memory bandwidth for --analyze\n"
          "      --peak GFLOP/s    the arithmetic peak for --analyze\n"
          "  -h, --help            this text\n"
          "      --version         the version and the commit imcl was built from\n",
          out);
    fputs("tuning parameters (-t; the space of a kernel: --dump-space; docs/tuning.md):\n", out);
    for (int i = 0; i < PARAM_COUNT; i++)
        fprintf(out, "  %-19s %s\n", params_table[i].name, params_table[i].doc);
    fputs("exit status: 0 done; 1 an error in the kernel source; 2 a usage or parameter error;\n"
          "  3 an internal error, a bug in imcl\n"
          "environment:\n"
          "  IMCL_CPP              the C preprocessor for sources with directives (default: cpp)\n"
          "  IMCL_PLATFORM, IMCL_DEVICE  the OpenCL platform and device the generated host\n"
          "                        code uses (0-based; default: the first GPU, else device 0)\n"
          "  IMCL_VARIANT          cpu | gpu: the kernel variant the generated OpenCL host code\n"
          "                        builds (default: by the device's type)\n"
          "see imcl(1) for more\n",
          out);
}

int main(int argc, char **argv)
{
    DriverOptions o;
    driver_options_init(&o);
    enum { OPT_PREFIX = 256, OPT_DUMP, OPT_SIZE, OPT_AST, OPT_FOOT, OPT_VERSION, OPT_SHARED, OPT_ANALYZE,
           OPT_BANDWIDTH, OPT_PEAK, OPT_BATCH, OPT_LIVE, OPT_DEPFILE, OPT_MPI };
    static const struct option longs[] = {
        {"params", required_argument, NULL, 't'},
        {"recipe", required_argument, NULL, 'r'},
        {"batch", required_argument, NULL, OPT_BATCH},
        {"backend", required_argument, NULL, 'b'},
        {"output-dir", required_argument, NULL, 'o'},
        {"kernel", required_argument, NULL, 'k'},
        {"prefix", required_argument, NULL, OPT_PREFIX},
        {"depfile", required_argument, NULL, OPT_DEPFILE},
        {"mpi", no_argument, NULL, OPT_MPI},
        {"dump-space", optional_argument, NULL, OPT_DUMP},
        {"size", required_argument, NULL, OPT_SIZE},
        {"shared-limit", required_argument, NULL, OPT_SHARED},
        {"emit-ast", optional_argument, NULL, OPT_AST},
        {"footprint", no_argument, NULL, OPT_FOOT},
        {"analyze", no_argument, NULL, OPT_ANALYZE},
        {"liveness", no_argument, NULL, OPT_LIVE},
        {"bandwidth", required_argument, NULL, OPT_BANDWIDTH},
        {"peak", required_argument, NULL, OPT_PEAK},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, OPT_VERSION},
        {NULL, 0, NULL, 0},
    };
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":t:r:b:o:k:h", longs, NULL)) != -1) {
        switch (c) {
        case 't':
            o.params_file = optarg;
            break;
        case 'r':
            o.recipe_file = optarg;
            break;
        case OPT_BATCH:
            o.batch_file = optarg;
            break;
        case OPT_DEPFILE:
            o.depfile = optarg;
            break;
        case OPT_MPI:
            o.mpi = true;
            break;
        case 'b':
            if (!driver_add_backend(&o, optarg)) {
                fprintf(stderr, "imcl: error: unknown backend '%s' (expected ", optarg);
                backend_list(stderr, ", ", " or ");
                fputs(")\n", stderr);
                return 2;
            }
            break;
        case 'o':
            o.output_dir = optarg;
            break;
        case 'k':
            o.kernel = optarg;
            break;
        case OPT_PREFIX:
            o.prefix = optarg;
            break;
        case OPT_DUMP:
            o.dump_space = true;
            o.dump_format = optarg ? optarg : "imcl";
            if (strcmp(o.dump_format, "imcl") != 0 && strcmp(o.dump_format, "t1") != 0) {
                fprintf(stderr, "imcl: error: unknown space format '%s' (expected imcl or t1)\n", o.dump_format);
                return 2;
            }
            break;
        case OPT_SIZE:
            if (!driver_parse_size(&o, optarg)) {
                fprintf(stderr, "imcl: error: malformed --size '%s' (expected X, XxY or XxYxZ with positive integers)\n", optarg);
                return 2;
            }
            break;
        case OPT_SHARED: {
            char *end;
            long long v = strtoll(optarg, &end, 10);
            if (end == optarg || *end || v < 1 || v > (1LL << 40)) {
                fprintf(stderr, "imcl: error: malformed --shared-limit '%s' (expected a positive number of bytes)\n", optarg);
                return 2;
            }
            o.shared_limit = v;
            break;
        }
        case OPT_AST:
            o.emit_ast = true;
            if (optarg) {
                const char *name = strncmp(optarg, "after:", 6) == 0 ? optarg + 6 : NULL;
                if (!name || !pass_find(name)) {
                    fprintf(stderr, "imcl: error: --emit-ast=%s: expected after:PASS, PASS one of", optarg);
                    for (int i = 0; i < pass_count; i++)
                        fprintf(stderr, "%s %s", i ? "," : "", pass_table[i].name);
                    fputs("\n", stderr);
                    return 2;
                }
                o.emit_ast_after = name;
            }
            break;
        case OPT_FOOT:
            o.footprint = true;
            break;
        case OPT_ANALYZE:
            o.analyze = true;
            break;
        case OPT_LIVE:
            o.liveness = true;
            break;
        case OPT_BANDWIDTH:
        case OPT_PEAK: {
            char *end;
            double v = strtod(optarg, &end);
            if (end == optarg || *end || !(v > 0) || v > 1e9) {
                fprintf(stderr, "imcl: error: malformed --%s '%s' (expected a positive number of %s)\n",
                        c == OPT_PEAK ? "peak" : "bandwidth", optarg, c == OPT_PEAK ? "GFLOP/s" : "GB/s");
                return 2;
            }
            *(c == OPT_PEAK ? &o.peak : &o.bandwidth) = v;
            break;
        }
        case 'h':
            usage(stdout);
            return 0;
        case OPT_VERSION:
            printf("imcl %s (commit %s)\n", IMCL_VERSION_STRING, IMCL_COMMIT);
            return 0;
        case ':':
            fprintf(stderr, "imcl: error: option '%s' needs a value\n", argv[optind - 1]);
            return 2;
        default:
            fprintf(stderr, "imcl: error: unknown option '%s'\n", argv[optind - 1]);
            usage(stderr);
            return 2;
        }
    }
    if (optind != argc - 1) {
        fprintf(stderr, "imcl: error: %s\n", optind >= argc ? "no input file" : "more than one input file");
        usage(stderr);
        return 2;
    }
    if (o.recipe_file && (o.batch_file || o.emit_ast || o.liveness || o.footprint || o.analyze ||
                          (o.dump_space && strcmp(o.dump_format, "imcl") != 0))) {
        fprintf(stderr, "imcl: error: -r generates or dumps the imcl space; it does not go with %s\n",
                o.batch_file ? "--batch" : o.emit_ast ? "--emit-ast" : o.liveness ? "--liveness"
                : o.footprint ? "--footprint" : o.analyze ? "--analyze" : "--dump-space=t1");
        return 2;
    }
    if (o.batch_file && (o.params_file || o.dump_space)) {
        fprintf(stderr, "imcl: error: --batch takes the configurations from its file: no %s\n",
                o.params_file ? "-t" : "--dump-space");
        return 2;
    }
    if (o.depfile && (o.batch_file || o.dump_space)) {
        fprintf(stderr, "imcl: error: --depfile goes with generating one configuration: not with %s\n",
                o.batch_file ? "--batch" : "--dump-space");
        return 2;
    }
    o.input = argv[optind];
    return driver_run(&o);
}
