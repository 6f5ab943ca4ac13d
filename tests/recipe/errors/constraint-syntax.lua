-- a constraint that is no expression
tunable("T", {1, 2})
constraint("T +")
-- RUN: rm -rf %t && cd %S/.. && %exit 2 %imcl -b opencl -r errors/constraint-syntax.lua -o %t kernel.imcl 2> %t.err
-- RUN: %expect %S/constraint-syntax.err < %t.err && not ls %t
