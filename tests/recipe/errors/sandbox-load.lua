-- nor load
load("return 1")()
