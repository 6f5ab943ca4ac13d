-- a label no loop has
kernel("smooth", function() unroll("tabs", 2) end)
-- RUN: rm -rf %t && cd %S/.. && %exit 2 %imcl -b opencl -r errors/unknown-label.lua -o %t kernel.imcl 2> %t.err
-- RUN: %expect %S/unknown-label.err < %t.err && not ls %t
