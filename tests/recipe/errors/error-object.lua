-- an error without a message
error({})
-- RUN: rm -rf %t && cd %S/.. && %exit 2 %imcl -b opencl -r errors/error-object.lua -o %t kernel.imcl 2> %t.err
-- RUN: %expect %S/error-object.err < %t.err && not ls %t
