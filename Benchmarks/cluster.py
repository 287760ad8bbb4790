#!/usr/bin/env python3
"""Issue #14's figures for rowserver on PostgreSQL, one command (builds rowserver in release mode
unless given --binary; ~10 minutes):

    python3 Benchmarks/cluster.py [--binary B] [--products 100000] [--seconds 20] [--rounds 2]

1. stores: SQLite and PostgreSQL side by side, one instance each, on the same generated data
   (`rowserver generate`, the same seed: the same items and ids), no response cache: uncached
   page 1, details by rotating ids, and writes (POST), in interleaved rounds (A B, then B A). CPU
   per request of rowserver and, for PostgreSQL, of its processes (its backends run the queries
   that SQLite runs inside rowserver), medians over the rounds.
2. cluster: scripts/cluster.sh with 1 and then 3 instances on PostgreSQL, the 90/10 mix
   (Benchmarks/wrk/mix.lua) through nginx at -t1 -c32: requests/s, p50/p99, and the CPU per
   request of nginx, the instances, PostgreSQL and wrk (all on this machine's two cores).
3. kill: on the 3-instance cluster, the mix again, and kill -9 of one instance halfway. Then every
   write the mix saw acknowledged must be in the database (read through a surviving instance),
   and every error the mix saw must be an answer to a request open on the killed instance: nginx's
   error log names that instance for each, none names another, and there are no more than
   connections (one request open per connection).

Figures go to .build/bench/cluster.json; the exit status is 1 when a write was lost or an error
came from elsewhere. Never run it while a build runs: the figures halve.
"""
import argparse
import json
import os
import resource
import signal
import statistics
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests-python"))
import loadmix  # noqa: E402
from bench import finish_wrk, start_wrk, warm  # noqa: E402
from bench_servers import SCRATCH, Process, build_rowserver, dataset, free_port, log  # noqa: E402
from cluster_parts import CLOCK, Cluster, Postgres, cpu_by_pid, cpu_spent, lost_writes, read_acks, summarize_acks  # noqa: E402


def serve(name, binary, where, key):
    port = free_port()
    return Process(name, [str(binary), "serve", "--port", str(port), *where, "--log-level", "error", "--response-cache", "0"], port,
                   environment={"ROWSERVER_ACCESS_LOG": "off"}, key=key)


def new_key(binary, where):
    return subprocess.run([str(binary), "keys", "create", *where, "--name", "bench", "--scope", "write"], check=True,
                          capture_output=True, text=True).stdout.strip()


def detail_paths(server, count=2000):
    paths, target = [], "/v1/products?limit=200"
    while target and len(paths) < count:
        page = server.json(target)
        paths += [row["detail"] for row in page["rows"]]
        target = page["links"]["next"]
    file = SCRATCH / "cluster-details.paths"
    file.write_text("\n".join(paths) + "\n")
    return file


def stores(binary, products, seconds, rounds, connections):
    """Part 1: {scenario: {store: figures}} (medians over rounds)."""
    postgres = Postgres()
    try:
        url = postgres.database("stores")
        started = time.time()
        subprocess.run([str(binary), "generate", "--database", url, "--products", str(products)], check=True, stdout=subprocess.DEVNULL)
        log(f"generated {products:,} products into PostgreSQL in {time.time() - started:.0f} s")
        db = dataset(binary, products)
        servers = [serve("sqlite", binary, ["--db", str(db)], new_key(binary, ["--db", str(db)])),
                   serve("postgres", binary, ["--database", url], new_key(binary, ["--database", url]))]
        try:
            details = detail_paths(servers[0])
            specs = {"page1": ("/v1/products?limit=50", None, [], [], None), "detail": ("/", "paths.lua", [], [str(details)], None),
                     "writes": ("/", "writes.lua", [], ["1"], None)}
            runs = {}
            for round_number in range(rounds):
                for scenario, spec in specs.items():
                    order = servers if round_number % 2 == 0 else servers[::-1]
                    for server in order:
                        warm(server, scenario, spec)
                        before = cpu_by_pid(postgres.pids())
                        figures = finish_wrk(start_wrk(server, scenario, spec, seconds, connections))
                        database_ticks = cpu_spent(before, cpu_by_pid(postgres.pids()))
                        requests = max(figures["requests_per_s"] * seconds, 1)
                        figures["database_cpu_us_per_request"] = database_ticks / CLOCK * 1e6 / requests
                        figures["total_cpu_us_per_request"] = figures["cpu_us_per_request"] + figures["database_cpu_us_per_request"]
                        runs.setdefault(scenario, {}).setdefault(server.name, []).append(figures)
                        log(f"{server.name:8} {scenario:7} {figures['requests_per_s']:9.0f} req/s  "
                            f"rowserver {figures['cpu_us_per_request']:6.1f} µs  database {figures['database_cpu_us_per_request']:6.1f} µs")
            return {scenario: {name: median_of(figures) for name, figures in by_server.items()} for scenario, by_server in runs.items()}
        finally:
            for server in servers:
                server.stop()
    finally:
        postgres.stop()


def median_of(runs):
    return {key: statistics.median(run[key] for run in runs) for key in runs[0] if isinstance(runs[0][key], (int, float))}


