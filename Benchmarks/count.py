#!/usr/bin/env python3
"""Counted work per request: instructions, not time, so a verdict does not move with the host.

    python3 Benchmarks/count.py --binary NEW --baseline OLD        # every read scenario, both binaries
    python3 Benchmarks/count.py --binary NEW --modes uncached --scenarios page1 --keep

On these shared machines a CPU-per-request ratio of one pair of wrk runs moves by ±30 % (issue
#13's bench runs: 0.66–1.40 for one scenario of one binary), so "within 10 %" needs many pairs.
This runs each server under valgrind's callgrind instead: it warms each scenario with its
requests (caches filled, statements prepared, pages in memory), zeroes the counters, sends the
same requests again one by one on a keep-alive connection, and reads the instructions the
server executed (every thread, user space only: the kernel's socket work is not counted). The
same requests give the same count run after run: pages within 1 %, /health within a few (its
count is small enough for background threads to show).

Servers: `cached` (default caches) and `uncached` (`--response-cache 0`), on the 1,000,000-product
datasets bench.py generates (each binary its own). `--scenarios writes` counts POSTs of new
products sent from 16 connections at once, so that they commit in groups as under load (not in
the default set: it adds rows to the dataset the reads are counted on). With `--keep`, each scenario's callgrind
dump stays in .build/bench/count/ for `callgrind_annotate --inclusive=yes FILE`: where the
instructions of a request went.
"""
import argparse
import http.client
import os
import pathlib
import re
import shutil
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import bench  # noqa: E402
from bench_servers import SCRATCH, Process, baseline_folder, dataset, free_port, log, rowserver  # noqa: E402
from bench_scenarios import with_current_etag  # noqa: E402

# Servers started here send far more than a client may: rate limits (on by default) off,
# unless a test asks for them (older binaries ignore the variable).
os.environ.setdefault("ROWSERVER_RATE_LIMIT", "off")

OUT = SCRATCH / "count"
READS = ["health", "page1", "page1-gzip", "deep", "sorted", "sections", "people-table", "samples-table", "search", "detail",
         "revalidate"]
MODES = {"cached": [], "uncached": ["--response-cache", "0"]}
# What authentication and rate limiting cost (`--variants`): the same binary without either,
# with rate limits on (limits no scenario reaches), with a read key on every request, and both;
# `logged`: the default configuration's access log, to a file (what a line costs the request).
LIMITS = {"ROWSERVER_RATE_LIMIT": "on", "ROWSERVER_RATE_LIMIT_ADDRESS": "100000000/s", "ROWSERVER_RATE_LIMIT_KEY": "100000000/s"}
VARIANTS = {"plain": ({"ROWSERVER_RATE_LIMIT": "off"}, False), "limits": (LIMITS, False),
            "key": ({"ROWSERVER_RATE_LIMIT": "off"}, True), "both": (LIMITS, True),
            "logged": ({"ROWSERVER_RATE_LIMIT": "off", "ROWSERVER_ACCESS_LOG": str(OUT / "access.log")}, False)}


def requests_of(spec, count, server):
    """(path, headers) for `count` requests of a bench scenario: a rotating scenario's first
    `count` paths, otherwise its one path `count` times."""
    path, script, extra, script_args, _ = spec
    extra = with_current_etag(extra, server, path)
    headers = dict(value.split(": ", 1) for flag, value in zip(extra[::2], extra[1::2]) if flag == "-H")
    if script == "paths.lua":
        paths = pathlib.Path(script_args[0]).read_text().split()[:count]
    else:
        paths = [path] * count
    return [(p, headers) for p in paths]


def send(port, requests):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    try:
        for path, headers in requests:
            connection.request("GET", path, headers=headers)
            response = connection.getresponse()
            response.read()
            if response.status >= 400:
                raise RuntimeError(f"{path}: {response.status}")
    finally:
        connection.close()


