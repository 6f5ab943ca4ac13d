/* Constant expressions: evaluates an expression of literals, casts and operators
 * exactly as C does for ImageCL's types, or says it is not a constant imcl can
 * evaluate exactly, or says which operation C leaves undefined.
 *
 * The rules (C11 6.3 and 6.5, with ImageCL's 8-, 16- and 32-bit integers):
 * char/uchar/short/ushort promote to int; the usual arithmetic conversions pick int,
 * uint, float or double; unsigned arithmetic and every conversion to a narrower
 * integer type wrap around (as gcc, clang and nvcc define the signed case); signed
 * overflow, division or remainder by zero, INT_MIN / -1, shift counts outside
 * 0..31, left shifts of negative values and float-to-integer conversions out of
 * range are undefined; right shifts of negative values are arithmetic. Float and
 * double follow IEEE 754 with round-to-nearest. A product that is not exact is
 * flagged, because a device compiler may fuse it with a following + or - into one
 * fused multiply-add; such a sum is unknown rather than a guess. */
#include "ast.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* Recursion deeper than this (a chain the parser built before sema's depth limit
 * applies) is not evaluated. */
#define MAX_DEPTH 4096

void type_range(TypeKind k, long long *lo, long long *hi)
{
    switch (k) {
    case TY_CHAR: *lo = -128; *hi = 127; break;
    case TY_UCHAR: *lo = 0; *hi = 255; break;
    case TY_SHORT: *lo = -32768; *hi = 32767; break;
    case TY_USHORT: *lo = 0; *hi = 65535; break;
    case TY_UINT: *lo = 0; *hi = 4294967295LL; break;
    default: *lo = -2147483648LL; *hi = 2147483647LL; break;
    }
}

static bool is_float_kind(TypeKind k) { return k == TY_FLOAT || k == TY_DOUBLE; }

static ConstVal unknown(TypeKind type)
{
    ConstVal v = {0};
    v.status = CONST_UNKNOWN;
    v.type = type;
    return v;
}

ConstVal const_int(TypeKind type, long long i)
{
    ConstVal v = {0};
    v.type = type;
    v.i = i;
    return v;
}

static ConstVal of_float(TypeKind type, double f)
{
    ConstVal v = {0};
    v.type = type;
    v.f = type == TY_FLOAT ? (double)(float)f : f;
    return v;
}

static ConstVal undefined(TypeKind type, const Node *where, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static ConstVal undefined(TypeKind type, const Node *where, const char *fmt, ...)
{
    ConstVal v = {0};
    v.status = CONST_UNDEFINED;
    v.type = type;
    v.where = where;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v.why, sizeof v.why, fmt, ap);
    va_end(ap);
    return v;
}

static double as_double(const ConstVal *v)
{
    return is_float_kind(v->type) ? v->f : (double)v->i;
}

static bool truth(const ConstVal *v)
{
    return is_float_kind(v->type) ? v->f != 0 : v->i != 0;
}

/* The value printed in a diagnostic. */
static const char *show(const ConstVal *v, char *buf, size_t n)
{
    if (is_float_kind(v->type))
        snprintf(buf, n, "%g", v->f);
    else
        snprintf(buf, n, "%lld", v->i);
    return buf;
}

ConstVal const_convert(ConstVal v, TypeKind to, const Node *where)
{
    if (v.status != CONST_OK) {
        v.type = to; /* an undefined or unknown value still has the type it converts to */
        return v;
    }
    if (v.type == to)
        return v;
    if (is_float_kind(to)) {
        ConstVal r = of_float(to, as_double(&v));
        /* int -> float rounds once; (double)i is exact for every 32-bit integer. */
        if (to == TY_FLOAT && kind_is_integer(v.type))
            r.f = (double)(float)v.i;
        return r;
    }
    if (!kind_is_integer(to))
        return unknown(to);
    long long lo, hi;
    type_range(to, &lo, &hi);
    if (is_float_kind(v.type)) {
        /* Truncation toward zero; the value must fit (C11 6.3.1.4). */
        if (isnan(v.f) || !(v.f > (double)lo - 1) || !(v.f < (double)hi + 1)) {
            char b[64];
            return undefined(to, where, "conversion of %s to %s is out of range", show(&v, b, sizeof b),
                             type_name(type_scalar(to)));
        }
        return const_int(to, (long long)trunc(v.f));
    }
    /* Integer to integer: modulo 2^bits (C11 6.3.1.3; implementation-defined for
     * signed targets, and every compiler imcl targets wraps). */
    unsigned long long span = (unsigned long long)(hi - lo) + 1;
    unsigned long long u = (unsigned long long)v.i & (span - 1);
    long long i = (long long)u;
    if (i > hi)
        i -= (long long)span;
    return const_int(to, i);
}

