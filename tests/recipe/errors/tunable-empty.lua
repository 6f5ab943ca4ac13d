-- a tunable without values
tunable("T", {})
