-- Every call of the recipe API once (its RUN lines compare the files with
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
-- RUN: rm -rf %t && cd %S
-- The same files as the hand-written twins, each kernel with -k and its twin's -t.
-- RUN: %imcl -b c -r calls.lua -o %t/r-c kernel.imcl
-- RUN: %imcl -b c -k smooth -t smooth.json -o %t/j-c kernel.imcl
-- RUN: %imcl -b c -k copy2 -t copy2.json -o %t/j-c kernel.imcl
-- RUN: diff -r %t/r-c %t/j-c
-- RUN: %imcl -b opencl -r calls.lua -o %t/r-opencl kernel.imcl
-- RUN: %imcl -b opencl -k smooth -t smooth.json -o %t/j-opencl kernel.imcl
-- RUN: %imcl -b opencl -k copy2 -t copy2.json -o %t/j-opencl kernel.imcl
-- RUN: diff -r %t/r-opencl %t/j-opencl
-- RUN: %imcl -b cuda -r calls.lua -o %t/r-cuda kernel.imcl
-- RUN: %imcl -b cuda -k smooth -t smooth.json -o %t/j-cuda kernel.imcl
-- RUN: %imcl -b cuda -k copy2 -t copy2.cuda.json -o %t/j-cuda kernel.imcl
-- RUN: diff -r %t/r-cuda %t/j-cuda
