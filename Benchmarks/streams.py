#!/usr/bin/env python3
"""Live lists (server-sent events) under load: what an idle stream costs in memory, how long a
commit takes to reach the streams of its list, and what open streams cost other requests.

    python3 Benchmarks/streams.py --binary .build/release/rowserver
    python3 Benchmarks/streams.py --binary BIN --idle 10000 --streams 1000 --shapes 20 --writes 100 --seconds 10

One server (`--products` demo products, access log and rate limits off, room for the streams:
--connection-limit, --per-ip-limit 0, --max-streams), then three parts in one run:

  idle        RSS of the server, then --idle streams of one list opened and left idle, then RSS
              again: the difference per stream (the target: at most 16 KiB). Then they close,
              and RSS once they are gone.
  latency     --streams streams over --shapes lists (a search each, for a word of its own), and
              --writes creates a second for --seconds, each named with one list's word: for each
              event, the time from the create's request being sent to the event's arrival, an
              upper bound of commit-to-delivery (p50, p99; the target: p99 <= 50 ms on SQLite).
  cpu         the server's CPU a write: writes alone, then the same writes with the streams
              open (what the streams add: the feed reads and the sends).
  throughput  wrk on a cached page for --seconds alone, then again while the streams are open
              and the writes go on: the ratio (the target: >= 0.9). The stream clients run on
              the same machine; on 2 cores they take part of what the server and wrk would have.

The clients are Python (asyncio for the streams): a latency includes their own delays.
Never run it while a build runs.
"""
import argparse
import asyncio
import json
import os
import pathlib
import re
import resource
import statistics
import subprocess
import sys
import threading
import time
import http.client

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from bench_servers import dataset, log, rowserver  # noqa: E402


def rss_kib(server):
    return server.status_kib("VmRSS")


async def open_stream(port, path):
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode())
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    if not head.startswith(b"HTTP/1.1 200"):
        raise RuntimeError(f"{path}: {head[:80]!r}")
    return reader, writer


async def idle_part(server, count):
    before = rss_kib(server)
    streams = []
    for start in range(0, count, 500):
        streams += await asyncio.gather(*(open_stream(server.port, "/v1/products/changes") for _ in range(start, min(count, start + 500))))
    await asyncio.sleep(2)
    during = rss_kib(server)
    for _, writer in streams:
        writer.close()
    await asyncio.sleep(server_heartbeat + 2)
    after = rss_kib(server)
    per_stream = (during - before) / count
    log(f"idle: {count:,} streams; RSS {before:,} KiB before, {during:,} KiB with them, {after:,} KiB after they closed")
    return {"streams": count, "rss_before_kib": before, "rss_with_kib": during, "rss_after_kib": after, "kib_per_stream": round(per_stream, 2)}


async def read_events(reader, sent, delays, stop):
    pattern = re.compile(rb'"title":"Stream w\d+z (\d+)"')
    buffer = b""
    while not stop.is_set():
        try:
            chunk = await asyncio.wait_for(reader.read(65536), timeout=0.5)
        except asyncio.TimeoutError:
            continue
        if not chunk:
            return
        now = time.monotonic()
        buffer += chunk
        *events, buffer = buffer.split(b"\n\n")
        for event in events:
            # A row's title shows twice in an upsert (its row and its compact line): once each.
            for number in set(pattern.findall(event)):
                started = sent.get(int(number))
                if started is not None:
                    delays.append(now - started)


def write_loop(server, shapes, rate, seconds, sent, stop):
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {server.key}"}
    number = 0
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        due = start + number / rate
        pause = due - time.monotonic()
        if pause > 0:
            time.sleep(pause)
        body = json.dumps({"name": f"Stream w{number % shapes}z {number}", "shortDescription": "Live", "longDescription": "",
                           "price": {"minorUnits": 1000 + number, "currency": "USD"}})
        sent[number] = time.monotonic()
        connection.request("POST", "/v1/products", body=body, headers=headers)
        response = connection.getresponse()
        response.read()
        if response.status != 201:
            raise RuntimeError(f"create: {response.status}")
        number += 1
    stop.set()
    return number


