#!/usr/bin/env python3
"""rowserver's benchmark suite, one command from a fresh clone:

    python3 Benchmarks/bench.py                 # everything: ~25 min on a fresh clone, ~20 min warm
    python3 Benchmarks/bench.py --smoke         # CI: short scenarios on 10,000 products, with the floor
    python3 Benchmarks/bench.py --servers rowserver --scenarios page1,deep --rounds 1

It builds rowserver in release mode, generates the datasets into .build/bench (1,000,000 and
10,000 products with the demo people and tracks; each server of a run serves its own fresh
copy, so no server reads what an earlier run or another server wrote), and when ../shared/bench
is there builds the C ceiling, the C floor and the Hummingbird peer into .build/bench too (the
floor loaded with as many products as the uncached server has). Then it measures, with wrk -t1
on loopback, in interleaved rounds (A B C … A B C …):

  rowserver     1,000,000 products, default caches, access log off: every scenario, page 1
                with Accept-Encoding: gzip (page1-gzip), and page 1 while a second wrk sends 32
                connections of writes (page1-during-writes: its p99 against page 1's alone)
  logged        the same in the default configuration, access log to a file: page 1, detail
  uncached      the same database with --response-cache 0: what a query and a render cost
  uncached-10k  10,000 products, no cache; cached-10k: 10,000 products, default caches
  ceiling, hummingbird   /health, a page of 50 rows, details by rotating ids (10,000 products)
  floor         the same endpoints computed per request from SQLite (../shared/bench/floor)
  ceiling-gzip  Benchmarks/ceiling-bytes serving rowserver's own gzip page 1 as a prebuilt answer

Each scenario with a reference runs in a pair with the reference's matching endpoint (A B in
odd rounds, B A in even ones), and its ratio is the median over its pairs: rowserver's beside
the ceiling (page1-gzip beside ceiling-gzip), the uncached server's beside the floor, the logged
server's beside the log-off one. With `--together` the runs of a pair go at the same time, each
with its own wrk: half the time of a run, with pairs as scattered as sequential ones on this
host (issue #13: 0.64–1.49 against 0.57–1.70). It prints one table (requests/s, p50/p99, server CPU µs and bytes per request, ratios
to the ceiling, the floor and Hummingbird), the targets of issues #6 and #16 as met or missed
with their figures, start-up time and peak RSS.

With `--baseline BINARY` (say the release binary of an earlier commit), every rowserver server
of the plan gets a twin running that binary on a dataset it generated itself (.build/bench/baseline/…),
and each scenario runs in a pair with its twin's (A B, then B A); the second table gives the
median over pairs of CPU per request, this binary's over the baseline's, and marks each pair
within 10 % of the baseline or better. It writes the figures to .build/bench/results.json and, with
matplotlib, a plot of CPU per request against the floor and the ceiling to
.build/bench/results.png. Never run it while a build runs: the figures halve.
"""
import argparse
import http.client
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import bench_report  # noqa: E402
from bench_scenarios import gzip_ceiling, reference_scenarios, scenarios, with_current_etag  # noqa: E402
from bench_servers import ROOT, SCRATCH, References, baseline_folder, build_rowserver, dataset, log, rowserver  # noqa: E402

WRK = ROOT / "Benchmarks" / "wrk"
# Scenarios that write (or run beside writes): they grow the database and move every cache key.
WRITES = ("writes", "mixed", "page1-during-writes")
# Scenarios measured while the same server takes the writes scenario from a second wrk.
BESIDE_WRITES = ("page1-during-writes",)


def pair(work, by_name, twins):
    """[(server, scenario, spec, partners)]: each scenario with a reference in the run
    (`bench_report.reference_for`: the ceiling, the floor, the log-off server; `by_name`: name ->
    (server, its specs)) gets that reference's matching endpoint as a partner, and each scenario
    of a server with a baseline twin (`twins`: server -> (twin, its specs)) gets the twin's run of
    the same scenario, each measured right beside it, so a ratio compares runs seconds apart
    instead of minutes (this host's speed moves by tens of percent within a minute). A reference
    server's own runs are kept only for endpoints no pair measures."""
    paired, covered = [], set()
    for server, scenario, spec in work:
        partners = []
        reference = bench_report.reference_for(server.name, scenario)
        if reference and reference[0] in by_name and reference[1] in by_name[reference[0]][1]:
            other, specs = by_name[reference[0]]
            partners.append((other, reference[1], specs[reference[1]]))
            covered.add(reference)
        # A baseline from before gzip sends identity bytes: nothing to compare.
        if server in twins and not scenario.endswith("-gzip"):
            twin, specs = twins[server]
            partners.append((twin, scenario, specs[scenario]))
        paired.append((server, scenario, spec, partners))
    return [entry for entry in paired
            if not (bench_report.is_reference(entry[0].name) and (entry[0].name, entry[1]) in covered)]