def mix_run(cluster, paths, seconds, connections, during=None):
    """One mix run through nginx with the CPU per request of each part; `during(elapsed)` is
    called from another thread halfway."""
    # The processes are listed again after the run: PostgreSQL's backends for the connections the
    # instances open under the load start during it.
    before = {part: cpu_by_pid(ids) for part, ids in cluster.pids().items()}
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    if during:
        timer = threading.Timer(seconds / 2, during)
        timer.start()
    figures = loadmix.run_mix(cluster, paths, seconds, connections)
    after = {part: cpu_by_pid(ids) for part, ids in cluster.pids().items()}
    wrk = resource.getrusage(resource.RUSAGE_CHILDREN)
    requests = max(figures["requests"], 1)
    figures["cpu_us_per_request"] = {part: cpu_spent(before[part], after[part]) / CLOCK * 1e6 / requests for part in before}
    figures["cpu_us_per_request"]["wrk"] = ((wrk.ru_utime + wrk.ru_stime) - (children.ru_utime + children.ru_stime)) * 1e6 / requests
    return figures


def cluster_runs(binary, products, seconds, connections, counts=(1, 3)):
    """Parts 2 and 3: {"1": figures, "3": figures, "kill": figures and verdict}."""
    results = {}
    for instances in counts:
        cluster = Cluster(binary, instances, products)
        try:
            directory, remove = loadmix.temporary_directory("rowserver-cluster-")
            paths = loadmix.write_paths(loadmix.mix_paths(cluster, products), directory)
            figures = mix_run(cluster, paths, seconds, connections)
            results[str(instances)] = figures
            log(f"{instances} instance(s): {figures['requests_per_s']:.0f} req/s, p99 {figures['p99_us'] / 1000:.1f} ms, "
                f"CPU µs/request {json.dumps({k: round(v, 1) for k, v in figures['cpu_us_per_request'].items()})}")
            if instances == 3:
                results["kill"] = kill_run(cluster, paths, directory, seconds, connections)
            remove()
        finally:
            cluster.stop()
    return results


def kill_run(cluster, paths, directory, seconds, connections):
    victim, survivor = cluster.instances[1], cluster.instances[0]
    errors_before = len(cluster.nginx_errors())
    acks = directory / "acks"
    os.environ["ROWSERVER_ACKS"] = str(acks)
    killed_at = {}

    def kill():
        killed_at["time"] = time.time()
        os.kill(victim["pid"], signal.SIGKILL)
        log(f"killed instance on port {victim['port']} (pid {victim['pid']})")

    try:
        figures = mix_run(cluster, paths, seconds, connections, during=kill)
    finally:
        del os.environ["ROWSERVER_ACKS"]
    events = read_acks(acks)
    lost = lost_writes(events, lambda path: cluster.request("GET", path, port=survivor["port"])[::2])
    new_errors = cluster.nginx_errors()[errors_before:]
    victim_upstream = f'upstream: "http://127.0.0.1:{victim["port"]}'
    elsewhere = [line for line in new_errors if "upstream:" in line and victim_upstream not in line]
    answered_badly = figures["s5xx"] + figures["s4xx"] + figures["socket_errors"]
    verdict = {
        "acknowledged": summarize_acks(events), "lost": lost, "errors": answered_badly,
        "nginx_errors_naming_killed": sum(victim_upstream in line for line in new_errors),
        "nginx_errors_elsewhere": elsewhere,
        "passed": not lost and not elsewhere and figures["s4xx"] == 0 and figures["socket_errors"] == 0
        and figures["s5xx"] <= connections,
    }
    figures["verdict"] = verdict
    log(f"kill run: {figures['requests']} requests, {answered_badly} errors (5xx {figures['s5xx']}), "
        f"acknowledged {verdict['acknowledged']}, lost {len(lost)}, nginx errors naming it {verdict['nginx_errors_naming_killed']}, "
        f"elsewhere {len(elsewhere)}: {'passed' if verdict['passed'] else 'FAILED'}")
    return figures


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=None, help="a rowserver binary instead of a release build")
    parser.add_argument("--products", type=int, default=100_000)
    parser.add_argument("--seconds", type=int, default=20, help="seconds per wrk run")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of the store comparison")
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--parts", default="stores,cluster", help="comma-separated: stores, cluster (the kill run is part of it)")
    parser.add_argument("--instances", default="1,3", help="cluster sizes to measure; the kill run is on the one of 3")
    arguments = parser.parse_args()
    binary = arguments.binary or build_rowserver()
    parts = set(arguments.parts.split(","))
    results = {"products": arguments.products, "seconds": arguments.seconds, "connections": arguments.connections}
    if "stores" in parts:
        results["stores"] = stores(binary, arguments.products, arguments.seconds, arguments.rounds, arguments.connections)
    if "cluster" in parts:
        counts = [int(count) for count in arguments.instances.split(",")]
        results["cluster"] = cluster_runs(binary, arguments.products, arguments.seconds, arguments.connections, counts)
    SCRATCH.mkdir(parents=True, exist_ok=True)
    out = SCRATCH / "cluster.json"
    out.write_text(json.dumps(results, indent=2, default=str))
    print(json.dumps(results, indent=2, default=str))
    log(f"figures in {out}")
    if "kill" in results.get("cluster", {}) and not results["cluster"]["kill"]["verdict"]["passed"]:
        sys.exit(1)


if __name__ == "__main__":
    main()
