-- nor require
local m = require("os")
-- RUN: rm -rf %t && cd %S/.. && %exit 2 %imcl -b opencl -r errors/sandbox-require.lua -o %t kernel.imcl 2> %t.err
-- RUN: %expect %S/sandbox-require.err < %t.err && not ls %t
