"""Kernel Tuner's three ways of evaluating restrictions agree with imcl on the space
(tests/python/run.sh test_restrictions.py WORKDIR).

imcl's meaning of a restriction is `eval(r, {}, config)` (docs/tuning.md). Kernel
Tuner 1.5.0 builds the search space with python-constraint (default), or by brute
force (framework "bruteforce"), and its simulation runner checks a configuration
that is not in the cache with kernel_tuner.util.check_restrictions; the last two
paste values into restriction strings unquoted. imcl.Kernel.restrictions must give
the same space on every path, and so must imcl.Kernel.kernel_tuner_space() (string
values as integer codes, every restriction a string: what imcl.tune hands over)."""

import itertools

import pytest

from common import REPO, SAMPLES, expect_raises

import imcl  # noqa: E402
from kernel_tuner.searchspace import Searchspace  # noqa: E402
from kernel_tuner.util import check_restrictions  # noqa: E402

MAX_THREADS = 1024   # PoCL's largest work-group is larger; imcl's own restriction is 1024


def reference_space(k, tune_params=None):
    """Every configuration of the space Kernel Tuner sees (or of tune_params, a part of
    it) that imcl's strings allow."""
    tune_params = tune_params or k.tune_params
    names = list(tune_params)
    out = set()
    for values in itertools.product(*tune_params.values()):
        config = dict(zip(names, values))
        bs = config["block_size_x"] * config["block_size_y"] * config["block_size_z"]
        if bs <= MAX_THREADS and imcl.holds(k.restriction_strings, config):
            out.add(values)
    return out


def check_frameworks(path, size, expect_shared_cut=True, **kernel_options):
    k = imcl.Kernel(str(path), size=size, **kernel_options)
    assert any(callable(r) for r in k.restrictions) == expect_shared_cut, k.restrictions
    ref = reference_space(k)
    full = 1
    for v in k.tune_params.values():
        full *= len(v)
    if expect_shared_cut:
        # the shared-memory restriction cuts the space (else the check proves little)
        shared = [c for c in ref if "shared" in c]
        assert shared and len(ref) < full, (len(ref), full)
    for framework in ("PythonConstraint", "bruteforce"):
        ss = Searchspace(k.tune_params, k.restrictions, MAX_THREADS, framework=framework)
        got = set(ss.list)
        assert got == ref, (framework, len(got), len(ref), sorted(got ^ ref)[:3])
    # what the simulation runner evaluates: the search space's restrictions, as Kernel
    # Tuner hands them on (with its block-size restriction added), on every
    # configuration, those outside the space too
    ss = Searchspace(k.tune_params, k.restrictions, MAX_THREADS)
    names = list(k.tune_params)
    for values in itertools.product(*k.tune_params.values()):
        config = dict(zip(names, values))
        assert check_restrictions(ss._modified_restrictions, config, False) == (values in ref), config
    # the coded space (Kernel.kernel_tuner_space): every restriction a string over
    # integers, the same configurations once decoded, built by python-constraint and by
    # brute force (which evaluates each configuration as the simulation runner does,
    # check_restrictions)
    tp, rs = k.kernel_tuner_space()
    assert all(isinstance(r, str) for r in rs), rs
    decoded = lambda values: tuple(k.decode(dict(zip(names, values))).values())  # noqa: E731
    for framework in ("PythonConstraint", "bruteforce"):
        got = {decoded(c) for c in Searchspace(tp, rs, MAX_THREADS, framework=framework).list}
        assert got == ref, ("coded", framework, len(got), len(ref), sorted(got ^ ref)[:3])
    # the dump's strings as they are break the bruteforce framework (the reason for the
    # functions): `(global == 'shared')`
    if expect_shared_cut:
        expect_raises(SyntaxError, "invalid syntax...", Searchspace, k.tune_params,
                      k.restriction_strings, MAX_THREADS, framework="bruteforce")
    print(f"  {k.kernel} {size}: {len(ref)} of {full} configurations, every path agrees", flush=True)


