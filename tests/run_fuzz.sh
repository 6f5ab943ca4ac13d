#!/bin/bash
# Robustness: imcl never crashes, whatever the input.
#
#   run_fuzz.sh IMCL [SAMPLES_DIR]     (default SAMPLES_DIR: samples/ of this repo)
#
# Mutates every SAMPLES_DIR/*/*.imcl deterministically (truncations, byte flips
# with a fixed seed, token deletions and duplications, line deletions, inserted
# odd bytes), a few hundred inputs in all, runs `IMCL -b BACKEND -o FRESH_DIR input`
# on each (the backend turns c, opencl, cuda; every other mutant of a sample gets
# the sample's params.json with -t) and requires: exit status 0, 1 or 2; no sanitizer report; no "internal
# compiler error"; no hang; and on a non-zero status, nothing left in FRESH_DIR.
# Failing inputs are kept in a directory named at the end.
# Environment: FUZZ_BUDGET (about how many inputs, default 400), FUZZ_JOBS.
set -u

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: $0 IMCL [SAMPLES_DIR]" >&2
    exit 2
fi
imcl=$1
samples=${2:-$(dirname "$0")/../samples}
if [ ! -x "$imcl" ]; then
    echo "$0: '$imcl' is not an executable" >&2
    exit 2
fi
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=99"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}exitcode=99:print_stacktrace=1"

exec python3 - "$imcl" "$samples" <<'EOF'
import concurrent.futures, glob, os, random, re, shutil, subprocess, sys, tempfile

imcl, samples_dir = os.path.abspath(sys.argv[1]), sys.argv[2]
budget = int(os.environ.get("FUZZ_BUDGET", "400"))
jobs = int(os.environ.get("FUZZ_JOBS", str(min(8, os.cpu_count() or 1))))

sources = sorted(glob.glob(os.path.join(samples_dir, "*", "*.imcl")))
if not sources:
    print(f"run_fuzz.sh: no samples in {samples_dir}/*/*.imcl", file=sys.stderr)
    sys.exit(2)

TOKEN = re.compile(rb"[A-Za-z_][A-Za-z_0-9]*|[0-9][0-9.]*[fFuU]?|\S")
ODD = [b"\0", b"\xff", b"\xc3", b"#", b'"', b"'", b"/*", b"*/", b"\\", b"@", b"#pragma imcl ",
       b"{", b"}", b"(", b")", b"[", b"]", b";", b"\n#include \"x.h\"\n", b"\n#define\n", b"\r"]

