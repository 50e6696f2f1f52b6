"""Each call of the module against the CLI's JSON for the same input: equal
documents (every number), the columns equal to the documents' values, and bad
input raising ecmpsim.InputError with the CLI's one-line message."""
import csv
import json
import io
import random

import numpy as np
import pytest

import ecmpsim
from conftest import PAPER16, as_keywords, cli, cli_error, cli_json


def test_run_equals_cli_json(paper16):
    r = paper16.run()
    assert r.json == cli_json("run", PAPER16)
    assert r.scenarios == ["ecmp", "static"]


def test_run_overrides_equal_cli_flags(paper16):
    r = paper16.run(scenario="ecmp", algo="xxh3", seed=7, seed_mode="per-switch", qps=2)
    expected = cli_json("run", PAPER16, "--scenario", "ecmp", "--algo", "xxh3", "--seed", "7",
                        "--seed-mode", "per-switch", "--qps", "2")
    assert r.json == expected
    # Negative control: the overrides changed the document (else the test above proves nothing about them).
    assert r.json != paper16.run(scenario="ecmp").json


def test_run_size_tables_equal_cli_json(paper16):
    """run's size options by their flags' names: the same document, size tables included."""
    r = paper16.run(minbytes=8, maxbytes=1 << 20, stepfactor=4, nccl_algo="Ring")
    expected = cli_json("run", PAPER16, "-b", "8", "-e", "1M", "--stepfactor", "4", "--nccl-algo", "Ring")
    assert r.json == expected
    sizes = [row["size"] for row in r.json["scenarios"][0]["sizes"]]
    # nccl-tests' sizes: 8 * 4^k while <= 1 MiB, so 512 KiB is the last (the factor 4 took effect).
    assert sizes[0] == 8 and sizes[1] == 32 and sizes[-1] == 1 << 19 and len(sizes) == 9
    # Negative control: without the options there is no size table.
    assert "sizes" not in paper16.run().json["scenarios"][0]


@pytest.mark.parametrize("config", ["configs/paper16.toml", "configs/paper16-ipv6.toml", "configs/multinic.toml",
                                    "configs/rail.toml", "configs/fattree-k8.toml"])
def test_run_notes_equal_cli_stderr(config):
    """The notes `run` prints on stderr (idle NICs, the flow-label note) are the result's."""
    _, out, err = cli("run", config, "-f", "json", "--no-slowdown")
    r = ecmpsim.load(config).run(slowdown=False)
    assert r.json == json.loads(out)
    assert r.notes == [line[len("ecmpsim: "):] for line in err.splitlines()]


def test_some_config_has_notes():
    # Negative control for the test above: at least one shipped config prints a note, so the
    # comparison is not between two empty lists everywhere.
    assert any(ecmpsim.load(c).run(slowdown=False).notes
               for c in ["configs/paper16-ipv6.toml", "configs/multinic.toml", "configs/rail.toml"])


def test_calibrate_equals_cli_json():
    data = "tests/data/nccl-tests/"
    got = ecmpsim.calibrate(data + "vp-h100-4n-all_reduce.txt", config=data + "vp-h100-4n.toml", fit_sizes="256M:")
    assert got == cli_json("calibrate", data + "vp-h100-4n-all_reduce.txt", "--config", data + "vp-h100-4n.toml",
                           "--fit-sizes", "256M:")
    # Negative control: fitting on other sizes changes the document.
    assert got != ecmpsim.calibrate(data + "vp-h100-4n-all_reduce.txt", config=data + "vp-h100-4n.toml")


def test_calibrate_run_and_notes(tmp_path):
    data = "tests/data/nccl-tests/"
    ar, ag = data + "vp-h100-4n-all_reduce.txt", data + "vp-h100-4n-all_gather.txt"
    sweep = tmp_path / "sweep.txt"
    sweep.write_text(open(ar).read() + open(ag).read())
    # run=2 is --run 2: the all_gather run of the two.
    got = ecmpsim.calibrate(str(sweep), config=data + "vp-h100-4n-ag.toml", run=2)
    assert got == cli_json("calibrate", str(sweep), "--config", data + "vp-h100-4n-ag.toml", "--run", "2")
    assert got["test"] == "all_gather_perf"
    with pytest.raises(ecmpsim.InputError) as e:
        ecmpsim.calibrate(str(sweep), config=data + "vp-h100-4n.toml")
    assert str(e.value) == as_keywords(cli_error("calibrate", str(sweep), "--config", data + "vp-h100-4n.toml"))
    assert "choose one with run= N: 1: lines 1-78" in str(e.value)
    # run's notes on the workload as warnings, the CLI's stderr lines.
    measured = "tests/data/measured/vultr-b200/"
    with pytest.warns(UserWarning) as notes:
        ecmpsim.calibrate(measured + "b200-ib-2n-all_reduce.txt", config=measured + "b200-ib-2n-all_reduce.toml")
    err = cli("calibrate", measured + "b200-ib-2n-all_reduce.txt", "--config", measured + "b200-ib-2n-all_reduce.toml",
              "-f", "summary")[2]
    assert [str(w.message) for w in notes] == [line[len("ecmpsim: note: "):] for line in err.splitlines()]
    assert len(notes) > 0


