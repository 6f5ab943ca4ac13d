-- a fraction for a block size
block{x = 32 / 3}
-- RUN: rm -rf %t && cd %S/.. && %exit 2 %imcl -b opencl -r errors/fraction.lua -o %t kernel.imcl 2> %t.err
-- RUN: %expect %S/fraction.err < %t.err && not ls %t
