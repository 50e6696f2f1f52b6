#!/usr/bin/env python3
"""`run -f json` of every shipped config, by two binaries, compared number by
number to a relative tolerance (issue 46 item 7: a refactor changes no output).

    tests/compare_runs.py BASE_ECMPSIM NEW_ECMPSIM [--root DIR] [--rel 1e-9]

BASE is a build of the reference commit (716f6cb for issue 46). The configs
are configs/*.toml, configs/published/*.toml and the small bench configs
(bench/configs/scale-ft08, scale-ft16*). Strings, keys and list lengths must
match exactly; numbers within --rel of each other (or both within 1e-300 of
zero). Exit 0 when every config agrees, 1 otherwise (each difference printed,
the first 20 per config)."""
import argparse, json, pathlib, subprocess, sys

SMALL_BENCH = ("scale-ft08.toml", "scale-ft16.toml", "scale-ft16-jobs.toml", "scale-ft16-random.toml")


def configs(root):
    out = sorted((root / "configs").glob("*.toml")) + sorted((root / "configs" / "published").glob("*.toml"))
    out += [root / "bench" / "configs" / n for n in SMALL_BENCH if (root / "bench" / "configs" / n).exists()]
    return out


def run(binary, config, root):
    p = subprocess.run([binary, "run", str(config), "-f", "json"], cwd=root, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def diff(a, b, rel, path, out):
    if isinstance(a, bool) or isinstance(b, bool) or not isinstance(a, (int, float)) or not isinstance(b, (int, float)):
        if type(a) is not type(b):
            out.append(f"{path}: {type(a).__name__} vs {type(b).__name__}")
        elif isinstance(a, dict):
            if list(a) != list(b):
                out.append(f"{path}: keys {list(a)} vs {list(b)}")
            for k in a:
                if k in b:
                    diff(a[k], b[k], rel, f"{path}.{k}", out)
        elif isinstance(a, list):
            if len(a) != len(b):
                out.append(f"{path}: {len(a)} vs {len(b)} items")
            for i, (x, y) in enumerate(zip(a, b)):
                diff(x, y, rel, f"{path}[{i}]", out)
        elif a != b:
            out.append(f"{path}: {a!r} vs {b!r}")
        return
    if a == b or (abs(a) < 1e-300 and abs(b) < 1e-300):
        return
    if abs(a - b) > rel * max(abs(a), abs(b)):
        out.append(f"{path}: {a!r} vs {b!r}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("base")
    ap.add_argument("new")
    ap.add_argument("--root", default=".")
    ap.add_argument("--rel", type=float, default=1e-9)
    args = ap.parse_args()
    root = pathlib.Path(args.root).resolve()
    failed = 0
    numbers = 0
    for config in configs(root):
        name = config.relative_to(root).as_posix()
        (rb, ob, eb), (rn, on, en) = run(args.base, config, root), run(args.new, config, root)
        problems = []
        if rb != rn:
            problems.append(f"exit {rb} vs {rn}")
        if eb != en:
            problems.append(f"stderr differs: {eb!r} vs {en!r}")
        if rb == 0 and rn == 0:
            a, b = json.loads(ob), json.loads(on)
            diff(a, b, args.rel, "$", problems)
            numbers += ob.count(",") + 1
        print(f"{'ok  ' if not problems else 'FAIL'} {name}")
        for p in problems[:20]:
            print("     " + p)
        failed += bool(problems)
    print(f"compare_runs: {len(configs(root)) - failed} of {len(configs(root))} configs agree to {args.rel:g} relative")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
