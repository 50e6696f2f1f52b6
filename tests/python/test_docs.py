"""docs/python.md runs: its ```python blocks, in order, in one namespace,
from the repository root, each printing what the ``` block after it shows,
so the walk-through cannot fall behind the module."""
import contextlib
import io
import re

from conftest import ROOT


def blocks(text):
    """(code, the output block that follows it or None) per python block."""
    found = re.findall(r"```(\w*)\n(.*?)```", text, re.S)
    out = []
    for i, (lang, body) in enumerate(found):
        if lang == "python":
            nxt = found[i + 1] if i + 1 < len(found) else None
            out.append((body, nxt[1] if nxt and nxt[0] == "" else None))
    return out


def test_walkthrough_runs_and_prints_what_it_shows():
    page = (ROOT / "docs" / "python.md").read_text()
    code = blocks(page)
    assert len(code) >= 5  # load/run, DataFrame, sweep, histogram, fit: the page was parsed
    namespace = {"__name__": "docs_python"}
    for body, shown in code:
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(compile(body, "docs/python.md", "exec"), namespace)
        if shown is not None:
            assert printed.getvalue() == shown, body
    assert len(namespace["table"]) == 10_000
    with open(namespace["png"], "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"  # the histogram was written as a PNG
