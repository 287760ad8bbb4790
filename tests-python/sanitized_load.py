#!/usr/bin/env python3
"""A mixed read/write load against a sanitized rowserver (issue #7, suite 5); run by
scripts/sanitized-load.sh, which builds the binary.

    python3 tests-python/sanitized_load.py --binary .build-asan/debug/rowserver --seconds 60

A fresh database (the demo data and --products generated products) with a write key made by
the sanitized binary's `keys create`, the sanitized server on a free port, wrk with
Benchmarks/wrk/mix.lua for --seconds (90 % reads over lists, deep cursors, sorts, sections,
tables, search, details, change feeds and 304s; 10 % writes with that key that create, patch
and delete products), and meanwhile a loop of hostile requests (bad JSON, bad cursors and
tokens, stale If-Match, oversized bodies, writes without a key or with a forged one, a key in
the query) that must all get their 4xx. Then SIGTERM.

Passes when the server exits 0, its stderr holds no sanitizer report (the sanitizer options,
halt_on_error=1 among them, come from the environment), no request got a 5xx or a socket error
every hostile request got the status it should, and its access log (a file) holds a JSON line
for every answered request of the mix, the last ones written at SIGTERM, and never the key's
secret. Prints a summary; exits 1 otherwise.
"""
import argparse
import json
import sys
import time

import loadmix
from loadmix import log


def access_lines(path):
    """(lines, malformed lines) of the server's access log, read after its exit."""
    if not path.exists():
        return 0, 0
    lines = path.read_text(errors="replace").splitlines()
    malformed = 0
    for line in lines:
        try:
            if not isinstance(json.loads(line), dict):
                malformed += 1
        except ValueError:
            malformed += 1
    return len(lines), malformed


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True, help="the sanitized rowserver")
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--products", type=int, default=20_000)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--label", default="sanitized", help="what the summary calls the build (address, thread)")
    parser.add_argument("--keep", action="store_true", help="keep the database and the server's stderr")
    arguments = parser.parse_args()

    directory, remove = loadmix.temporary_directory("rowserver-sanitized-")
    db, stderr_path = directory / "load.sqlite", directory / "server.stderr"
    failures = []
    try:
        loadmix.generate(arguments.binary, db, arguments.products)
        started = time.time()
        access_log = directory / "access.log"
        server = loadmix.Server(arguments.binary, db, stderr_path, extra=["--log-level", "warning", "--access-log", str(access_log)],
                                start_timeout=300)
        log(f"{arguments.label} server {server.pid} listening on port {server.port} after {time.time() - started:.1f} s")
        try:
            paths = loadmix.write_paths(loadmix.mix_paths(server, arguments.products), directory)
            hostile = loadmix.Hostile(server)
            hostile.start()
            log(f"mixed load for {arguments.seconds} s with {arguments.connections} connections, hostile requests alongside")
            # Sanitized code is slow: a generous timeout, so a slow answer is not a socket error.
            figures = loadmix.run_mix(server, paths, arguments.seconds, arguments.connections, timeout_s=60)
            hostile.stop()
            peak_rss_mib = server.status_kib("VmHWM") / 1024
            alive = server.alive()
        finally:
            started = time.time()
            status = server.terminate(timeout=120)
            log(f"SIGTERM: exit status {status} after {time.time() - started:.1f} s")
        reports = server.sanitizer_reports()

        logged, malformed = access_lines(access_log)
        if logged < figures["requests"]:
            failures.append(f"{logged} access-log lines for {figures['requests']} answered requests of the mix")
        if malformed:
            failures.append(f"{malformed} access-log lines are not JSON objects")
        # A hostile request sends the key in the query: its line must say REDACTED instead.
        if access_log.exists() and server.key in access_log.read_text(errors="replace"):
            failures.append("the access log holds the write key's secret")
        if not alive:
            failures.append("the server died during the load")
        if status != 0:
            failures.append(f"exit status {status} after SIGTERM (expected 0)")
        if reports:
            failures.append(f"{len(reports)} sanitizer report line(s)")
        if figures["s5xx"]:
            failures.append(f"{figures['s5xx']} 5xx answers to the mix")
        if figures["s4xx"]:
            failures.append(f"{figures['s4xx']} 4xx answers to the mix (it sends only valid requests)")
        if figures["socket_errors"]:
            failures.append(f"{figures['socket_errors']} socket errors")
        if hostile.unexpected:
            failures.append(f"{len(hostile.unexpected)} hostile requests got an unexpected status: {sorted(set(map(str, hostile.unexpected)))[:10]}")
        summary = {
            "sanitizer": arguments.label, "seconds": arguments.seconds, "products": arguments.products,
            "connections": arguments.connections, "requests": figures["requests"], "requests_per_s": round(figures["requests_per_s"], 1),
            "p50_ms": figures["p50_us"] / 1000, "p99_ms": figures["p99_us"] / 1000,
            "s2xx": figures["s2xx"], "s3xx": figures["s3xx"], "s4xx": figures["s4xx"], "s5xx": figures["s5xx"],
            "socket_errors": figures["socket_errors"], "access_log_lines": logged, "created": figures["created"], "patched": figures["patched"],
            "deleted": figures["deleted"], "hostile_sent": hostile.sent, "hostile_unexpected": len(hostile.unexpected),
            "peak_rss_mib": round(peak_rss_mib, 1), "exit_status": status, "sanitizer_reports": len(reports),
        }
        print(f"\nsanitized load ({arguments.label}): {figures['requests']:,} requests in {arguments.seconds} s "
              f"({figures['requests_per_s']:.0f}/s, p50 {summary['p50_ms']:.1f} ms, p99 {summary['p99_ms']:.1f} ms) — "
              f"{figures['s2xx']:,} 2xx, {figures['s3xx']:,} 304, {figures['s4xx']} 4xx, {figures['s5xx']} 5xx, "
              f"{figures['socket_errors']} socket errors; writes answered: {figures['created']} created, "
              f"{figures['patched']} patched, {figures['deleted']} deleted")
        print(f"hostile requests: {hostile.sent} sent, {len(hostile.unexpected)} unexpected statuses; "
              f"exit status {status}; sanitizer reports: {len(reports)}; peak RSS {peak_rss_mib:.0f} MiB")
        print("SUMMARY " + json.dumps(summary))
        if reports:
            print("\n".join(stderr_path.read_text(errors="replace").splitlines()[-80:]), file=sys.stderr)
    finally:
        if arguments.keep or failures:
            log(f"kept {directory}")
        else:
            remove()
    if failures:
        print("FAILED: " + "; ".join(failures))
        return 1
    print("passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