def run_wrk(server, name, spec, duration, connections):
    return finish_wrk(start_wrk(server, name, spec, duration, connections))


# A reference run whose busiest worker did more than this share of the work is run again.
UNBALANCED = 0.7


def balanced_run(server, name, spec, arguments, tries=6):
    """`run_wrk`, run again (up to `tries` in all) while a reference put most of the run's
    connections on one of its workers, with the runs set aside counted in the figures (the last
    try is kept whatever its split: its share is in the figures too).

    The C references (ceiling, floor) take connections with libmicrohttpd's own accept, which on
    this host gives one worker all 32 in a third to two thirds of the runs. On two
    cores shared with wrk, a server whose second worker idles is faster per request: the ceiling's
    health did 106-115k requests/s at 8-9 us of CPU with one busy worker, 86-93k at 9.2-9.6 us with
    both; rowserver with `--threads 1` likewise 100-103k, against 71-76k with two. rowserver hands
    connections to its workers in turn (`Listener`): judged against a ceiling that happened to run
    on one worker, it was judged against another configuration, a different one in each round."""
    figures = run_wrk(server, name, spec, arguments.duration, arguments.connections)
    set_aside = 0
    while bench_report.is_reference(server.name) and (figures["busiest_worker_share"] or 0) > UNBALANCED and set_aside + 1 < tries:
        log(f"  {server.name} {name}: one worker did {figures['busiest_worker_share']:.0%} of the work; run again")
        set_aside += 1
        figures = run_wrk(server, name, spec, arguments.duration, arguments.connections)
    return figures | {"unbalanced_runs_set_aside": set_aside}


def during_writes(server, name, spec, writes_spec, arguments):
    """`spec`'s run while a second wrk sends `writes_spec` (32 writers) to the same server,
    starting a second before it and ending after it; both runs' figures, the writes' as
    "writes-beside-reads". Their CPU columns each divide the server's whole CPU (reads and writes)
    by their own requests: only their rates and latencies are theirs."""
    writes = start_wrk(server, "writes-beside-reads", writes_spec, arguments.duration + 2, arguments.connections)
    time.sleep(1)
    reads = run_wrk(server, name, spec, arguments.duration, arguments.connections)
    return [reads, finish_wrk(writes)]


def run_together(runs, duration, connections):
    """The runs of a pair at the same time, each its own wrk against its own server, so both see
    the same moment of the host; each server's CPU is its own load's. It halves a run's time; on
    this host it did not narrow the pairs (issue #13's verdict: 0.64–1.49, sequential 0.57–1.70)."""
    return [finish_wrk(handle) for handle in [start_wrk(runner, name, what, duration, connections) for runner, name, what in runs]]


def start_wrk(server, name, spec, duration, connections):
    path, script, extra, script_args, own_connections = spec
    extra = with_current_etag(extra, server, path)
    combined = tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False)
    if script:
        combined.write((WRK / script).read_text() + "\n")
    combined.write((WRK / "report.lua").read_text())
    combined.close()
    command = ["wrk", "-t1", f"-c{own_connections or connections}", f"-d{duration}s", "--latency", "-s", combined.name,
               *extra, server.base + path]
    if script_args:
        command += ["--", *script_args]
    before = (server.cpu_ticks(), server.worker_ticks())
    # writes.lua sends the server's key from the environment (empty: none), never on the command line.
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                               env={**os.environ, "ROWSERVER_KEY": server.key or ""})
    return server, name, combined.name, before, process


