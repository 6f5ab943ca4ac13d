-- a tunable declared twice
tunable("T", {1, 2})
tunable("T", {1, 2})
-- RUN: rm -rf %t && cd %S/.. && %exit 2 %imcl -b opencl -r errors/tunable-twice.lua -o %t kernel.imcl 2> %t.err
-- RUN: %expect %S/tunable-twice.err < %t.err && not ls %t
