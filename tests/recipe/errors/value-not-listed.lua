-- a value the tunable does not list (value-not-listed.values.json)
tunable("T", {32, 64})
kernel("smooth", function() block{x = T, y = 2, z = 2} end)
-- RUN: rm -rf %t && cd %S/.. && %exit 2 %imcl -b opencl -r errors/value-not-listed.lua -t errors/value-not-listed.values.json -o %t kernel.imcl 2> %t.err
-- RUN: %expect %S/value-not-listed.err < %t.err && not ls %t