def test_validate_equals_cli_json():
    data = "tests/data/nccl-tests/"
    ar, ag = data + "vp-h100-4n-all_reduce.txt", data + "vp-h100-4n-all_gather.txt"
    got = ecmpsim.validate(ar, config=data + "vp-h100-4n.toml", fit_on=ag, fit_config=data + "vp-h100-4n-ag.toml",
                           fit_sizes="256M:")
    assert got == cli_json("validate", ar, "--config", data + "vp-h100-4n.toml", "--fit-on", ag, "--fit-config",
                           data + "vp-h100-4n-ag.toml", "--fit-sizes", "256M:")
    # Two tables with a config each: as the CLI's --config given per table.
    pairs = ecmpsim.validate([(ar, data + "vp-h100-4n.toml"), (ag, data + "vp-h100-4n-ag.toml")])
    assert pairs == cli_json("validate", ar, ag, "--config", data + "vp-h100-4n.toml", "--config",
                             data + "vp-h100-4n-ag.toml")
    assert [t["source"] for t in pairs["tables"]] == [ar, ag]
    # Negative control: hardware-only is another prediction than the fit.
    assert got["tables"][0]["rows"] != pairs["tables"][0]["rows"]
    with pytest.raises(ecmpsim.InputError) as e:
        ecmpsim.validate(ar, config=data + "vp-h100-4n.toml", fit_sizes="64M:")
    assert str(e.value) == as_keywords(cli_error("validate", ar, "--config", data + "vp-h100-4n.toml", "--fit-sizes",
                                                 "64M:"))


def test_validate_run(tmp_path):
    data = "tests/data/nccl-tests/"
    sweep = tmp_path / "sweep.txt"
    sweep.write_text(open(data + "vp-h100-4n-all_reduce.txt").read() + open(data + "vp-h100-4n-all_gather.txt").read())
    # run=2 is --run 2: the all_gather run of the two, scored as the CLI scores it.
    got = ecmpsim.validate(str(sweep), config=data + "vp-h100-4n-ag.toml", run=2)
    assert got == cli_json("validate", str(sweep), "--config", data + "vp-h100-4n-ag.toml", "--run", "2")
    assert got["tables"][0]["test"] == "all_gather_perf"
    # Negative control: without run= the file of two runs is refused, its advice spelt as a keyword.
    with pytest.raises(ecmpsim.InputError) as e:
        ecmpsim.validate(str(sweep), config=data + "vp-h100-4n-ag.toml")
    assert "choose one with run= N: 1: lines 1-78" in str(e.value)


def test_link_columns_are_the_json_links(paper16):
    r = paper16.run()
    for s, doc in zip(r.scenarios, r.json["scenarios"]):
        cols = r.links(s)
        assert list(cols["id"]) == [l["id"] for l in doc["links"]]
        assert list(cols["from"]) == [l["from"] for l in doc["links"]]
        assert cols["flows"].tolist() == [l["flows"] for l in doc["links"]]
        assert cols["bytes"].tolist() == [l["bytes"] for l in doc["links"]]
        assert not cols["down"].any()
        # Conservation, worked by hand: a ring all-reduce over 16 strided nodes
        # sends every flow leaf -> spine -> leaf, so each flow crosses exactly
        # two switch-to-switch links.
        assert cols["flows"].sum() == 2 * r.json["workload"]["flows"]


def test_paths_and_flows_equal_the_json_flows(paper16):
    r = paper16.run()
    doc = r.json["scenarios"][0]
    paths = r.paths("ecmp")
    links = r.links("ecmp")
    name = dict(zip(links["link"].tolist(), links["id"]))
    flows = r.flows("ecmp")
    assert len(paths["begin"]) == len(doc["flows"]) + 1
    for i, f in enumerate(doc["flows"]):
        hops = paths["links"][paths["begin"][i]:paths["begin"][i + 1]]
        # The JSON lists every hop; the switch-to-switch ones are links()'s.
        assert [name[l] for l in hops if l in name] == [h for h in f["links"] if h in name.values()]
        assert flows["sport"][i] == f["sport"] and flows["src_ip"][i] == f["src_ip"]
        assert flows["finish_s"][i] == f["finish_s"] and flows["rate_gbps"][i] == f["rate_gbps"]
    assert not paths["links"].flags.writeable  # a view of the engine's result, not a copy to edit


