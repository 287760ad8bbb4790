"""Kill -9 under write load, restart, and check that no acknowledged write was lost.

Eight writers POST new products and PATCH their own earlier ones over keep-alive
connections. At a random moment the server is killed with SIGKILL. After each kill:
`PRAGMA integrity_check` must say ok, and after the restart every write that had been
acknowledged (201/200) must be present with its acknowledged content -- or with a later
value the same writer sent whose answer the kill cut off (committed but not yet
acknowledged is allowed; acknowledged but missing is a lost write).

    python3 tests-python/crash_harness.py --cycles 20      # scripts/crash-test.sh
"""
import argparse
import http.client
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(__file__))
import api_keys  # noqa: E402
from conftest import binary  # noqa: E402

# Servers started here send far more than a client may: rate limits (on by default) off,
# unless a test asks for them (older binaries ignore the variable).
os.environ.setdefault("ROWSERVER_RATE_LIMIT", "off")


class Ledger:
    """What each writer attempted and what the server acknowledged, per product id."""

    def __init__(self):
        self.lock = threading.Lock()
        self.attempts = {}      # id -> [name, ...] in the order sent (POST first)
        self.acknowledged = {}  # id -> index into attempts of the last acknowledged value
        self.acks = 0

    def attempt(self, product_id, name):
        with self.lock:
            self.attempts.setdefault(product_id, []).append(name)
            return len(self.attempts[product_id]) - 1

    def ack(self, product_id, index):
        with self.lock:
            self.acknowledged[product_id] = max(index, self.acknowledged.get(product_id, -1))
            self.acks += 1


def start(db):
    process = subprocess.Popen([binary(), "serve", "--port", "0", "--db", db, "--log-level", "error", "--access-log", "off"],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    for _ in range(20):
        line = process.stdout.readline()
        if "listening on" in line:
            return process, int(line.rsplit(":", 1)[1])
    process.kill()
    raise RuntimeError("rowserver did not start")


def writer(port, key, ledger, stop, number, rng):
    own = []
    connection = None
    sequence = 0
    while not stop.is_set():
        try:
            if connection is None:
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            sequence += 1
            name = f"crash w{number} n{sequence}"
            if own and rng.random() < 0.4:
                product_id = rng.choice(own)
                index = ledger.attempt(product_id, name)
                connection.request("PATCH", f"/v1/products/{product_id}", json.dumps({"name": name}),
                                   {"Content-Type": "application/merge-patch+json", **api_keys.bearer(key)})
                response = connection.getresponse()
                response.read()
                if response.status == 200:
                    ledger.ack(product_id, index)
            else:
                body = {"name": name, "shortDescription": "crash test", "longDescription": "",
                        "price": {"minorUnits": sequence, "currency": "USD"}}
                connection.request("POST", "/v1/products", json.dumps(body),
                                   {"Content-Type": "application/json", **api_keys.bearer(key)})
                response = connection.getresponse()
                data = response.read()
                if response.status == 201:
                    product_id = json.loads(data)["id"]
                    index = ledger.attempt(product_id, name)
                    ledger.ack(product_id, index)
                    own.append(product_id)
        except (OSError, http.client.HTTPException):
            connection = None
            time.sleep(0.01)


def verify(port, ledger):
    """Every acknowledged id is present with its acknowledged value or a later attempted one."""
    lost = []
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    with ledger.lock:
        items = list(ledger.acknowledged.items())
        attempts = {k: list(v) for k, v in ledger.attempts.items()}
    for product_id, index in items:
        connection.request("GET", f"/v1/products/{product_id}")
        response = connection.getresponse()
        data = response.read()
        if response.status != 200:
            lost.append(f"{product_id}: {response.status} after acknowledgement")
            continue
        name = json.loads(data)["name"]
        if name not in attempts[product_id][index:]:
            lost.append(f"{product_id}: has {name!r}, acknowledged {attempts[product_id][index]!r}")
    return len(items), lost


def integrity(db):
    connection = sqlite3.connect(db)
    try:
        return connection.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        connection.close()


def run(cycles, seed=None, min_run=0.3, max_run=1.5, log=print):
    rng = random.Random(seed)
    directory = tempfile.mkdtemp(prefix="rowserver-crash-")
    db = os.path.join(directory, "crash.sqlite")
    ledger = Ledger()
    totals = {"cycles": 0, "acknowledged": 0, "verified": 0, "lost": []}
    # The writers' key, made on the new file before the first start: it lives in the database,
    # so it outlives every kill.
    key = api_keys.create(binary(), db, "crash writers")
    process, port = start(db)
    try:
        for cycle in range(cycles):
            stop = threading.Event()
            threads = [threading.Thread(target=writer, args=(port, key, ledger, stop, n, random.Random(rng.random())))
                       for n in range(8)]
            for thread in threads:
                thread.start()
            time.sleep(rng.uniform(min_run, max_run))
            process.send_signal(signal.SIGKILL)
            process.wait()
            stop.set()
            for thread in threads:
                thread.join()
            check = integrity(db)
            if check != "ok":
                totals["lost"].append(f"cycle {cycle}: integrity_check says {check}")
            process, port = start(db)
            verified, lost = verify(port, ledger)
            totals["cycles"] += 1
            totals["verified"] = verified
            totals["acknowledged"] = ledger.acks
            totals["lost"] += [f"cycle {cycle}: {entry}" for entry in lost]
            log(f"cycle {cycle + 1}/{cycles}: {ledger.acks} acknowledged writes so far, "
                f"{verified} items verified, integrity {check}, lost {len(lost)}")
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=15)
    # The file is kept where a write was lost, to look into; otherwise it goes (5 MB a run).
    if totals["lost"]:
        log(f"the database is kept in {directory}")
    else:
        shutil.rmtree(directory, ignore_errors=True)
    return totals


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cycles", type=int, default=20)
    parser.add_argument("--seed", type=int, default=None)
    arguments = parser.parse_args()
    totals = run(arguments.cycles, arguments.seed)
    print(f"{totals['cycles']} cycles, {totals['acknowledged']} acknowledged writes, "
          f"{totals['verified']} items verified, {len(totals['lost'])} lost")
    for entry in totals["lost"]:
        print("LOST", entry)
    sys.exit(1 if totals["lost"] else 0)


if __name__ == "__main__":
    main()
