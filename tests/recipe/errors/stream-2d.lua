-- stream_z on the Image kernel
kernel("copy2", function() stream_z(4) end)
