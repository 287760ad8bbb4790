#!/usr/bin/env python3
"""What a search right after a write costs against the same search with nothing pending:

    python3 Benchmarks/search_after_write.py --binary .build-release/release/rowserver --db /tmp/search-1m.sqlite
    python3 Benchmarks/search_after_write.py --binary NEW --baseline OLD --db DB --samples 200

Each binary serves its own copy of `--db` with no response cache (`--response-cache 0`, access
log off). For each search term (a few of each length the search takes: one character, two, a
word, a phrase), in samples of four requests on one keep-alive connection:

  settle  a PATCH of the price of one product: on SQLite it has the inserts waiting for the
          search index (`SearchBacklog`) indexed first, so none is pending
  quiet   GET /v1/products?q=TERM&limit=50, timed: nothing pending
  write   a POST of a product named with fresh words and the term
  after   the same GET, timed: right after a write

with settle+quiet and write+after swapped every other sample, so that neither search always
comes second (the first warms the pages the second reads). Then `full`: for each term, a
settle, 254 products written from 8 connections, then the write and the timed search, with 255
inserts pending (the most the backlog holds), every one of them named with the term (the worst
case: each one a match). It prints, per term length, the p50 of quiet, after and full and the ratios
after/quiet and full/quiet, measured in the same run: the target is after/quiet <= 1.5 on
1,000,000 products. Times are the client's (Python on loopback, the same for every search).
Never run it while a build runs.
"""
import argparse
import http.client
import json
import os
import pathlib
import random
import shutil
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from bench_scenarios import search_terms  # noqa: E402
from bench_servers import SCRATCH, log, rowserver  # noqa: E402

# A run sends far more than a client may: rate limits (on by default) off.
os.environ.setdefault("ROWSERVER_RATE_LIMIT", "off")

LENGTHS = ("1", "2", "3+")


def length_class(term):
    return "3+" if len(term) >= 3 else str(len(term))


class Client:
    """One keep-alive connection to a server, writes with its key."""

    def __init__(self, server):
        self.server = server
        self.connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)

    def request(self, method, path, body=None, content_type="application/json"):
        headers = {}
        if body is not None:
            headers["Content-Type"] = content_type
        if method != "GET" and self.server.key:
            headers["Authorization"] = "Bearer " + self.server.key
        started = time.perf_counter()
        self.connection.request(method, path, body=body, headers=headers)
        response = self.connection.getresponse()
        data = response.read()
        elapsed = time.perf_counter() - started
        if response.status >= 300:
            raise RuntimeError(f"{method} {path}: {response.status} {data[:200]!r}")
        return elapsed, response, data

    def search(self, term):
        path = "/v1/products?limit=50&q=" + term.replace(" ", "%20")
        return self.request("GET", path)[0] * 1000


def fresh_word(chooser):
    return "".join(chooser.choice("bcdfghjklmnpqrstvwxz") for _ in range(9))


def create(client, chooser, term):
    body = json.dumps({"name": f"Bench {fresh_word(chooser)} {term}", "shortDescription": "Fresh",
                       "price": {"minorUnits": chooser.randrange(100, 100_000), "currency": "USD"}})
    client.request("POST", "/v1/products", body.encode())


def settle(client, product):
    """A PATCH: on SQLite a commit that indexes every waiting insert before it writes."""
    body = json.dumps({"price": {"minorUnits": random.randrange(100, 100_000), "currency": "USD"}})
    client.request("PATCH", product, body.encode(), "application/merge-patch+json")


def write_share(server, writer, writers, total):
    """Writer `writer` of `writers`' share of `total` creates, on a connection of its own."""
    client, words = Client(server), random.Random(writer)
    for _ in range(writer, total, writers):
        create(client, words, "full")


def measure(name, binary, source, terms, samples, chooser):
    SCRATCH.mkdir(parents=True, exist_ok=True)
    db = SCRATCH / f"search-after-write-{name}.sqlite"
    for stale in (db, *(db.with_name(db.name + suffix) for suffix in ("-wal", "-shm", ".key"))):
        stale.unlink(missing_ok=True)
    shutil.copyfile(source, db)
    key = pathlib.Path(str(source) + ".key")
    if key.exists():
        shutil.copyfile(key, str(db) + ".key")
    server = rowserver(name, binary, db, extra=["--response-cache", "0"])
    try:
        client = Client(server)
        product = "/v1/products/" + json.loads(client.request("GET", "/v1/products?limit=1")[2])["rows"][0]["id"]
        times = {kind: {length: [] for length in LENGTHS} for kind in ("quiet", "after", "full")}
        for term in terms:
            for _ in range(3):
                client.search(term)
        for sample in range(samples):
            for term in terms:
                length = length_class(term)
                if sample % 2 == 0:
                    settle(client, product)
                    times["quiet"][length].append(client.search(term))
                    create(client, chooser, term)
                    times["after"][length].append(client.search(term))
                else:
                    create(client, chooser, term)
                    times["after"][length].append(client.search(term))
                    settle(client, product)
                    times["quiet"][length].append(client.search(term))
        # Each search again right after a write, with the backlog as full as it gets: 254 inserts
        # written from 8 connections (so that they commit in groups), then the write.
        for _ in range(max(1, samples // 10)):
            for term in terms:
                settle(client, product)
                with ThreadPoolExecutor(8) as pool:
                    list(pool.map(lambda writer: write_share(server, writer, 8, 254), range(8)))
                create(client, chooser, term)
                times["full"][length_class(term)].append(client.search(term))
        return times
    finally:
        server.stop()
        for file in (db, *(db.with_name(db.name + suffix) for suffix in ("-wal", "-shm", ".key"))):
            file.unlink(missing_ok=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--baseline", help="another binary, measured the same way in the same run")
    parser.add_argument("--db", required=True, help="a generated database (copied, never written)")
    parser.add_argument("--samples", type=int, default=60)
    parser.add_argument("--terms", type=int, default=4, help="terms of each length")
    arguments = parser.parse_args()
    chooser = random.Random(11)
    words = [term for term in search_terms(pathlib.Path(arguments.db)) if " " not in term]
    long_terms = [term for term in words if len(term) >= 3][: arguments.terms]
    two = [term for term in words if len(term) == 2][: arguments.terms]
    one = sorted({term[0] for term in long_terms} | {"e", "q", "7"})[: arguments.terms]
    terms = one + two + long_terms + ["walnut chair"]
    log(f"terms: {terms}")
    binaries = [("rowserver", arguments.binary)] + ([("baseline", arguments.baseline)] if arguments.baseline else [])
    results = {}
    for name, binary in binaries:
        log(f"measuring {name} ({binary}), {arguments.samples} samples of {len(terms)} terms")
        results[name] = measure(name, binary, arguments.db, terms, arguments.samples, chooser)
    print(f"{'server':<10} {'length':>6} {'quiet p50':>10} {'after p50':>10} {'full p50':>9} {'after/quiet':>12} {'full/quiet':>11}")
    for name, times in results.items():
        for length in LENGTHS:
            quiet, after, full = (statistics.median(times[kind][length]) for kind in ("quiet", "after", "full"))
            print(f"{name:<10} {length:>6} {quiet:>8.3f}ms {after:>8.3f}ms {full:>7.3f}ms {after / quiet:>12.2f} {full / quiet:>11.2f}")
    (SCRATCH / "search-after-write.json").write_text(json.dumps(results))


if __name__ == "__main__":
    main()