def finish_wrk(handle):
    server, name, script, (before, workers_before), process = handle
    output = process.communicate()[0]
    after = server.cpu_ticks()
    workers = server.busiest_worker_share(workers_before, server.worker_ticks())
    os.unlink(script)
    match = re.search(r"^JSON (.*)$", output, re.M)
    if not match:
        raise RuntimeError(f"wrk gave no figures for {server.name} {name}:\n{output}")
    figures = json.loads(match.group(1))
    seconds = figures["duration_us"] / 1e6
    requests = max(figures["requests"], 1)
    return {
        "server": server.name, "scenario": name, "requests_per_s": figures["requests"] / seconds,
        "bytes_per_request": figures.get("bytes", 0) / requests,
        "p50_ms": figures["p50_us"] / 1000, "p99_ms": figures["p99_us"] / 1000,
        "cpu_us_per_request": (after - before) / os.sysconf("SC_CLK_TCK") * 1e6 / requests,
        "errors": figures["errors"], "non2xx": figures["non2xx"],
        # How the run's connections split over libmicrohttpd's workers (README, "Benchmarks"):
        # in results.json beside each run, to tell a split run from a slower server.
        "busiest_worker_share": workers,
    }


def warm(server, name, spec):
    """GETs each path of a rotating scenario once, so its figures are the steady state of a hot
    set (caches filled, database pages in memory) rather than a cold start. Before every round's
    run of it, not only the first: another round's writes move the cache keys, and the host
    evicts the database's pages in between.

    A scenario that writes touches index pages all over the file, so its hot set is the file:
    it is read through first. Measured on a fresh copy of the 1M dataset, 32 writers: 1,667
    writes/s with its pages dropped, 5,566 once read (5 s each); the full run of session 43
    had 1,838 / 6,593 / 627 by round, its p99 0.5-1.2 s in the slow rounds."""
    path, script, _, script_args, _ = spec
    if name in WRITES:
        for file in server.files:
            if file.exists():
                with open(file, "rb") as handle:
                    while handle.read(1 << 23):
                        pass
    if script != "paths.lua":
        return
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    try:
        for line in pathlib.Path(script_args[0]).read_text().split():
            connection.request("GET", line)
            connection.getresponse().read()
    finally:
        connection.close()


