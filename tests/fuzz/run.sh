#!/usr/bin/env bash
# Runs a fuzz target of tests/fuzz from its seed corpus, with its dictionary.
#
#   tests/fuzz/run.sh BUILD_DIR scenario|trace|log [libFuzzer options...]
#
# BUILD_DIR is a build configured with CXX=clang++ and -DINTERLEAVE_FUZZ=ON. The seeds are made
# afresh from what the project ships: the scenarios (scenarios/, tests/cli/scenarios/) for
# `scenario`; for `trace`, the traces of tests/cli/traces/ and the counterexamples
# BUILD_DIR/interleave finds for the shipped scenarios; for `log`, the logs of
# tests/explorer/logs/ (one per layout). The dictionary is every key and enum value
# of the JSON schemas (scenario, model, trace) and JSON's tokens. New inputs libFuzzer finds go
# to BUILD_DIR/fuzz/TARGET-corpus, kept from run to run; crashes to BUILD_DIR/fuzz/TARGET-findings.
# Examples:
#   tests/fuzz/run.sh build-fuzz scenario -runs=2000          # the regression run of .ci/run
#   tests/fuzz/run.sh build-fuzz trace -max_total_time=3600   # a campaign (docs/fuzzing.md)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="$(cd "$1" && pwd)"
target="$2"
shift 2
case "$target" in scenario | trace | log) ;; *) echo "usage: $0 BUILD_DIR scenario|trace|log [options]" >&2; exit 2 ;; esac

work="$build/fuzz"
seeds="$work/$target-seeds"
corpus="$work/$target-corpus"
findings="$work/$target-findings"
rm -rf "$seeds"
mkdir -p "$seeds" "$corpus" "$findings"

if [ "$target" = scenario ]; then
  for f in "$root"/scenarios/*.json "$root"/tests/cli/scenarios/*.json; do
    [[ $f == *schema* ]] || cp "$f" "$seeds/"
  done
elif [ "$target" = log ]; then
  cp "$root"/tests/explorer/logs/* "$seeds/"
else
  cp "$root"/tests/cli/traces/*.json "$seeds/"
  # Exit 1: violations found, their traces written.
  "$build/interleave" check "$root/scenarios" --out "$seeds" --quiet >/dev/null || [ $? -eq 1 ]
  # Seeds over 256 KiB (the 428-step lifted trace of the 57-actor huge scenario, 900 KB) are left
  # out: libFuzzer's default -max_len is the largest seed, and every mutation of so large an
  # input costs as much as a thousand small ones; the readers' limits are reached by small inputs.
  find "$seeds" -type f -size +256k -delete
fi

python3 - "$root" "$work/$target.dict" "$target" <<'PY'
import json, sys
root, out, target = sys.argv[1], sys.argv[2], sys.argv[3]
if target == "log":
    # The layouts' fixed parts (explorer/evidence/log_reader.hpp) instead of JSON schema keys.
    tokens = [b'INFO', b'WARN', b'ERROR', b'FATAL', b'DEBUG', b' (', b'|', b') [', b'():', b'] ',
              b'.java', b'+08:00', b'Z', b'-', b':', b'.', b'2025-05-16 05:10:02.103',
              b'I20250516 05:10:14.120345 ', b'W0516 ', b'05:10:14 ', b'\tat ', b'\n',
              b'{"@timestamp":"', b'","level":"', b'"message":"', b'"exception":"', b'\\n',
              b'.cpp:', b'\xff', b'\xc3', b'\xed\xa0\x80', b'\x00']
    def escape(t):
        return "".join(chr(c) if 32 <= c < 127 and c not in (34, 92) else "\\x%02x" % c
                       for c in t)
    with open(out, "w") as f:
        for i, t in enumerate(tokens):
            f.write('tok_%d="%s"\n' % (i, escape(t)))
    sys.exit(0)
words = set()
def walk(node):
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("properties", "patternProperties") and isinstance(value, dict):
                words.update(value.keys())
            if key in ("enum", "const"):
                for v in value if isinstance(value, list) else [value]:
                    if isinstance(v, str):
                        words.add(v)
            walk(value)
    elif isinstance(node, list):
        for v in node:
            walk(v)
for schema in ("scenarios/scenario.schema.json",
               "model/starrocks/starrocks-temp-tables.schema.json",
               "reports/trace/trace.schema.json"):
    walk(json.load(open(f"{root}/{schema}")))
tokens = ['{', '}', '[', ']', ':', ',', 'true', 'false', 'null', '1e999', '-0', '0.5',
          '18446744073709551616', '"\\u0000"', '[[[[[[[[[[[[[[[[', ']]]]]]]]]]]]]]]]']
with open(out, "w") as f:
    for i, w in enumerate(sorted(words)):
        f.write('key_%d="\\"%s\\""\n' % (i, w.replace('\\', '\\\\').replace('"', '\\"')))
    for i, t in enumerate(tokens):
        f.write('tok_%d="%s"\n' % (i, t.replace('\\', '\\\\').replace('"', '\\"')))
PY

exec "$build/tests/fuzz/fuzz_$target" -dict="$work/$target.dict" -artifact_prefix="$findings/" \
  "$@" "$corpus" "$seeds"
