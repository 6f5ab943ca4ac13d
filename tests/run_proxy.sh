#!/usr/bin/env bash
# One run of miniamr-proxy: run_proxy.sh PROXY STATUS KEY=VALUE... -- ARGS...
# Runs PROXY ARGS and requires exit status STATUS and a last line of output that is
# a JSON object in which every KEY has VALUE (VALUE in JSON: true, 1, "v2", null).
# STATUS 2 (a usage error) takes one MESSAGE instead of the checks: the first line the
# proxy writes to stderr must be exactly MESSAGE.
set -uo pipefail
proxy=$1
want=$2
shift 2
checks=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do
    checks+=("$1")
    shift
done
shift
out=$(mktemp)
err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
"$proxy" "$@" >"$out" 2>"$err"
rc=$?
cat "$out" "$err"
if [ "$rc" != "$want" ]; then
    echo "FAIL: miniamr-proxy $* exited with status $rc, expected $want" >&2
    exit 1
fi
if [ "$want" = 2 ]; then
    first=$(head -n 1 "$err")
    [ "$first" = "${checks[0]}" ] || { echo "FAIL: the message is '$first', expected '${checks[0]}'" >&2; exit 1; }
    echo "PASS"
    exit 0
fi
tail -n 1 "$out" | python3 -c '
import json, sys
try:
    got = json.loads(sys.stdin.read())
except ValueError as e:
    sys.exit("FAIL: the last line of output is no JSON object: %s" % e)
bad = 0
for check in sys.argv[1:]:
    key, value = check.split("=", 1)
    if key not in got or got[key] != json.loads(value):
        print("FAIL: %s is %r, expected %s" % (key, got.get(key, "(missing)"), value), file=sys.stderr)
        bad = 1
sys.exit(bad)
' "${checks[@]}" || exit 1
echo "PASS"
