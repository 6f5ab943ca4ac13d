-- the io library is not there
io.write("x")
-- RUN: rm -rf %t && cd %S/.. && %exit 2 %imcl -b opencl -r errors/sandbox-io.lua -o %t kernel.imcl 2> %t.err
-- RUN: %expect %S/sandbox-io.err < %t.err && not ls %t
