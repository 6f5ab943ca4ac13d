-- a value for no tunable (unknown-tunable.values.json)
tunable("T", {32, 64})
kernel("smooth", function() block{x = T, y = 2, z = 2} end)
