#!/usr/bin/env python3
"""Two rowserver binaries must answer the same searches with the same rows: a check for a new
search plan, which must change what a page costs and never what it holds.

    python3 Benchmarks/compare_pages.py --binary NEW --baseline OLD
    python3 Benchmarks/compare_pages.py --binary NEW --baseline OLD --db some.sqlite --terms lamp,desk --pages 5

Each binary serves its own copy of one database (default: the 1,000,000-product dataset bench.py
generates, .build/bench/products-1000000.generated.sqlite), with its response cache off. For every
term (default: the bench's search terms, plus a few that match subtitles, one character, or
nothing) and every sort (default `name` and `-name`), it follows `links.next` for up to `--pages`
pages on both and compares the row ids of each page. It prints the terms whose pages differ and
exits 1 if any do.
"""
import argparse
import json
import pathlib
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from bench_scenarios import search_terms  # noqa: E402

EXTRA_TERMS = ["stand", "water", "light", "edition", "e", "a", "ba", "zz", "bottle x"]


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def copy_database(source, target):
    for suffix in ["", "-wal", ".key"]:
        path = pathlib.Path(str(source) + suffix)
        if path.exists():
            shutil.copyfile(path, str(target) + suffix)


def serve(binary, db):
    port = free_port()
    process = subprocess.Popen([str(binary), "serve", "--port", str(port), "--db", str(db), "--log-level", "error",
                                "--response-cache", "0"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/health")
            return process, port
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit(f"{binary} did not become ready")


def pages(port, term, sort, count):
    found = []
    target = f"/v1/products?q={urllib.parse.quote(term)}&limit=50" + (f"&sort={sort}" if sort else "")
    for _ in range(count):
        body = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}{target}").read())
        found.append([row["id"] for row in body["rows"]])
        target = (body.get("links") or {}).get("next")
        if not target:
            break
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--baseline", required=True)
    parser.add_argument("--db", default=".build/bench/products-1000000.generated.sqlite")
    parser.add_argument("--terms", help="comma-separated; default: the bench's search terms and a few more")
    parser.add_argument("--sorts", default="name,-name")
    parser.add_argument("--pages", type=int, default=3)
    arguments = parser.parse_args()
    if not pathlib.Path(arguments.db).exists():
        raise SystemExit(f"no database at {arguments.db} (python3 Benchmarks/bench.py generates it)")
    with tempfile.TemporaryDirectory(prefix="rowserver-compare-") as folder:
        copies = [pathlib.Path(folder) / "this.sqlite", pathlib.Path(folder) / "baseline.sqlite"]
        for copy in copies:
            copy_database(arguments.db, copy)
        terms = arguments.terms.split(",") if arguments.terms else list(dict.fromkeys(search_terms(copies[0]) + EXTRA_TERMS))
        servers = [serve(arguments.binary, copies[0]), serve(arguments.baseline, copies[1])]
        try:
            differing = []
            for term in terms:
                for sort in arguments.sorts.split(","):
                    this, baseline = (pages(port, term, sort, arguments.pages) for _, port in servers)
                    if this != baseline:
                        differing.append((term, sort))
                        print(f"differs: q={term} sort={sort}: pages of {[len(p) for p in this]} and {[len(p) for p in baseline]} rows")
        finally:
            for process, _ in servers:
                process.terminate()
                process.wait()
    print(f"{len(terms)} terms × {len(arguments.sorts.split(','))} sorts, up to {arguments.pages} pages: "
          f"{len(differing)} differ")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