def check_part(k, sub, what):
    """The part sub of k's space that python-constraint builds from the coded space is
    the one imcl's strings allow, and the restrictions cut it."""
    ref = reference_space(k, sub)
    full = 1
    for v in sub.values():
        full *= len(v)
    assert 0 < len(ref) < full, (len(ref), full)
    tp, rs = k.kernel_tuner_space(sub)
    names = list(tp)
    got = {tuple(k.decode(dict(zip(names, c))).values()) for c in Searchspace(tp, rs, MAX_THREADS).list}
    assert got == ref, (len(got), len(ref), sorted(got ^ ref)[:3])
    print(f"  {what}, a part: {len(ref)} of {full} configurations", flush=True)


def check_register_restriction():
    """The register estimate's restriction (only where a block can be large: here sum27
    at 64^3, on a part of its space with large and small blocks), which python-constraint
    must read whole: it splits a restriction at every comparison, so imcl writes the
    estimate's conditions as floor divisions (docs/tuning.md)."""
    k = imcl.Kernel(str(SAMPLES / "sum27" / "sum27.imcl"), size=(64, 64, 64))
    reg = [r for r in k.restriction_strings if "//" in r]
    assert reg and not any(op in reg[0].split("<=")[0] for op in ("<", ">")), k.restriction_strings
    sub = dict(k.tune_params, block_size_x=[32, 64], block_size_y=[1, 16], block_size_z=[1, 2],
               coarsen_x=[1, 2], coarsen_y=[1], coarsen_z=[1, 2], interleaved=[0], interior=[0],
               stream_z=[0, 2], mem_input=["global", "shared"])
    check_part(k, sub, "sum27 (64, 64, 64)")


def check_size_restriction():
    """The size bound on the unrolled code (tune/unrolled.c: a polynomial over the unroll
    factors along the loop nest, times 1 + interior), read by python-constraint whole, on
    a part of the 729-tap box's space where it cuts (tests/params/box.imcl)."""
    k = imcl.Kernel(str(REPO / "tests" / "params" / "box.imcl"), size=(32, 32, 32))
    size = [r for r in k.restriction_strings if "interior" in r and "unroll_L8" in r]
    assert size and size[0].endswith("<= 30000"), k.restriction_strings
    sub = dict(k.tune_params, block_size_x=[32], block_size_y=[4], block_size_z=[1], coarsen_x=[1],
               coarsen_y=[1, 2], coarsen_z=[1], interleaved=[1], batch_loop=[0], mem_in=["global"])
    check_part(k, sub, "box (32, 32, 32)")


def check_prune(work):
    """The pruned space Kernel Tuner builds is imcl's space less what the dump's prune
    leaves out; imcl.tune searches it, greedy_ils starting from the default (the CPU
    variant on PoCL), and prune=False searches everything."""
    path = str(SAMPLES / "sobel" / "sobel.imcl")
    k = imcl.Kernel(path, size=(200, 60))
    assert k.prune_strings == ["block_size_x*block_size_y*block_size_z >= 32", "200 % coarsen_x == 0",
                               "60 % coarsen_y == 0"], k.prune_strings
    part = dict(k.tune_params, block_size_y=[1, 2, 4], interleaved=[1], batch_loop=[0])
    ref = {c for c in reference_space(k, part) if imcl.holds(k.prune_strings, dict(zip(part, c)))}
    tp, rs = k.kernel_tuner_space(part, prune=True)
    got = {tuple(k.decode(dict(zip(tp, c))).values()) for c in Searchspace(tp, rs, MAX_THREADS).list}
    assert got == ref and len(got) < len(reference_space(k, part)), (len(got), len(ref))
    r = imcl.tune(path, size=(200, 60), strategy="greedy_ils", budget=4, seed=3, iterations=1,
                  params_out=None, results_out=None, rounds=0)
    assert r.pruned == k.prune_strings and r.default_is_cpu, (r.pruned, r.default_is_cpu)
    first = {p: r.results[0][p] for p in k.tune_params}
    assert first == {p: r.default[p] for p in k.tune_params}, (first, r.default)   # x0: the default
    assert all(imcl.holds(k.prune_strings, x) for x in r.results), len(r.results)
    full = imcl.tune(path, size=(200, 60), strategy="random_sample", budget=2, seed=3, iterations=1,
                     params_out=None, results_out=None, rounds=0, prune=False)
    assert full.pruned == [] and "pruned" not in full.summary(), full.summary()


