#!/usr/bin/env bash
# Every bash script of the repository parses: run_shell_syntax.sh ROOT
# (bash -n on every tracked file named *.sh or starting with a bash #! line: a script
# no test runs, the main job or a benchmark, fails here instead of in a user's hands).
set -uo pipefail
cd "$1" || exit 2
fails=0
n=0
while IFS= read -r f; do
    n=$((n + 1))
    bash -n "$f" || { echo "FAIL: $f does not parse" >&2; fails=$((fails + 1)); }
done < <(git ls-files -z | xargs -0 awk 'FNR == 1 { if (FILENAME ~ /\.sh$/ || /^#!.*bash/) print FILENAME; nextfile }')
[ "$n" -gt 0 ] || { echo "FAIL: no shell scripts found under $1" >&2; exit 1; }
echo "$((n - fails)) of $n shell scripts parse"
[ "$fails" = 0 ]
