# The one comparison with expected files of the lit tests, sourced by tests/lit/expect
# (%expect in RUN lines) and by the helpers that compare (diag, golden, params):
#
#   expect FILE GOT       the file GOT must equal FILE byte for byte
#   expect -r DIR GOT     the folder GOT must hold exactly DIR's files, each equal
#
# A difference is shown as a unified diff and returns 1. With IMCL_UPDATE=1 in the
# environment FILE (or DIR) is rewritten from GOT instead and expect returns 0: `git diff`
# then shows what changed, to be read before committing.
expect() {
    if [ "$1" = -r ]; then
        if [ "${IMCL_UPDATE:-0}" = 1 ]; then
            diff -r "$2" "$3" >/dev/null 2>&1 && return 0
            # into a fresh folder first, then renamed: a half-written DIR is never seen
            rm -rf "$2.new" && cp -r "$3" "$2.new" && rm -rf "$2" && mv "$2.new" "$2" ||
                return 1
            echo "expect: updated $2" >&2
            return 0
        fi
        [ -d "$2" ] || { echo "expect: no folder $2 (IMCL_UPDATE=1 writes it)"; return 1; }
        diff -ru "$2" "$3" && return 0
        echo "expect: $3 differs from $2 (IMCL_UPDATE=1 rewrites it; read the diff)"
        return 1
    fi
    cmp -s "$1" "$2" && return 0
    if [ "${IMCL_UPDATE:-0}" = 1 ]; then
        # several tests may share FILE (tests/golden/runtime.expect): write, then rename
        cat "$2" >"$1.new.$$" && mv "$1.new.$$" "$1" || return 1
        echo "expect: updated $1" >&2
        return 0
    fi
    [ -f "$1" ] || { echo "expect: no file $1 (IMCL_UPDATE=1 writes it)"; return 1; }
    diff -u --label "$1" --label "output" "$1" "$2"
    echo "expect: output differs from $1 (IMCL_UPDATE=1 rewrites it; read the diff)"
    return 1
}
