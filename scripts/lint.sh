#!/usr/bin/env bash
# Lint (oxlint with the boundaries plugin and, through oxlint-tsgolint, the type-aware promise rules; any warning fails) and the format check (bun fmt).
# Both run to the end so one run shows every problem. Fix: `bunx oxlint --fix` for import aliases,
# `bun fmt` for formatting.
set -uo pipefail
cd "$(dirname "$0")/.."
status=0
./node_modules/.bin/oxlint --type-aware --deny-warnings || status=1
# --no-script: never run a package.json "fmt" script in place of the formatter.
bun fmt --check --no-script || status=1
exit $status
