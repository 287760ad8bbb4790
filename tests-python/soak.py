#!/usr/bin/env python3
"""The soak (issue #7, suite 7): the mixed workload at about 60 % of its peak rate for a long
time, watching for leaks, growth and drift. Run by scripts/soak.sh, which builds the binary.

    scripts/soak.sh                  # 30 minutes, release build in .build-soak, 100,000 products
    scripts/soak.sh 3                # a 3-minute check (criteria on memory and drift: informational)
    scripts/soak.sh 0.5 --binary .build/debug/rowserver --products 10000     # CI's short form

1. A fresh database: the demo data and --products generated products, in a temporary folder,
   and a write key for the mix's writes (`rowserver keys create`).
2. The peak: --peak-seconds of Benchmarks/wrk/mix.lua at full speed with --connections (90 %
   reads across every scenario, 10 % writes that create, patch and delete products, so the
   database keeps its size). Then the open descriptors once the load stopped: the baseline,
   taken after the peak so that the database pool's connections are already open.
3. The soak: back-to-back wrk runs of one --window each (60 s; 10 s for runs under 3 minutes),
   every connection pacing itself with wrk's delay() so that the whole makes --fraction (0.6)
   of the peak rate. The delay is recomputed after each window from the rate it achieved.
   Every 10 s: RSS (VmRSS), open descriptors (/proc/PID/fd), the WAL's size.
4. After the load: open descriptors again, once keep-alive connections closed; then SIGTERM.

Criteria (a failed one exits 1):
  - no 5xx; and no 4xx or socket error either, since the mix sends only valid requests
  - descriptors after the load: no socket or file beyond the baseline (libdispatch's manager
    set, made once whenever a global queue first wakes a thread, may appear once), the
    database's (the pools open readers as they need them) at most the pools' 29; exit status 0
    after SIGTERM
  - RSS at the end of the last window within 10 % of RSS at the end of minute 5 (the window
    a sixth into the run)
  - p99 drift at most 20 %: the median p99 of minutes 26–30 against that of minutes 3–7 (for
    other lengths: the last sixth of the windows against those from a tenth to 7/30 in)
  - the WAL bounded: never over 64 MiB (the journal_size_limit the store sets) and its largest
    size in the last third of the run at most twice that of the first third (or 4 MiB)
Runs shorter than 10 minutes, or --lenient, judge only the first two: minute 5 and minutes
26–30 do not exist there; the figures are printed all the same.

Prints a table per window and the criteria; writes everything as JSON to --out.
"""
import argparse
import collections
import json
import os
import statistics
import sys
import threading
import time

import loadmix
from loadmix import ROOT, log

MIB = 1024 * 1024
WAL_LIMIT = 64 * MIB
# GRDB's pool (a writer and at most 5 readers) and the store's own read connections (at most 8
# kept once a load is over, `ReaderPool`), each holding the database file and the WAL, plus the
# shared-memory index. More than this would be a leak.
DATABASE_FDS_LIMIT = 2 * (1 + 5 + 8) + 1


class Sampler(threading.Thread):
    """RSS, open descriptors and WAL size of the server every `interval` seconds."""

    def __init__(self, server, started, interval=10.0):
        super().__init__(daemon=True)
        self.server, self.started, self.interval = server, started, interval
        self.samples, self.stopping = [], threading.Event()

    def sample(self):
        entry = {"t_s": round(time.time() - self.started, 1), "rss_kib": self.server.status_kib("VmRSS"),
                 "fds": self.server.open_fds(), "wal_bytes": self.server.wal_bytes()}
        self.samples.append(entry)
        return entry

    def run(self):
        while not self.stopping.wait(self.interval):
            if self.server.alive():
                self.sample()

    def stop(self):
        self.stopping.set()
        self.join()