def test_flows_routed_from_python_equal_run_flows(paper16, tmp_path):
    cols = paper16.flows()
    # Flows of the user's own making: random source ports.
    cols["sport"] = np.random.default_rng(5).integers(49152, 65536, len(cols["sport"]))
    path = tmp_path / "flows.csv"
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(cols.keys())
        w.writerows(zip(*cols.values()))
    r = paper16.run(flows=cols)
    expected = cli_json("run", PAPER16, "--flows", path)
    for got, want in zip(r.json["scenarios"], expected["scenarios"]):
        assert got == want
    # The same workload; its source is named as given: columns, or the file.
    assert r.json["workload"].pop("files") == "<flows>"
    assert expected["workload"].pop("files") == str(path)
    assert r.json["workload"] == expected["workload"]
    # Negative control: the new ports route differently from the config's own flows.
    assert r.links("ecmp")["flows"].tolist() != paper16.run().links("ecmp")["flows"].tolist()


def test_sweep_equals_cli_json(paper16):
    s = paper16.sweep(seeds=range(0, 300), algos=["xxh3"], threads=2)
    assert s.json == cli_json("sweep", PAPER16, "--seeds", "0:300", "--algos", "xxh3", "-j", "2")
    assert len(s) == 300
    cols = s.columns()
    assert cols["seed"] == list(range(300)) and cols["algo"] == ["xxh3"] * 300
    fim = cols["fim"]
    assert not fim.flags.writeable and fim.base is not None  # a view of the engine's table
    # The document's summary is of the column's values.
    m = s.json["metrics"]["fim"]
    assert fim.min() < fim.max()  # the seeds moved the metric: the checks below are not of a constant
    assert (m["min"], m["max"]) == (fim.min(), fim.max())
    assert sum(m["histogram"]["counts"]) == 300
    best, worst = s.json["best"], s.json["worst"]
    assert fim[best["index"]] == best["metrics"]["fim"] == fim.min()
    assert fim[worst["index"]] == worst["metrics"]["fim"] == fim.max()


def test_sweep_threads_do_not_change_results(paper16):
    a = paper16.sweep(seeds="0:64", algos=["crc16-ccitt", "xxh3"], threads=1)
    b = paper16.sweep(seeds="0:64", algos=["crc16-ccitt", "xxh3"], threads=2)
    assert a.json == b.json
    assert np.array_equal(a.columns()["fim"], b.columns()["fim"])


def test_hash_equals_cli_json():
    kw = dict(src="10.0.0.1", dst="10.0.0.2", sport=49152, members=4)
    h = ecmpsim.hash("crc16-ccitt", **kw)
    assert h == cli_json("hash", "--algo", "crc16-ccitt", "--src", "10.0.0.1", "--dst", "10.0.0.2",
                         "--sport", "49152", "--members", "4")
    # Modulo selection by definition: member = hash mod members.
    assert int(h["hash"], 16) % 4 == h["member"]
    assert "xxh3" in ecmpsim.algorithms()


@pytest.mark.parametrize("call, args", [
    (lambda: ecmpsim.hash("crc16-ccitt", src="10.0.0.1", dst="10.0.0.2", sport=1),
     ["hash", "--algo", "crc16-ccitt", "--src", "10.0.0.1", "--dst", "10.0.0.2", "--sport", "1"]),
    (lambda: ecmpsim.hash("crc16-cccitt", src="10.0.0.1", dst="10.0.0.2", sport=1, members=2),
     ["hash", "--algo", "crc16-cccitt", "--src", "10.0.0.1", "--dst", "10.0.0.2", "--sport", "1", "-n", "2"]),
    (lambda: ecmpsim.load(PAPER16).sweep(seeds="5:2"), ["sweep", PAPER16, "--seeds", "5:2"]),
    (lambda: ecmpsim.load(PAPER16).run(scenario="ecnp"), ["run", PAPER16, "--scenario", "ecnp"]),
    (lambda: ecmpsim.load("configs/no-such.toml"), ["run", "configs/no-such.toml"]),
])
def test_bad_input_raises_the_cli_message(call, args):
    with pytest.raises(ecmpsim.InputError) as e:
        call()
    assert isinstance(e.value, ValueError)
    assert str(e.value) == as_keywords(cli_error(*args))
    assert "--" not in str(e.value)  # no flag spelt below the door


