#!/usr/bin/env bash
# The test files scripts/test.sh runs a second time on PostgreSQL (TEST_DATABASE=postgres): those
# that build the app with makeTestApp and reach it only through its API. Left out: files that read
# or seed the SQLite connection directly (t.db, openDatabase, sqliteSql), which run on SQLite only,
# and those that start real servers, browsers or the CLI (they do not build the app in-process).
set -euo pipefail
cd "$(dirname "$0")/.."
git ls-files 'tests/*.test.ts' 'tests/**/*.test.ts' |
  grep -vE 'real|e2e|remote|/capture/|/cli/' |
  xargs grep -lE 'makeTestApp' |
  xargs grep -LE '\bt\.db\b|openDatabase|\.db\.query|\bdb\.query|sqliteSql|t\.sql|\.db\b\.'
