-- a labelled loop named by its line
kernel("smooth", function() unroll(8, 3) end)
