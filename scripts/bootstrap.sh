#!/usr/bin/env bash
# Makes a fresh Debian machine with only Node and npm ready: Bun 1.4.x, Debian's Chromium, dependencies.
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

# Captures (and the tests' browsers) run in Chromium's headless shell when it is there
# (docs/decisions/0012-headless-shell.md); the desktop browser stays for what measures as a
# visitor's browser (Lighthouse's bench) and for switches the shell ignores.
packages=()
have_chromium || packages+=(chromium fonts-liberation)
if [[ -z "${CHROMIUM_PATH:-}" && ! -x /usr/lib/chromium/chromium-headless-shell ]] && command -v apt-get >/dev/null 2>&1; then
  packages+=(chromium-headless-shell)
fi

if ((${#packages[@]})); then
  echo "bootstrap: installing Debian's ${packages[*]}"
  SUDO=""
  [[ "$(id -u)" -ne 0 ]] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${packages[@]}" >/dev/null
fi

if [[ ! -d node_modules ]] || [[ bun.lock -nt node_modules ]]; then
  echo "bootstrap: installing dependencies"
  bun install --frozen-lockfile
  touch node_modules
fi
