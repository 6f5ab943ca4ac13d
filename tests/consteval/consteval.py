#!/usr/bin/env python3
"""Compares imcl's constant evaluator (ast/consteval.c) with what gcc computes.

    consteval.py CONSTEVAL_EVAL WORK_DIR [--count N] [--seed S] [--cc GCC]

Generates N random expressions of literals, casts, unary and binary operators and
?: over ImageCL's scalar types (fixed seed), and evaluates each one twice:

* by imcl: CONSTEVAL_EVAL (tests/consteval/consteval_eval.c) parses it and prints
  what const_eval says, OK TYPE VALUE, UNKNOWN or UNDEFINED WHY;
* by gcc: a generated C program evaluates every expression at run time, each
  literal made opaque (read through a volatile compound literal) so that gcc
  cannot fold anything, one expression per source line, built with
  -fsanitize=undefined,float-cast-overflow -fsanitize-recover=all; it prints the
  C type of the result (_Generic) and its value in the same format, and UBSan's
  "FILE:LINE:COL: runtime error" reports say which lines C leaves undefined.

Then, for each expression:

* gcc reported undefined behaviour: imcl must say UNDEFINED;
* imcl says UNDEFINED: gcc must have reported undefined behaviour;
* both defined: imcl's type and value must be gcc's, exactly (NaN matches NaN);
* imcl may say UNKNOWN (not evaluated exactly: an inexact float product that a
  device compiler may fuse into a following + or -) only for an expression that
  involves float or double (a float literal or a cast to float or double),
  whatever gcc found (what follows the sum then depends on the contraction), and
  for at most a third of those; never for integer-only expressions.

Prints every mismatch and a last line
`consteval: N expressions, K undefined, U unknown, M mismatches`; exits 1 on any
mismatch, 2 on a usage or tool error. The work directory keeps exprs.txt,
consteval_gcc.c and both programs' outputs."""

import argparse
import os
import random
import re
import subprocess
import sys

INT_TYPES = ["char", "uchar", "short", "ushort", "int", "uint"]
FLOAT_TYPES = ["float", "double"]
ALL_TYPES = INT_TYPES + FLOAT_TYPES
RANK = {t: i for i, t in enumerate(ALL_TYPES)}

# (spelling, C type): boundary integers and floats around the ranges of the types.
INT_LEAVES = [(s, "int") for s in
              ["0", "1", "2", "3", "7", "30", "31", "32", "33", "127", "128", "255", "256", "300",
               "32767", "32768", "65535", "65536", "2147483647"]] + \
             [(s, "uint") for s in ["0x80000000", "0xffffffff", "4294967295u", "7u", "0u", "32u"]]
FLOAT_LEAVES = [(s, "float") for s in
                ["0.5f", "0.1f", "1.5f", "300.7f", "16777217.0f", "1e10f", "0.0f", "-0.5f"]] + \
               [(s, "double") for s in
                ["0.1", "2.5", "255.9", "1e20", "2147483647.0", "4294967295.5", "-0.75", "0.0",
                 "-2147483648.5", "65535.99"]]
# Shift counts around the width of int (and outside 0..31).
SHIFT_COUNTS = ["0", "1", "7", "30", "31", "32", "33", "31u", "32u", "-1"]

BINARY_ANY = ["+", "-", "*", "/"]
BINARY_INT = ["%", "<<", ">>", "&", "|", "^"]
RELATIONAL = ["<", ">", "<=", ">=", "==", "!="]
LOGICAL = ["&&", "||"]


def promote(t):
    return "int" if t in ("char", "uchar", "short", "ushort") else t


def common(a, b):
    a, b = promote(a), promote(b)
    return a if RANK[a] >= RANK[b] else b


class Expr:
    """An expression spelled for imcl and for C, with its C type; floaty when a
    float literal or a cast to float or double is in it."""

    __slots__ = ("imcl", "c", "type", "floaty")

    def __init__(self, imcl, c, type_, floaty):
        self.imcl, self.c, self.type, self.floaty = imcl, c, type_, floaty


def literal(spelling, type_):
    floaty = type_ in FLOAT_TYPES
    if spelling.startswith("-"):
        inner = literal(spelling[1:], type_)
        return negate(inner)
    return Expr(spelling, "V(%s)" % spelling, type_, floaty)


def negate(e):
    return Expr("(-%s)" % e.imcl, "W(-%s)" % e.c, promote(e.type), e.floaty)


def literal_from(spelling):
    for s, t in INT_LEAVES + FLOAT_LEAVES:
        if s == spelling:
            return literal(s, t)
    if spelling.startswith("-"):
        return negate(literal_from(spelling[1:]))
    return literal(spelling, "uint" if spelling.endswith("u") else "int")


