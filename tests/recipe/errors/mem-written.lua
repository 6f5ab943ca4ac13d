-- a placement -t refuses, at the line that set it
block{x = 32, y = 2, z = 2}
place("out", "shared")
-- RUN: rm -rf %t && cd %S/.. && %exit 2 %imcl -b opencl -r errors/mem-written.lua -o %t kernel.imcl 2> %t.err
-- RUN: %expect %S/mem-written.err < %t.err && not ls %t
