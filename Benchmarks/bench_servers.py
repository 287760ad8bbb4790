"""The processes a benchmark run measures: rowserver on a dataset, the reference servers of
../shared/bench (the C ceiling on libmicrohttpd, the C floor on libmicrohttpd and SQLite, the
Hummingbird peer), and this project's ceiling-bytes (the ceiling for one given body, such as a
gzip page), each built into this project's scratch folder so nothing is written next to their
sources.
"""
import hashlib
import http.client
import json
import os
import pathlib
import random
import re
import signal
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time

# Servers started here send far more than a client may: rate limits (on by default) off,
# unless a test asks for them (older binaries ignore the variable).
os.environ.setdefault("ROWSERVER_RATE_LIMIT", "off")

ROOT = pathlib.Path(__file__).resolve().parent.parent
SCRATCH = ROOT / ".build" / "bench"


def log(message):
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def build_rowserver():
    log("building rowserver (release)")
    started = time.time()
    subprocess.run(["swift", "build", "-c", "release", "--product", "rowserver"], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    path = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT, check=True,
                          capture_output=True, text=True).stdout.strip()
    log(f"rowserver built in {time.time() - started:.0f} s")
    return pathlib.Path(path) / "rowserver"


def dataset(binary, products, folder=SCRATCH, owner=None):
    """A database with `products` generated products (plus the demo people and tracks), made by
    `binary` itself: a baseline binary gets its own folder, as each writes its own layout.

    The generated file is kept as it is; each run serves a copy made at its first use, so that
    one run's writes (they grow the catalogue by 100,000 products and more) never change what the
    next run reads. With `owner` (a server's name) the copy is that server's alone: the writes
    of one server in round 1 must not change what another reads in round 2. They did: 330,000
    "Bench N" products in one block of the title order made every uncached search of rounds 2
    and 3 slower (p50 at one connection 0.4 ms in round 1, 6 ms after)."""
    folder.mkdir(parents=True, exist_ok=True)
    generated = folder / f"products-{products}.generated.sqlite"
    db = folder / (f"products-{products}.sqlite" if owner is None else f"products-{products}-{owner}.sqlite")
    # The file says which generator made it: another one (new names, another file layout) makes it again.
    stamp = generated.with_name(generated.name + ".generator")
    fingerprint = generator_fingerprint(binary)
    if not generated.exists() or not stamp.exists() or stamp.read_text() != fingerprint:
        log(f"generating {products:,} products into {generated}")
        started = time.time()
        generate(binary, products, generated)
        stamp.write_text(fingerprint)
        _COPIED.difference_update({path for path in _COPIED if path.parent == folder and (
            path.name == f"products-{products}.sqlite" or path.name.startswith(f"products-{products}-"))})
        log(f"generated in {time.time() - started:.1f} s")
    if db not in _COPIED:
        for stale in (db, *sidecars(db)):
            stale.unlink(missing_ok=True)
        shutil.copyfile(generated, db)
        key = sidecars(generated)[2]
        if key.exists():
            shutil.copyfile(key, sidecars(db)[2])
        _COPIED.add(db)
    return db


_COPIED = set()


def generate(binary, products, generated):
    """`binary generate` into a partial file, renamed to `generated` once whole."""
    partial = generated.with_suffix(".partial")
    for stale in (partial, *sidecars(partial)):
        stale.unlink(missing_ok=True)
    subprocess.run([str(binary), "generate", "--db", str(partial), "--products", str(products)], check=True,
                   stdout=subprocess.DEVNULL)
    for stale in sidecars(generated)[:2]:
        stale.unlink(missing_ok=True)
    for file, target in zip((partial, *sidecars(partial)), (generated, *sidecars(generated))):
        if file.exists():
            file.rename(target)


def generator_fingerprint(binary):
    key = str(binary)
    if key not in _FINGERPRINTS:
        _FINGERPRINTS[key] = _fingerprint(binary)
    return _FINGERPRINTS[key]


_FINGERPRINTS = {}


