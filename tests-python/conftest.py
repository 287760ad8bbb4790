"""A live rowserver for the Python suites: the debug build, on a free port, over a fresh
SQLite file with the demo data, and a write key for it (`key`). Started once per session and
stopped at the end."""
import os
import pathlib
import re
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.request

import pytest

import api_keys

# Servers started here send far more than a client may: rate limits (on by default) off,
# unless a test asks for them (older binaries ignore the variable).
os.environ.setdefault("ROWSERVER_RATE_LIMIT", "off")

ROOT = pathlib.Path(__file__).resolve().parent.parent


def binary():
    explicit = os.environ.get("ROWSERVER_BIN")
    if explicit:
        return explicit
    for candidate in (ROOT / ".build" / "debug" / "rowserver", ROOT / ".build" / "release" / "rowserver"):
        if candidate.exists():
            return str(candidate)
    raise RuntimeError("build rowserver first (swift build)")


class Server:
    def __init__(self, extra=(), collections=None, access_log="off", log_level="warning", stderr=subprocess.PIPE):
        self.directory = tempfile.mkdtemp(prefix="rowserver-py-")
        self.db = os.path.join(self.directory, "test.sqlite")
        self.collections = collections
        if collections:
            extra = ["--collections", str(collections), *extra]
        # Every write needs a key: made on the new file before the server starts, as a user would.
        self.key = self.create_key("tests")
        self.process = subprocess.Popen(
            [binary(), "serve", "--port", "0", "--db", self.db, "--log-level", log_level, "--access-log", access_log, *extra],
            stdout=subprocess.PIPE, stderr=stderr, text=True)
        line = ""
        for _ in range(20):  # the port is on the "listening on" line
            line = self.process.stdout.readline()
            if "listening on" in line or not line:
                break
        match = re.search(r":(\d+)\s*$", line)
        if not match:
            self.process.kill()
            stderr = self.process.stderr.read() if self.process.stderr else ""
            raise RuntimeError(f"rowserver did not start: {line!r} {stderr}")
        self.port = int(match.group(1))
        self.base = f"http://127.0.0.1:{self.port}"

    def create_key(self, name, *scopes):
        """A new key's secret (scopes default to `write`); works while the server runs."""
        return api_keys.create(binary(), self.db, name, *scopes, collections=self.collections)

    def revoke_key(self, secret):
        api_keys.revoke(binary(), self.db, secret)

    def get_json(self, path):
        import json
        with urllib.request.urlopen(self.base + path, timeout=10) as response:
            return json.load(response)

    def rss_kib(self):
        with open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0

    def alive(self):
        return self.process.poll() is None

    def stop(self):
        if self.alive():
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
        shutil.rmtree(self.directory, ignore_errors=True)


@pytest.fixture(scope="session")
def server():
    instance = Server()
    yield instance
    instance.stop()
