"""bench/tuned/miniamr.py: tunes miniAMR's kernels v1, v2, v3 (samples/miniamr) with
imcl.tune on the OpenCL device, each on one launch of the proxy's problem shape:
N^3 cells per block, BLOCKS blocks, VARS variables (v1, v2: every block in one
launch; v3: one block's grid with its ghost layer), and writes OUT/<v>.best.json
for `miniamr-proxy -t`.

  .venv/bin/python bench/tuned/miniamr.py OUT [N BLOCKS VARS BUDGET]   (32 16 4 40)
"""
import sys

import numpy as np
import imcl

out = sys.argv[1]
n, blocks, nvars, budget = (int(a) for a in (sys.argv[2:6] + ["32", "16", "4", "40"][len(sys.argv) - 2:]))
rng = np.random.default_rng(1)
g = n + 2
args = {
    "v1": dict(mesh=rng.random((blocks * (nvars + 1) * g, g, g)), n=n, var=0,
               num_blocks=blocks, num_vars=nvars),
    "v2": dict(input=rng.random((blocks * nvars * g, g, g)), output=np.zeros((blocks * nvars * g, g, g)),
               n=n, var=0, num_blocks=blocks, num_vars=nvars),
    "v3": None,
}
for v, a in args.items():
    # v1 and v2 update every block's n^3 cells in one launch; v3 one grid
    points = n ** 3 * blocks if a else None
    r = imcl.tune(f"samples/miniamr/{v}.imcl", size=(n, n, n), strategy="random_sample",
                  budget=budget, seed=1, args=a, points=points, params_out=f"{out}/{v}.best.json",
                  results_out=f"{out}/{v}.t4.json")
    print(r.summary(), flush=True)
