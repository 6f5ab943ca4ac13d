-- a syntax error
block{x = }
