-- a label no loop has
kernel("smooth", function() unroll("tabs", 2) end)
