-- a default that is not a value
tunable("T", {1, 2}, 3)
