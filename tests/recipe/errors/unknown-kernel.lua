-- a kernel the source does not have
kernel("nope", function() end)
-- RUN: rm -rf %t && cd %S/.. && %exit 2 %imcl -b opencl -r errors/unknown-kernel.lua -o %t kernel.imcl 2> %t.err
-- RUN: %expect %S/unknown-kernel.err < %t.err && not ls %t
