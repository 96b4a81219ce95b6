#!/usr/bin/env bash
# Makes a fresh Debian machine with only Node and npm ready: Bun 1.4.x, Debian's Chromium, dependencies.
# --test (scripts/test.sh) also installs what only the tests use: Debian's PostgreSQL server binaries.
set -euo pipefail
cd "$(dirname "$0")/.."

BUN_VERSION=1.4.5

if ! command -v bun >/dev/null 2>&1 || [[ "$(bun --version)" != 1.4.* ]]; then
  echo "bootstrap: installing bun@${BUN_VERSION} from npm"
  npm install -g "bun@${BUN_VERSION}" >/dev/null
fi

have_chromium() {
  [[ -n "${CHROMIUM_PATH:-}" && -x "${CHROMIUM_PATH}" ]] && return 0
  for p in /usr/bin/chromium /usr/bin/chromium-browser /usr/bin/google-chrome /usr/bin/google-chrome-stable; do
    [[ -x "$p" ]] && return 0
  done
  return 1
}

apt_install() {
  local SUDO=""
  [[ "$(id -u)" -ne 0 ]] && SUDO="sudo"
  $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$@" >/dev/null
}

if ! have_chromium; then
  echo "bootstrap: installing Debian's chromium"
  apt_install chromium fonts-liberation
fi

# Captures (and the tests' browsers) run in Chromium's headless shell when it is there
# (docs/decisions/0012-headless-shell.md). Without it everything runs in the desktop browser, only
# with more CPU per page, so a machine that cannot install it carries on.
if [[ -z "${CHROMIUM_PATH:-}" && ! -x /usr/lib/chromium/chromium-headless-shell ]] && command -v apt-get >/dev/null 2>&1; then
  echo "bootstrap: installing Debian's chromium-headless-shell"
  apt_install chromium-headless-shell || echo "bootstrap: could not install chromium-headless-shell; captures use the desktop browser"
fi

# The repository and API tests also run against a real PostgreSQL (issue 30): each test file starts
# a throwaway cluster of its own on loopback from these binaries (tests/support/postgres.ts), so no
# service is set up here. Without them those tests skip and say so.
if [[ "${1:-}" == "--test" ]] && ! compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null && command -v apt-get >/dev/null 2>&1; then
  echo "bootstrap: installing Debian's postgresql"
  apt_install postgresql || echo "bootstrap: could not install postgresql; the PostgreSQL tests will be skipped"
fi

if [[ ! -d node_modules ]] || [[ bun.lock -nt node_modules ]]; then
  echo "bootstrap: installing dependencies"
  bun install --frozen-lockfile
  touch node_modules
fi
