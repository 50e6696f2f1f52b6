"""Checks a report rendered by Chromium: usage check_render.py DOM TOP_PNG FULL_PNG.

DOM is Chromium's --dump-dom of the page; TOP_PNG its 1280x2000 screenshot and
FULL_PNG a screenshot tall enough for the whole page. The expected element
counts come from the page's own embedded data (scenarios x links), the expected
colours from the SVG attributes Chromium parsed.
"""
import json
import re
import sys

import png

SWITCH = (0x33, 0x41, 0x55)   # svg .switch rect
HIST = (0x3b, 0x6e, 0xa8)     # histogram bars
BACKGROUND = (0xf3, 0xf4, 0xf6)


def rgb(h):
    return (int(h[1:3], 16), int(h[3:5], 16), int(h[5:7], 16))


def main(dom_path, top_path, full_path):
    dom = open(dom_path, encoding='utf-8').read()
    failures = []

    def expect(ok, what):
        print(('ok    ' if ok else 'FAIL  ') + what)
        if not ok:
            failures.append(what)

    data = json.loads(re.search(r'<script type="application/json" id="ecmpsim-data">(.*?)</script>', dom, re.S).group(1))
    scenarios = len(data['scenarios'])
    links = data['fabric']['metric_links']
    link_lines = re.findall(r'<line class="link[^"]*"[^>]*stroke="(#[0-9a-f]{6})"', dom)
    expect(len(link_lines) == scenarios * links, f'{len(link_lines)} link lines drawn, expected {scenarios} x {links}')
    bars = re.findall(r'<g class="bar">.*?<rect [^>]*fill="(#[0-9a-f]{6})"', dom, re.S)
    expect(len(bars) == scenarios * min(links, 40), f'{len(bars)} bars in the per-link charts')
    expect(dom.count('<svg') >= scenarios * 2 + 3, f'{dom.count("<svg")} inline SVG charts')
    expect('class="hist-bars"' in dom and 'class="cdf-line"' in dom, 'histogram and CDF present')
    expect(len(re.findall(r'<g class="switch">', dom)) == scenarios * data['fabric']['switches'], 'every switch drawn')

    w, h, ch, rows = png.read(top_path)
    expect((w, h) == (1280, 2000), f'top screenshot is {w}x{h}')
    counts = png.colour_counts(rows, ch)
    total = w * h
    plain = counts.get(BACKGROUND, 0) + counts.get((255, 255, 255), 0)
    expect(len(counts) > 200, f'{len(counts)} distinct colours in the top screenshot (not blank)')
    expect(total - plain > total // 10, f'{100 * (total - plain) / total:.1f}% of pixels are neither page nor card background')
    expect(counts.get(SWITCH, 0) > 2000, f'{counts.get(SWITCH, 0)} pixels of switch boxes')
    for colour in sorted(set(link_lines)):
        n = counts.get(rgb(colour), 0)
        expect(n >= 20, f'{n} pixels of link colour {colour}')

    w, h, ch, rows = png.read(full_path)
    counts = png.colour_counts(rows, ch)
    expect(counts.get(HIST, 0) > 300, f'{counts.get(HIST, 0)} pixels of histogram bars')
    for colour in sorted(set(bars)):
        n = counts.get(rgb(colour), 0)
        expect(n >= 100, f'{n} pixels of bar colour {colour}')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main(*sys.argv[1:4]))
