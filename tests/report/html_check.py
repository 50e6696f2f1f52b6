"""Strict structure check of HTML files: every non-void element closed in
order, no stray end tags, unique ids, one <script type="application/json">
block holding valid JSON. Usage: html_check.py FILE..."""
import json
import sys
from html.parser import HTMLParser

VOID = {'area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr'}


class Checker(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.errors, self.ids, self.json_blocks = [], [], set(), []
        self.in_json = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if 'id' in a:
            if a['id'] in self.ids:
                self.errors.append(f'line {self.getpos()[0]}: duplicate id {a["id"]!r}')
            self.ids.add(a['id'])
        if tag == 'script':
            self.in_json = a.get('type') == 'application/json'
            if not self.in_json:
                self.errors.append(f'line {self.getpos()[0]}: executable <script> in a page meant to have none')
        if tag not in VOID:
            self.stack.append((tag, self.getpos()[0]))

    def handle_startendtag(self, tag, attrs):  # <line .../> in SVG: complete as written
        a = dict(attrs)
        if 'id' in a:
            if a['id'] in self.ids:
                self.errors.append(f'line {self.getpos()[0]}: duplicate id {a["id"]!r}')
            self.ids.add(a['id'])

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1][0] != tag:
            top = self.stack[-1] if self.stack else ('nothing', 0)
            self.errors.append(f'line {self.getpos()[0]}: </{tag}> closes <{top[0]}> of line {top[1]}')
            return
        self.stack.pop()
        if tag == 'script':
            self.in_json = False

    def handle_data(self, data):
        if self.in_json:
            self.json_blocks.append(data)


def check(path):
    c = Checker()
    c.feed(open(path, encoding='utf-8').read())
    c.close()
    for tag, line in c.stack:
        c.errors.append(f'<{tag}> of line {line} never closed')
    if len(c.json_blocks) != 1:
        c.errors.append(f'{len(c.json_blocks)} JSON data blocks, expected 1')
    else:
        try:
            json.loads(c.json_blocks[0])
        except ValueError as e:
            c.errors.append(f'data block is not JSON: {e}')
    for e in c.errors:
        print(f'FAIL  {path}: {e}')
    if not c.errors:
        print(f'ok    structure: {path}')
    return not c.errors


if __name__ == '__main__':
    sys.exit(0 if all([check(p) for p in sys.argv[1:]]) else 1)
