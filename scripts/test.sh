#!/usr/bin/env bash
# One command to run every test: unit, API, component, end-to-end in Chromium, and the
# single-executable smoke test. Ends with one line: "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh || { echo "0 passed, 1 failed"; exit 1; }
bun scripts/build-client.ts || { echo "0 passed, 1 failed"; exit 1; }

log=$(mktemp)
bun test --isolate "$@" 2>&1 | tee "$log"
code=${PIPESTATUS[0]}
passed=$(grep -Eo '^ *[0-9]+ pass$' "$log" | tail -1 | grep -Eo '[0-9]+' || echo 0)
failed=$(grep -Eo '^ *[0-9]+ fail$' "$log" | tail -1 | grep -Eo '[0-9]+' || echo 0)
errors=$(grep -Eo '^ *[0-9]+ errors?$' "$log" | tail -1 | grep -Eo '[0-9]+' || echo 0)
rm -f "$log"
failed=$((failed + errors))
if [[ $code -ne 0 && $failed -eq 0 ]]; then failed=1; fi
echo "${passed} passed, ${failed} failed"
exit $code
