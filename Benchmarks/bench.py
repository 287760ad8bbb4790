#!/usr/bin/env python3
"""rowserver's benchmark suite: builds a release binary, generates the datasets into a scratch
folder, starts the server, drives it with wrk, and prints one table (requests/s, p50/p99,
server CPU µs per request, peak RSS) plus a JSON file of the same figures.

    python3 Benchmarks/bench.py                       # every scenario, 1,000,000 products
    python3 Benchmarks/bench.py --scenarios page1,deep,search --duration 5
    python3 Benchmarks/bench.py --smoke               # CI: one short scenario on a small dataset

Never run it while a build runs: the figures halve. Absolute figures swing on shared machines;
compare ratios measured in the same run.
"""
import argparse
import http.client
import json
import os
import pathlib
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
WRK = ROOT / "Benchmarks" / "wrk"
SCRATCH = ROOT / ".build" / "bench"


def log(message):
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def build():
    log("building rowserver (release)")
    subprocess.run(["swift", "build", "-c", "release", "--product", "rowserver"], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    path = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT, check=True,
                          capture_output=True, text=True).stdout.strip()
    return pathlib.Path(path) / "rowserver"


def dataset(binary, products):
    """A database with `products` generated products (plus the demo people and tracks)."""
    SCRATCH.mkdir(parents=True, exist_ok=True)
    db = SCRATCH / f"products-{products}.sqlite"
    if not db.exists():
        log(f"generating {products:,} products into {db}")
        started = time.time()
        subprocess.run([str(binary), "generate", "--db", str(db), "--products", str(products)], check=True,
                       stdout=subprocess.DEVNULL)
        log(f"generated in {time.time() - started:.1f} s")
    return db


class Server:
    def __init__(self, binary, db, extra=()):
        started = time.time()
        self.process = subprocess.Popen([str(binary), "serve", "--port", "0", "--db", str(db), "--log-level", "error", *extra],
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = ""
        while "listening on" not in line:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError("rowserver did not start")
        self.port = int(line.rsplit(":", 1)[1])
        self.base = f"http://127.0.0.1:{self.port}"
        self.get("/health")
        self.startup_ms = (time.time() - started) * 1000

    def get(self, path, headers=None):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        connection.request("GET", path, headers=headers or {})
        response = connection.getresponse()
        body = response.read()
        return response.status, dict(response.getheaders()), body

    def json(self, path):
        return json.loads(self.get(path)[2])

    def cpu_ticks(self):
        fields = open(f"/proc/{self.process.pid}/stat").read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])

    def status(self, key):
        for line in open(f"/proc/{self.process.pid}/status"):
            if line.startswith(key + ":"):
                return int(line.split()[1])
        return 0

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()


def walk_to(server, path, rows):
    """The `links.next` of the page that starts `rows` rows into `path` (limit 200 steps)."""
    target = f"{path}{'&' if '?' in path else '?'}limit=200"
    seen = 0
    while seen < rows:
        page = server.json(target)
        seen += len(page["rows"])
        target = page["links"]["next"]
        if target is None:
            break
    return target.replace("limit=200", "limit=50") if target else path


def write_paths(name, paths):
    file = SCRATCH / f"{name}.paths"
    file.write_text("\n".join(paths) + "\n")
    return file


def scenarios(server, db, smoke):
    """name -> (path, lua script or None, extra wrk args, script args)."""
    connection = sqlite3.connect(str(db))
    ids = [row[0] for row in connection.execute("SELECT id FROM products ORDER BY random() LIMIT 10000")]
    connection.close()
    people = server.json("/v1/people?limit=1")["rows"]
    track = server.json("/v1/tracks?limit=1")["rows"][0]
    etag = server.get("/v1/products?limit=50")[1].get("ETag", "")
    s = {
        "health": ("/health", None, [], []),
        "page1": ("/v1/products?limit=50", None, [], []),
    }
    if smoke:
        return s
    deep = walk_to(server, "/v1/products", 500_000)
    s["deep"] = (deep, None, [], [])
    s["sorted"] = ("/v1/products?limit=50&sort=-price", None, [], [])
    s["sections"] = ("/v1/people?group=department&limit=50", None, [], [])
    s["people-table"] = ("/v1/people?view=table&limit=50", None, [], [])
    s["samples-table"] = (f"/v1/tracks/{track['id']}/samples?view=table&limit=50", None, [], [])
    terms = ["keyboard", "mug", "lamp", "ergo", "tripod", "smart", "usb", "kettle", "chair", "mouse"]
    s["search"] = ("/", "paths.lua", [], [str(write_paths("search", [f"/v1/products?q={t}&limit=50" for t in terms]))])
    s["detail"] = ("/", "paths.lua", [], [str(write_paths("details", [f"/v1/products/{i}" for i in ids]))])
    s["revalidate"] = ("/v1/products?limit=50", None, ["-H", f"If-None-Match: {etag}"], [])
    s["writes"] = ("/", "writes.lua", [], ["1"])
    s["mixed"] = ("/", "writes.lua", [], ["10", str(write_paths("mixed", [f"/v1/products/{i}" for i in ids[:2000]]
                                                                      + ["/v1/products?limit=50", deep, "/v1/people?group=department"]))])
    return s


