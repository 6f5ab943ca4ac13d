-- a labelled loop named by its line
kernel("smooth", function() unroll(8, 3) end)
-- RUN: rm -rf %t && cd %S/.. && %exit 2 %imcl -b opencl -r errors/unroll-line-of-label.lua -o %t kernel.imcl 2> %t.err
-- RUN: %expect %S/unroll-line-of-label.err < %t.err && not ls %t
