#!/usr/bin/env python3
"""Issue #49's mix, beside the ceiling's list throughput in the same run:

    python3 Benchmarks/search_mix.py [--binary B] [--baseline OLD] [--products 10000,1000000] [--seconds 10] [--rounds 2]

Of every 20 requests (Benchmarks/wrk/searchmix.lua, wrk -t1 -c32): 15 reads of pages and
details with the response cache on (page 1, a deep page, sorted by price, people by department,
2,000 product details), 2 creates of products named with fresh words, and 3 searches for a word
of a product whose create was acknowledged. rowserver runs in its default configuration (the
access log on, to a file); each binary on its own copy of a dataset it generated. The ceiling
(../shared/bench/ceiling, precomputed bodies) answers its list page in the same rounds, and the
figure is the mix's requests/s as a share of the ceiling's (#49's bar: at least 30 % on 10,000
and on 1,000,000 products). Also: the CPU per request of the server, and the searches' share.

Figures go to .build/bench/search_mix.json. Never run it while a build runs: the figures halve.
"""
import argparse
import json
import os
import pathlib
import sqlite3
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import finish_wrk, start_wrk, warm  # noqa: E402
from bench_scenarios import products_table, walk_to, write_paths  # noqa: E402
from bench_servers import SCRATCH, References, baseline_folder, build_rowserver, dataset, log, rowserver  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "bench"
WRK = ROOT / "Benchmarks" / "wrk"

# A run sends far more than a client may: rate limits (on by default) off.
os.environ.setdefault("ROWSERVER_RATE_LIMIT", "off")


def read_paths(server, db, products, tag):
    """The mix's reads: four pages and 2,000 product details (ids drawn from the dataset)."""
    connection = sqlite3.connect(str(db))
    ids = [row[0] for row in connection.execute(f"SELECT id FROM {products_table(connection)} ORDER BY random() LIMIT 2000")]
    connection.close()
    pages = ["/v1/products?limit=50", walk_to(server, "/v1/products", products // 2), "/v1/products?limit=50&sort=-price",
             "/v1/people?group=department&limit=50"]
    # The pages as often as the details together: a list screen is opened more than any one item.
    return write_paths(f"{tag}searchmix-{products}", [f"/v1/products/{i}" for i in ids] + pages * 500)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", help="rowserver to measure (default: a release build of this tree)")
    parser.add_argument("--baseline", help="another rowserver binary, measured in the same rounds")
    parser.add_argument("--products", default="10000,1000000")
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--connections", type=int, default=32)
    arguments = parser.parse_args()
    binary = pathlib.Path(arguments.binary) if arguments.binary else build_rowserver()
    binaries = [("rowserver", binary)]
    if arguments.baseline:
        binaries.append(("baseline", pathlib.Path(arguments.baseline)))
    references = References(SHARED, with_hummingbird=False)
    references.build()
    results = []
    for products in [int(value) for value in arguments.products.split(",")]:
        servers = []
        for name, path in binaries:
            folder = SCRATCH if name == "rowserver" else baseline_folder(path)
            db = dataset(path, products, folder=folder, owner=f"searchmix-{name}")
            log_file = tempfile.NamedTemporaryFile(prefix=f"searchmix-{name}-", suffix=".log", delete=False).name
            server = rowserver(name, path, db, access_log=log_file)
            servers.append((server, read_paths(server, db, products, name)))
        ceiling = references.start()[0]
        try:
            for round_number in range(arguments.rounds):
                order = servers if round_number % 2 == 0 else list(reversed(servers))
                for server, paths in order:
                    spec = ("/", "searchmix.lua", [], [str(paths), "r" * (round_number + 1)], None)
                    warm(server, "searchmix", ("/", "paths.lua", [], [str(paths)], None))
                    figures = finish_wrk(start_wrk(server, "searchmix", spec, arguments.seconds, arguments.connections))
                    figures.update(products=products, round=round_number + 1)
                    results.append(figures)
                    log(f"{products:,} {server.name} round {round_number + 1}: {figures['requests_per_s']:,.0f} req/s, "
                        f"{figures['cpu_us_per_request']:.0f} us CPU/req, p99 {figures['p99_ms']:.1f} ms, non-2xx {figures['non2xx']}")
                spec = ("/v1/products?limit=50", None, [], [], None)
                figures = finish_wrk(start_wrk(ceiling, "list", spec, arguments.seconds, arguments.connections))
                figures.update(products=products, round=round_number + 1)
                results.append(figures)
                log(f"{products:,} ceiling round {round_number + 1}: {figures['requests_per_s']:,.0f} req/s")
        finally:
            for server, _ in servers:
                server.stop()
            ceiling.stop()
    report(results, [name for name, _ in binaries])
    out = SCRATCH / "search_mix.json"
    out.write_text(json.dumps(results, indent=2))
    log(f"figures in {out}")


def report(results, names):
    print("\n| products | server | req/s (median) | share of the ceiling's list (per round) | CPU us/req | p99 ms |")
    print("|---:|---|---:|---|---:|---:|")
    for products in sorted({row["products"] for row in results}):
        ceiling = {row["round"]: row["requests_per_s"] for row in results if row["products"] == products and row["server"] == "ceiling"}
        for name in names:
            rows = [row for row in results if row["products"] == products and row["server"] == name]
            shares = [row["requests_per_s"] / ceiling[row["round"]] for row in rows if ceiling.get(row["round"])]
            print(f"| {products:,} | {name} | {statistics.median(row['requests_per_s'] for row in rows):,.0f} "
                  f"| {statistics.median(shares):.0%} ({', '.join(f'{share:.0%}' for share in shares)}) "
                  f"| {statistics.median(row['cpu_us_per_request'] for row in rows):.0f} "
                  f"| {statistics.median(row['p99_ms'] for row in rows):.1f} |")


if __name__ == "__main__":
    main()
