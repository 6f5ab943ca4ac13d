-- stream_z on the Image kernel
kernel("copy2", function() stream_z(4) end)
-- RUN: rm -rf %t && cd %S/.. && %exit 2 %imcl -b opencl -r errors/stream-2d.lua -o %t kernel.imcl 2> %t.err
-- RUN: %expect %S/stream-2d.err < %t.err && not ls %t
