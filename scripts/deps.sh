#!/usr/bin/env bash
# Installs the Debian packages Interleave needs, only those that are missing. Needs root (or sudo).
#   scripts/deps.sh          what building and running `interleave` needs (scripts/interleave)
#   scripts/deps.sh --tests  that, and what the tests, the fuzz targets and the browser tests need
#                            (scripts/test, .ci/run), puppeteer-core from npm included
set -euo pipefail

packages=(
  g++ cmake ninja-build make pkg-config
  libboost-context-dev libboost-graph-dev
  catch2 nlohmann-json3-dev libcli11-dev
)
tests=false
if [ "${1:-}" = "--tests" ]; then
  tests=true
  packages+=(
    clang
    libfuzzer-14-dev             # the fuzz targets of tests/fuzz (INTERLEAVE_FUZZ=ON, Clang 14)
    python3 python3-jsonschema   # JSON Schema (draft 2020-12) checks of scenarios and traces
    graphviz libxml2-utils       # tests render DOT with `dot` and parse JUnit XML with xmllint
    parallel                     # tests run the shards of a split search under GNU parallel
    chromium                     # tests/browser/ load the HTML pages in Chromium (puppeteer-core)
  )
  # Node and npm drive it; Debian's packages unless a Node with its npm is there already (a
  # NodeSource nodejs bundles npm, and Debian's npm cannot be installed beside it).
  if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    packages+=(nodejs npm)
  fi
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "interleave: installing missing packages: ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
if $tests; then
  # puppeteer-core, pinned by tests/browser/package-lock.json; it downloads no browser.
  "$(dirname "$0")/../tests/browser/install.sh"
fi
