-- nor os
os.remove("kernel.imcl")
-- RUN: rm -rf %t && cd %S/.. && %exit 2 %imcl -b opencl -r errors/sandbox-os.lua -o %t kernel.imcl 2> %t.err
-- RUN: %expect %S/sandbox-os.err < %t.err && not ls %t
