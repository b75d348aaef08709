#!/usr/bin/env bash
# Installs the browser tests' one npm dependency, puppeteer-core at the version that
# package-lock.json pins, into tests/browser/node_modules (ignored by git). puppeteer-core drives
# Debian's Chromium (/usr/bin/chromium, scripts/deps.sh) and downloads no browser; nothing else is
# fetched (PUPPETEER_SKIP_DOWNLOAD, no install scripts). Does nothing when it is installed already;
# exits 77 (CTest: skipped) without npm.
set -euo pipefail
cd "$(dirname "$0")"
if ! command -v npm >/dev/null; then
  echo "SKIPPED: npm is not installed (scripts/deps.sh installs it)"
  exit 77  # the browser tests then report themselves skipped too
fi
installed=node_modules/puppeteer-core/package.json
wanted=$(node -p 'require("./package-lock.json").packages["node_modules/puppeteer-core"].version')
if [ -f "$installed" ] && [ "$(node -p "require('./$installed').version")" = "$wanted" ]; then
  exit 0
fi
echo "interleave: installing puppeteer-core $wanted into tests/browser/node_modules" >&2
PUPPETEER_SKIP_DOWNLOAD=1 npm ci --no-audit --no-fund --ignore-scripts --loglevel=error >/dev/null
