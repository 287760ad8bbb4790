"""Issue #7, suite 3: slow clients against a live rowserver while wrk measures normal traffic.

An attacker process holds ATTACKERS connections open from 127.0.0.2 ... 127.0.0.(1+IPS), a mix of
  slowloris  a request line, then one header line every TRICKLE seconds (never the blank line)
  slow body  complete headers with a large Content-Length, then one body byte a second
  idle       connects and sends nothing
  abort      a partial request, then the client drops it (FIN or RST), in a loop
and reconnects each slot as soon as the server closes it. Meanwhile `wrk -t1 -c32` measures
GET /v1/products?limit=50 from 127.0.0.1: a baseline without the attack, then under it, then a
second baseline (the ratios use the mean of the two baselines: on a shared machine one alone can
be an outlier either way).

It records when the server closed each attacking connection, against the configured deadline
(--request-timeout for slowloris and slow bodies, --connection-timeout for idle ones).

  python3 tests-python/slow_clients.py --binary .build/release/rowserver --seconds 60 --attackers 1500

prints a report and exits 1 when a criterion fails (`--min-ratio`, `--max-p99-ratio`). The
pytest short form is tests-python/test_slow_clients.py; the full run is scripts/slow-clients.sh.
"""
import argparse
import asyncio
import json
import multiprocessing
import os
import random
import re
import resource
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time

# Servers started here send far more than a client may: rate limits (on by default) off,
# unless a test asks for them (older binaries ignore the variable).
os.environ.setdefault("ROWSERVER_RATE_LIMIT", "off")

TARGET = "/v1/products?limit=50"
KINDS = ("slowloris", "slow_body", "idle", "abort")
SHARES = {"slowloris": 0.3, "slow_body": 0.3, "idle": 0.2, "abort": 0.2}
# Closing is checked by the server's event loop and the deadline watchdog (1/8 of the deadline
# apart); a busy debug build adds its own delay. A connection counts as closed in time when it
# was closed within its deadline plus this much.
SLACK_SECONDS = 2.0


def raise_descriptor_limit():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


# --- the attacker (a child process, so the measuring side keeps its own CPU share) ---

