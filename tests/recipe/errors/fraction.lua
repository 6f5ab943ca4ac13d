-- a fraction for a block size
block{x = 32 / 3}
