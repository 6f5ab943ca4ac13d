#!/usr/bin/env python3
"""The kernels of tests/caps, larger than any fixed table imcl once had, written to stdout
(made on the spot: too big to keep in the tree, and their sizes are the point):

  gen.py kernels N        N kernels k1..kN in one file, k<i> computing a + i
  gen.py functions N      N - 1 helpers f1..f<N-1>, f<i>(x) = f<i-1>(x) + 1 and f1(x) = x + 1,
                          and the kernel chain, o = f<N-1>(idx): idx + N - 1
  gen.py wide ARRAYS LOOPS  the kernel wide: ARRAYS Image parameters a1..a<ARRAYS> besides
                          o, and LOOPS counted loops, the i-th reading a<i>
  gen.py big STATEMENTS   the kernel big: STATEMENTS lines s += a[idx + k][idy] * 2.0f, k
                          going round -3..3, about 33 bytes each (the source size limit)

The same arguments give the same bytes: tests/caps/size.test names the sizes."""
import sys


def kernels(n):
    for i in range(1, n + 1):
        print("#pragma imcl grid(a)")
        print("void k%d(Image<int> a, Image<int> o)" % i)
        print("{")
        print("    o[idx][idy] = a[idx][idy] + %d;" % i)
        print("}")


def functions(n):
    print("int f1(int x) { return x + 1; }")
    for i in range(2, n):
        print("int f%d(int x) { return f%d(x) + 1; }" % (i, i - 1))
    print("#pragma imcl grid(o)")
    print("void chain(Image<int> o)")
    print("{")
    print("    o[idx][idy] = f%d(idx);" % (n - 1))
    print("}")


def wide(arrays, loops):
    print("#pragma imcl grid(o)")
    params = "".join(", Image<int> a%d" % i for i in range(1, arrays + 1))
    print("void wide(Image<int> o%s)" % params)
    print("{")
    print("    int s = 0;")
    for i in range(1, loops + 1):
        print("    for (int i = 0; i < 4; i++)")
        print("        s += a%d[idx + i][idy];" % i)
    print("    o[idx][idy] = s + a%d[idx][idy];" % arrays)
    print("}")


def big(statements):
    print("#pragma imcl grid(a)")
    print("void big(Image<float> a, Image<float> b) {")
    print("    float s = 0.0f;")
    for i in range(statements):
        print("    s += a[idx + %d][idy] * 2.0f;" % (i % 7 - 3))
    print("    b[idx][idy] = s;")
    print("}")


kinds = {"kernels": (kernels, 1), "functions": (functions, 1), "wide": (wide, 2),
         "big": (big, 1)}
if len(sys.argv) < 2 or sys.argv[1] not in kinds or len(sys.argv) != 2 + kinds[sys.argv[1]][1]:
    sys.exit("usage: gen.py kernels N | functions N | wide ARRAYS LOOPS | big STATEMENTS")
kinds[sys.argv[1]][0](*(int(a) for a in sys.argv[2:]))
