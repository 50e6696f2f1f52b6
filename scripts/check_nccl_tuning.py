#!/usr/bin/env python3
"""Check sim/model/nccl_tuning.cpp against NCCL's own src/graph/tuning.cc.

For every release tag from 2.18.1 on in a git clone of NVIDIA/nccl, read
baseLat, hwLat and the per-architecture caps from that tag's tuning.cc and
compare them with the row of kNcclTuning that covers the release. Values the
table holds beyond the source are listed, not failed: the Blackwell row before
2.25 (NCCL then prices sm100 with Hopper's row, which the table repeats) and
PAT's base latency of 8 before 2.28 (written into the formula, `= 8 + ...`).

    scripts/check_nccl_tuning.py /path/to/nccl    # exit 1 on any mismatch

Needs only python3 and git (docs/prediction.md, "NCCL's tuner by release").
"""
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIELDS = ['base', 'nvlink', 'pci', 'net', 'll_max', 'ring_ll128', 'tree_ll128', 'tree', 'nvls_tree']
SOURCE = {'ll_max': 'llMaxBws', 'ring_ll128': 'perChMaxRingLL128Bws', 'tree_ll128': 'perChMaxTreeLL128Bws',
          'tree': 'perChMaxTreeBws', 'nvls_tree': 'perChMaxNVLSTreeBws'}


def numbers(text):
    """The numbers of an initializer, products such as 2*141.0 evaluated."""
    text = re.sub(r'//[^\n]*', '', text)
    text = re.sub(r'/\*.*?\*/', '', text, flags=re.S)
    out = []
    for tok in re.findall(r'[0-9.]+\s*\*\s*[0-9.]+|[0-9]*\.?[0-9]+f?', text):
        tok = tok.replace('f', '')
        if '*' in tok:
            a, b = tok.split('*')
            out.append(round(float(a) * float(b), 6))
        else:
            out.append(float(tok))
    return out


def braces(text, start):
    i = text.index('{', start)
    depth = 0
    for j in range(i, len(text)):
        depth += {'{': 1, '}': -1}.get(text[j], 0)
        if depth == 0:
            return text[i:j + 1]
    raise ValueError('unbalanced braces')


def table_rows():
    """(from, tag, {field: numbers}) of kNcclTuning, constants resolved."""
    src = (ROOT / 'sim/model/nccl_tuning.cpp').read_text()
    consts = {m.group(1): numbers(braces(src, m.start()))
              for m in re.finditer(r'constexpr \w+ (k\w+)\{', src)}
    body = braces(src, src.index('kNcclTuning{'))
    rows = []
    for m in re.finditer(r'\{V\{(\d+), (\d+), (\d+)\}, "([^"]+)", ([^}]*)', body):
        names = [n.strip() for n in m.group(5).split(',')][:len(FIELDS)]
        rows.append(((int(m.group(1)), int(m.group(2)), int(m.group(3))), m.group(4),
                     {f: consts[n] for f, n in zip(FIELDS, names)}))
    return rows


def source_values(nccl, tag):
    text = subprocess.run(['git', '-C', nccl, 'show', tag + ':src/graph/tuning.cc'], capture_output=True, text=True,
                          check=True).stdout
    out = {}
    if 'ncclTunerConstantsDefaults' in text:
        struct = text[text.index('ncclTunerConstantsDefaults'):]

        def field(name):
            m = re.search(r'//\s*' + name + r'\b', struct) or re.search(r'\.' + name + r'\s*=', struct)
            return numbers(braces(struct, m.end())) if m else None
        out['base'], hw = field('baseLatencies'), field('hwLatencies')
        for f, name in SOURCE.items():
            out[f] = field(name)
    else:
        def array(name):
            m = re.search(r'\b' + name + r'\b[^=;{]*=\s*\{', text)
            return numbers(braces(text, m.start())) if m else None
        out['base'], hw = array('baseLat'), array('hwLat')
        for f, name in SOURCE.items():
            out[f] = array(name)
    third = len(hw) // 3
    out['nvlink'], out['pci'], out['net'] = hw[:third], hw[third:2 * third], hw[2 * third:]
    return out


def version(tag):
    return tuple(int(x) for x in re.findall(r'\d+', tag)[:3])


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    nccl = sys.argv[1]
    rows = table_rows()
    tags = subprocess.run(['git', '-C', nccl, 'tag'], capture_output=True, text=True, check=True).stdout.split()
    tags = sorted((t for t in tags if re.fullmatch(r'v2\.\d+\.\d+-\d+', t) and version(t) >= (2, 18, 1)), key=version)
    bad = 0
    for tag in tags:
        row = [r for r in rows if r[0] <= version(tag)][-1]
        got = source_values(nccl, tag)
        for f in FIELDS:
            mine, theirs = row[2][f], got[f]
            if theirs is None:
                if any(mine):
                    print(f'{tag} {f}: not in this release; the table holds {mine[:6]}...')
                continue
            if [round(x, 6) for x in mine[:len(theirs)]] != [round(x, 6) for x in theirs]:
                print(f'{tag} {f}: MISMATCH with row {row[1]}\n  table  {mine}\n  source {theirs}')
                bad += 1
            elif any(mine[len(theirs):]):
                print(f'{tag} {f}: beyond the source: {mine[len(theirs):]}')
    print(f'{len(tags)} releases checked, {bad} mismatches')
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()
