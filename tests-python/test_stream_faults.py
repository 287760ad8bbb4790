"""Live lists under faults, against the binary: SIGTERM while 1,000 streams are open ends every
one of them with its `shutdown` event and the process exits cleanly; and when 1,000 streams are
gone the server's memory is what it was before them. (A client that never reads is dropped by
its bounded buffer: ResponseStreamTests.)"""
import asyncio
import resource
import signal
import time

from conftest import Server


def raise_file_limit():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


async def open_stream(port, path):
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode())
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200"), head[:80]
    return reader, writer


async def read_to_end(reader, seconds):
    received = b""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        chunk = await asyncio.wait_for(reader.read(65536), timeout=max(0.01, deadline - time.monotonic()))
        if not chunk:
            break
        received += chunk
    return received


def test_sigterm_under_a_thousand_streams_ends_each_with_its_event_and_exits_cleanly():
    raise_file_limit()
    server = Server(extra=["--max-streams", "2000", "--connection-limit", "3000", "--per-ip-limit", "0", "--shutdown-grace", "10"])

    async def run():
        streams = []
        for start in range(0, 1000, 250):
            streams += await asyncio.gather(*(open_stream(server.port, f"/v1/products/changes?q=w{i % 20}z") for i in range(start, start + 250)))
        started = time.monotonic()
        server.process.send_signal(signal.SIGTERM)
        endings = await asyncio.gather(*(read_to_end(reader, 20) for reader, _ in streams))
        return endings, time.monotonic() - started

    try:
        endings, seconds = asyncio.run(run())
        assert all(b"event: shutdown" in ending for ending in endings), sum(b"event: shutdown" not in e for e in endings)
        # Each response ended (the chunked body's last chunk), none was cut off.
        assert all(ending.endswith(b"0\r\n\r\n") for ending in endings)
        assert server.process.wait(timeout=20) == 0
        assert seconds < 10
    finally:
        server.stop()


def test_the_memory_of_a_thousand_idle_streams_goes_back_when_they_close():
    raise_file_limit()
    server = Server(extra=["--max-streams", "2000", "--connection-limit", "3000", "--per-ip-limit", "0", "--stream-heartbeat", "0.5"])

    async def once():
        streams = await asyncio.gather(*(open_stream(server.port, "/v1/products/changes") for _ in range(1000)))
        await asyncio.sleep(1)
        during = server.rss_kib()
        for _, writer in streams:
            writer.close()
        return during

    try:
        # A first round warms what any server keeps (thread stacks, the hub's thread, caches).
        asyncio.run(once())
        time.sleep(3)
        before = server.rss_kib()
        during = asyncio.run(once())
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and server.rss_kib() > before * 1.05:
            time.sleep(0.5)
        after = server.rss_kib()
        assert during > before + 1000 * 8, (before, during)
        assert after <= before * 1.05, (before, during, after)
    finally:
        server.stop()
