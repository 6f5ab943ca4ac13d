-- a tunable without values
tunable("T", {})
-- RUN: rm -rf %t && cd %S/.. && %exit 2 %imcl -b opencl -r errors/tunable-empty.lua -o %t kernel.imcl 2> %t.err
-- RUN: %expect %S/tunable-empty.err < %t.err && not ls %t
