# Generated text with imcl's line layout undone (wrappers/layout.c breaks lines
# over 100 columns): `flat FILE` prints FILE as one line, each line break with
# its indentation one space, comment continuations (" * ") and string literals
# split in two ("abc " "def") joined, runs of spaces one space; `flat_text STR`
# does the same to a string. Tests look for generated text in flat form, so
# that where a line happens to break does not matter.
flat() { perl -0pe 's/"\n[ \t]*"//g; s/\n[ \t]*\* / /g; s/[ \t]*\n[ \t]*/ /g; s/ {2,}/ /g' "$1" 2>/dev/null; }
flat_text() { printf '%s' "$1" | perl -0pe 's/[ \t]*\n[ \t]*/ /g; s/ {2,}/ /g'; }

# `no_interior JSON`: the configuration with "interior": 0 added (unless it sets
# it), for checks that count the statements of one copy of the body: without it,
# kernels with guards have a second, guard-free copy for inner blocks
# (passes/interior.c).
no_interior() {
    case $1 in
    *'"interior"'*) printf '%s' "$1" ;;
    '{}' | '{ }') printf '{"interior": 0}' ;;
    *) printf '%s' "$1" | sed 's/^{/{"interior": 0, /' ;;
    esac
}