def mutants(name, data, count):
    """Yields (description, bytes): `count` deterministic mutations of one sample."""
    kinds = ["truncate", "flip", "delete-token", "duplicate-token", "swap-tokens",
             "delete-line", "insert"]
    toks = [m.span() for m in TOKEN.finditer(data)]
    lines = data.split(b"\n")
    for i in range(count):
        rnd = random.Random(f"{name}:{i}")
        kind = kinds[i % len(kinds)]
        if kind == "truncate":
            # evenly spaced cut points over the whole file, every sample alike
            n = count // len(kinds) + 1
            cut = len(data) * (i // len(kinds) + 1) // (n + 1)
            yield f"truncate at byte {cut}", data[:cut]
        elif kind == "flip":
            b = bytearray(data)
            for _ in range(rnd.randint(1, 3)):
                if b:
                    b[rnd.randrange(len(b))] = rnd.randrange(256)
            yield "byte flips (seed %s:%d)" % (name, i), bytes(b)
        elif kind == "delete-token" and toks:
            s, e = toks[rnd.randrange(len(toks))]
            yield f"delete token at {s}", data[:s] + data[e:]
        elif kind == "duplicate-token" and toks:
            s, e = toks[rnd.randrange(len(toks))]
            yield f"duplicate token at {s}", data[:e] + b" " + data[s:e] + data[e:]
        elif kind == "swap-tokens" and len(toks) > 1:
            j = rnd.randrange(len(toks) - 1)
            (s1, e1), (s2, e2) = toks[j], toks[j + 1]
            yield f"swap tokens at {s1}", data[:s1] + data[s2:e2] + data[e1:s2] + data[s1:e1] + data[e2:]
        elif kind == "delete-line" and len(lines) > 1:
            j = rnd.randrange(len(lines))
            yield f"delete line {j + 1}", b"\n".join(lines[:j] + lines[j + 1:])
        else:
            pos = rnd.randrange(len(data) + 1)
            odd = ODD[rnd.randrange(len(ODD))]
            yield f"insert {odd!r} at {pos}", data[:pos] + odd + data[pos:]

def extra_inputs():
    """A few hand-made hostile inputs besides the mutants."""
    k = b"#pragma imcl grid(a)\nvoid k(Image<float> a, Image<float> b) {\n    b[idx][idy] = %s;\n}\n"
    yield "long chain", k % b" + ".join([b"a[idx][idy]"] * 5000)
    yield "deep parentheses", k % (b"(" * 3000 + b"1" + b")" * 3000)
    yield "deep unary", k % (b"-" * 30000 + b"1")
    yield "deep blocks", k.replace(b"    b[idx][idy] = %s;\n", b"{\n" * 20000 + b"}\n" * 20000)
    yield "many functions", b"".join(b"float f%d(float x) { return x; }\n" % i for i in range(3000)) + k % b"f1(1.0f)"
    yield "long line", k % (b"1" + b" " * 100000 + b"+ 2")
    yield "only pragmas", b"#pragma imcl grid(a)\n" * 1000
    yield "random bytes", bytes(random.Random("random").randrange(256) for _ in range(4096))
    yield "random printable", bytes(random.Random("printable").choice(b"{}()[];,+-*/%=<>!&|^~?:.#\"' \nabcxyz019") for _ in range(4096))

work = tempfile.mkdtemp(prefix="imcl-fuzz.")
inputs = []  # (path, description, extra arguments)
BACKENDS = ["c", "opencl", "cuda"]
per = max(14, budget // len(sources))
for src in sources:
    name = os.path.splitext(os.path.basename(src))[0]
    data = open(src, "rb").read()
    params = os.path.join(os.path.dirname(os.path.abspath(src)), "params.json")
    for i, (desc, mutated) in enumerate(mutants(name, data, per)):
        path = os.path.join(work, f"{name}.{i:03d}.imcl")
        open(path, "wb").write(mutated)
        args = ["-b", BACKENDS[i % 3]]
        if i % 2 and os.path.exists(params):
            args += ["-t", params]
        inputs.append((path, f"{os.path.relpath(src, samples_dir)}: {desc}", args))
for i, (desc, text) in enumerate(extra_inputs()):
    path = os.path.join(work, f"extra.{i:03d}.imcl")
    open(path, "wb").write(text)
    inputs.append((path, desc, ["-b", BACKENDS[i % 3]]))

def run(item):
    path, desc, args = item
    out = path[:-5] + ".out"
    os.mkdir(out)
    try:
        p = subprocess.run([imcl] + args + ["-o", out, os.path.basename(path)], cwd=work,
                           stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, timeout=20)
    except subprocess.TimeoutExpired:
        return item, "timed out", b""
    err = p.stderr
    left = os.listdir(out)
    shutil.rmtree(out, ignore_errors=True)
    if p.returncode < 0:
        return item, f"killed by signal {-p.returncode}", err
    if p.returncode not in (0, 1, 2):
        return item, f"exit status {p.returncode}", err
    for bad in (b"Sanitizer", b"runtime error:", b"internal compiler error"):
        if bad in err:
            return item, f"'{bad.decode()}' on stderr", err
    if p.returncode != 0 and left:
        return item, f"exit status {p.returncode} but left {', '.join(sorted(left))}", err
    return item, None, p.returncode

failures = []
statuses = {}
with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
    for (path, desc, args), why, err in pool.map(run, inputs):
        if why:
            failures.append((path, desc, args, why, err))
        else:
            statuses[err] = statuses.get(err, 0) + 1

if failures:
    keep = tempfile.mkdtemp(prefix="imcl-fuzz-failures.")
    for path, desc, args, why, err in failures:
        kept = os.path.join(keep, os.path.basename(path))
        shutil.copy(path, kept)
        print(f"FAIL {kept} ({desc}; imcl {' '.join(args)}): {why}")
        for line in err.decode(errors="replace").splitlines()[:25]:
            print("    " + line)
    print(f"failing inputs kept in {keep}")
shutil.rmtree(work, ignore_errors=True)
print("exit statuses: " + ", ".join(f"{k}: {v}" for k, v in sorted(statuses.items())))
print(f"{len(inputs) - len(failures)} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
EOF
