#!/usr/bin/env bash
# One command to run the product on http://localhost:${PORT:-3000}.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
exec bun run start
