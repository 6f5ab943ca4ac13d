# Empty dependencies file for imclcore.
# This may be replaced when dependencies are built.