def _fingerprint(binary):
    """What `binary` generates, in short: the names of 20 products and the file's schema, hashed
    (a second or so). A generated dataset made by another generator is made again: the demo's
    names changed once (481 names for a million products, then nearly a million), and a file of
    an older layout is migrated by every server that opens it."""
    with tempfile.TemporaryDirectory() as folder:
        path = pathlib.Path(folder) / "fingerprint.sqlite"
        subprocess.run([str(binary), "generate", "--db", str(path), "--products", "20"], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        connection = sqlite3.connect(str(path))
        try:
            tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            table = "items_products" if "items_products" in tables else "products"
            names = [row[0] for row in connection.execute(f"SELECT title_key FROM {table} ORDER BY pk")]
            schema = [row[0] for row in connection.execute("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name")]
        finally:
            connection.close()
    return hashlib.sha256(json.dumps([names, schema]).encode()).hexdigest()[:16]


def baseline_folder(binary):
    """Where a baseline binary keeps the datasets it generated: one folder per binary (by its
    size and modification time), so a baseline from after a change of the file layout never
    reads a dataset an older baseline wrote (which it may refuse to serve)."""
    status = pathlib.Path(binary).stat()
    return SCRATCH / "baseline" / f"{status.st_size:x}-{status.st_mtime_ns:x}"


def sidecars(db):
    """The WAL, the shared-memory index and the cursor key rowserver keeps beside a database."""
    return [db.with_name(db.name + suffix) for suffix in ("-wal", "-shm", ".key")]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Process:
    """A server process on loopback, with its CPU time and memory read from /proc."""

    def __init__(self, name, command, port, ready_path="/health", environment=None, key=None, files=()):
        self.name = name
        self.port = port
        # The API key its writes send (`write_key`); None for a server that takes writes without one.
        self.key = key
        # The files it serves from (`bench.warm` reads them before a run that writes).
        self.files = tuple(files)
        self.base = f"http://127.0.0.1:{port}"
        started = time.time()
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                        env={**os.environ, **(environment or {})})
        deadline = started + 120
        while True:
            try:
                if self.get(ready_path)[0] == 200:
                    break
            except OSError:
                pass
            if self.process.poll() is not None or time.time() > deadline:
                raise RuntimeError(f"{name} did not start: {' '.join(map(str, command))}")
            time.sleep(0.005)
        self.startup_ms = (time.time() - started) * 1000

    def get(self, path, headers=None):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            connection.request("GET", path, headers=headers or {})
            response = connection.getresponse()
            return response.status, dict(response.getheaders()), response.read()
        finally:
            connection.close()

    def json(self, path):
        return json.loads(self.get(path)[2])

    def cpu_ticks(self):
        fields = open(f"/proc/{self.process.pid}/stat").read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])

    def worker_ticks(self):
        """CPU ticks of each of libmicrohttpd's worker threads (named "MHD-worker"), by thread id."""
        ticks = {}
        for task in pathlib.Path(f"/proc/{self.process.pid}/task").iterdir():
            try:
                if not (task / "comm").read_text().startswith("MHD-worker"):
                    continue
                fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            ticks[task.name] = int(fields[11]) + int(fields[12])
        return ticks

    @staticmethod
    def busiest_worker_share(before, after):
        """The busiest worker's share of the workers' CPU between two `worker_ticks`: 1.0 when one
        worker served every connection of a run; None without workers or ticks (the Hummingbird
        peer's threads have other names)."""
        spent = [ticks - before.get(thread, 0) for thread, ticks in after.items()]
        total = sum(spent)
        return max(spent) / total if total > 0 else None

    def status_kib(self, key):
        for line in open(f"/proc/{self.process.pid}/status"):
            if line.startswith(key + ":"):
                return int(line.split()[1])
        return 0

    def stop(self):
        if self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def rowserver(name, binary, db, extra=(), access_log="off"):
    """rowserver on `db`, with a write key made for it. The access log goes by environment
    variable, which a baseline binary from before the access log ignores: "off" for the servers
    the targets judge with the log off, a file for the default configuration."""
    port = free_port()
    server = Process(name, [str(binary), "serve", "--port", str(port), "--db", str(db), "--log-level", "error", *extra], port,
                     environment={"ROWSERVER_ACCESS_LOG": str(access_log)}, key=write_key(binary, db),
                     files=(pathlib.Path(db), pathlib.Path(f"{db}-wal")))
    return server


def write_key(binary, db):
    """A new write key on `db`, made with `binary keys create` as a user would; None for a
    baseline binary from before API keys (it has no `keys` command, and its writes need none)."""
    commands = subprocess.run([str(binary), "--help"], capture_output=True, text=True).stdout
    if not re.search(r"^\s+keys\s", commands, re.M):
        return None
    return subprocess.run([str(binary), "keys", "create", "--db", str(db), "--name", "bench", "--scope", "write"],
                          check=True, capture_output=True, text=True).stdout.strip()


def build_c(source, binary, libraries):
    """gcc -O2 `source` into `binary` unless it is newer than its source."""
    if binary.exists() and binary.stat().st_mtime >= source.stat().st_mtime:
        return
    log(f"building {binary.name} (gcc -O2)")
    binary.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(["gcc", "-O2", "-o", str(binary), str(source), *libraries], check=True)


