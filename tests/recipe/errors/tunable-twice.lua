-- a tunable declared twice
tunable("T", {1, 2})
tunable("T", {1, 2})