def plan(arguments):
    """(server name, dataset size, serve arguments, scenario names, access log) in measuring order."""
    large, small = arguments.products, arguments.small_products
    if arguments.smoke:
        return [("rowserver", small, [], ["health", "page1"], "off"),
                ("uncached", small, ["--response-cache", "0"], ["page1"], "off")]
    everything = ["health", "page1", "page1-gzip", "deep", "sorted", "sections", "people-table", "samples-table", "search",
                  "detail", "revalidate", "writes", "mixed", "page1-during-writes"]
    uncached = ["page1", "page1-gzip", "deep", "sorted", "sections", "people-table", "samples-table", "search", "search-1conn",
                "detail"]
    return [
        ("rowserver", large, [], everything, "off"),
        # The default configuration: the access log on, to a file (issue #16: within 5 % of log off).
        (bench_report.LOGGED, large, [], ["page1", "detail"], SCRATCH / "access.log"),
        ("uncached", large, ["--response-cache", "0"], uncached, "off"),
        ("uncached-10k", small, ["--response-cache", "0"], ["page1", "search", "search-1conn"], "off"),
        ("cached-10k", small, [], ["page1"], "off"),
    ]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--products", type=int, default=1_000_000, help="the large dataset")
    parser.add_argument("--small-products", type=int, default=10_000, help="the small dataset")
    parser.add_argument("--servers", default="", help="comma-separated: rowserver,logged,uncached,uncached-10k,cached-10k,"
                                                      "ceiling,ceiling-gzip,floor,hummingbird")
    parser.add_argument("--scenarios", default="", help="comma-separated scenario names (default: each server's own list)")
    parser.add_argument("--duration", type=int, default=5, help="seconds per wrk run")
    # Three, not two: a median of two pairs is their mean, and how wrk's connections split over
    # libmicrohttpd's workers, drawn again every run, moves one pair's ratio by ~10 % (README).
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds; the table shows medians")
    parser.add_argument("--warmup", type=int, default=1, help="seconds of wrk before round 1 of each run")
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--references", default=str(ROOT.parent / "shared" / "bench"),
                        help="../shared/bench (the ceiling, the floor and the Hummingbird peer), or 'none'")
    parser.add_argument("--no-hummingbird", action="store_true", help="skip the Hummingbird peer (its first build takes ~5 min)")
    parser.add_argument("--smoke", action="store_true",
                        help="CI: 2 s each on 10,000 products: health and page 1, uncached page 1, the ceiling and the floor")
    parser.add_argument("--binary", default=None, help="a rowserver binary to measure instead of building one")
    parser.add_argument("--baseline", default=None,
                        help="a second rowserver binary (an earlier commit's release build): every scenario runs "
                             "beside it and is judged within 10 %% of its CPU per request")
    parser.add_argument("--together", action="store_true",
                        help="run each pair's servers at the same time (each its own wrk) rather than one after the other: "
                             "half the time; absolute figures are under shared load")
    parser.add_argument("--out", default=str(SCRATCH / "results.json"))
    arguments = parser.parse_args()
    if arguments.smoke:
        arguments.duration, arguments.rounds, arguments.warmup, arguments.no_hummingbird = 2, 1, 0, True
    if not shutil.which("wrk"):
        sys.exit("wrk is missing: apt-get install wrk")
    wanted_servers = set(filter(None, arguments.servers.split(",")))
    wanted_scenarios = set(filter(None, arguments.scenarios.split(",")))

    binary = pathlib.Path(arguments.binary) if arguments.binary else build_rowserver()
    references = None
    reference_names = {"ceiling", "hummingbird", "floor", bench_report.GZIP_CEILING}
    if arguments.references != "none" and References.available(arguments.references) \
            and (not wanted_servers or wanted_servers & reference_names):
        with_hummingbird = not arguments.no_hummingbird and (not wanted_servers or "hummingbird" in wanted_servers)
        # The floor of the uncached server, on as many products (none when the run has no uncached server).
        floor_products = next((size for name, size, *_ in plan(arguments) if name == "uncached"), None) \
            if not wanted_servers or "floor" in wanted_servers else None
        references = References(arguments.references, with_hummingbird=with_hummingbird, floor_products=floor_products)
        references.build()
    elif arguments.references != "none":
        log(f"no references at {arguments.references}: ratios left out")

    baseline = pathlib.Path(arguments.baseline).resolve() if arguments.baseline else None
    running, work, twins, by_name, facts = [], [], {}, {}, {
        "products": arguments.products, "small_products": arguments.small_products, "duration_s": arguments.duration,
        "rounds": arguments.rounds, "connections": arguments.connections}
    access_logs = []
    try:
        for name, size, extra, names, access_log in plan(arguments):
            if wanted_servers and name not in wanted_servers:
                continue
            names = [n for n in names if not wanted_scenarios or n in wanted_scenarios]
            if not names:
                continue
            db = dataset(binary, size, owner=name)
            if access_log != "off":
                pathlib.Path(access_log).unlink(missing_ok=True)
                access_logs.append(pathlib.Path(access_log))
            server = rowserver(name, binary, db, extra, access_log)
            running.append(server)
            facts[f"startup_ms_{name}"] = server.startup_ms
            # Its own path files too: a cursor in one (the mix's deep page) is signed with the key
            # of the server that walked to it, and each copy of the dataset has its own key.
            available = scenarios(server, db, size, tag=f"{name}-")
            by_name[name] = (server, available)
            work += [(server, scenario, available[scenario]) for scenario in names]
            if name == "rowserver" and "page1-gzip" in names and (not wanted_servers or bench_report.GZIP_CEILING in wanted_servers):
                ceiling, specs = gzip_ceiling(server)
                running.append(ceiling)
                by_name[ceiling.name] = (ceiling, specs)
            # The logged server is judged against the log-off one, not against a baseline.
            if baseline and name != bench_report.LOGGED:
                twin_db = dataset(baseline, size, baseline_folder(baseline), owner=name)
                twin = rowserver(bench_report.baseline_name(name), baseline, twin_db, extra)
                running.append(twin)
                facts[f"startup_ms_{twin.name}"] = twin.startup_ms
                twins[server] = (twin, scenarios(twin, twin_db, size, tag=f"baseline-{name}-"))
        if references:
            for server in references.start():
                if wanted_servers and server.name not in wanted_servers:
                    server.stop()
                    continue
                running.append(server)
                available = reference_scenarios(references, server)
                by_name[server.name] = (server, available)
                work += [(server, scenario, spec) for scenario, spec in available.items()]
        work = pair(work, by_name, twins)
        # Writes grow the database and move every cache key: they go last in each round.
        work.sort(key=lambda entry: entry[1] in WRITES)
        measurements = []
        # Each server's scenarios, a baseline twin's too (by_name holds the plan's servers only).
        specs_of = {server: specs for server, specs in by_name.values()} | {twin: specs for twin, specs in twins.values()}
        for round_number in range(1, arguments.rounds + 1):
            for server, scenario, spec, partners in work:
                # A B in odd rounds, B A in even ones: drift within a pair cancels over rounds.
                runs = [(server, scenario, spec), *partners]
                if round_number % 2 == 0:
                    runs.reverse()
                group = f"{round_number}:{server.name}:{scenario}" if partners else None
                for runner, name, what in runs:
                    # Every round: this host drops cached file pages within minutes, with gigabytes
                    # free, and reads them back from a slow disk (a search's 20 MB: p99 151 ms at 32
                    # connections on the first run, 20-25 ms after). A run measures the server with
                    # its hot set in memory, not the disk.
                    warm(runner, name, what)
                    if round_number == 1 and arguments.warmup:
                        run_wrk(runner, name, what, arguments.warmup, arguments.connections)
                if arguments.together and partners:
                    log(f"round {round_number}: {server.name} {scenario} beside " + ", ".join(f"{r.name} {n}" for r, n, _ in partners))
                    measurements += [figures | {"round": round_number, "pair": group}
                                     for figures in run_together(runs, arguments.duration, arguments.connections)]
                    continue
                for runner, name, what in runs:
                    log(f"round {round_number}: {runner.name} {name}" + (f" (paired with {server.name} {scenario})" if runner is not server else ""))
                    if name in BESIDE_WRITES:
                        measurements += [figures | {"round": round_number, "pair": None}
                                         for figures in during_writes(runner, name, what, specs_of[runner]["writes"], arguments)]
                        continue
                    measurements.append(balanced_run(runner, name, what, arguments) | {"round": round_number, "pair": group})
        for server in running:
            facts[f"peak_rss_mib_{server.name}"] = server.status_kib("VmHWM") / 1024
        facts["reference_runs_set_aside_one_worker"] = sum(m.get("unbalanced_runs_set_aside", 0) for m in measurements)
    finally:
        for server in running:
            server.stop()
        for file in access_logs:
            if file.exists():
                facts["access_log_mib"] = file.stat().st_size / 2**20
                file.unlink()

    if "startup_ms_rowserver" in facts and arguments.products >= 1_000_000 and not arguments.smoke:
        facts["startup_ms"] = facts["startup_ms_rowserver"]
        facts["peak_rss_mib"] = max(facts.get("peak_rss_mib_rowserver", 0), facts.get("peak_rss_mib_uncached", 0))
    rows = bench_report.median_rows(measurements)
    bench_report.add_ratios(rows, measurements)
    judged = bench_report.targets(rows, facts)
    against_baseline = bench_report.baseline_verdicts(rows) if baseline else []
    out = pathlib.Path(arguments.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"facts": facts, "rows": rows, "targets": [
        {"target": label, "figure": figure, "met": met} for label, figure, met in judged],
        "baseline": str(baseline) if baseline else None, "against_baseline": against_baseline,
        "measurements": measurements}, indent=2))

    sizes = f"{arguments.small_products:,}" if arguments.smoke else f"{arguments.products:,} and {arguments.small_products:,}"
    print(f"\nrowserver benchmark: {sizes} products, wrk -t1 "
          f"-c{arguments.connections}, {arguments.rounds} interleaved round(s) of {arguments.duration} s, medians")
    for key, value in facts.items():
        if key.startswith(("startup_ms_", "peak_rss_mib_", "access_log_")):
            print(f"  {key}: {value:.1f}")
        elif key.startswith("reference_runs_"):
            print(f"  {key}: {value}")
    print()
    print(bench_report.table(rows))
    if judged:
        print()
        print(bench_report.targets_table(judged))
    if against_baseline:
        print(f"\nagainst the baseline {baseline} (CPU µs per request, median over pairs; this / baseline):\n")
        print(bench_report.baseline_table(against_baseline))
    picture = out.with_suffix(".png")
    if bench_report.plot(rows, picture):
        print(f"\nplot: {picture}")
    else:
        print("\n(no plot: pip install matplotlib)")
    print(f"figures: {out}")
    failed = sorted({f"{r['server']} {r['scenario']}" for r in rows
                     if r["errors"] or (r["non2xx"] and r["scenario"] != "revalidate")})
    if failed:
        sys.exit(f"errors in {', '.join(failed)}")


if __name__ == "__main__":
    main()
