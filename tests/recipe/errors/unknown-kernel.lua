-- a kernel the source does not have
kernel("nope", function() end)