class Attack:
    def __init__(self, port, attackers, ips, seconds, trickle, seed=7):
        self.port = port
        self.attackers = attackers
        self.ips = ips
        self.seconds = seconds
        self.trickle = trickle
        self.random = random.Random(seed)
        self.closed = {kind: [] for kind in KINDS}  # seconds from connect to the server's close
        self.still_open = {kind: [] for kind in KINDS}  # ages of connections open at the end
        self.refused = {kind: 0 for kind in KINDS}
        self.aborts = 0
        self.opened = {kind: 0 for kind in KINDS}
        self.open_now = 0
        self.peak_open = 0
        # (when, how late) of a 50 ms tick: how far behind the attacker's own loop runs, so a
        # close it notices late is not blamed on the server.
        self.lag = []

    async def connect(self, slot):
        source = f"127.0.0.{2 + slot % self.ips}"
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setblocking(False)
        sock.bind((source, 0))
        loop = asyncio.get_running_loop()
        try:
            await loop.sock_connect(sock, ("127.0.0.1", self.port))
        except OSError:
            sock.close()
            raise
        return sock

    async def wait_closed(self, sock, sender, kind, started, end):
        """Runs `sender` until the server closes the connection or the attack ends."""
        loop = asyncio.get_running_loop()
        reader = loop.create_task(self.read_until_closed(sock))
        writer = loop.create_task(sender(sock))
        remaining = end - time.monotonic()
        done, _ = await asyncio.wait({reader, writer}, timeout=max(0.0, remaining), return_when=asyncio.FIRST_COMPLETED)
        writer.cancel()
        now = time.monotonic()
        if reader in done or (writer in done and writer.exception() is not None):
            # The close may have waited while this loop was behind: count from the earliest
            # moment it could have been seen.
            self.closed[kind].append(max(0.0, now - self.recent_lag(now) - started))
        else:
            self.still_open[kind].append(now - started)
        reader.cancel()
        sock.close()

    async def read_until_closed(self, sock):
        loop = asyncio.get_running_loop()
        while True:
            try:
                data = await loop.sock_recv(sock, 4096)
            except OSError:
                return
            if not data:
                return

    async def slot(self, slot, kind, end):
        loop = asyncio.get_running_loop()
        # Spread the first connects over a second so the listen backlog is not the test.
        await asyncio.sleep(self.random.random())
        while time.monotonic() < end:
            started = time.monotonic()
            try:
                sock = await self.connect(slot)
            except OSError:
                self.refused[kind] += 1
                await asyncio.sleep(0.2)
                continue
            self.opened[kind] += 1
            self.open_now += 1
            self.peak_open = max(self.peak_open, self.open_now)
            try:
                if kind == "abort":
                    await self.abort_once(sock)
                    continue
                await self.wait_closed(sock, getattr(self, "send_" + kind), kind, started, end)
            finally:
                self.open_now -= 1
            # A slot whose connection was closed at once (per-IP limit) backs off a little.
            if time.monotonic() - started < 0.1:
                await asyncio.sleep(0.2)

    async def abort_once(self, sock):
        loop = asyncio.get_running_loop()
        request = (b"POST /v1/products HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                   b"Content-Length: 4096\r\n\r\n{\"title\":")
        try:
            await loop.sock_sendall(sock, request[: self.random.randint(1, len(request))])
            await asyncio.sleep(self.random.uniform(0.05, 0.5))
            if self.random.random() < 0.5:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        except OSError:
            pass
        sock.close()
        self.aborts += 1
        await asyncio.sleep(self.random.uniform(0.2, 1.0))

    async def send_slowloris(self, sock):
        loop = asyncio.get_running_loop()
        await loop.sock_sendall(sock, b"GET " + TARGET.encode() + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        number = 0
        while True:
            await asyncio.sleep(self.trickle)
            number += 1
            await loop.sock_sendall(sock, f"X-Trickle-{number}: {number}\r\n".encode())

    async def send_slow_body(self, sock):
        loop = asyncio.get_running_loop()
        await loop.sock_sendall(sock, b"POST /v1/products HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                                      b"Content-Length: 1000000\r\n\r\n")
        while True:
            await asyncio.sleep(1.0)
            await loop.sock_sendall(sock, b" ")

    async def send_idle(self, sock):
        await asyncio.sleep(3600)

    def recent_lag(self, now, window=3.0):
        return max((late for when, late in self.lag[-200:] if when > now - window), default=0.0)

    async def watch_lag(self, end):
        while time.monotonic() < end:
            before = time.monotonic()
            await asyncio.sleep(0.05)
            after = time.monotonic()
            self.lag.append((after, after - before - 0.05))

    async def run(self):
        end = time.monotonic() + self.seconds
        asyncio.get_running_loop().create_task(self.watch_lag(end))
        kinds = []
        for kind in KINDS:
            kinds += [kind] * round(self.attackers * SHARES[kind])
        kinds = (kinds + ["slowloris"] * self.attackers)[: self.attackers]
        await asyncio.gather(*(self.slot(i, kind, end) for i, kind in enumerate(kinds)))

    def summary(self):
        usage = resource.getrusage(resource.RUSAGE_SELF)
        lags = sorted(late for _, late in self.lag)
        return {"closed": self.closed, "still_open": self.still_open, "refused": self.refused, "aborts": self.aborts,
                "opened": self.opened, "peak_open": self.peak_open, "cpu_seconds": usage.ru_utime + usage.ru_stime,
                "loop_lag_p99_s": percentile(lags, 0.99) or 0.0, "loop_lag_max_s": lags[-1] if lags else 0.0}


def attack_process(port, attackers, ips, seconds, trickle, results):
    os.nice(10)  # the attacker is part of the test rig, not of the load being measured
    raise_descriptor_limit()
    attack = Attack(port, attackers, ips, seconds, trickle)
    asyncio.run(attack.run())
    results.put(attack.summary())


# --- the server and wrk ---

class Server:
    def __init__(self, binary, extra):
        self.directory = tempfile.mkdtemp(prefix="rowserver-slow-")
        db = os.path.join(self.directory, "slow.sqlite")
        self.process = subprocess.Popen([binary, "serve", "--port", "0", "--db", db, "--log-level", "warning", "--access-log", "off", *extra],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = ""
        for _ in range(20):
            line = self.process.stdout.readline()
            if "listening on" in line or not line:
                break
        match = re.search(r":(\d+)\s*$", line)
        if not match:
            self.process.kill()
            raise RuntimeError(f"rowserver did not start: {line!r} {self.process.stderr.read()}")
        self.port = int(match.group(1))

    def cpu_seconds(self):
        with open(f"/proc/{self.process.pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def descriptors(self):
        try:
            return len(os.listdir(f"/proc/{self.process.pid}/fd"))
        except OSError:
            return -1

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
        import shutil
        shutil.rmtree(self.directory, ignore_errors=True)


def parse_duration_ms(text):
    number, unit = re.match(r"([\d.]+)(us|ms|s|m)", text).groups()
    return float(number) * {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}[unit]


def wrk(port, seconds, connections=32):
    output = subprocess.run(["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--latency", "--timeout", "5s",
                             f"http://127.0.0.1:{port}{TARGET}"], capture_output=True, text=True, check=True).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
    p99 = parse_duration_ms(re.search(r"\s99%\s+(\S+)", output).group(1))
    requests = int(re.search(r"(\d+) requests in", output).group(1))
    kinds = {}
    socket_errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output)
    if socket_errors:
        kinds = dict(zip(("connect", "read", "write", "timeout"), (int(n) for n in socket_errors.groups())))
    non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    if non_2xx:
        kinds["non_2xx"] = int(non_2xx.group(1))
    kinds = {kind: count for kind, count in kinds.items() if count}
    return {"rps": rps, "p99_ms": p99, "requests": requests, "errors": sum(kinds.values()), "error_kinds": kinds}


def percentile(values, fraction):
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def run(binary, seconds, attackers, ips, request_timeout, connection_timeout, extra=(), trickle=None):
    """Baseline, then the same wrk run under attack. Returns the report as a dict."""
    raise_descriptor_limit()
    options = list(extra)
    if request_timeout is not None:
        options += ["--request-timeout", str(request_timeout)]
    if connection_timeout is not None:
        options += ["--connection-timeout", str(connection_timeout)]
    deadlines = {"request": request_timeout if request_timeout is not None else 30.0,
                 "idle": connection_timeout if connection_timeout is not None else 10.0}
    trickle = trickle or min(2.0, deadlines["idle"] / 2)
    server = Server(binary, options)
    try:
        wrk(server.port, 2)  # warm-up: caches, page cache, allocator
        cpu = server.cpu_seconds()
        baseline = wrk(server.port, seconds)
        baseline["server_cpu_us_per_request"] = (server.cpu_seconds() - cpu) * 1e6 / max(1, baseline["requests"])
        idle_descriptors = server.descriptors()
        # The attack lasts the measurement plus enough for every deadline to pass at least once.
        ramp = 3.0
        attack_seconds = ramp + max(seconds, deadlines["request"] + SLACK_SECONDS + 1) + 1
        results = multiprocessing.Queue()
        attacker = multiprocessing.Process(target=attack_process,
                                           args=(server.port, attackers, ips, attack_seconds, trickle, results))
        attacker.start()
        time.sleep(ramp)
        under_attack_descriptors = server.descriptors()
        cpu = server.cpu_seconds()
        attacked = wrk(server.port, seconds)
        attacked["server_cpu_us_per_request"] = (server.cpu_seconds() - cpu) * 1e6 / max(1, attacked["requests"])
        peak_descriptors = max(under_attack_descriptors, server.descriptors())
        summary = results.get(timeout=attack_seconds + 60)
        attacker.join(timeout=10)
        # A second baseline once the attack is over: on a shared machine the first alone can be
        # an outlier either way. The ratios use the mean of the two.
        time.sleep(1)
        baseline_after = wrk(server.port, seconds)
        alive = server.process.poll() is None
    finally:
        server.stop()

    limits = {"slowloris": deadlines["request"], "slow_body": deadlines["request"], "idle": deadlines["idle"]}
    closing = {}
    for kind, limit in limits.items():
        closed = summary["closed"][kind]
        late = [t for t in closed if t > limit + SLACK_SECONDS]
        # A connection still open at the end must be younger than its deadline.
        overdue = [t for t in summary["still_open"][kind] if t > limit + SLACK_SECONDS]
        closing[kind] = {"deadline_s": limit, "opened": summary["opened"][kind], "closed": len(closed),
                         "refused": summary["refused"][kind], "closed_p50_s": percentile(closed, 0.5),
                         "closed_max_s": max(closed) if closed else None, "late": len(late), "overdue_open": len(overdue)}
    mean = {"rps": (baseline["rps"] + baseline_after["rps"]) / 2, "p99_ms": (baseline["p99_ms"] + baseline_after["p99_ms"]) / 2,
            "errors": baseline["errors"] + baseline_after["errors"],
            "error_kinds": {**baseline["error_kinds"], **baseline_after["error_kinds"]},
            "server_cpu_us_per_request": baseline["server_cpu_us_per_request"]}
    return {
        "baseline": mean, "baseline_before": baseline, "baseline_after": baseline_after, "attacked": attacked,
        "rps_ratio": attacked["rps"] / mean["rps"] if mean["rps"] else 0.0,
        "p99_ratio": attacked["p99_ms"] / mean["p99_ms"] if mean["p99_ms"] else float("inf"),
        "closing": closing, "aborts": summary["aborts"], "abort_refused": summary["refused"]["abort"],
        "peak_attack_connections": summary["peak_open"],
        "server_descriptors": {"idle": idle_descriptors, "under_attack": peak_descriptors},
        "attacker_cpu_seconds": summary["cpu_seconds"], "attack_seconds": attack_seconds,
        "attacker_loop_lag_s": {"p99": summary["loop_lag_p99_s"], "max": summary["loop_lag_max_s"]},
        "server_alive": alive, "deadlines": deadlines, "attackers": attackers, "ips": ips, "seconds": seconds,
    }


def failures(report, min_ratio, max_p99_ratio):
    problems = []
    if not report["server_alive"]:
        problems.append("the server died")
    if report["baseline"]["errors"] or report["attacked"]["errors"]:
        problems.append(f"normal clients saw errors: baseline {report['baseline']['errors']}, "
                        f"under attack {report['attacked']['errors']}")
    if report["rps_ratio"] < min_ratio:
        problems.append(f"requests/s under attack is {report['rps_ratio']:.0%} of baseline (< {min_ratio:.0%})")
    if max_p99_ratio is not None and report["p99_ratio"] > max_p99_ratio:
        problems.append(f"p99 under attack is {report['p99_ratio']:.1f}x baseline (> {max_p99_ratio}x)")
    for kind, closing in report["closing"].items():
        if closing["late"] or closing["overdue_open"]:
            problems.append(f"{kind}: {closing['late']} closed late and {closing['overdue_open']} still open "
                            f"past the {closing['deadline_s']} s deadline")
        if closing["closed"] == 0 and closing["refused"] == 0:
            problems.append(f"{kind}: the server closed none of its connections")
    return problems


def print_report(report):
    b, a = report["baseline"], report["attacked"]
    print(f"normal traffic: wrk -t1 -c32 GET {TARGET}, {report['seconds']} s each")
    for name, run_ in (("before", report["baseline_before"]), ("after", report["baseline_after"])):
        print(f"  baseline {name:6s}{run_['rps']:10.0f} req/s  p99 {run_['p99_ms']:8.2f} ms  errors {run_['errors']}")
    print(f"  baseline      {b['rps']:10.0f} req/s  p99 {b['p99_ms']:8.2f} ms  errors {b['errors']} {b['error_kinds'] or ''} (mean)")
    print(f"  under attack  {a['rps']:10.0f} req/s  p99 {a['p99_ms']:8.2f} ms  errors {a['errors']} {a['error_kinds'] or ''}")
    print(f"  ratio         {report['rps_ratio']:10.0%} req/s  p99 {report['p99_ratio']:.2f}x baseline")
    print(f"  server CPU per request: baseline {b['server_cpu_us_per_request']:.1f} us, "
          f"under attack {a['server_cpu_us_per_request']:.1f} us (the attack's own cost included)")
    print(f"attacker: {report['attacker_cpu_seconds']:.1f} CPU s in {report['attack_seconds']:.0f} s (nice 10), "
          f"its loop behind by p99 {report['attacker_loop_lag_s']['p99']:.2f} s, "
          f"max {report['attacker_loop_lag_s']['max']:.2f} s (close times are corrected by it)")
    print(f"attack: {report['attackers']} connections from {report['ips']} addresses, peak open "
          f"{report['peak_attack_connections']}; server descriptors {report['server_descriptors']}")
    for kind, c in report["closing"].items():
        p50 = f"{c['closed_p50_s']:.1f}" if c["closed_p50_s"] is not None else "-"
        worst = f"{c['closed_max_s']:.1f}" if c["closed_max_s"] is not None else "-"
        print(f"  {kind:10s} deadline {c['deadline_s']:5.1f} s: opened {c['opened']}, closed by server {c['closed']} "
              f"(p50 {p50} s, max {worst} s), late {c['late']}, still open past deadline {c['overdue_open']}, "
              f"refused {c['refused']}")
    print(f"  abort      {report['aborts']} mid-request aborts, {report['abort_refused']} refused connects")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--seconds", type=int, default=60, help="each wrk run (baseline, under attack)")
    parser.add_argument("--attackers", type=int, default=1500)
    parser.add_argument("--ips", type=int, default=16, help="source addresses 127.0.0.2 and up")
    parser.add_argument("--request-timeout", type=float, help="passed to serve; default: the server's default")
    parser.add_argument("--connection-timeout", type=int, help="passed to serve; default: the server's default")
    parser.add_argument("--min-ratio", type=float, default=0.8)
    parser.add_argument("--max-p99-ratio", type=float, default=3.0)
    parser.add_argument("--json", help="also write the report here")
    arguments = parser.parse_args()
    report = run(arguments.binary, arguments.seconds, arguments.attackers, arguments.ips,
                 arguments.request_timeout, arguments.connection_timeout)
    print_report(report)
    if arguments.json:
        with open(arguments.json, "w") as out:
            json.dump(report, out, indent=2)
    problems = failures(report, arguments.min_ratio, arguments.max_p99_ratio)
    for problem in problems:
        print("FAIL:", problem)
    print("PASS" if not problems else "FAILED")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
