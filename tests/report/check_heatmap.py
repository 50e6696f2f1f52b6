"""Checks the heatmap of a large fabric as Chromium rendered it: usage
check_heatmap.py DOM PNG.

DOM is Chromium's --dump-dom of a report whose fabric has more switches than
kHeatmapSwitches; PNG a screenshot of the whole page at 1280 px. Every
scenario's heatmap must label every switch on both axes (the switch names come
from the page's embedded link list, not from the heatmap), hold one cell per
directed switch pair joined by a cable, and each cell colour must be on screen.
"""
import json
import re
import sys

import png


def main(dom_path, png_path):
    dom = open(dom_path, encoding='utf-8').read()
    failures = []

    def expect(ok, what):
        print(('ok    ' if ok else 'FAIL  ') + what)
        if not ok:
            failures.append(what)

    data = json.loads(re.search(r'<script type="application/json" id="ecmpsim-data">(.*?)</script>', dom, re.S).group(1))
    scenarios = data['scenarios']
    links = scenarios[0]['links']
    switches = sorted({l['from'] for l in links} | {l['to'] for l in links})
    pairs = {(l['from'], l['to']) for l in links}
    maps = re.findall(r'<svg [^>]*class="heatmap".*?</svg>', dom, re.S)
    expect(len(maps) == len(scenarios), f'{len(maps)} heatmaps for {len(scenarios)} scenarios')
    expect('<g class="switch">' not in dom, 'no box-by-box fabric drawing')
    fills = set()
    for m in maps:
        rows = sorted(re.findall(r'class="hm-row"[^>]*>([^<]+)</text>', m))
        cols = sorted(re.findall(r'class="hm-col"[^>]*>([^<]+)</text>', m))
        expect(rows == switches, f'{len(rows)} row labels, every one of the {len(switches)} switches')
        expect(cols == switches, f'{len(cols)} column labels, every one of the {len(switches)} switches')
        cells = re.findall(r'<g class="hm-cell[^"]*" data-from="([^"]+)" data-to="([^"]+)"', m)
        expect(set(cells) == pairs and len(cells) == len(pairs), f'{len(cells)} cells, one per linked pair')
        fills |= set(re.findall(r'<g class="hm-cell[^"]*"[^>]*><rect [^>]*fill="(#[0-9a-f]{6})"', m))
        sizes = [float(s) for s in re.findall(r'class="hm-(?:row|col)" style="font-size:([0-9.]+)px"', m)]
        expect(sizes and min(sizes) >= 9, f'labels at {min(sizes) if sizes else 0} px or more (legible at 1280 px)')

    w, h, ch, rows = png.read(png_path)
    counts = png.colour_counts(rows, ch)
    for colour in sorted(fills):
        rgb = (int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16))
        n = counts.get(rgb, 0)
        expect(n >= 30, f'{n} pixels of cell colour {colour}')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main(*sys.argv[1:3]))
