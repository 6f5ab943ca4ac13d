-- a value the tunable does not list (value-not-listed.values.json)
tunable("T", {32, 64})
kernel("smooth", function() block{x = T, y = 2, z = 2} end)