def ceiling_bytes(name, body_file, encoding):
    """Benchmarks/ceiling-bytes answering GET /v1/products with the bytes of `body_file`."""
    binary = SCRATCH / "references" / "ceiling-bytes"
    build_c(ROOT / "Benchmarks" / "ceiling-bytes" / "server.c", binary, ["-lmicrohttpd", "-lpthread"])
    port = free_port()
    return Process(name, [str(binary), "--host", "127.0.0.1", "--port", str(port), "--body", str(body_file),
                          "--encoding", encoding], port)


class References:
    """The ceiling, the floor and the Hummingbird peer from ../shared/bench, built here on first
    use. The floor serves `floor_products` products (the size of the uncached server it is the
    floor of: B-tree depth grows with the row count); the others 10,000."""

    PRODUCTS = 10_000

    def __init__(self, folder, with_hummingbird=True, floor_products=None):
        self.folder = pathlib.Path(folder)
        self.with_hummingbird = with_hummingbird
        self.floor_products = floor_products
        self.data = SCRATCH / "references" / "products.tsv"
        self.ceiling_binary = SCRATCH / "references" / "ceiling"
        self.floor_binary = SCRATCH / "references" / "floor"
        self.floor_db = SCRATCH / "references" / f"floor-{floor_products}.db"
        self.hummingbird_scratch = SCRATCH / "hummingbird"

    @staticmethod
    def available(folder):
        folder = pathlib.Path(folder)
        return (folder / "ceiling" / "server.c").exists() and (folder / "data" / "gen_products.py").exists()

    def build(self):
        self.data.parent.mkdir(parents=True, exist_ok=True)
        if not self.data.exists():
            with open(self.data, "w") as out:
                subprocess.run([sys.executable, str(self.folder / "data" / "gen_products.py"), str(self.PRODUCTS)],
                               stdout=out, check=True)
        build_c(self.folder / "ceiling" / "server.c", self.ceiling_binary, ["-lmicrohttpd", "-lpthread"])
        if self.floor_products:
            build_c(self.folder / "floor" / "server.c", self.floor_binary, ["-lmicrohttpd", "-lsqlite3", "-lpthread"])
            self.load_floor()
        if self.with_hummingbird:
            log("building the Hummingbird peer (release; ~5 min the first time)")
            started = time.time()
            package = self.folder / "hummingbird" / "app"
            subprocess.run(["swift", "build", "-c", "release", "--package-path", str(package),
                            "--scratch-path", str(self.hummingbird_scratch)], check=True, stdout=subprocess.DEVNULL)
            log(f"Hummingbird ready after {time.time() - started:.0f} s")

    def load_floor(self):
        """The floor's database: gen_products.py's catalogue of `floor_products`, loaded once."""
        loaded = self.floor_db.with_suffix(".loaded")
        if loaded.exists():
            return
        log(f"loading {self.floor_products:,} products into the floor's {self.floor_db.name}")
        started = time.time()
        data = self.floor_db.with_suffix(".tsv")
        with open(data, "w") as out:
            subprocess.run([sys.executable, str(self.folder / "data" / "gen_products.py"), str(self.floor_products)],
                           stdout=out, check=True)
        # --load drops and recreates the table; the marker says a load ran to its end.
        subprocess.run([str(self.floor_binary), "--db", str(self.floor_db), "--load", str(data)], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        data.unlink()
        loaded.touch()
        log(f"floor loaded in {time.time() - started:.0f} s")

    def start(self):
        servers = []
        port = free_port()
        servers.append(Process("ceiling", [str(self.ceiling_binary), "--host", "127.0.0.1", "--port", str(port),
                                           "--data", str(self.data)], port))
        if self.floor_products:
            port = free_port()
            servers.append(Process("floor", [str(self.floor_binary), "--host", "127.0.0.1", "--port", str(port),
                                             "--db", str(self.floor_db)], port))
        if self.with_hummingbird:
            port = free_port()
            binary = self.hummingbird_scratch / "release" / "HBServer"
            servers.append(Process("hummingbird", [str(binary), "--host", "127.0.0.1", "--port", str(port),
                                                   "--data", str(self.data)], port))
        return servers

    def detail_paths(self):
        return [f"/v1/products/p-{index:06d}" for index in range(1, self.PRODUCTS + 1)]

    def floor_detail_paths(self):
        """10,000 ids spread over the floor's catalogue (seeded), like rowserver's detail scenario."""
        chooser = random.Random(7)
        count = min(10_000, self.floor_products)
        return [f"/v1/products/p-{index:06d}" for index in chooser.sample(range(1, self.floor_products + 1), count)]