class Generator:
    def __init__(self, seed):
        self.rng = random.Random(seed)

    def chance(self, p):
        return self.rng.random() < p

    def leaf(self, integer):
        r = self.rng
        if integer or self.chance(0.6):
            if self.chance(0.04):
                return self.int_min()
            s, t = r.choice(INT_LEAVES)
            e = literal(s, t)
            return negate(e) if self.chance(0.15) else e
        s, t = r.choice(FLOAT_LEAVES)
        return literal(s, t)

    def int_min(self):
        """-2147483648, which has no literal."""
        if self.chance(0.5):
            return Expr("((int)0x80000000)", "W((int)V(0x80000000))", "int", False)
        a, b = literal("2147483647", "int"), literal("1", "int")
        return self.binary_expr("-", negate(a), b, "int")

    def cast(self, depth, integer):
        r = self.rng
        to = r.choice(INT_TYPES if integer else ALL_TYPES)
        # Mostly a literal, often out of the target's range; sometimes an expression.
        x = self.leaf(False) if depth <= 1 or self.chance(0.5) else self.gen(depth - 1, False)
        return Expr("((%s)%s)" % (to, x.imcl), "W((%s)%s)" % (to, x.c), to, x.floaty or to in FLOAT_TYPES)

    def unary(self, depth, integer):
        r = self.rng
        op = r.choice(["-", "+", "~", "!"])
        if op == "~":
            x = self.gen(depth - 1, True)
            return Expr("(~%s)" % x.imcl, "W(~%s)" % x.c, promote(x.type), x.floaty)
        x = self.gen(depth - 1, integer)
        if op == "!":
            return Expr("(!%s)" % x.imcl, "W(!%s)" % x.c, "int", x.floaty)
        return Expr("(%s%s)" % (op, x.imcl), "W(%s%s)" % (op, x.c), promote(x.type), x.floaty)

    def binary_expr(self, op, a, b, type_):
        return Expr("(%s %s %s)" % (a.imcl, op, b.imcl), "W(%s %s %s)" % (a.c, op, b.c), type_,
                    a.floaty or b.floaty)

    def binary(self, depth, integer):
        r = self.rng
        kind = r.random()
        if kind < 0.35:
            op = r.choice(BINARY_ANY)
            a, b = self.gen(depth - 1, integer), self.gen(depth - 1, integer)
            if op == "/" and self.chance(0.3):
                a = negate(a)  # negative dividends
            if op == "/" and self.chance(0.1):
                a, b = self.int_min(), literal_from("-1")
            if op in ("+", "-") and not integer and self.chance(0.25):
                # a product that a device compiler could fuse with this sum
                a = self.binary_expr("*", a, b, common(a.type, b.type))
                b = self.gen(depth - 1, False)
            return self.binary_expr(op, a, b, common(a.type, b.type))
        if kind < 0.65:
            op = r.choice(BINARY_INT)
            a = self.gen(depth - 1, True)
            if op in ("<<", ">>") and self.chance(0.6):
                b = literal_from(r.choice(SHIFT_COUNTS))
            else:
                b = self.gen(depth - 1, True)
            if op in ("%", ">>") and self.chance(0.35):
                a = negate(a)  # negative operands of % and >>
            if op == "%" and self.chance(0.2):
                b = negate(b)
            if op == "%" and self.chance(0.1):
                a, b = self.int_min(), literal_from("-1")
            t = promote(a.type) if op in ("<<", ">>") else common(a.type, b.type)
            return self.binary_expr(op, a, b, t)
        if kind < 0.9:
            op = r.choice(RELATIONAL)
            if self.chance(0.4):
                # mixed signed/unsigned: a negative int against a uint
                a = negate(self.gen(depth - 1, True))
                b = literal_from(r.choice(["0u", "7u", "4294967295u", "0x80000000"])) \
                    if self.chance(0.5) else self.gen(depth - 1, True)
                if self.chance(0.5):
                    b = Expr("((uint)%s)" % b.imcl, "W((uint)%s)" % b.c, "uint", b.floaty)
                if self.chance(0.5):
                    a, b = b, a
            else:
                a, b = self.gen(depth - 1, False), self.gen(depth - 1, False)
            return self.binary_expr(op, a, b, "int")
        op = r.choice(LOGICAL)
        a, b = self.gen(depth - 1, False), self.gen(depth - 1, False)
        return self.binary_expr(op, a, b, "int")

    def cond(self, depth, integer):
        c = self.gen(depth - 1, False)
        a, b = self.gen(depth - 1, integer), self.gen(depth - 1, integer)
        return Expr("(%s ? %s : %s)" % (c.imcl, a.imcl, b.imcl), "W(%s ? %s : %s)" % (c.c, a.c, b.c),
                    common(a.type, b.type), c.floaty or a.floaty or b.floaty)

    def gen(self, depth, integer=False):
        """An expression of at most `depth` operator levels; of an integer type
        when `integer` (for %, <<, >>, &, |, ^ and ~)."""
        if depth <= 0:
            return self.leaf(integer)
        k = self.rng.random()
        if k < 0.15:
            return self.leaf(integer)
        if k < 0.35:
            return self.cast(depth, integer)
        if k < 0.47:
            return self.unary(depth, integer)
        if k < 0.9:
            return self.binary(depth, integer)
        return self.cond(depth, integer)

    def expression(self):
        return self.gen(self.rng.choice([1, 2, 2, 3, 3, 4, 4]))