def wrk(port, seconds, path="/v1/products?limit=50"):
    out = subprocess.run(["wrk", "-t1", "-c16", f"-d{seconds}s", f"http://127.0.0.1:{port}{path}"],
                         capture_output=True, text=True, check=True).stdout
    return float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))


def cpu_seconds(server, ticks_before):
    return (server.cpu_ticks() - ticks_before) / os.sysconf("SC_CLK_TCK")


async def load_part(server, streams, shapes, rate, seconds):
    loop = asyncio.get_running_loop()
    alone = wrk(server.port, seconds)
    # The server's CPU for the writes alone, then for the same writes with the streams open.
    ticks = server.cpu_ticks()
    written_alone = await loop.run_in_executor(None, write_loop, server, shapes, rate, seconds, {}, threading.Event())
    writes_cpu = cpu_seconds(server, ticks)
    # "w1z" is no part of "w10z": each create matches one list's search.
    paths = [f"/v1/products/changes?q=w{shape}z" for shape in range(shapes)]
    opened = []
    for start in range(0, streams, 250):
        opened += await asyncio.gather(*(open_stream(server.port, paths[index % shapes]) for index in range(start, min(streams, start + 250))))
    sent, delays, stop = {}, [], threading.Event()
    readers = [asyncio.ensure_future(read_events(reader, sent, delays, stop)) for reader, _ in opened]
    ticks = server.cpu_ticks()
    written = await loop.run_in_executor(None, write_loop, server, shapes, rate, seconds, sent, stop)
    streams_cpu = cpu_seconds(server, ticks)
    await asyncio.sleep(1)
    stop.set()
    await asyncio.gather(*readers)
    # Pages while the streams are open and the writes go on (their events unread from here on).
    writes = loop.run_in_executor(None, write_loop, server, shapes, rate, seconds, {}, threading.Event())
    with_streams = await loop.run_in_executor(None, wrk, server.port, seconds)
    await writes
    for _, writer in opened:
        writer.close()
    delays.sort()
    expected = written * (streams // shapes)
    result = {
        "streams": streams, "shapes": shapes, "writes": written, "events": len(delays), "events_expected": expected,
        "p50_ms": round(statistics.median(delays) * 1000, 1) if delays else None,
        "p99_ms": round(delays[max(0, int(len(delays) * 0.99) - 1)] * 1000, 1) if delays else None,
        "server_cpu_per_write_ms_alone": round(writes_cpu / max(1, written_alone) * 1000, 3),
        "server_cpu_per_write_ms_with_streams": round(streams_cpu / max(1, written) * 1000, 3),
        "page_rps_alone": alone, "page_rps_with_streams": with_streams, "ratio": round(with_streams / alone, 3),
    }
    log(f"latency: {len(delays):,} of {expected:,} events, p50 {result['p50_ms']} ms, p99 {result['p99_ms']} ms; server CPU a write "
        f"{result['server_cpu_per_write_ms_alone']} ms alone, {result['server_cpu_per_write_ms_with_streams']} ms with the streams; "
        f"pages {alone:,.0f}/s alone, {with_streams:,.0f}/s with the streams and writes ({result['ratio']})")
    return result


server_heartbeat = 1.0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--products", type=int, default=10_000)
    parser.add_argument("--idle", type=int, default=10_000)
    parser.add_argument("--streams", type=int, default=1_000)
    parser.add_argument("--shapes", type=int, default=20)
    parser.add_argument("--writes", type=float, default=100)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--connection-memory", type=int, default=None,
                        help="KiB of libmicrohttpd's memory a connection (the server's own default when not given)")
    arguments = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    binary = pathlib.Path(arguments.binary).resolve()
    db = dataset(binary, arguments.products)
    room = max(arguments.idle, arguments.streams) + 100
    server = rowserver("rowserver", binary, db, extra=[
        "--connection-limit", str(room + 100), "--per-ip-limit", "0", "--max-streams", str(room),
        "--stream-heartbeat", str(server_heartbeat), "--threads", "2",
        *(["--connection-memory", str(arguments.connection_memory)] if arguments.connection_memory else [])])
    try:
        results = {"idle": asyncio.run(idle_part(server, arguments.idle)),
                   "load": asyncio.run(load_part(server, arguments.streams, arguments.shapes, arguments.writes, arguments.seconds))}
    finally:
        server.stop()
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
