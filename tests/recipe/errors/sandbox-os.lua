-- nor os
os.remove("kernel.imcl")
