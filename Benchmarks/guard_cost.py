#!/usr/bin/env python3
"""What authentication and rate limiting cost per request, with wrk on a release build:

    python3 Benchmarks/guard_cost.py --binary .build/release/rowserver

Two servers of the same binary on the same 10,000-product dataset: `plain` (rate limits off)
and `guarded` (rate limits on, at rates no run reaches, so every request passes both stages
and gets the RateLimit fields). Each scenario runs anonymous and with a read key
(`Authorization: Bearer`, looked up and hashed per request) on both, in interleaved rounds
(the order rotating each round); a configuration's figure is the median over rounds of its
server CPU per request over the plain anonymous run of the same round. Server CPU per request
moves least on these shared machines; requests/s are shown for reference. Never run it while a
build runs. `Benchmarks/count.py --variants plain,limits,key,both` counts the same in
instructions, without the noise.
"""
import argparse
import pathlib
import statistics
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from bench import run_wrk  # noqa: E402
from bench_servers import Process, dataset, free_port, log  # noqa: E402

LIMITS = {"ROWSERVER_RATE_LIMIT": "on", "ROWSERVER_RATE_LIMIT_ADDRESS": "100000000/s", "ROWSERVER_RATE_LIMIT_KEY": "100000000/s"}
SCENARIOS = {"health": "/health", "page1": "/v1/products?limit=50", "page-small": "/v1/products?limit=1"}


def server(name, binary, db, environment):
    port = free_port()
    return Process(name, [str(binary), "serve", "--port", str(port), "--db", str(db), "--log-level", "error"], port,
                   environment={"ROWSERVER_ACCESS_LOG": "off", **environment})


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--products", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--duration", type=int, default=4)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--scenarios", default=",".join(SCENARIOS))
    arguments = parser.parse_args()
    binary = pathlib.Path(arguments.binary).resolve()
    db = dataset(binary, arguments.products)
    key = subprocess.run([str(binary), "keys", "create", "--db", str(db), "--name", "guard-cost", "--scope", "read"],
                         check=True, capture_output=True, text=True).stdout.strip()
    servers = {"plain": server("plain", binary, db, {"ROWSERVER_RATE_LIMIT": "off"}), "guarded": server("guarded", binary, db, LIMITS)}
    configurations = [("plain", False), ("plain", True), ("guarded", False), ("guarded", True)]
    names = {("plain", False): "neither", ("plain", True): "key", ("guarded", False): "limits", ("guarded", True): "key+limits"}
    scenarios = [s for s in arguments.scenarios.split(",") if s]
    results = {}
    try:
        for scenario in scenarios:
            for (who, keyed) in configurations:
                spec = (SCENARIOS[scenario], None, ["-H", f"Authorization: Bearer {key}"] if keyed else [], [], None)
                run_wrk(servers[who], scenario, spec, 1, arguments.connections)
        for round_index in range(arguments.rounds):
            order = configurations[round_index % 4:] + configurations[:round_index % 4]
            for scenario in scenarios:
                for (who, keyed) in order:
                    spec = (SCENARIOS[scenario], None, ["-H", f"Authorization: Bearer {key}"] if keyed else [], [], None)
                    figures = run_wrk(servers[who], scenario, spec, arguments.duration, arguments.connections)
                    if figures["non2xx"] or figures["errors"]:
                        raise RuntimeError(f"{who} {scenario}: {figures['non2xx']} non-2xx, {figures['errors']} errors")
                    results.setdefault((scenario, names[(who, keyed)]), []).append(figures)
                    log(f"round {round_index + 1} {scenario} {names[(who, keyed)]}: {figures['cpu_us_per_request']:.2f} µs CPU, "
                        f"{figures['requests_per_s']:,.0f} req/s")
    finally:
        for running in servers.values():
            running.stop()
    print(f"\nserver CPU per request, median over {arguments.rounds} rounds of {arguments.duration} s "
          f"(ratio: per round, over that round's run with neither)\n")
    print("| scenario | configuration | CPU µs/req | req/s | ratio |")
    print("|---|---|---:|---:|---:|")
    for scenario in scenarios:
        base = results[(scenario, "neither")]
        for name in ["neither", "key", "limits", "key+limits"]:
            runs = results[(scenario, name)]
            ratios = [run["cpu_us_per_request"] / reference["cpu_us_per_request"] for run, reference in zip(runs, base)]
            print(f"| {scenario} | {name} | {statistics.median(r['cpu_us_per_request'] for r in runs):.2f} | "
                  f"{statistics.median(r['requests_per_s'] for r in runs):,.0f} | {statistics.median(ratios):.3f} |")


if __name__ == "__main__":
    main()
