#!/usr/bin/env python3
"""The CUDA configurations bench/an5d/gpu.sh times for one kernel of the AN5D set.

    imcl -b cuda --dump-space K.imcl | python3 bench/an5d/gpu_configs.py

Reads the kernel's dumped space on stdin and prints one configuration per line: `default`
(imcl without -t) first, then flat JSON objects for `imcl -t`: the default block with one
point per thread (the default until the AN5D measurements), block shapes a warp wide in
x (what the 7-point stencil's H100 measurements favour, docs/performance.md "On a GPU"),
coarsening along y (2D) or z (3D), z-marching (`stream_z`), the input in shared memory,
and in 3D the input in registers; where the kernel has tap loops (`unroll_*`), each of
them again with every tap loop unrolled fully. Points the space's restrictions exclude
are printed too: gpu.sh asks imcl and drops what it refuses.
"""
import json
import sys


def configs(space):
    params = space["parameters"]
    if space["grid_dims"] == 3:
        shapes = [
            {"block_size_x": 32, "block_size_y": 4, "block_size_z": 1, "coarsen_z": 2},
            {"block_size_x": 64, "block_size_y": 4, "block_size_z": 1},
            {"block_size_x": 32, "block_size_y": 8, "stream_z": 8},
            {"block_size_x": 32, "block_size_y": 8, "block_size_z": 1, "mem_in": "shared"},
            {"block_size_x": 32, "block_size_y": 4, "block_size_z": 1, "coarsen_z": 4,
             "mem_in": "register"},
        ]
    else:
        shapes = [
            {"block_size_x": 32, "block_size_y": 8},
            {"block_size_x": 64, "block_size_y": 4},
            {"block_size_x": 32, "block_size_y": 4, "coarsen_y": 2},
            {"block_size_x": 32, "block_size_y": 4, "coarsen_y": 4},
            {"block_size_x": 32, "block_size_y": 8, "mem_in": "shared"},
        ]
    shapes = [s for s in shapes if all(k in params and v in params[k] for k, v in s.items())]
    # one point per thread: the default before it coarsened (docs/tuning.md)
    one = {"coarsen_z" if space["grid_dims"] == 3 else "coarsen_y": 1}
    out = [None, one] + shapes
    unroll = {k: max(v) for k, v in sorted(params.items()) if k.startswith("unroll_")}
    if unroll:
        out += [dict(s or {}, **unroll) for s in [None] + shapes]
    return out


def main():
    for c in configs(json.load(sys.stdin)):
        print("default" if c is None else json.dumps(c))


if __name__ == "__main__":
    main()