/* An int result that must fit, or a uint one that wraps. */
static ConstVal int_result(TypeKind t, long long r, const Node *where, const ConstVal *a, int op,
                           const ConstVal *b)
{
    if (t == TY_UINT)
        return const_int(t, (long long)((unsigned long long)r & 0xffffffffULL));
    if (r < -2147483648LL || r > 2147483647LL) {
        char x[64], y[64];
        return undefined(t, where, "%s %s %s overflows int", show(a, x, sizeof x),
                         ast_op_spelling(op), show(b, y, sizeof y));
    }
    return const_int(t, r);
}

ConstVal const_unary(int op, ConstVal a, const Node *where)
{
    if (a.status != CONST_OK) {
        a.type = op == '!' ? TY_INT : kind_promote(a.type);
        return a;
    }
    if (op == '!')
        return const_int(TY_INT, !truth(&a));
    TypeKind t = kind_promote(a.type);
    a = const_convert(a, t, where);
    if (op == '+')
        return a;
    if (op == '-') {
        if (is_float_kind(t)) {
            ConstVal r = of_float(t, -a.f);
            r.product = a.product;
            return r;
        }
        if (t == TY_INT && a.i == -2147483648LL)
            return undefined(t, where, "-(-2147483648) overflows int");
        return int_result(t, -a.i, where, &a, '-', &a);
    }
    if (op == '~' && kind_is_integer(t))
        return int_result(t, t == TY_UINT ? (long long)(~(unsigned long long)a.i) : ~a.i, where, &a, '~', &a);
    return unknown(t);
}

static ConstVal float_binary(int op, TypeKind t, ConstVal a, ConstVal b)
{
    double x = a.f, y = b.f;
    switch (op) {
    case '+':
    case '-':
        if (a.product || b.product)
            return unknown(t); /* a device compiler may fuse the product into this */
        if (t == TY_FLOAT) {
            float fx = (float)x, fy = (float)y;
            float r = op == '+' ? fx + fy : fx - fy;
            return of_float(t, r);
        }
        return of_float(t, op == '+' ? x + y : x - y);
    case '*': {
        ConstVal r;
        if (t == TY_FLOAT) {
            /* a product of two floats is exact in double */
            double p = x * y;
            r = of_float(t, (float)p);
            r.product = r.f != p && !isnan(p);
        } else {
            double p = x * y;
            r = of_float(t, p);
            r.product = isfinite(p) && fma(x, y, -p) != 0;
        }
        return r;
    }
    case '/':
        if (t == TY_FLOAT) {
            float fx = (float)x, fy = (float)y;
            float r = fx / fy;
            return of_float(t, r);
        }
        return of_float(t, x / y);
    default:
        return unknown(t);
    }
}

static ConstVal compare(int op, ConstVal a, ConstVal b)
{
    bool r;
    if (is_float_kind(a.type)) {
        double x = a.f, y = b.f;
        r = op == '<' ? x < y : op == '>' ? x > y : op == OP_LE ? x <= y : op == OP_GE ? x >= y
          : op == OP_EQ ? x == y : x != y;
    } else {
        long long x = a.i, y = b.i;
        r = op == '<' ? x < y : op == '>' ? x > y : op == OP_LE ? x <= y : op == OP_GE ? x >= y
          : op == OP_EQ ? x == y : x != y;
    }
    return const_int(TY_INT, r);
}

