-- nor debug
debug.sethook()
-- RUN: rm -rf %t && cd %S/.. && %exit 2 %imcl -b opencl -r errors/sandbox-debug.lua -o %t kernel.imcl 2> %t.err
-- RUN: %expect %S/sandbox-debug.err < %t.err && not ls %t
