#!/usr/bin/env bash
# Re-blesses the golden outputs after an intended change: review the diff before committing.
set -euo pipefail
cd "$(dirname "$0")/../.."
cmake --build build --target ecmpsim >/dev/null
tests/golden/run.sh build/ecmpsim --bless
git --no-pager diff --stat -- tests/golden