static ConstVal shift(int op, ConstVal a, ConstVal b, const Node *where)
{
    TypeKind t = kind_promote(a.type);
    a = const_convert(a, t, where);
    b = const_convert(b, kind_promote(b.type), where);
    if (b.i < 0 || b.i > 31)
        return undefined(t, where, "shift count %lld is outside 0 to 31", b.i);
    if (op == OP_SHR)
        return const_int(t, a.i >> b.i); /* arithmetic for negative ints, as every target does */
    if (t == TY_UINT)
        return const_int(t, (long long)(((unsigned long long)a.i << b.i) & 0xffffffffULL));
    if (a.i < 0)
        return undefined(t, where, "left shift of the negative value %lld", a.i);
    return int_result(t, a.i << b.i, where, &a, op, &b);
}

/* The C type of `a op b` (TY_VOID where an operand's type is not known). */
static TypeKind binary_type(int op, TypeKind a, TypeKind b)
{
    if (op == ',')
        return b;
    if (op == '<' || op == '>' || op == OP_LE || op == OP_GE || op == OP_EQ || op == OP_NE || op == OP_AND ||
        op == OP_OR)
        return TY_INT;
    if (op == OP_SHL || op == OP_SHR)
        return kind_promote(a);
    return a == TY_VOID || b == TY_VOID ? TY_VOID : kind_common(a, b);
}

static ConstVal binary_value(int op, ConstVal a, ConstVal b, const Node *where)
{
    if (a.status == CONST_UNDEFINED)
        return a;
    /* Short circuit: the right operand is not evaluated when the left decides. */
    if ((op == OP_AND || op == OP_OR) && a.status == CONST_OK && truth(&a) == (op == OP_OR))
        return const_int(TY_INT, op == OP_OR);
    if (b.status == CONST_UNDEFINED)
        return b;
    if (op == OP_SHL || op == OP_SHR) {
        if (b.status == CONST_OK && kind_is_integer(b.type) && (b.i < 0 || b.i > 31))
            return undefined(kind_promote(a.type), where, "shift count %lld is outside 0 to 31", b.i);
        if (a.status != CONST_OK || b.status != CONST_OK || !kind_is_integer(a.type) || !kind_is_integer(b.type))
            return unknown(kind_promote(a.type));
        return shift(op, a, b, where);
    }
    if (op == OP_AND || op == OP_OR) {
        if (a.status != CONST_OK || b.status != CONST_OK)
            return unknown(TY_INT);
        return const_int(TY_INT, truth(&b));
    }
    if (op == ',')
        return a.status == CONST_OK ? b : unknown(b.type);
    TypeKind t = kind_common(a.type, b.type);
    bool relational = op == '<' || op == '>' || op == OP_LE || op == OP_GE || op == OP_EQ || op == OP_NE;
    /* x / 0 is undefined whatever x is. */
    if ((op == '/' || op == '%') && b.status == CONST_OK && kind_is_integer(b.type) && b.i == 0 &&
        (kind_is_integer(t) || a.type == TY_VOID))
        return undefined(t, where, "%s by zero", op == '/' ? "division" : "remainder");
    if (a.status != CONST_OK || b.status != CONST_OK)
        return unknown(relational ? TY_INT : t);
    a = const_convert(a, t, where);
    b = const_convert(b, t, where);
    if (a.status != CONST_OK)
        return a;
    if (b.status != CONST_OK)
        return b;
    if (relational)
        return compare(op, a, b);
    if (is_float_kind(t))
        return float_binary(op, t, a, b);
    if (!kind_is_integer(t))
        return unknown(t);
    long long x = a.i, y = b.i;
    switch (op) {
    case '+': return int_result(t, x + y, where, &a, op, &b);
    case '-': return int_result(t, x - y, where, &a, op, &b);
    case '*': return int_result(t, t == TY_UINT ? (long long)((unsigned long long)x * (unsigned long long)y) : x * y,
                                where, &a, op, &b);
    case '/':
    case '%':
        if (y == 0)
            return undefined(t, where, "%s by zero", op == '/' ? "division" : "remainder");
        if (t == TY_INT && x == -2147483648LL && y == -1)
            return undefined(t, where, "-2147483648 %c -1 overflows int", op);
        return const_int(t, op == '/' ? x / y : x % y);
    case '&': return const_int(t, x & y);
    case '|': return const_int(t, x | y);
    case '^': return const_int(t, x ^ y);
    default: return unknown(t);
    }
}

