-- nor load
load("return 1")()
-- RUN: rm -rf %t && cd %S/.. && %exit 2 %imcl -b opencl -r errors/sandbox-load.lua -o %t kernel.imcl 2> %t.err
-- RUN: %expect %S/sandbox-load.err < %t.err && not ls %t