def run_wrk(server, name, spec, duration, connections):
    path, script, extra, script_args = spec
    combined = tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False)
    if script:
        combined.write((WRK / script).read_text() + "\n")
    combined.write((WRK / "report.lua").read_text())
    combined.close()
    command = ["wrk", "-t1", f"-c{connections}", f"-d{duration}s", "--latency", "-s", combined.name, *extra,
               server.base + path]
    if script_args:
        command += ["--", *script_args]
    before = server.cpu_ticks()
    output = subprocess.run(command, capture_output=True, text=True).stdout
    after = server.cpu_ticks()
    os.unlink(combined.name)
    match = re.search(r"^JSON (.*)$", output, re.M)
    if not match:
        raise RuntimeError(f"wrk gave no figures for {name}:\n{output}")
    figures = json.loads(match.group(1))
    seconds = figures["duration_us"] / 1e6
    requests = max(figures["requests"], 1)
    ticks = os.sysconf("SC_CLK_TCK")
    return {
        "scenario": name, "requests_per_s": figures["requests"] / seconds,
        "p50_ms": figures["p50_us"] / 1000, "p99_ms": figures["p99_us"] / 1000,
        "cpu_us_per_request": (after - before) / ticks * 1e6 / requests,
        "errors": figures["errors"], "non2xx": figures["non2xx"],
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--products", type=int, default=1_000_000)
    parser.add_argument("--scenarios", default="")
    parser.add_argument("--duration", type=int, default=10)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--smoke", action="store_true", help="CI: a 2 s health scenario on 10,000 products")
    parser.add_argument("--out", default=str(SCRATCH / "results.json"))
    parser.add_argument("--binary", default=None)
    parser.add_argument("--response-cache", type=int, default=None, help="server's --response-cache (0 measures uncached pages)")
    arguments = parser.parse_args()
    if arguments.smoke:
        arguments.products, arguments.duration, arguments.scenarios = 10_000, 2, "health,page1"
    if not shutil.which("wrk"):
        sys.exit("wrk is missing: apt-get install wrk")
    binary = pathlib.Path(arguments.binary) if arguments.binary else build()
    db = dataset(binary, arguments.products)
    extra = ["--response-cache", str(arguments.response_cache)] if arguments.response_cache is not None else []
    server = Server(binary, db, extra)
    results = {"products": arguments.products, "startup_ms": server.startup_ms, "response_cache": arguments.response_cache,
               "scenarios": []}
    try:
        available = scenarios(server, db, arguments.smoke)
        chosen = arguments.scenarios.split(",") if arguments.scenarios else list(available)
        for name in chosen:
            log(f"{name}: {arguments.duration} s, {arguments.connections} connections")
            results["scenarios"].append(run_wrk(server, name, available[name], arguments.duration, arguments.connections))
        results["peak_rss_mib"] = server.status("VmHWM") / 1024
    finally:
        server.stop()
    pathlib.Path(arguments.out).parent.mkdir(parents=True, exist_ok=True)
    pathlib.Path(arguments.out).write_text(json.dumps(results, indent=2))
    print(f"\nrowserver, {arguments.products:,} products, start-up {results['startup_ms']:.0f} ms, "
          f"peak RSS {results['peak_rss_mib']:.1f} MiB")
    print("| scenario | req/s | p50 ms | p99 ms | server CPU µs/req | errors |")
    print("|---|---:|---:|---:|---:|---:|")
    for r in results["scenarios"]:
        print(f"| {r['scenario']} | {r['requests_per_s']:,.0f} | {r['p50_ms']:.2f} | {r['p99_ms']:.2f} | "
              f"{r['cpu_us_per_request']:.1f} | {r['errors'] + r['non2xx']} |")
    failed = [r["scenario"] for r in results["scenarios"] if r["errors"] or (r["non2xx"] and r["scenario"] != "revalidate")]
    if failed:
        sys.exit(f"errors in {', '.join(failed)}")


if __name__ == "__main__":
    main()
