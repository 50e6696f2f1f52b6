#!/usr/bin/env python3
"""Checks the documentation's references: README.md and docs/*.md.

links.py ROOT          every relative link [text](target) and image resolves to a file
                       or folder, every #anchor to a heading (or <a id>) of the
                       markdown file it names, as GitHub renders the anchors, and
                       README.md links every page of docs/;
links.py --paths ROOT  every repository path written as code (`sim/base/parallel.h`,
                       globs such as `bench/*_bench.cpp`) exists.

Fenced code blocks are skipped. Before the repository, each mode runs on a small
tree with known good and broken references, so a checker that finds nothing fails.
"""
import glob
import os
import re
import sys
import tempfile

LINK = re.compile(r'!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+"[^"]*")?\)')
CODE_SPAN = re.compile(r'`([^`\n]+)`')
HEADING = re.compile(r'^(#{1,6})\s+(.*?)\s*#*\s*$')
HTML_ANCHOR = re.compile(r'<a\s+(?:id|name)="([^"]+)"')
REPO_DIRS = ('sim/', 'hashing/', 'workloads/', 'tests/', 'bench/', 'configs/', 'scripts/', 'docs/', '.ci/')


def prose_lines(path):
    """(line number, text) of every line outside fenced code blocks."""
    fence = None
    with open(path, encoding='utf-8') as f:
        for n, line in enumerate(f, 1):
            stripped = line.lstrip()
            if fence is None and (stripped.startswith('```') or stripped.startswith('~~~')):
                fence = stripped[:3]
            elif fence is not None and stripped.startswith(fence):
                fence = None
            elif fence is None:
                yield n, line.rstrip('\n')


def slug(heading):
    """GitHub's anchor for a heading: the rendered text, lowercased, without
    punctuation but hyphens and underscores, spaces turned into hyphens."""
    text = re.sub(r'!?\[([^\]]*)\]\([^)]*\)', r'\1', heading)
    text = text.replace('`', '').lower()
    text = re.sub(r'[^\w\- ]', '', text)
    return text.replace(' ', '-')


def anchors(path):
    seen, out = {}, set()
    for _, line in prose_lines(path):
        for a in HTML_ANCHOR.findall(line):
            out.add(a)
        m = HEADING.match(line)
        if not m:
            continue
        s = slug(m.group(2))
        n = seen.get(s, 0)
        seen[s] = n + 1
        out.add(s if n == 0 else f'{s}-{n}')
    return out


def without_code_spans(line):
    return CODE_SPAN.sub('', line)


def check_links(root, files):
    problems, count, cache, linked = [], 0, {}, set()
    readme = os.path.join(root, 'README.md')
    for path in files:
        rel = os.path.relpath(path, root)
        for n, line in prose_lines(path):
            for target in LINK.findall(without_code_spans(line)):
                if re.match(r'^[a-z][a-z0-9+.-]*:', target):
                    continue  # https:, mailto: ...
                count += 1
                file_part, _, anchor = target.partition('#')
                dest = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
                if path == readme:
                    linked.add(dest)
                if not os.path.exists(dest):
                    problems.append(f'{rel}:{n}: link to {target}: {os.path.relpath(dest, root)} does not exist')
                elif anchor and dest.endswith('.md'):
                    if dest not in cache:
                        cache[dest] = anchors(dest)
                    if anchor not in cache[dest]:
                        problems.append(f'{rel}:{n}: link to {target}: no heading #{anchor} in '
                                        f'{os.path.relpath(dest, root)}')
    for page in files:
        if page != readme and page not in linked:
            problems.append(f'README.md: no link to {os.path.relpath(page, root)}')
    return problems, count


def check_paths(root, files):
    problems, count = [], 0
    for path in files:
        rel = os.path.relpath(path, root)
        for n, line in prose_lines(path):
            for span in CODE_SPAN.findall(line):
                if not span.startswith(REPO_DIRS) or ' ' in span or '.' not in os.path.basename(span):
                    continue  # not a path to a file
                count += 1
                if not glob.glob(os.path.join(root, span)):
                    problems.append(f'{rel}:{n}: `{span}` does not exist')
    return problems, count


def doc_files(root):
    return [os.path.join(root, 'README.md')] + sorted(glob.glob(os.path.join(root, 'docs', '*.md')))


def self_test(check):
    """The checker on a tree with known problems (2 of each kind, plus docs/b.md, which README.md
    does not link); True when it finds exactly those."""
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, 'docs'))
        os.makedirs(os.path.join(root, 'sim'))
        open(os.path.join(root, 'sim', 'fabric.h'), 'w').close()
        with open(os.path.join(root, 'README.md'), 'w') as f:
            f.write('# Top `x`: a, b!\n\n[ok](docs/a.md#the-cost-1) [ok](#top-x-a-b) [ok](https://x.org/y)\n'
                    '[broken](docs/missing.md) [broken](docs/a.md#nowhere)\n'
                    '`sim/fabric.h` `sim/*.h` `sim/gone.cpp` `sim/no/*.cpp` `sim/` `sim/fabric.h:12 x`\n'
                    '```\n[in a fence](nowhere.md) `sim/fenced.cpp`\n```\n')
        with open(os.path.join(root, 'docs', 'a.md'), 'w') as f:
            f.write('# A\n## The cost\n## The cost\n[up](../README.md)\n')
        with open(os.path.join(root, 'docs', 'b.md'), 'w') as f:
            f.write('# B, linked from a.md only\n')
        with open(os.path.join(root, 'docs', 'a.md'), 'a') as f:
            f.write('[b](b.md)\n')
        problems, count = check(root, doc_files(root))
        expected = 3 if check is check_links else 2
        return len(problems) == expected and count >= 4


def main(argv):
    paths = '--paths' in argv
    args = [a for a in argv if a != '--paths']
    if len(args) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    check = check_paths if paths else check_links
    if not self_test(check):
        print('links.py: the self-test did not find the known problems', file=sys.stderr)
        return 1
    root = os.path.abspath(args[0])
    problems, count = check(root, doc_files(root))
    for p in problems:
        print(p, file=sys.stderr)
    what = 'repository paths written as code' if paths else 'relative links'
    print(f'{count} {what} checked in {len(doc_files(root))} files, {len(problems)} broken')
    return 1 if problems or count == 0 else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
