#!/usr/bin/env python3
"""last_json.py KEY=VALUE... < OUTPUT: the fields of a miniamr-proxy run's result.

OUTPUT (the run's standard output) passes through to stdout, so that a failure shows it.
Its last line must be a JSON object in which each KEY has VALUE, a JSON value: true, 0,
"v2", null. Values compare as JSON: true is not 1, 0 is not 0.0, "1" is not 1. Each field
that differs is named on stderr and the status is 1; 2 for a malformed check.

%json in tests/proxy (its lit.local.cfg); scripts/gpu-check.sh checks its runs with it."""
import json
import sys


def as_json(value):
    return json.dumps(value, sort_keys=True)


def usage(why):
    print("usage: last_json.py KEY=VALUE... (VALUE in JSON) < OUTPUT; %s" % why, file=sys.stderr)
    sys.exit(2)


checks = []
for arg in sys.argv[1:]:
    key, eq, value = arg.partition("=")
    try:
        checks.append((key, json.loads(value)))
    except ValueError:
        eq = ""
    if not key or not eq:
        usage("not %r" % arg)
if not checks:
    usage("no check given")
text = sys.stdin.read()
sys.stdout.write(text)
sys.stdout.flush()
lines = text.splitlines()
try:
    got = json.loads(lines[-1] if lines else "")
except ValueError as e:
    sys.exit("json: the last line of output is no JSON object: %s" % e)
if not isinstance(got, dict):
    sys.exit("json: the last line of output is no JSON object")
bad = 0
for key, want in checks:
    if key not in got:
        print("json: no field %s (expected %s)" % (key, as_json(want)), file=sys.stderr)
        bad = 1
    elif as_json(got[key]) != as_json(want):
        print("json: %s is %s, expected %s" % (key, as_json(got[key]), as_json(want)),
              file=sys.stderr)
        bad = 1
sys.exit(bad)
