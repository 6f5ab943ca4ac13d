-- no such mapping
mapping("diagonal")
-- RUN: rm -rf %t && cd %S/.. && %exit 2 %imcl -b opencl -r errors/mapping.lua -o %t kernel.imcl 2> %t.err
-- RUN: %expect %S/mapping.err < %t.err && not ls %t