def cpu_ticks(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


# libdispatch's manager: an epoll set, its wake-up eventfd and a timerfd, made once per process
# when a worker thread of a global queue first starts (in rowserver: a contended GRDB pool
# queue wakes one). A leak grows with the load; this set appears once, whenever that is.
RUNTIME_ONCE = {"anon_inode:[eventpoll]": 1, "anon_inode:[eventfd]": 1, "anon_inode:[timerfd]": 1}


def gained(census, baseline):
    """The descriptors other than the database's (by kind, see `Server.fd_census`) that `census`
    holds beyond `baseline`."""
    more = collections.Counter(census) - collections.Counter(baseline)
    more.pop(loadmix.DATABASE, None)
    return more


def unexplained(census, baseline):
    """What `census` gained beyond `baseline` and beyond the runtime's one-time set."""
    return gained(census, baseline) - collections.Counter(RUNTIME_ONCE)


def settle_fds(server, baseline=None, seconds=20):
    """The census of open descriptors (see `Server.fd_census`) once those beyond `baseline` are
    all explained, or (without one) once it held still for 2 s; at the latest after `seconds`."""
    deadline = time.time() + seconds
    censuses = [server.fd_census()]
    while time.time() < deadline:
        if baseline is not None and not unexplained(censuses[-1], baseline):
            break
        if baseline is None and len(censuses) >= 5 and all(c == censuses[-1] for c in censuses[-5:]):
            break
        time.sleep(0.5)
        censuses.append(server.fd_census())
    return censuses[-1]


def describe(census):
    return ", ".join(f"{count} {kind}" for kind, count in sorted(census.items()))


def pace(connections, target_rate, latency_ms):
    """The delay per request that makes `connections` closed loops send `target_rate` requests a second."""
    return max(0.0, connections * 1000.0 / target_rate - latency_ms)


def judge(windows, samples, facts, strict):
    """[(criterion, figure, met, judged)]."""
    count = len(windows)
    results = []
    fives = sum(w["s5xx"] for w in windows) + facts["peak"]["s5xx"] + sum(c["s5xx"] for c in facts["calibration"])
    results.append(("no 5xx (peak, calibration and soak)", f"{fives}", fives == 0, True))
    invalid = sum(w["s4xx"] + w["socket_errors"] for w in windows)
    results.append(("no 4xx or socket errors in the soak", f"{sum(w['s4xx'] for w in windows)} 4xx, "
                    f"{sum(w['socket_errors'] for w in windows)} socket errors", invalid == 0, True))
    after, baseline = loadmix.kinds_of(facts["fds_after"]), loadmix.kinds_of(facts["fds_baseline"])
    more = gained(facts["fds_after"], facts["fds_baseline"])
    left = unexplained(facts["fds_after"], facts["fds_baseline"])
    results.append(("open fds after the load: no socket or file beyond the baseline, database files within the pool",
                    f"{after['other']} other + {after['database']} database after; baseline {baseline['other']} + "
                    f"{baseline['database']}; {facts['fds_start']} in all at start"
                    + (f"; gained {describe(more)}" if more else "")
                    + (f"; unexplained {describe(left)}" if left else ""),
                    not left and after["database"] <= DATABASE_FDS_LIMIT, True))
    results.append(("exit status 0 after SIGTERM", f"{facts['exit_status']}", facts["exit_status"] == 0, True))

    minute5 = max(1, round(count / 6))
    rss5, rss_end = windows[minute5 - 1]["rss_kib"], windows[-1]["rss_kib"]
    change = rss_end / rss5 - 1 if rss5 else float("inf")
    results.append((f"RSS at the end within 10 % of window {minute5}", f"{rss5 / 1024:.1f} -> {rss_end / 1024:.1f} MiB "
                    f"({change:+.1%})", abs(change) <= 0.10, strict))

    early = windows[max(1, round(count * 0.1)) - 1:max(1, round(count * 7 / 30))]
    late = windows[-max(1, round(count / 6)):]
    early_p99 = statistics.median(w["p99_us"] for w in early) / 1000
    late_p99 = statistics.median(w["p99_us"] for w in late) / 1000
    drift = late_p99 / early_p99 - 1 if early_p99 else float("inf")
    results.append((f"p99 drift <= 20 % (median of windows {early[0]['window']}-{early[-1]['window']} vs "
                    f"{late[0]['window']}-{late[-1]['window']})", f"{early_p99:.2f} -> {late_p99:.2f} ms ({drift:+.1%})",
                    drift <= 0.20, strict))

    wal_max = max([s["wal_bytes"] for s in samples] or [0])
    third = max(1, len(samples) // 3)
    wal_early = max([s["wal_bytes"] for s in samples[:third]] or [0])
    wal_late = max([s["wal_bytes"] for s in samples[-third:]] or [0])
    bounded = wal_max <= WAL_LIMIT and wal_late <= max(2 * wal_early, 4 * MIB)
    results.append(("WAL bounded (<= 64 MiB, not growing)", f"max {wal_max / MIB:.1f} MiB; first third {wal_early / MIB:.1f}, "
                    f"last third {wal_late / MIB:.1f} MiB", bounded, strict))
    return results


def print_report(windows, results, facts):
    print(f"\nrowserver soak: {facts['minutes']} min, {facts['products']:,} products, wrk -t1 -c{facts['connections']}, "
          f"peak {facts['peak']['requests_per_s']:.0f} req/s, target {facts['target_rate']:.0f} req/s "
          f"({facts['fraction']:.0%}), achieved {facts['achieved_rate']:.0f} req/s ({facts['achieved_rate'] / facts['peak']['requests_per_s']:.0%} of peak)")
    header = f"{'win':>3} {'end':>6} {'req/s':>7} {'delay':>6} {'p50':>7} {'p99':>7} {'2xx':>7} {'304':>6} {'4xx':>4} {'5xx':>4} " \
             f"{'sock':>4} {'cpu%':>5} {'RSS':>7} {'fds':>4} {'WAL':>6} {'load':>5}"
    print(header)
    print(f"{'':>3} {'min':>6} {'':>7} {'ms':>6} {'ms':>7} {'ms':>7} {'':>7} {'':>6} {'':>4} {'':>4} {'':>4} {'':>5} {'MiB':>7} "
          f"{'':>4} {'MiB':>6} {'':>5}")
    for w in windows:
        print(f"{w['window']:>3} {w['end_min']:>6.2f} {w['requests_per_s']:>7.0f} {w['delay_ms']:>6.1f} {w['p50_us'] / 1000:>7.2f} "
              f"{w['p99_us'] / 1000:>7.2f} {w['s2xx']:>7} {w['s3xx']:>6} {w['s4xx']:>4} {w['s5xx']:>4} {w['socket_errors']:>4} "
              f"{w['cpu_percent']:>5.0f} {w['rss_kib'] / 1024:>7.1f} {w['fds']:>4} {w['wal_max_bytes'] / MIB:>6.2f} {w['load1']:>5.1f}")
    print()
    for criterion, figure, met, judged in results:
        verdict = ("met" if met else "MISSED") if judged else ("info: met" if met else "info: missed")
        print(f"  {verdict:<12} {criterion}: {figure}")
    for line in facts.get("shutdown_lines", []):
        print(f"  server: {line}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True, help="the rowserver to soak (release build)")
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--products", type=int, default=100_000)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--fraction", type=float, default=0.6, help="of the peak rate")
    parser.add_argument("--window", type=float, default=None, help="seconds per wrk run (default 60; 10 under 3 minutes)")
    parser.add_argument("--peak-seconds", type=float, default=None, help="default 10; 5 under 3 minutes")
    parser.add_argument("--lenient", action="store_true", help="judge only 5xx/4xx, descriptors and the exit status")
    parser.add_argument("--out", default=str(ROOT / ".build-soak" / "soak-results.json"))
    parser.add_argument("--keep", action="store_true", help="keep the database and the server's stderr")
    arguments = parser.parse_args()
    short = arguments.minutes < 3
    window = arguments.window or (10 if short else 60)
    peak_seconds = arguments.peak_seconds or (5 if short else 10)
    count = max(1, round(arguments.minutes * 60 / window))
    strict = not arguments.lenient and arguments.minutes >= 10

    directory, remove = loadmix.temporary_directory("rowserver-soak-")
    db, stderr_path = directory / "soak.sqlite", directory / "server.stderr"
    facts = {"minutes": arguments.minutes, "products": arguments.products, "connections": arguments.connections,
             "fraction": arguments.fraction, "window_s": window, "binary": str(arguments.binary), "strict": strict}
    windows, ok = [], False
    try:
        loadmix.generate(arguments.binary, db, arguments.products)
        server = loadmix.Server(arguments.binary, db, stderr_path, extra=["--log-level", "notice", "--access-log", "off"])
        started = time.time()
        sampler = Sampler(server, started)
        try:
            facts["fds_start"] = server.open_fds()
            facts["rss_start_kib"] = server.status_kib("VmRSS")
            paths = loadmix.write_paths(loadmix.mix_paths(server, arguments.products), directory)
            log(f"server {server.pid} on port {server.port}: measuring the peak ({peak_seconds:g} s at full speed, "
                f"{arguments.connections} connections)")
            facts["peak"] = loadmix.run_mix(server, paths, peak_seconds, arguments.connections)
            peak = facts["peak"]["requests_per_s"]
            target = peak * arguments.fraction
            facts["target_rate"] = target
            facts["fds_baseline"] = settle_fds(server, seconds=15)
            log(f"peak {peak:.0f} req/s (p99 {facts['peak']['p99_us'] / 1000:.1f} ms); target {target:.0f} req/s; "
                f"baseline {loadmix.kinds_of(facts['fds_baseline'])} fds")

            # Calibrate: the delay that, with the latency at this load, makes the target rate.
            delay = pace(arguments.connections, target, 0)
            facts["calibration"] = []
            for _ in range(1 if short else 2):
                run = loadmix.run_mix(server, paths, 3 if short else 5, arguments.connections, delay_ms=delay)
                latency = arguments.connections * 1000.0 / max(run["requests_per_s"], 1e-9) - delay
                facts["calibration"].append(run | {"delay_ms": delay})
                delay = pace(arguments.connections, target, latency)
            log(f"delay {delay:.2f} ms per request and connection; soaking {count} windows of {window:g} s")

            sampler.start()
            sampler.sample()
            for number in range(1, count + 1):
                before = cpu_ticks(server.pid)
                began = time.time()
                run = loadmix.run_mix(server, paths, window, arguments.connections, delay_ms=delay)
                seconds = time.time() - began
                spent = (cpu_ticks(server.pid) - before) / os.sysconf("SC_CLK_TCK")
                now = sampler.sample()
                in_window = [s for s in sampler.samples if s["t_s"] >= began - started - 0.5]
                run |= {"window": number, "end_min": (time.time() - started) / 60, "delay_ms": delay,
                        "cpu_percent": 100 * spent / seconds, "rss_kib": now["rss_kib"], "fds": now["fds"],
                        "wal_max_bytes": max(s["wal_bytes"] for s in in_window), "load1": os.getloadavg()[0]}
                windows.append(run)
                log(f"window {number}/{count}: {run['requests_per_s']:.0f} req/s, p99 {run['p99_us'] / 1000:.1f} ms, "
                    f"5xx {run['s5xx']}, RSS {now['rss_kib'] / 1024:.1f} MiB, fds {now['fds']}, WAL {now['wal_bytes'] / MIB:.2f} MiB")
                if not server.alive():
                    raise RuntimeError("the server died")
                if run["requests_per_s"] > 0:
                    latency = arguments.connections * 1000.0 / run["requests_per_s"] - delay
                    delay = pace(arguments.connections, target, latency)
            sampler.stop()
            facts["fds_after"] = settle_fds(server, facts["fds_baseline"])
            facts["rss_end_kib"] = server.status_kib("VmRSS")
            facts["peak_rss_kib"] = server.status_kib("VmHWM")
        finally:
            sampler.stopping.set()
            facts["exit_status"] = server.terminate(timeout=60)
        facts["achieved_rate"] = statistics.mean(w["requests_per_s"] for w in windows)
        facts["sanitizer_or_crash_lines"] = server.sanitizer_reports()
        facts["shutdown_lines"] = [line for line in server.stderr_path.read_text(errors="replace").splitlines()
                                   if "shutting down" in line or "stopped" in line]
        results = judge(windows, sampler.samples, facts, strict)
        print_report(windows, results, facts)
        ok = all(met for _, _, met, judged in results if judged)
        out = {"facts": facts, "windows": windows, "samples": sampler.samples,
               "criteria": [{"criterion": c, "figure": f, "met": m, "judged": j} for c, f, m, j in results], "passed": ok}
        os.makedirs(os.path.dirname(os.path.abspath(arguments.out)), exist_ok=True)
        with open(arguments.out, "w") as file:
            json.dump(out, file, indent=2)
        print(f"\n{'passed' if ok else 'FAILED'}; figures in {arguments.out}")
    finally:
        if arguments.keep or not ok:
            log(f"kept {directory}")
        else:
            remove()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