def send_writes(port, key, count, first, writers=16):
    """`count` POSTs of new products (the bench's writes.lua bodies), from `writers` connections
    at once so that the store commits them in groups as it does under load."""
    import concurrent.futures
    import json

    def write(worker):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
        headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {key}"} if key else {})}
        try:
            for index in range(first + worker, first + count, writers):
                body = json.dumps({"name": f"Bench {index}", "shortDescription": "load", "longDescription": "",
                                   "price": {"minorUnits": index % 100000, "currency": "USD"}})
                connection.request("POST", "/v1/products", body=body, headers=headers)
                response = connection.getresponse()
                response.read()
                if response.status != 201:
                    raise RuntimeError(f"POST /v1/products: {response.status}")
        finally:
            connection.close()

    with concurrent.futures.ThreadPoolExecutor(writers) as pool:
        list(pool.map(write, range(writers)))


def instructions(dump):
    """The `totals:` (or `summary:`) Ir of a callgrind dump."""
    text = dump.read_text(errors="replace")
    match = re.search(r"^(?:totals|summary): (\d+)", text, re.M)
    if not match:
        raise RuntimeError(f"no totals in {dump}")
    return int(match.group(1))


def measure(name, binary, db, size, extra, scenarios, count, keep, environment=None, key=None):
    """{scenario: instructions per request} for `binary` under callgrind; `environment` for
    the counted server, `key` a secret sent as a bearer token on every request."""
    folder = OUT / name
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    # The scenarios' paths (a deep cursor walks 500,000 rows) from the binary running natively:
    # cursors are signed with the dataset's key, so they stay good for the counted server.
    plain = rowserver(f"{name}-plain", binary, db, extra)
    try:
        available = bench.scenarios(plain, db, size, tag=f"count-{name}-")
    finally:
        plain.stop()
    write_key = key or plain.key
    # valgrind 3.19 gives up on the DWARF 5 the Swift toolchain writes: a copy without debug
    # information still names its functions (the symbol table stays).
    stripped = folder / "rowserver"
    subprocess.run(["strip", "--strip-debug", "-o", str(stripped), str(binary)], check=True)
    port = free_port()
    command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={folder}/callgrind.out",
               str(stripped), "serve", "--port", str(port), "--db", str(db), "--log-level", "error", *extra]
    log(f"starting {name} under callgrind")
    server = Process(name, command, port, environment={"ROWSERVER_ACCESS_LOG": "off", **(environment or {})})
    results = {}
    try:
        for scenario in scenarios:
            if scenario == "writes":
                send_writes(port, write_key, count, 0)
                subprocess.run(["callgrind_control", "--zero", str(server.process.pid)], check=True, capture_output=True)
                send_writes(port, write_key, count, count)
                requests = [None] * count
            else:
                requests = requests_of(available[scenario], count, server)
                if key:
                    requests = [(path, {**headers, "Authorization": f"Bearer {key}"}) for path, headers in requests]
                send(port, requests)
                subprocess.run(["callgrind_control", "--zero", str(server.process.pid)], check=True, capture_output=True)
                send(port, requests)
            subprocess.run(["callgrind_control", "--dump=" + scenario, str(server.process.pid)], check=True, capture_output=True)
            dump = max(folder.glob("callgrind.out.*"), key=lambda file: file.stat().st_mtime)
            results[scenario] = instructions(dump) / len(requests)
            kept = folder / f"{scenario}.callgrind"
            dump.rename(kept)
            if not keep:
                kept.unlink()
            log(f"{name} {scenario}: {results[scenario]:,.0f} instructions per request")
    finally:
        server.stop()
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True, help="the rowserver binary to count (a release build)")
    parser.add_argument("--baseline", default=None, help="a second binary: each scenario's count over its count")
    parser.add_argument("--products", type=int, default=1_000_000)
    parser.add_argument("--requests", type=int, default=200, help="requests per scenario (after as many to warm)")
    parser.add_argument("--modes", default="cached,uncached")
    parser.add_argument("--scenarios", default=",".join(READS))
    parser.add_argument("--keep", action="store_true", help="keep each scenario's callgrind dump in .build/bench/count")
    parser.add_argument("--label", default="this", help="the folder name of this binary's dumps (LABEL-cached, …)")
    parser.add_argument("--variants", default=None,
                        help="plain,limits,key,both,logged: the binary alone, each variant's count over plain's (no baseline)")
    arguments = parser.parse_args()
    if not shutil.which("valgrind"):
        sys.exit("valgrind is missing: apt-get install valgrind")
    scenarios = [s for s in arguments.scenarios.split(",") if s]
    if arguments.variants:
        return measure_variants(arguments, scenarios)
    binaries = {arguments.label: pathlib.Path(arguments.binary).resolve()}
    if arguments.baseline:
        binaries["baseline"] = pathlib.Path(arguments.baseline).resolve()
    counts = {}
    for mode in filter(None, arguments.modes.split(",")):
        for who, binary in binaries.items():
            folder = baseline_folder(binary) if who == "baseline" else SCRATCH
            db = dataset(binary, arguments.products, folder)
            # A binary from before gzip answers page1-gzip uncompressed: nothing to compare.
            wanted = [s for s in scenarios if who != "baseline" or not s.endswith("-gzip")]
            counts[(mode, who)] = measure(f"{who}-{mode}", binary, db, arguments.products, MODES[mode], wanted,
                                          arguments.requests, arguments.keep)
    print(f"\ninstructions per request (callgrind, {arguments.requests} requests after as many to warm, "
          f"{arguments.products:,} products)\n")
    header = "| server | scenario | instructions/req |" + (" baseline | ratio |" if arguments.baseline else "")
    print(header)
    print("|---|---|---:|" + ("---:|---:|" if arguments.baseline else ""))
    for (mode, who), results in counts.items():
        if who == "baseline":
            continue
        for scenario, count in results.items():
            line = f"| {mode} | {scenario} | {count:,.0f} |"
            base = counts.get((mode, "baseline"), {}).get(scenario)
            if arguments.baseline:
                line += f" {base:,.0f} | {count / base:.3f} |" if base else " — | — |"
            print(line)


