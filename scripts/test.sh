#!/usr/bin/env bash
# One command to run every test: unit, API, component, end-to-end in Chromium, and the
# single-executable smoke test. Ends with one line: "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh --test || { echo "0 passed, 1 failed"; exit 1; }
bun scripts/build-client.ts || { echo "0 passed, 1 failed"; exit 1; }
# The single executable, compiled once here for every file that runs it (alone, a file compiles its own).
bun scripts/build-binary.ts >/dev/null || { echo "0 passed, 1 failed"; exit 1; }
export DESIGN_INTEL_BIN="$PWD/dist/design-intel"

log=$(mktemp)
# Two files at a time, each in its own process: most of a browser or server test is waiting, so two
# overlap on two cores. tests/timings.json (per-file durations) starts the slowest files first, so
# the run does not end waiting on one long file; refresh it with --update-timings.
# *.serial.test.ts files measure how fast pages paint, which another file's browsers on the same
# cores would distort: they run afterwards, alone (only in a whole-suite run, not for chosen files).
bun test --parallel=2 --timings=tests/timings.json --path-ignore-patterns='**/*.serial.test.ts' "$@" 2>&1 | tee "$log"
code=${PIPESTATUS[0]}
count() { grep -Eo "^ *[0-9]+ $1\$" "$2" | tail -1 | grep -Eo '[0-9]+' || echo 0; }
passed=$(count pass "$log")
failed=$(count fail "$log")
errors=$(count 'errors?' "$log")
if [[ $# -eq 0 ]]; then
  serial=$(mktemp)
  bun test $(find tests -name '*.serial.test.ts' | sort) 2>&1 | tee "$serial"
  serial_code=${PIPESTATUS[0]}
  passed=$((passed + $(count pass "$serial")))
  failed=$((failed + $(count fail "$serial")))
  errors=$((errors + $(count 'errors?' "$serial")))
  if [[ $serial_code -ne 0 && $code -eq 0 ]]; then code=$serial_code; fi
  rm -f "$serial"
fi
rm -f "$log"
failed=$((failed + errors))
if [[ $code -ne 0 && $failed -eq 0 ]]; then failed=1; fi
echo "${passed} passed, ${failed} failed"
exit $code