def check_tune_bruteforce_framework(work):
    """A whole tuning run with the bruteforce search-space framework."""
    r = imcl.tune(str(SAMPLES / "sobel" / "sobel.imcl"), size=(32, 32), strategy="random_sample",
                  budget=3, seed=4, iterations=1, params_out=None, results_out=None,
                  strategy_options={"searchspace_construction_options": {"framework": "bruteforce"}})
    # a budget of 3: the strategy's 2 and the default (listed when it lies in the space)
    assert not r.failures and 2 <= len(r.results) <= 3, (r.failures, len(r.results))


def check_simulation(work):
    """Tune with a cache, then replay in simulation mode: the same configurations come
    from the cache; a brute-force replay reaches a configuration that is not in the
    cache and Kernel Tuner says so, after evaluating the restrictions (True), instead of
    failing on them."""
    cache = work / "sobel.cache.json"
    if cache.exists():
        cache.unlink()
    (work / "sobel.cache-cpu-variant.json").unlink(missing_ok=True)  # the CPU variant's own
    path = str(SAMPLES / "sobel" / "sobel.imcl")
    sub = {"block_size_x": [8, 16], "block_size_y": [8, 16], "coarsen_x": [1, 2], "coarsen_y": [8],
           "mem_in": ["global", "shared"]}
    real = imcl.tune(path, size=(32, 32), strategy="random_sample", budget=4, seed=9, iterations=1,
                     subspace=sub, cache=str(cache), params_out=None, results_out=None)
    assert not real.failures
    sim = imcl.tune(path, size=(32, 32), strategy="random_sample", budget=4, seed=9, subspace=sub,
                    cache=str(cache), simulation_mode=True, params_out=None, results_out=None)
    key = lambda r: tuple(r[p] for p in sub)  # noqa: E731
    assert sorted(map(key, sim.results)) == sorted(map(key, real.results[:4])), \
        (list(map(key, sim.results)), list(map(key, real.results)))
    assert sim.best_time_ms == min(r["time"] for r in real.results[:4])
    e = expect_raises(ValueError, "kernel configuration (...", imcl.tune, path, size=(32, 32),
                      strategy="brute_force", subspace=sub, cache=str(cache), simulation_mode=True,
                      params_out=None, results_out=None)
    assert "not in cache, does pass extra restriction check (True)" in str(e), str(e)
    # a configuration outside the space, checked as the simulation runner checks one
    k = real.kernel
    ss = Searchspace(k.tune_params, k.restrictions, 1_000_000_000)
    bad = dict(k.defaults, mem_in="shared", block_size_x=64, block_size_y=16, coarsen_x=8, coarsen_y=8)
    assert not imcl.holds(k.restriction_strings, bad)
    assert check_restrictions(ss._modified_restrictions, bad, False) is False


@pytest.mark.parametrize("path, size, extra", [
    (SAMPLES / "sobel" / "sobel.imcl", (16, 16), {}),                        # shared-memory restriction
    (SAMPLES / "blur5" / "blur5.imcl", (8, 8), {"shared_limit": 4096}),      # shared, constant, unrolling
    (SAMPLES / "sum7" / "sum7.imcl", (2, 2, 2), {}),                         # 3D
    (SAMPLES / "miniamr" / "v1.imcl", (2, 2, 2), {"expect_shared_cut": False}),  # no string-valued restriction
], ids=["sobel-16x16", "blur5-8x8-shared-limit-4096", "sum7-2x2x2", "miniamr-v1-2x2x2"])
def test_frameworks(work, path, size, extra):
    check_frameworks(path, size, **extra)


def test_register_restriction_read_whole():
    check_register_restriction()


def test_size_restriction_read_whole():
    check_size_restriction()


def test_pruned_space_and_the_default_as_the_start(work):
    check_prune(work)


def test_tuning_with_the_bruteforce_framework(work):
    check_tune_bruteforce_framework(work)


def test_simulation_mode(work):
    check_simulation(work)