C_PROLOGUE = r"""/* Generated by tests/consteval/consteval.py: one expression per line. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>

typedef unsigned char uchar;
typedef unsigned short ushort;
typedef unsigned int uint;

/* A literal gcc cannot fold: read back through a volatile compound literal. */
#define V(x) (*(volatile __typeof__(x) *)&(__typeof__(x)){x})
/* Every operation's result too: gcc's front end rewrites some expressions even at
 * -O0 and loses their UBSan checks with them ((ushort)(a - b) done in 16 bits,
 * (a - b) != 0 as a != b). */
#define W(x) __extension__({ __auto_type w_ = (x); *(volatile __typeof__(w_) *)&w_; })

static void p_char(char v) { printf("OK char %lld\n", (long long)v); }
static void p_uchar(uchar v) { printf("OK uchar %lld\n", (long long)v); }
static void p_short(short v) { printf("OK short %lld\n", (long long)v); }
static void p_ushort(ushort v) { printf("OK ushort %lld\n", (long long)v); }
static void p_int(int v) { printf("OK int %lld\n", (long long)v); }
static void p_uint(uint v) { printf("OK uint %lld\n", (long long)v); }
static void p_float(float v)
{
    if (isnan(v))
        printf("OK float nan\n");
    else
        printf("OK float %a\n", (double)v);
}
static void p_double(double v)
{
    if (isnan(v))
        printf("OK double nan\n");
    else
        printf("OK double %a\n", v);
}

#define P(e) _Generic(((void)0, (e)), char: p_char, signed char: p_char, unsigned char: p_uchar, \
    short: p_short, unsigned short: p_ushort, int: p_int, unsigned: p_uint, float: p_float, \
    double: p_double)(e)

/* An integer division by zero or INT_MIN / -1 traps after UBSan's report. */
static sigjmp_buf trap;
static void on_fpe(int sig)
{
    (void)sig;
    siglongjmp(trap, 1);
}
#define T(e) do { if (sigsetjmp(trap, 1) == 0) P(e); else printf("TRAP\n"); } while (0)
"""


def write_c_program(path, exprs, chunk=250):
    """Writes the C program; returns {source line: expression index}."""
    lines = C_PROLOGUE.split("\n")
    if lines[-1] == "":
        lines.pop()
    where = {}
    nfuncs = 0
    for start in range(0, len(exprs), chunk):
        lines.append("")
        lines.append("static void f%d(void)" % nfuncs)
        lines.append("{")
        for i in range(start, min(start + chunk, len(exprs))):
            lines.append("    T(%s);" % exprs[i].c)
            where[len(lines)] = i
        lines.append("}")
        nfuncs += 1
    lines.append("")
    lines.append("int main(void)")
    lines.append("{")
    lines.append("    struct sigaction sa = {0};")
    lines.append("    sa.sa_handler = on_fpe;")
    lines.append("    sigemptyset(&sa.sa_mask);")
    lines.append("    sigaction(SIGFPE, &sa, NULL);")
    for f in range(nfuncs):
        lines.append("    f%d();" % f)
    lines.append("    return fflush(stdout) != 0;")
    lines.append("}")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return where


def run(cmd, **kw):
    try:
        return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True, **kw)
    except OSError as e:
        fail("cannot run %s: %s" % (cmd[0], e))


