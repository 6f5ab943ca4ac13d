-- Every call of the recipe API once (tests/run_recipes.sh compares the files with
-- those of the hand-written twins smooth.json, copy2.json and copy2.cuda.json).
tunable("B", {32, 64}, 64)
block{x = B, y = 2}
kernel("smooth", function()
    block{z = 1}
    coarsen{x = 2}
    mapping("blocked")
    interior(false)
    unroll("taps", 3)
    stream_z(4)
    param("coarsen_y", 1)
end)
kernel("copy2", function()
    assert(arrays["in"].kind == "Image" and arrays["in"].type == "int" and not arrays["in"].written)
    assert(arrays["in"].footprint.x[1] == 1 and arrays["in"].footprint.y[1] == -1)
    assert(name == "copy2" and dims == 2 and limits.warp == 32)
    place("in", backend == "cuda" and "register" or "global")
    unroll(18, 2)
end)
