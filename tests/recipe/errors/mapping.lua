-- no such mapping
mapping("diagonal")
