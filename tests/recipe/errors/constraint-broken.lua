-- values that break a constraint (constraint-broken.values.json)
tunable("T", {32, 64})
constraint("T <= 32")
kernel("smooth", function() block{x = T, y = 2, z = 2} end)
