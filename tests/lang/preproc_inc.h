// Included by preproc.imcl (a path relative to the including file): a macro and a
// helper function.
#define WEIGHT(x) ((x) * 0.25f)

int helper_from_header(int x)
{
    return x % 5 - RADIUS;
}
