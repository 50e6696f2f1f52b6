#!/usr/bin/env bash
# HTML validity of the report: Debian's `tidy` (HTML5, with inline SVG) must
# report neither errors nor warnings, and html_check.py checks tag balance and
# unique ids with Python's own parser. Pages: the paper16 report, the reproduce
# report, one with hostile names and the rail fabric's (heatmaps); tidy also
# checks the published-results catalogue (report --published, which has no
# embedded data for html_check.py). Usage: validate.sh ECMPSIM
# Exits 77 (skipped) only when tidy is not installed (scripts/setup.sh --test installs it).
set -euo pipefail
bin=$1
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/hostile.toml" <<'TOML'
[fabric]
leaves = 3
spines = 2
hosts_per_leaf = 2
links_per_pair = 2
[[scenario]]
name = "<b>&'\"x"
[[scenario]]
name = "s</script>"
routing = "static"
policy = "dst-mod"
TOML
"$bin" report "$root/configs/paper16.toml" --seeds 0:100 --out "$work/paper16.html" >/dev/null
# With sizes: the busbw-vs-size chart and tables, hostile scenario names in their titles and attributes.
"$bin" report "$work/hostile.toml" --seeds 0:50 -b 8 -e 1G --out "$work/hostile.html" >/dev/null
(cd "$work" && "$bin" reproduce --config "$root/configs/paper16.toml" --seeds 0:50 --out reproduce.html >/dev/null)
"$bin" report "$root/configs/rail.toml" --seeds 0:10 --out "$work/rail.html" >/dev/null  # heatmaps
"$bin" report --published --out "$work/published.html" >/dev/null
python3 "$here/html_check.py" "$work/paper16.html" "$work/hostile.html" "$work/reproduce.html" "$work/rail.html"
if ! command -v tidy >/dev/null; then
  echo "tidy is not installed: skipped"
  exit 77
fi
status=0
for page in paper16 hostile reproduce rail published; do
  if out=$(tidy -errors -quiet -utf8 "$work/$page.html" 2>&1) && [ -z "$out" ]; then
    echo "ok    tidy: $page.html"
  else
    echo "FAIL  tidy: $page.html"
    printf '%s\n' "$out"
    status=1
  fi
done
exit $status
