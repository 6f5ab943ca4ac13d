-- a syntax error
block{x = }
-- RUN: rm -rf %t && cd %S/.. && %exit 2 %imcl -b opencl -r errors/syntax.lua -o %t kernel.imcl 2> %t.err
-- RUN: %expect %S/syntax.err < %t.err && not ls %t
