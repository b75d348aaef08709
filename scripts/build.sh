#!/usr/bin/env bash
# Configures (once) and builds Interleave in ./build: every target, or only TARGET.
# Usage: scripts/build.sh [--target TARGET] [cmake args...]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
target=()
if [ "${1:-}" = "--target" ]; then
  target=(--target "$2")
  shift 2
fi
"$root/scripts/deps.sh"
if [ ! -f "$root/build/CMakeCache.txt" ]; then
  cmake -S "$root" -B "$root/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
fi
cmake --build "$root/build" "${target[@]}" -- -j"$(nproc)" >&2
