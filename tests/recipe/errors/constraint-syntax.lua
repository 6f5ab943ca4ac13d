-- a constraint that is no expression
tunable("T", {1, 2})
constraint("T +")
