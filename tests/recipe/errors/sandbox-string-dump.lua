-- nor string.dump
local b = string.dump(function() end)
-- RUN: rm -rf %t && cd %S/.. && %exit 2 %imcl -b opencl -r errors/sandbox-string-dump.lua -o %t kernel.imcl 2> %t.err
-- RUN: %expect %S/sandbox-string-dump.err < %t.err && not ls %t
