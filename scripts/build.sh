#!/usr/bin/env bash
# Configures (once) and builds Interleave in ./build. Usage: scripts/build.sh [cmake args...]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/deps.sh"
if [ ! -f "$root/build/CMakeCache.txt" ]; then
  cmake -S "$root" -B "$root/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
fi
cmake --build "$root/build" -- -j"$(nproc)" >&2
