-- no such field
block{w = 3}
