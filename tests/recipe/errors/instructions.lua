-- a loop that never ends
while true do end
-- RUN: rm -rf %t && cd %S/.. && %exit 2 %imcl -b opencl -r errors/instructions.lua -o %t kernel.imcl 2> %t.err
-- RUN: %expect %S/instructions.err < %t.err && not ls %t