def fail(msg):
    print("consteval: error: %s" % msg, file=sys.stderr)
    sys.exit(2)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("consteval_eval", help="path of the consteval_eval program")
    ap.add_argument("work", help="work directory (created)")
    ap.add_argument("--count", type=int, default=4000, help="number of expressions (default 4000)")
    ap.add_argument("--seed", type=int, default=20240601, help="random seed")
    ap.add_argument("--cc", default="gcc", help="the gcc to compare with (default gcc)")
    args = ap.parse_args()

    os.makedirs(args.work, exist_ok=True)
    gen = Generator(args.seed)
    exprs = [gen.expression() for _ in range(args.count)]

    exprs_path = os.path.join(args.work, "exprs.txt")
    with open(exprs_path, "w") as f:
        for e in exprs:
            f.write(e.imcl + "\n")

    # imcl
    r = run([args.consteval_eval, exprs_path])
    with open(os.path.join(args.work, "imcl.out"), "w") as f:
        f.write(r.stdout)
    if r.returncode != 0 or r.stderr.strip():
        sys.stderr.write(r.stderr[-4000:])
        fail("%s exited with status %d%s" % (args.consteval_eval, r.returncode,
                                              " and wrote to stderr" if r.stderr.strip() else ""))
    imcl = r.stdout.splitlines()
    if len(imcl) != len(exprs):
        fail("consteval_eval printed %d lines for %d expressions" % (len(imcl), len(exprs)))

    # gcc
    src = "consteval_gcc.c"
    where = write_c_program(os.path.join(args.work, src), exprs)
    r = run([args.cc, "-std=c11", "-O0", "-fsanitize=undefined,float-cast-overflow", "-fsanitize-recover=all",
             "-o", "consteval_gcc", src, "-lm"], cwd=args.work)
    if r.returncode != 0:
        sys.stderr.write(r.stderr[-4000:])
        fail("%s could not build %s" % (args.cc, os.path.join(args.work, src)))
    env = dict(os.environ)
    env["UBSAN_OPTIONS"] = "halt_on_error=0:print_stacktrace=0"
    r = run([os.path.join(args.work, "consteval_gcc")], cwd=args.work, env=env)
    with open(os.path.join(args.work, "gcc.out"), "w") as f:
        f.write(r.stdout)
    with open(os.path.join(args.work, "gcc.err"), "w") as f:
        f.write(r.stderr)
    if r.returncode != 0:
        fail("consteval_gcc exited with status %d" % r.returncode)
    ref = r.stdout.splitlines()
    if len(ref) != len(exprs):
        fail("consteval_gcc printed %d lines for %d expressions" % (len(ref), len(exprs)))
    ub = {}
    report = re.compile(r"^(?:.*/)?%s:(\d+):\d+: runtime error: (.*)$" % re.escape(src))
    for line in r.stderr.splitlines():
        m = report.match(line)
        if m:
            line_no = int(m.group(1))
            if line_no not in where:
                fail("UBSan report on line %d, which holds no expression: %s" % (line_no, line))
            ub.setdefault(where[line_no], m.group(2))
        elif "runtime error" in line:
            fail("unrecognised UBSan report: %s" % line)

    # The generator's idea of each type must be gcc's, or the table tests nothing.
    for i, e in enumerate(exprs):
        if ref[i].startswith("OK ") and ref[i].split()[1] != e.type:
            fail("generator bug: %s has type %s for gcc, %s for the generator" % (e.c, ref[i].split()[1], e.type))

    # compare
    mismatches = undefined = unknown = 0
    floaty = sum(1 for e in exprs if e.floaty)

    def mismatch(i, why):
        nonlocal mismatches
        mismatches += 1
        if mismatches <= 50:
            gcc_says = "undefined (%s)" % ub[i] if i in ub else ref[i]
            print("MISMATCH %s\n  expression: %s\n  gcc:  %s\n  imcl: %s" % (why, exprs[i].imcl, gcc_says, imcl[i]))

    for i, e in enumerate(exprs):
        got = imcl[i]
        gcc_ub = i in ub or ref[i] == "TRAP"
        if ref[i] == "TRAP" and i not in ub:
            mismatch(i, "(gcc trapped without a UBSan report)")
        elif got == "UNKNOWN":
            if not e.floaty:
                mismatch(i, "(UNKNOWN for an integer-only expression)")
            else:
                unknown += 1
        elif gcc_ub:
            if got.startswith("UNDEFINED"):
                undefined += 1
            else:
                mismatch(i, "(C leaves it undefined)")
        elif got.startswith("UNDEFINED"):
            mismatch(i, "(imcl says undefined, gcc does not)")
        elif got != ref[i]:
            mismatch(i, "(value or type)")
    if mismatches > 50:
        print("... and %d more mismatches" % (mismatches - 50))
    print("consteval: %d expressions involve float or double, %d of them UNKNOWN" % (floaty, unknown))
    too_unknown = unknown * 3 > floaty
    if too_unknown:
        print("consteval: more than a third of the float expressions are UNKNOWN: the evaluator gives up too easily")
    print("consteval: %d expressions, %d undefined, %d unknown, %d mismatches"
          % (len(exprs), undefined, unknown, mismatches))
    return 1 if mismatches or too_unknown else 0


if __name__ == "__main__":
    sys.exit(main())
