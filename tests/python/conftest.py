"""Shared by the tests of the `ecmpsim` Python module: the CLI of the same
build tree ($ECMPSIM, set by tests/CMakeLists.txt) and its JSON, so every
Python result is checked against what the command line prints for the same
input. Run from the source tree (configs/ paths are relative to it)."""
import json
import re
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
os.chdir(ROOT)  # config paths as the CLI is given them, so the documents name the same file
PAPER16 = "configs/paper16.toml"


def cli(*args, check=True):
    """Runs the CLI; returns (exit code, stdout, stderr)."""
    exe = os.environ.get("ECMPSIM", str(ROOT / "build" / "ecmpsim"))
    p = subprocess.run([exe, *map(str, args)], capture_output=True, text=True, cwd=ROOT)
    if check and p.returncode != 0:
        raise AssertionError(f"ecmpsim {' '.join(map(str, args))}: exit {p.returncode}: {p.stderr}")
    return p.returncode, p.stdout, p.stderr


def cli_json(*args):
    return json.loads(cli(*args, "-f", "json")[1])


def as_keywords(message):
    """The CLI's message as Python words it: each option named by its keyword
    (--max-flows is max_flows=), the one difference between the two doors."""
    return re.sub(r"(?<![\w-])--([a-z][a-z0-9-]*)", lambda m: m.group(1).replace("-", "_") + "=", message)


def cli_error(*args):
    """The one-line message the CLI prints for bad input, without 'ecmpsim: '."""
    code, out, err = cli(*args, check=False)
    assert code == 2, (code, err)
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ecmpsim: "), err
    return lines[0][len("ecmpsim: "):]


@pytest.fixture(scope="session")
def paper16():
    import ecmpsim
    return ecmpsim.load(PAPER16)
