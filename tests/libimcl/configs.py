"""Configurations of a dumped space (imcl --dump-space, on stdin) as JSON lines: every
valid one when there are at most MAX, else MAX of them drawn with a fixed seed (the
restrictions evaluated as Python). Used by tests/lit/libimcl and
bench/compile_speed.sh.

usage: python3 configs.py MAX [SEED] < space.json > configs.jsonl"""
import itertools
import json
import random
import sys


def configs(space, cap, seed=1):
    params = space["parameters"]
    names = list(params)
    codes = [compile(r, "<restriction>", "eval") for r in space["restrictions"]]

    def ok(c):
        return all(eval(x, {}, dict(c)) for x in codes)

    raw = 1
    for n in names:
        raw *= len(params[n])
    rng = random.Random(seed)
    if raw <= 2000000:
        cfgs = [c for c in (dict(zip(names, v)) for v in itertools.product(*(params[n] for n in names)))
                if ok(c)]
        total = len(cfgs)
        if total > cap:
            cfgs = rng.sample(cfgs, cap)
        return cfgs, total
    seen = {}
    for _ in range(1000 * cap):
        if len(seen) >= cap:
            break
        c = {n: rng.choice(params[n]) for n in names}
        if ok(c):
            seen[json.dumps(c, sort_keys=True)] = c
    return list(seen.values()), None


if __name__ == "__main__":
    cap = int(sys.argv[1])
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    doc = json.load(sys.stdin)
    if isinstance(doc, list):
        doc = doc[0]
    cfgs, total = configs(doc, cap, seed)
    for c in cfgs:
        print(json.dumps(c))
    print(f"{len(cfgs)} of {total if total is not None else 'too many to count'} valid configurations",
          file=sys.stderr)
