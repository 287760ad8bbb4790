"""A reference run whose connections landed on one worker is run again (Benchmarks/bench.py,
`balanced_run`): its figures are compared only with a run split like rowserver's, as data."""
import pathlib
import sys
import types

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "Benchmarks"))
import bench  # noqa: E402


@pytest.mark.parametrize("server, shares, kept, set_aside", [
    # A split first run is kept.
    ("ceiling", [0.55], 0.55, 0),
    # One worker, then 90 %, then a split: the split is kept, two set aside.
    ("ceiling", [1.0, 0.9, 0.6], 0.6, 2),
    # 70 % exactly is a split.
    ("floor", [0.7], 0.7, 0),
    # Six tries at most; the last is kept whatever its split.
    ("ceiling", [1.0] * 8, 1.0, 5),
    # rowserver is never run again (its own listener splits its connections; a run on one worker
    # would be a regression to see, not to retry).
    ("rowserver", [1.0, 0.5], 1.0, 0),
    # A server without libmicrohttpd workers (the Hummingbird peer) has no share.
    ("hummingbird", [None, 0.5], None, 0),
])
def test_a_reference_on_one_worker_is_run_again(monkeypatch, server, shares, kept, set_aside):
    runs = iter(shares)
    calls = []

    def run_wrk(runner, name, spec, duration, connections):
        calls.append(name)
        return {"server": runner.name, "scenario": name, "busiest_worker_share": next(runs)}

    monkeypatch.setattr(bench, "run_wrk", run_wrk)
    monkeypatch.setattr(bench, "log", lambda message: None)
    arguments = types.SimpleNamespace(duration=1, connections=32)
    figures = bench.balanced_run(types.SimpleNamespace(name=server), "health", None, arguments)
    assert figures["busiest_worker_share"] == kept
    assert figures["unbalanced_runs_set_aside"] == set_aside
    assert len(calls) == set_aside + 1


@pytest.mark.parametrize("scenario, reads", [("writes", True), ("mixed", True), ("page1-during-writes", True), ("page1", False)])
def test_a_scenario_that_writes_reads_the_servers_files_first(tmp_path, monkeypatch, scenario, reads):
    database = tmp_path / "products.sqlite"
    database.write_bytes(b"x" * (9 << 20))
    opened = []

    def recording_open(path, mode="r", *rest, **keywords):
        opened.append(pathlib.Path(path))
        return open(path, mode, *rest, **keywords)

    monkeypatch.setattr(bench, "open", recording_open, raising=False)
    # The log file is missing: a server whose log was checkpointed away is warmed all the same.
    server = types.SimpleNamespace(name="rowserver", port=1, files=(database, tmp_path / "products.sqlite-wal"))
    bench.warm(server, scenario, ("/", "writes.lua", [], ["1"], None))
    assert opened == ([database] if reads else [])
