-- a default that is not a value
tunable("T", {1, 2}, 3)
-- RUN: rm -rf %t && cd %S/.. && %exit 2 %imcl -b opencl -r errors/tunable-default.lua -o %t kernel.imcl 2> %t.err
-- RUN: %expect %S/tunable-default.err < %t.err && not ls %t