def measure_variants(arguments, scenarios):
    """The cost of authentication and rate limiting: each variant of one binary, as a ratio to
    the plain variant, in the same run (counts, so the run's noise does not enter)."""
    binary = pathlib.Path(arguments.binary).resolve()
    db = dataset(binary, arguments.products, SCRATCH)
    key = subprocess.run([str(binary), "keys", "create", "--db", str(db), "--name", "count", "--scope", "read"],
                         check=True, capture_output=True, text=True).stdout.strip()
    names = [v for v in arguments.variants.split(",") if v]
    counts = {}
    for mode in filter(None, arguments.modes.split(",")):
        for variant in names:
            environment, keyed = VARIANTS[variant]
            counts[(mode, variant)] = measure(f"{variant}-{mode}", binary, db, arguments.products, MODES[mode], scenarios,
                                              arguments.requests, arguments.keep, environment, key if keyed else None)
    print(f"\ninstructions per request (callgrind, {arguments.requests} requests after as many to warm)\n")
    print("| mode | scenario | " + " | ".join(names) + " | " + " | ".join(f"{v}/plain" for v in names if v != "plain") + " |")
    print("|---|---|" + "---:|" * (2 * len(names) - 1))
    for mode in filter(None, arguments.modes.split(",")):
        for scenario in scenarios:
            row = [counts[(mode, v)][scenario] for v in names]
            plain = counts[(mode, "plain")][scenario] if "plain" in names else None
            ratios = [f"{counts[(mode, v)][scenario] / plain:.3f}" for v in names if v != "plain"] if plain else []
            print(f"| {mode} | {scenario} | " + " | ".join(f"{c:,.0f}" for c in row) + " | " + " | ".join(ratios) + " |")


if __name__ == "__main__":
    main()
