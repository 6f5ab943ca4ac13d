-- a value for no tunable (unknown-tunable.values.json)
tunable("T", {32, 64})
kernel("smooth", function() block{x = T, y = 2, z = 2} end)
-- RUN: rm -rf %t && cd %S/.. && %exit 2 %imcl -b opencl -r errors/unknown-tunable.lua -t errors/unknown-tunable.values.json -o %t kernel.imcl 2> %t.err
-- RUN: %expect %S/unknown-tunable.err < %t.err && not ls %t