def test_bad_config_text_names_line_and_column(tmp_path):
    text = open(PAPER16).read().replace("spines = 4", "spines = -4")
    assert text != open(PAPER16).read()  # the edit happened
    bad = tmp_path / "bad.toml"
    bad.write_text(text)
    with pytest.raises(ecmpsim.InputError) as e:
        ecmpsim.load(str(bad))
    assert str(e.value) == cli_error("run", bad)
    assert e.value.file == str(bad) and e.value.line == text.splitlines().index("spines = -4") + 1
    assert e.value.column is not None and e.value.field is not None
    with pytest.raises(ecmpsim.InputError) as t:
        ecmpsim.load(text)  # the same TOML as text: the same message, its name '<string>'
    assert str(t.value) == str(e.value).replace(str(bad), "<string>")
    assert ecmpsim.load(open(PAPER16).read()).scenarios == ["ecmp", "static"]  # negative control: valid text loads


def test_flows_equal_the_flows_command(paper16):
    cols = paper16.flows()
    _, out, _ = cli("flows", PAPER16, "-f", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert len(rows) == len(cols["sport"]) > 0
    for k in ("src_ip", "dst_ip", "proto", "sport", "dport", "lqpn", "rqpn", "bytes", "channel"):
        assert [str(v) for v in cols[k]] == [r[k] for r in rows], k


def observations(n, seed):
    """n flows and the member a CRC-32 switch (seed 4242, 4 members) picks for each, as columns."""
    rng = random.Random(seed)
    obs = {"src": [], "dst": [], "proto": [], "sport": [], "dport": [], "member": []}
    for _ in range(n):
        src, dst = f"10.0.{rng.randrange(4)}.{rng.randrange(1, 5)}", f"10.1.{rng.randrange(4)}.{rng.randrange(1, 5)}"
        sport = rng.randrange(49152, 65536)
        member = ecmpsim.hash("crc32", src=src, dst=dst, sport=sport, seed=4242, members=4)["member"]
        for k, v in zip(obs, (src, dst, 17, sport, 4791, member)):
            obs[k].append(v)
    return obs


def test_fit_equals_cli_json(tmp_path):
    obs = observations(48, 3)
    path = tmp_path / "obs.csv"
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(obs.keys())
        w.writerows(zip(*obs.values()))
    expected = cli_json("fit", path, "--members", "4", "--algos", "crc32,crc16-ccitt,xxh3")
    assert ecmpsim.fit(str(path), members=4, algos=["crc32", "crc16-ccitt", "xxh3"]) == expected
    assert ecmpsim.fit(obs, members=4, algos="crc32,crc16-ccitt,xxh3") == expected
    # The hash that made the members is found (its seed class: CRC is affine in the seed).
    best = expected["models"][0]
    assert best["algo"] == "crc32" and expected["verdict"]["certain"]
    # Negative control: members that no hash of the list gives are refused as the CLI refuses them.
    obs["member"] = [0] * 47 + [1]
    obs["src"][47], obs["dst"][47], obs["sport"][47] = obs["src"][0], obs["dst"][0], obs["sport"][0]
    with pytest.raises(ecmpsim.InputError) as e:
        ecmpsim.fit(obs, members=4, algos=["crc32"])
    path2 = tmp_path / "contradicts.csv"
    with open(path2, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(obs.keys())
        w.writerows(zip(*obs.values()))
    assert str(e.value) == as_keywords(cli_error("fit", path2, "--members", "4", "--algos", "crc32")).replace(
        str(path2), "<observations>")


MIXED = ["tests/data/lldp/mixed/" + f for f in
         ["host1.json", "host2.kv", "leaf1.txt", "leaf2.json", "spine1.json", "spine2.json"]]


def test_topology_equals_cli_json(tmp_path):
    """topology(): `ecmpsim topology -f json`'s document, and as 'topology' the file --out writes."""
    out = tmp_path / "topo.csv"
    doc = ecmpsim.topology(MIXED, tier=["host*=host"], speed=25)
    expected = cli_json("topology", *MIXED, "--tier", "host*=host", "--speed", "25")
    topo = doc.pop("topology")
    # The notes and the tiers' reasons name options as each door spells them.
    expected["notes"] = [as_keywords(n) for n in expected["notes"]]
    for n in expected["nodes"]:
        n["why"] = as_keywords(n["why"])
    assert doc == expected
    cli("topology", *MIXED, "--tier", "host*=host", "--speed", "25", "--out", out)
    assert topo == out.read_text()
    assert len(doc["nodes"]) == 6 and len(doc["cables"]) == 6
    # The tier rule's reason names it by its keyword, not its flag.
    assert any(n["why"] == "tier= host*" for n in doc["nodes"])
    # Negative control: without the rule no node's tier comes from one.
    assert not any("tier" in n["why"] for n in ecmpsim.topology(MIXED)["nodes"])


def test_topology_bad_input_raises_the_cli_message():
    with pytest.raises(ecmpsim.InputError) as e:
        ecmpsim.topology(MIXED, tier=["host*=hots"])
    assert str(e.value) == as_keywords(cli_error("topology", *MIXED, "--tier", "host*=hots"))
    assert "--" not in str(e.value)
