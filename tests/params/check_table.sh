#!/usr/bin/env bash
# The parameter table of docs/tuning.md ("Parameters") names the parameters of
# tune/params.def, as imcl --help lists them, in the same order:
#   check_table.sh IMCL DOCS/tuning.md
set -euo pipefail
help=$("$1" --help | sed -n '/^tuning parameters/,/^exit status/p' | grep -E '^  [a-z]' | awk '{print $1}')
docs=$(sed -n '/^## Parameters/,/^## /p' "$2" | grep '^| `' | cut -d'|' -f2 | grep -o '`[^`]*`' | tr -d '`')
if [ "$help" = "$docs" ]; then
    echo "params.table: docs/tuning.md and imcl --help list the same $(wc -l <<<"$help") parameters"
else
    echo "params.table: docs/tuning.md and imcl --help differ:"
    diff <(echo "$help") <(echo "$docs") || true
    exit 1
fi
