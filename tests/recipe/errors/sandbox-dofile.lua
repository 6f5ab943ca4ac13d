-- nor dofile
dofile("calls.lua")
-- RUN: rm -rf %t && cd %S/.. && %exit 2 %imcl -b opencl -r errors/sandbox-dofile.lua -o %t kernel.imcl 2> %t.err
-- RUN: %expect %S/sandbox-dofile.err < %t.err && not ls %t
