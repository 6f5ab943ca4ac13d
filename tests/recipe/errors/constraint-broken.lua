-- values that break a constraint (constraint-broken.values.json)
tunable("T", {32, 64})
constraint("T <= 32")
kernel("smooth", function() block{x = T, y = 2, z = 2} end)
-- RUN: rm -rf %t && cd %S/.. && %exit 2 %imcl -b opencl -r errors/constraint-broken.lua -t errors/constraint-broken.values.json -o %t kernel.imcl 2> %t.err
-- RUN: %expect %S/constraint-broken.err < %t.err && not ls %t
