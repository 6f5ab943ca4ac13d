file(REMOVE_RECURSE
  "CMakeFiles/imclcore.dir/ast/ast.c.o"
  "CMakeFiles/imclcore.dir/ast/ast.c.o.d"
  "CMakeFiles/imclcore.dir/ast/support.c.o"
  "CMakeFiles/imclcore.dir/ast/support.c.o.d"
  "CMakeFiles/imclcore.dir/frontend/frontend.c.o"
  "CMakeFiles/imclcore.dir/frontend/frontend.c.o.d"
  "CMakeFiles/imclcore.dir/frontend/sema.c.o"
  "CMakeFiles/imclcore.dir/frontend/sema.c.o.d"
  "CMakeFiles/imclcore.dir/lexer.c.o"
  "CMakeFiles/imclcore.dir/lexer.c.o.d"
  "CMakeFiles/imclcore.dir/parser.c.o"
  "CMakeFiles/imclcore.dir/parser.c.o.d"
  "lexer.c"
  "lexer.h"
  "libimclcore.a"
  "libimclcore.pdb"
  "parser.c"
  "parser.h"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/imclcore.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
