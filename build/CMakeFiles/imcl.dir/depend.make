# Empty dependencies file for imcl.
# This may be replaced when dependencies are built.
