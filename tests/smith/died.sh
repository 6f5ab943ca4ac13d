#!/usr/bin/env bash
# A random-kernel file whose process dies is a failure that names the run it died in,
# and the other files still report their results (tests/smith/smith.py, run_files).
# usage: died.sh ROOT IMCL WORK
set -u
root=$1 imcl=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
# file 501 aborts in its first OpenCL run, as PoCL does when its compiler hits an error
out=$(IMCL_SMITH_ABORT=501 "$root/.venv/bin/python" -W ignore "$root/tests/smith/smith.py" \
    --imcl "$imcl" --seed 500 --kernels 3 --configs 1 --jobs 2 --work "$work" 2>&1)
status=$?
fail=0
expect() {
    if ! printf '%s\n' "$out" | grep -E -- "$1" >/dev/null; then
        echo "FAIL: the output lacks /$1/"
        fail=1
    fi
}
[ "$status" = 1 ] || { echo "FAIL: exit status $status, not 1"; fail=1; }
expect "^FAIL seed 501 \(.*smith_501.imcl\), kernel .*, opencl \{.*\} \(files in .*\): the process running it died$"
expect "^  replay: .* --seed 501 --kernels 1 "
expect "^[0-9]+ runs \([0-9]+ kernels in 3 files\), 0 mismatches, 1 failures$"
n=$(printf '%s\n' "$out" | grep -c "the process running it died")
[ "$n" = 1 ] || { echo "FAIL: $n files reported dead, not 1"; fail=1; }
# the two other files ran: their kernels are in the count
kernels=$(printf '%s\n' "$out" | sed -n 's/^[0-9]* runs (\([0-9]*\) kernels in 3 files.*/\1/p')
[ "${kernels:-0}" -ge 2 ] || { echo "FAIL: only ${kernels:-0} kernels reported"; fail=1; }
[ $fail = 0 ] && echo "PASS: the dead file is one failure, the others ran" || printf '%s\n' "$out" | tail -20
exit $fail
