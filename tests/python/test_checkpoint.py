"""Config.sweep(checkpoint=, resume=) reaches the command line's checkpoints
through the same app::SweepJob (issue 47 items 2 and 6): a checkpoint written
from Python is resumed by the CLI and the other way round (one identity for
both doors), another sweep's checkpoint is refused naming the axis and left
as it was, and shards run by the CLI merge into the one-process document."""
import json
import os
import sys

import pytest

import ecmpsim
from conftest import PAPER16, ROOT, as_keywords, cli, cli_error, cli_json

sys.path.insert(0, str(ROOT / "tests" / "support"))
from checkpoint_file import rows_held  # noqa: E402

AXES = ["--seeds", "0:1200", "--algos", "xxh3"]


def test_checkpoint_written_by_python_is_resumed_by_the_cli(paper16, tmp_path):
    ck = str(tmp_path / "ck")
    s = paper16.sweep(seeds=range(0, 1200), algos=["xxh3"], checkpoint=ck)
    assert s.json == cli_json("sweep", PAPER16, *AXES)
    assert rows_held(ck) == 1200  # kept whole: a named checkpoint is never removed
    code, out, err = cli("sweep", PAPER16, *AXES, "--checkpoint", ck, "-f", "json")
    assert "resuming from %s: 1200 of 1200 variants done" % ck in err
    assert s.json == json.loads(out)
    # And back: Python resumes what it saved, and says so in its notes.
    again = paper16.sweep(seeds=range(0, 1200), algos=["xxh3"], checkpoint=ck)
    assert again.notes == ["resuming from %s: 1200 of 1200 variants done" % ck]
    assert again.json == s.json
    # Negative control: a sweep without a checkpoint has no such note.
    assert paper16.sweep(seeds=range(0, 1200), algos=["xxh3"]).notes == []


def test_another_sweeps_checkpoint_is_refused_and_kept(paper16, tmp_path):
    ck = str(tmp_path / "ck")
    paper16.sweep(seeds=range(0, 1200), algos=["xxh3"], checkpoint=ck)
    before = open(ck, "rb").read()
    with pytest.raises(ecmpsim.InputError) as e:
        paper16.sweep(seeds=range(0, 600), algos=["xxh3"], checkpoint=ck)
    assert str(e.value) == as_keywords(cli_error("sweep", PAPER16, "--seeds", "0:600", "--algos", "xxh3",
                                                 "--checkpoint", ck))
    assert "axis.seeds" in str(e.value) and "checkpoint=" in str(e.value) and "--" not in str(e.value)
    assert open(ck, "rb").read() == before


def test_python_merges_cli_shards(paper16, tmp_path):
    base = str(tmp_path / "ck")
    for i in range(3):
        cli("sweep", PAPER16, *AXES, "--shard", "%d/3" % i, "--checkpoint", base)
    assert sorted(os.listdir(tmp_path)) == ["ck.rank-%d-of-3" % i for i in range(3)]
    merged = paper16.sweep(seeds=range(0, 1200), algos=["xxh3"], resume=base)
    assert merged.json == cli_json("sweep", PAPER16, *AXES)
    assert merged.notes[0].startswith("resuming from %s: 1200 of 1200 variants done" % base)
    # Negative control: without one shard the merge is refused, naming it, the same message as
    # the CLI's (so the document above came from the three files).
    os.remove(base + ".rank-1-of-3")
    with pytest.raises(ecmpsim.InputError) as e:
        paper16.sweep(seeds=range(0, 1200), algos=["xxh3"], resume=base)
    assert "ck.rank-1-of-3: missing: no file for rank (shard) 1 of 3" in str(e.value)
    assert str(e.value) == as_keywords(cli_error("sweep", PAPER16, *AXES, "--resume", base))
