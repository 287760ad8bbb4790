#!/usr/bin/env python3
"""A/B of two rowserver binaries in one run: CPU per request and requests/s, cached and uncached.

    python3 Benchmarks/ab.py OLD_BINARY NEW_BINARY [--products 100000] [--rounds 3] [--duration 5]

Each binary generates its own database (`rowserver generate --products N`: each writes its own
layout) and serves it twice: with the response cache (the default) and without it
(`--response-cache 0`, every request runs the query and renders). Scenarios run interleaved,
A then B in odd rounds and B then A in even ones, with `wrk -t1 -c32`; the figure is the median
over rounds of the server's CPU time (utime + stime from /proc) per request. Ratios are B / A:
below 1.00 is B cheaper. Figures are for the same machine and run only (shared machines swing).
"""
import argparse
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


class Server:
    def __init__(self, binary, db, cache):
        self.process = subprocess.Popen(
            [binary, "serve", "--port", "0", "--db", db, "--log-level", "warning", "--response-cache", "2048" if cache else "0"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.process.stdout.readline()
        match = re.search(r"http://([^ ]+)$", line.strip())
        if not match:
            raise SystemExit(f"{binary} did not start: {line!r}")
        self.base = "http://" + match.group(1)

    def get(self, path, headers=None):
        request = urllib.request.Request(self.base + path, headers=headers or {})
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, dict(response.headers), response.read()

    def json(self, path):
        return json.loads(self.get(path)[2])

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=30)


def wrk(server, path, duration, headers=None):
    command = ["wrk", "-t1", "-c32", f"-d{duration}s", "--latency"]
    for name, value in (headers or {}).items():
        command += ["-H", f"{name}: {value}"]
    before = cpu_seconds(server.process.pid)
    output = subprocess.run(command + [server.base + path], capture_output=True, text=True, check=True).stdout
    cpu = cpu_seconds(server.process.pid) - before
    requests = int(re.search(r"(\d+) requests in", output).group(1))
    errors = sum(int(n) for n in re.findall(r"(?:Non-2xx or 3xx responses|Socket errors:.*?): (\d+)", output))
    return {"rps": requests / duration, "cpu_us": cpu * 1e6 / max(requests, 1), "errors": errors}


def scenarios(server):
    """Paths that exist on both layouts (found through the API, never built by hand)."""
    first = server.json("/v1/products?limit=50")
    deep = "/v1/products?limit=50"
    for _ in range(20):
        nxt = server.json(deep)["links"]["next"]
        if not nxt:
            break
        deep = nxt
    etag = server.get("/v1/products?limit=50")[1].get("ETag", "")
    track = server.json("/v1/tracks?limit=1")["rows"][0]["detail"]
    return {
        "page1": ("/v1/products?limit=50", None),
        "deep (20 pages in)": (deep, None),
        "sorted -price": ("/v1/products?limit=50&sort=-price", None),
        "sections": ("/v1/people?group=department&limit=50", None),
        "people table": ("/v1/people?view=table&limit=50", None),
        "samples table": (track + "/samples?view=table&limit=50", None),
        "search keyboard": ("/v1/products?q=keyboard&limit=50", None),
        "detail": (first["rows"][7]["detail"], None),
        "304": ("/v1/products?limit=50", {"If-None-Match": etag}),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--products", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--duration", type=int, default=5)
    parser.add_argument("--out", default=None, help="JSON results")
    parser.add_argument("--modes", default="cached,uncached", help="cached, uncached or both")
    parser.add_argument("--only", default="", help="comma-separated scenario names (default: all)")
    arguments = parser.parse_args()
    work = tempfile.mkdtemp(prefix="rowserver-ab-")
    servers = {}
    try:
        for label, binary in (("A", arguments.old), ("B", arguments.new)):
            db = os.path.join(work, f"{label}.sqlite")
            start = time.time()
            subprocess.run([binary, "generate", "--db", db, "--products", str(arguments.products)], check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            print(f"{label}: generated {arguments.products:,} products in {time.time() - start:.1f} s ({binary})", flush=True)
            servers[(label, "cached")] = Server(binary, db, cache=True)
            servers[(label, "uncached")] = Server(binary, db, cache=False)
        paths = {label: scenarios(servers[(label, "cached")]) for label in ("A", "B")}
        results = {}
        only = [name for name in arguments.only.split(",") if name]
        for mode in arguments.modes.split(","):
            for name in paths["A"]:
                if (mode == "uncached" and name == "304") or (only and name not in only):
                    continue
                for round_ in range(arguments.rounds):
                    order = ("A", "B") if round_ % 2 == 0 else ("B", "A")
                    for label in order:
                        path, headers = paths[label][name]
                        figure = wrk(servers[(label, mode)], path, arguments.duration, headers)
                        results.setdefault((mode, name, label), []).append(figure)
                a = results[(mode, name, "A")]
                b = results[(mode, name, "B")]
                cpu_a = statistics.median(f["cpu_us"] for f in a)
                cpu_b = statistics.median(f["cpu_us"] for f in b)
                rps_a = statistics.median(f["rps"] for f in a)
                rps_b = statistics.median(f["rps"] for f in b)
                errors = sum(f["errors"] for f in a + b)
                print(f"{mode:9} {name:20} A {cpu_a:7.1f} µs {rps_a:9,.0f}/s   B {cpu_b:7.1f} µs {rps_b:9,.0f}/s   "
                      f"CPU B/A {cpu_b / cpu_a:5.2f}   req/s B/A {rps_b / rps_a:5.2f}   errors {errors}", flush=True)
        if arguments.out:
            with open(arguments.out, "w") as f:
                json.dump({f"{m}|{n}|{l}": v for (m, n, l), v in results.items()}, f, indent=1)
    finally:
        for server in servers.values():
            server.stop()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
