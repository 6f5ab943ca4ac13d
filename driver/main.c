#include "frontend.h"
int main(int argc, char **argv)
{
    Arena *a = arena_new();
    Diag d;
    diag_init(&d, a, stderr);
    Program *p = frontend_parse_file(a, &d, argv[1]);
    if (p && !d.errors) sema_program(p, &d);
    if (p) for (int i = 0; i < p->nfuncs; i++) printf("%s kernel=%d\n", p->funcs[i]->name, p->funcs[i]->is_kernel);
    int e = d.errors;
    arena_free(a);
    return e ? 1 : 0;
    (void)argc;
}
