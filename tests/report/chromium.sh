#!/usr/bin/env bash
# Renders the report in a real headless Chromium: dumps the DOM and takes two
# screenshots at 1280 px wide (the README's 1280x2000 and the whole page), then
# check_render.py checks the SVG elements and the rendered colours.
# Usage: chromium.sh ECMPSIM. Exits 77 (skipped) only when Chromium cannot run at all.
set -euo pipefail
bin=$1
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  echo "chromium is not installed (scripts/setup.sh --test installs it): skipped"
  exit 77
fi
# paper16 with xxh3: CRC-16's seeds all give one FIM, which the report states in
# one line instead of charts; a mixing hash spreads them, so the histogram and
# CDF are drawn and checked.
sed 's/algo = "crc16-ccitt"/algo = "xxh3"/' "$root/configs/paper16.toml" >"$work/paper16-xxh3.toml"
grep -q 'algo = "xxh3"' "$work/paper16-xxh3.toml"
"$bin" report "$work/paper16-xxh3.toml" --seeds 0:200 --out "$work/report.html" >/dev/null

flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking
       --disable-component-update --disable-sync --hide-scrollbars --user-data-dir="$work/profile")
url="file://$work/report.html"
if ! timeout 180 "$browser" "${flags[@]}" --dump-dom "$url" >"$work/dom.html" 2>"$work/chromium.log" ||
   [ ! -s "$work/dom.html" ]; then
  echo "chromium cannot run here: skipped"
  tail -n 5 "$work/chromium.log"
  exit 77
fi
timeout 180 "$browser" "${flags[@]}" --window-size=1280,2000 --screenshot="$work/top.png" "$url" 2>>"$work/chromium.log"
timeout 180 "$browser" "${flags[@]}" --window-size=1280,6000 --screenshot="$work/full.png" "$url" 2>>"$work/chromium.log"
python3 "$here/check_render.py" "$work/dom.html" "$work/top.png" "$work/full.png"

# A fabric past kHeatmapSwitches (configs/rail.toml: 32 rail leaves, 8 spines)
# is drawn as labelled switch x switch heatmaps; check them as rendered.
"$bin" report "$root/configs/rail.toml" --seeds 0:20 --out "$work/rail.html" >/dev/null
rail="file://$work/rail.html"
timeout 180 "$browser" "${flags[@]}" --dump-dom "$rail" >"$work/rail-dom.html" 2>>"$work/chromium.log"
timeout 180 "$browser" "${flags[@]}" --window-size=1280,9000 --screenshot="$work/rail.png" "$rail" 2>>"$work/chromium.log"
python3 "$here/check_heatmap.py" "$work/rail-dom.html" "$work/rail.png"

# With sizes: one busbw-vs-size chart, a line per scenario plus the ideal
# fabric's, each a path through every size (paper16 -b 8 -e 1G: 28 sizes).
"$bin" report "$root/configs/paper16.toml" --seeds 0:20 -b 8 -e 1G --out "$work/sizes.html" >/dev/null
timeout 180 "$browser" "${flags[@]}" --dump-dom "file://$work/sizes.html" >"$work/sizes-dom.html" 2>>"$work/chromium.log"
python3 - "$work/sizes-dom.html" <<'PY'
import json, re, sys
dom = open(sys.argv[1], encoding='utf-8').read()
data = json.loads(re.search(r'<script type="application/json" id="ecmpsim-data">(.*?)</script>', dom, re.S).group(1))
series = re.findall(r'<g class="busbw-series" data-series="([^"]*)"><title>[^<]*</title><path d="([^"]*)"', dom)
names = [s['name'] for s in data['scenarios']]
assert [n for n, _ in series] == names + ['ideal fabric'], series
for name, d in series:
    points = len(re.findall(r'[ML]', d))
    assert points == 28, f'{name}: {points} points, expected 28'
assert all(len(s['sizes']) == 28 for s in data['scenarios'])
print(f'ok    busbw-vs-size chart: {len(series)} lines of 28 sizes')
PY
