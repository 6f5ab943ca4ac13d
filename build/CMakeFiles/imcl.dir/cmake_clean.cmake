file(REMOVE_RECURSE
  "CMakeFiles/imcl.dir/driver/main.c.o"
  "CMakeFiles/imcl.dir/driver/main.c.o.d"
  "imcl"
  "imcl.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/imcl.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