/* An undefined or unknown result has the type of the whole expression, not that of
 * the operand it came from: ?: converts its chosen branch to the common type of
 * both, whatever became of the other one. */
ConstVal const_binary(int op, ConstVal a, ConstVal b, const Node *where)
{
    ConstVal r = binary_value(op, a, b, where);
    if (r.status != CONST_OK)
        r.type = binary_type(op, a.type, b.type);
    return r;
}

static TypeKind node_type(const Node *n, TypeKind fallback)
{
    return n->type && type_is_scalar(n->type) ? n->type->kind : fallback;
}

static ConstVal eval(const Node *n, int depth)
{
    if (!n || depth > MAX_DEPTH)
        return unknown(TY_VOID);
    switch (n->kind) {
    case AST_INT_LIT:
        return const_int(node_type(n, TY_INT), n->u.lit.ival);
    case AST_FLOAT_LIT: {
        TypeKind t = node_type(n, TY_DOUBLE);
        /* A float literal rounds once, from its decimal spelling. */
        if (t == TY_FLOAT && n->u.lit.text)
            return of_float(t, strtof(n->u.lit.text, NULL));
        return of_float(t, n->u.lit.fval);
    }
    case AST_CAST: {
        ConstVal v = eval(n->u.cast.expr, depth + 1);
        TypeKind to = node_type(n, TY_VOID);
        if (v.status == CONST_UNKNOWN)
            return unknown(to);
        bool product = v.product && v.type == to;
        v = const_convert(v, to, n);
        v.product = product;
        return v;
    }
    case AST_UNARY:
        if (n->u.unary.op >= OP_PREINC && n->u.unary.op <= OP_POSTDEC)
            return unknown(node_type(n, TY_VOID));
        return const_unary(n->u.unary.op, eval(n->u.unary.operand, depth + 1), n);
    case AST_BINARY:
        return const_binary(n->u.binary.op, eval(n->u.binary.lhs, depth + 1), eval(n->u.binary.rhs, depth + 1), n);
    case AST_COND: {
        ConstVal c = eval(n->u.cond.cond, depth + 1);
        ConstVal x = eval(n->u.cond.then, depth + 1), y = eval(n->u.cond.els, depth + 1);
        TypeKind t = x.type == TY_VOID || y.type == TY_VOID ? TY_VOID : kind_common(x.type, y.type);
        if (c.status == CONST_UNDEFINED)
            return const_convert(c, t, n);
        if (c.status != CONST_OK) {
            /* Either branch may run: an undefined one is still undefined. */
            if (x.status == CONST_UNDEFINED)
                return const_convert(x, t, n);
            return y.status == CONST_UNDEFINED ? const_convert(y, t, n) : unknown(t);
        }
        ConstVal v = truth(&c) ? x : y;
        if (t == TY_VOID)
            return v.status == CONST_UNDEFINED ? const_convert(v, t, n) : unknown(t);
        return const_convert(v, t, n);
    }
    default:
        return unknown(node_type(n, TY_VOID));
    }
}

ConstVal const_eval(const Node *n)
{
    return eval(n, 0);
}

bool ast_const_int(const Node *n, long long *out)
{
    ConstVal v = eval(n, 0);
    if (v.status != CONST_OK || !kind_is_integer(v.type))
        return false;
    *out = v.i;
    return true;
}

bool ast_const_offset(const Node *n, long long *out)
{
    ConstVal v = eval(n, 0);
    if (v.status != CONST_OK || !kind_is_integer(v.type) || kind_promote(v.type) != TY_INT)
        return false;
    *out = v.i;
    return true;
}
