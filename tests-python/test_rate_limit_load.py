"""Rate limits under load: one client far over its limit gets 429s, while 31 well-behaved
clients, each under its own limit, keep at least 95 % of the requests per second they had
without it — both measured in the same run, on the same server.

Every client has its own API key (a key is what a limit counts, whatever the address: all of
them come from 127.0.0.1 here). The well-behaved clients are Python threads, each sending 20
requests a second on a keep-alive connection (their limit: 50/s); the greedy one is wrk, as fast
as 4 connections go, on a key with the same limit."""
import http.client
import os
import re
import shutil
import subprocess
import threading
import time

import pytest

from conftest import Server

CLIENTS = 31
PACE = 20  # requests per second per well-behaved client
LIMIT = "50/s"
SECONDS = 5
TARGET = "/v1/products?limit=5"


def paced_client(port, secret, stop, counts, index):
    """Sends PACE requests a second until `stop`; counts answers by status. Late requests are
    sent at once (a fixed schedule), so a slow server shows as fewer requests, not as sleep."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    headers = {"Authorization": f"Bearer {secret}"}
    started = time.monotonic()
    sent = 0
    while not stop.is_set():
        due = started + sent / PACE
        delay = due - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        try:
            connection.request("GET", TARGET, headers=headers)
            response = connection.getresponse()
            response.read()
            counts[index][response.status] = counts[index].get(response.status, 0) + 1
        except (OSError, http.client.HTTPException):
            counts[index]["error"] = counts[index].get("error", 0) + 1
            connection.close()
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        sent += 1
    connection.close()


def run_paced(port, secrets, seconds):
    stop = threading.Event()
    counts = [{} for _ in secrets]
    threads = [threading.Thread(target=paced_client, args=(port, secret, stop, counts, index)) for index, secret in enumerate(secrets)]
    for thread in threads:
        thread.start()
    time.sleep(seconds)
    stop.set()
    for thread in threads:
        thread.join()
    return counts


@pytest.mark.skipif(shutil.which("wrk") is None, reason="wrk is installed by scripts/setup.sh")
def test_one_greedy_client_gets_429s_while_31_others_keep_their_pace():
    server = Server(extra=["--rate-limit", "--rate-limit-key", LIMIT, "--threads", "2"])
    try:
        secrets = [server.create_key(f"polite-{index}", "read") for index in range(CLIENTS)]
        greedy = server.create_key("greedy", "read")
        # Warm up: the first page reads fill the caches the way both phases see them.
        run_paced(server.port, secrets, 1)

        alone = run_paced(server.port, secrets, SECONDS)

        wrk = subprocess.Popen(
            ["wrk", "-t1", "-c4", f"-d{SECONDS + 2}s", "-H", f"Authorization: Bearer {greedy}", f"{server.base}{TARGET}"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        time.sleep(0.5)
        beside = run_paced(server.port, secrets, SECONDS)
        report, _ = wrk.communicate(timeout=60)

        ok_alone = sum(count.get(200, 0) for count in alone)
        ok_beside = sum(count.get(200, 0) for count in beside)
        total = int(re.search(r"(\d+) requests in", report).group(1))
        refused = re.search(r"Non-2xx or 3xx responses: (\d+)", report)
        refused = int(refused.group(1)) if refused else 0
        print(f"\n31 polite clients: {ok_alone / SECONDS:.0f} requests/s alone, {ok_beside / SECONDS:.0f} beside the greedy one "
              f"({ok_beside / ok_alone:.3f}); greedy: {total} requests, {refused} refused")

        # The greedy client went far over its limit and was refused for it.
        assert total > 10 * 50 * SECONDS, report
        assert refused >= total - 50 * (SECONDS + 4), report
        # The polite ones were never refused, and kept their pace.
        for count in alone + beside:
            assert set(count) <= {200}, count
        assert ok_alone >= 0.9 * CLIENTS * PACE * SECONDS
        assert ok_beside >= 0.95 * ok_alone
        slowest = min(count.get(200, 0) for count in beside)
        assert slowest >= 0.9 * PACE * SECONDS, beside
    finally:
        server.stop()
