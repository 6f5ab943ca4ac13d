-- no such field
block{w = 3}
-- RUN: rm -rf %t && cd %S/.. && %exit 2 %imcl -b opencl -r errors/block-field.lua -o %t kernel.imcl 2> %t.err
-- RUN: %expect %S/block-field.err < %t.err && not ls %t
