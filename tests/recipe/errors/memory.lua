-- more memory than a recipe may hold
local t = {} for i = 1, 1e9 do t[i] = string.rep("x", 4096) .. i end
-- RUN: rm -rf %t && cd %S/.. && %exit 2 %imcl -b opencl -r errors/memory.lua -o %t kernel.imcl 2> %t.err
-- RUN: %expect %S/memory.err < %t.err && not ls %t
