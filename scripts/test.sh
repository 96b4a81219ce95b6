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
pglog=$(mktemp)
# Two files at a time, each in its own process: most of a browser or server test is waiting, so two
# overlap on two cores. tests/timings.json (per-file durations) starts the slowest files first, so
# the run does not end waiting on one long file; refresh it with --update-timings.
bun test --parallel=2 --timings=tests/timings.json "$@" 2>&1 | tee "$log"
code=${PIPESTATUS[0]}
# The API again, on PostgreSQL: every file that drives the app only through its API (makeTestApp,
# never its SQLite connection) runs once more with each app on a fresh PostgreSQL database of a
# throwaway cluster on loopback. Repository tests already run on both dialects themselves.
pgcode=0
if [[ $# -eq 0 ]] && ! compgen -G "${PG_BIN:-/usr/lib/postgresql/*/bin}/initdb" >/dev/null; then
  # tests/db/schema-twins.test.ts fails in CI without them; elsewhere the pass is skipped, and says so.
  echo "PostgreSQL pass skipped: no PostgreSQL binaries (install Debian's postgresql, or set PG_BIN)"
elif [[ $# -eq 0 ]]; then
  mapfile -t pgfiles < <(bash scripts/postgres-pass-files.sh)
  echo "PostgreSQL pass: ${#pgfiles[@]} files"
  TEST_DATABASE=postgres bun test --parallel=2 "${pgfiles[@]}" 2>&1 | tee "$pglog"
  pgcode=${PIPESTATUS[0]}
fi
count() { grep -Eo "^ *[0-9]+ $1\$" "$2" | tail -1 | grep -Eo '[0-9]+' || echo 0; }
passed=$(($(count pass "$log") + $(count pass "$pglog")))
failed=$(($(count fail "$log") + $(count fail "$pglog")))
errors=$(($(grep -Eo '^ *[0-9]+ errors?$' "$log" | tail -1 | grep -Eo '[0-9]+' || echo 0) + $(grep -Eo '^ *[0-9]+ errors?$' "$pglog" | tail -1 | grep -Eo '[0-9]+' || echo 0)))
rm -f "$log" "$pglog"
failed=$((failed + errors))
if [[ $code -eq 0 ]]; then code=$pgcode; fi
if [[ $code -ne 0 && $failed -eq 0 ]]; then failed=1; fi
echo "${passed} passed, ${failed} failed"
exit $code
