-- a placement -t refuses, at the line that set it
block{x = 32, y = 2, z = 2}
place("out", "shared")
