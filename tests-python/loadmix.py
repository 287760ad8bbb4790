"""What the soak and the sanitized load share: a rowserver process watched through /proc, the
paths of the mixed workload read from the live server, hostile requests, and wrk runs of
Benchmarks/wrk/mix.lua (90 % reads across every scenario, 10 % writes: create, patch, delete).

Not a pytest module: scripts/soak.sh and scripts/sanitized-load.sh run soak.py and
sanitized_load.py, which import it."""
import collections
import http.client
import json
import os
import pathlib
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

import api_keys

# Servers started here send far more than a client may: rate limits (on by default) off,
# unless a test asks for them (older binaries ignore the variable).
os.environ.setdefault("ROWSERVER_RATE_LIMIT", "off")

ROOT = pathlib.Path(__file__).resolve().parent.parent
MIX_LUA = ROOT / "Benchmarks" / "wrk" / "mix.lua"
# What a sanitizer writes when it finds something (ASan, TSan, UBSan, LSan).
SANITIZER_REPORT = re.compile(r"ERROR: AddressSanitizer|WARNING: ThreadSanitizer|ERROR: LeakSanitizer|"
                              r"runtime error:|SUMMARY: (Address|Thread|Leak|UndefinedBehavior)Sanitizer")


def log(message):
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def generate(binary, db, products, env=None):
    """Writes the demo data with `products` generated products into a new file `db`."""
    started = time.time()
    subprocess.run([str(binary), "generate", "--db", str(db), "--products", str(products)], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    log(f"generated {products:,} products (and the demo data) in {time.time() - started:.1f} s")


DATABASE = "database file"


def kinds_of(census):
    """A census (see `Server.fd_census`) as {"database": n, "other": n}."""
    database = census.get(DATABASE, 0)
    return {"database": database, "other": sum(census.values()) - database}


TCP_STATES = {"01": "ESTABLISHED", "02": "SYN_SENT", "03": "SYN_RECV", "04": "FIN_WAIT1", "05": "FIN_WAIT2",
              "06": "TIME_WAIT", "07": "CLOSE", "08": "CLOSE_WAIT", "09": "LAST_ACK", "0A": "LISTEN", "0B": "CLOSING"}


def tcp_states():
    """{socket inode: TCP state name} for every TCP socket on the machine."""
    states = {}
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = open(table).read().splitlines()[1:]
        except FileNotFoundError:
            continue
        for line in lines:
            fields = line.split()
            if len(fields) > 9:
                states[fields[9]] = TCP_STATES.get(fields[3], fields[3])
    return states


class Server:
    """`rowserver serve --port 0` on a database file, with a write key for the mix (`key`);
    stderr goes to a file for sanitizer reports."""

    def __init__(self, binary, db, stderr_path, extra=(), env=None, start_timeout=120):
        self.db = pathlib.Path(db)
        # Made with the CLI before the server starts; the key lives in the database file.
        self.key = api_keys.create(binary, db, "load")
        self.stderr_path = pathlib.Path(stderr_path)
        self.stderr = open(self.stderr_path, "w")
        self.process = subprocess.Popen([str(binary), "serve", "--port", "0", "--db", str(db), *extra],
                                        stdout=subprocess.PIPE, stderr=self.stderr, text=True, env=env)
        self.pid = self.process.pid
        line = ""
        deadline = time.time() + start_timeout
        while time.time() < deadline:
            line = self.process.stdout.readline()
            if "listening on" in line or not line:
                break
        match = re.search(r":(\d+)\s*$", line)
        if not match:
            self.process.kill()
            self.process.wait()
            raise RuntimeError(f"rowserver did not start: {line!r}\n{self.stderr_path.read_text()[-4000:]}")
        self.port = int(match.group(1))
        self.base = f"http://127.0.0.1:{self.port}"
        # Nothing else is printed on stdout; drain it so a full pipe can never block the server.
        threading.Thread(target=self.process.stdout.read, daemon=True).start()

    def request(self, method, path, body=None, headers=None, timeout=60):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            connection.request(method, path, body=body, headers=headers or {})
            response = connection.getresponse()
            return response.status, dict(response.getheaders()), response.read()
        finally:
            connection.close()

    def json(self, path):
        status, _, body = self.request("GET", path)
        if status != 200:
            raise RuntimeError(f"GET {path}: {status} {body[:300]!r}")
        return json.loads(body)

    def status_kib(self, key):
        with open(f"/proc/{self.pid}/status") as status:
            for line in status:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
        return 0

    def open_fds(self):
        return len(os.listdir(f"/proc/{self.pid}/fd"))

    def fds_by_kind(self):
        """Open descriptors as {"database": the SQLite file, WAL and shm, "other": the rest}.

        The database pools (the store's and the key store's) open a reader connection (two
        descriptors) when a read first needs one and keep it, so database descriptors grow up
        to the pools' size without leaking."""
        return kinds_of(self.fd_census())

    def fd_census(self):
        """Every open descriptor, counted by what it is: DATABASE for the SQLite file, WAL and
        shm; a TCP socket by its state ("tcp CLOSE_WAIT" is a connection the client closed and
        the server still holds); an anonymous inode by its kind ("anon_inode:[eventpoll]"); a
        file by its path. One pass over /proc/PID/fd."""
        states = tcp_states()
        census = collections.Counter()
        folder = f"/proc/{self.pid}/fd"
        for name in os.listdir(folder):
            try:
                target = os.readlink(f"{folder}/{name}")
            except FileNotFoundError:
                continue
            inode = re.fullmatch(r"socket:\[(\d+)\]", target)
            if target.startswith(str(self.db)):
                target = DATABASE
            elif inode:
                target = f"tcp {states[inode.group(1)]}" if inode.group(1) in states else "socket (not TCP)"
            census[target] += 1
        return census

    def wal_bytes(self):
        try:
            return os.path.getsize(f"{self.db}-wal")
        except FileNotFoundError:
            return 0

    def alive(self):
        return self.process.poll() is None

    def terminate(self, timeout=60):
        """SIGTERM, then the exit status (None when it had to be killed after `timeout` s)."""
        if self.alive():
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
                self.stderr.close()
                return None
        self.stderr.close()
        return self.process.returncode

    def sanitizer_reports(self):
        text = self.stderr_path.read_text(errors="replace")
        return [line for line in text.splitlines() if SANITIZER_REPORT.search(line)]


def walk(server, path, pages):
    """The `links.next` paths of the first `pages` pages of `path` (fewer at the end of the list)."""
    found, target = [], path
    for _ in range(pages):
        page = server.json(target)
        target = page["links"]["next"]
        if not target:
            break
        found.append(target)
    return found


def mix_paths(server, products):
    """The read side of the mix, one line per request (weights by repetition); see mix.lua."""
    lists = ["/v1/products?limit=50", "/v1/departments", "/v1/people?limit=50", "/v1/articles?limit=20",
             "/v1/documents?limit=50", "/v1/tracks", "/v1/products?limit=50&minPrice=USD:10.00&maxPrice=USD:50.00"]
    sorted_ = ["/v1/products?limit=50&sort=-price", "/v1/products?limit=50&sort=price,-name", "/v1/people?sort=emailAddress&limit=50"]
    # Deep cursors: pages at every tenth of the products (limit 200 to get there, 50 to read).
    deep = walk(server, "/v1/products?limit=200", max(1, products // 200))[::max(1, products // 2000)]
    deep = [path.replace("limit=200", "limit=50") for path in deep][:12]
    deep += walk(server, "/v1/products?limit=200&sort=-price", max(1, products // 400))[-1:]
    deep += walk(server, "/v1/people?limit=50", 6)[-2:]
    sections = ["/v1/people?group=department&limit=50"] + walk(server, "/v1/people?group=department&limit=50", 3)
    track = server.json("/v1/tracks?limit=1")["rows"][0]["id"]
    tables = ["/v1/products?view=table&limit=50", "/v1/products?view=table&sort=-price&limit=50", "/v1/people?view=table&limit=50",
              f"/v1/tracks/{track}/samples?view=table&limit=50", f"/v1/tracks/{track}/samples?limit=50"]
    rows = server.json("/v1/products?limit=200")["rows"] + server.json(deep[len(deep) // 2].replace("limit=50", "limit=200"))["rows"]
    words = sorted({word.lower() for row in rows for word in re.findall(r"[A-Za-z]{4,}", row["title"])})[:30]
    search = [f"/v1/products?q={urllib.parse.quote(word)}&limit=50" for word in words]
    search += [f"/v1/products?q={urllib.parse.quote(word[:2])}&limit=20" for word in words[:5]]
    search += ["/v1/people?q=an&limit=50", "/v1/products?q=xyzzy", "/v1/articles?q=list"]
    details = [row["detail"] for row in rows]
    for collection in ("people", "departments", "articles", "documents", "tracks"):
        details += [row["detail"] for row in server.json(f"/v1/{collection}?limit=40")["rows"]]
    details += [row["detail"] for row in server.json(f"/v1/tracks/{track}/samples?limit=20")["rows"]]
    german = [f"{path}\tAccept-Language: de-DE" for path in ("/v1/products?limit=50", "/v1/products?view=table&limit=20")]
    feeds = ["@changes products", "@changes people", "/v1/products/changes"]
    # Revalidations of what the mix never writes (and of page 1 of products, which it does:
    # a 200 once it changed): 304s answered without running a query.
    revalidate = []
    for path in ["/v1/people?limit=50", "/v1/people?group=department&limit=50", "/v1/departments", "/v1/articles?limit=20",
                 "/v1/products?limit=50"] + details[:20]:
        status, headers, _ = server.request("GET", path)
        if status == 200 and headers.get("ETag"):
            revalidate.append(f"{path}\tIf-None-Match: {headers['ETag']}")
    # About: a third details, a sixth lists and sorts, the rest spread over the other scenarios.
    lines = details + (lists + sorted_) * 4 + deep * 2 + sections * 3 + tables * 3 + search + german * 3 + feeds * 10 + revalidate * 3
    return lines


def write_paths(lines, directory):
    lines = list(lines)
    random.Random(7).shuffle(lines)
    path = pathlib.Path(directory) / "mix.paths"
    path.write_text("\n".join(lines) + "\n")
    return path


def hostile_requests(server):
    """(name, method, path, body, headers, allowed statuses): what must be refused, never a 5xx."""
    product = server.json("/v1/products?limit=1")["rows"][0]["id"]
    page2 = server.json("/v1/products?limit=2")["links"]["next"]
    cursor = urllib.parse.parse_qs(urllib.parse.urlparse(page2).query)["cursor"][0]
    # The writes carry the server's write key, so each meets the check it is named for, not the key's.
    key = api_keys.bearer(server.key)
    json_type = {"Content-Type": "application/json", **key}
    patch_type = {"Content-Type": "application/merge-patch+json", **key}
    good = '{"name":"Hostile","shortDescription":"x","longDescription":"","price":{"minorUnits":1,"currency":"USD"}}'
    return [
        ("bad json", "POST", "/v1/products", b'{"name":"x",', json_type, {400}),
        ("json not an object", "POST", "/v1/products", b"[1,2,3]", json_type, {400, 422}),
        ("invalid utf-8", "POST", "/v1/products", b'{"name":"\xff\xfe"}', json_type, {400}),
        ("deep nesting", "POST", "/v1/products", b"[" * 5000 + b"]" * 5000, json_type, {400, 413}),
        ("huge number", "POST", "/v1/products", good.replace('"minorUnits":1', '"minorUnits":1e999').encode(), json_type, {400, 422}),
        ("missing fields", "POST", "/v1/products", b'{"name":"x"}', json_type, {422}),
        ("wrong type", "POST", "/v1/products", b"name=x", {"Content-Type": "application/x-www-form-urlencoded", **key}, {415}),
        ("body too large", "POST", "/v1/products", b'{"name":"' + b"a" * 1_100_000 + b'"}', json_type, {413}),
        ("bad cursor", "GET", "/v1/products?cursor=garbage", None, {}, {400}),
        ("tampered cursor", "GET", f"/v1/products?cursor={cursor[:-3]}AAA", None, {}, {400}),
        ("cursor of another sort", "GET", f"/v1/products?sort=-price&cursor={cursor}", None, {}, {400}),
        ("cursor of people", "GET", f"/v1/people?cursor={cursor}", None, {}, {400}),
        ("bad change token", "GET", "/v1/products/changes?since=AAAA", None, {}, {400}),
        ("limit 0", "GET", "/v1/products?limit=0", None, {}, {400}),
        ("limit huge", "GET", "/v1/products?limit=99999999999999999999", None, {}, {400}),
        ("unknown sort", "GET", "/v1/products?sort=color", None, {}, {400}),
        ("unknown parameter", "GET", "/v1/products?colour=red", None, {}, {400}),
        ("bad percent", "GET", "/v1/products?q=%zz", None, {}, {400}),
        ("bad id", "GET", "/v1/products/not-an-id", None, {}, {400, 404}),
        ("missing id", "GET", "/v1/products/prd_0000000000000000", None, {}, {404}),
        ("patch bad json", "PATCH", f"/v1/products/{product}", b"{", patch_type, {400}),
        ("patch stale if-match", "PATCH", f"/v1/products/{product}", b'{"name":"x"}', {**patch_type, "If-Match": '"v1.en-US"'}, {412}),
        ("patch unknown removal", "PATCH", f"/v1/products/{product}", b'{"colour":null}', patch_type, {422}),
        ("patch invalid price", "PATCH", f"/v1/products/{product}", b'{"price":{"minorUnits":"x"}}', patch_type, {422}),
        ("delete stale if-match", "DELETE", f"/v1/products/{product}", None, {"If-Match": '"v1.en-US"', **key}, {412}),
        ("method not allowed", "PUT", "/v1/products", b"{}", json_type, {405}),
        ("unknown collection", "GET", "/v1/nothing", None, {}, {404}),
        # Writes without a key, or with one that is not: refused before any body is looked at.
        ("write without a key", "POST", "/v1/products", good.encode(), {"Content-Type": "application/json"}, {401}),
        ("delete without a key", "DELETE", f"/v1/products/{product}", None, {}, {401}),
        ("forged key", "POST", "/v1/products", good.encode(), {**json_type, **api_keys.bearer(api_keys.forged(server.key))}, {401}),
        ("key in the query", "GET", f"/v1/products?api_key={server.key}", None, {}, {400}),
    ]


def raw_status(port, method, path, body, headers, timeout=60):
    """The status of one request over a raw socket: a server may answer (413) before reading a
    body and close, which http.client reports as a broken pipe instead of the answer."""
    head = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", "Connection: close"]
    head += [f"{name}: {value}" for name, value in headers.items()]
    head.append(f"Content-Length: {len(body or b'')}")
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as connection:
        connection.sendall(("\r\n".join(head) + "\r\n\r\n").encode("latin-1"))
        try:
            connection.sendall(body or b"")
        except (BrokenPipeError, ConnectionResetError):
            pass
        received = b""
        while b"\r\n" not in received:
            chunk = connection.recv(4096)
            if not chunk:
                break
            received += chunk
    match = re.match(rb"HTTP/1\.[01] (\d{3}) ", received)
    return int(match.group(1)) if match else f"no status line: {received[:80]!r}"


class Hostile(threading.Thread):
    """Sends the hostile requests round and round until stopped; records any status not allowed."""

    def __init__(self, server, pause=0.05):
        super().__init__(daemon=True)
        self.server, self.pause, self.cases = server, pause, hostile_requests(server)
        self.sent, self.unexpected, self.stopping = 0, [], threading.Event()

    def run(self):
        while not self.stopping.is_set():
            for name, method, path, body, headers, allowed in self.cases:
                if self.stopping.is_set():
                    break
                try:
                    status = raw_status(self.server.port, method, path, body, headers)
                except OSError as error:
                    status = f"{type(error).__name__}: {error}"
                self.sent += 1
                if status not in allowed:
                    self.unexpected.append((name, status))
                time.sleep(self.pause)

    def stop(self):
        self.stopping.set()
        self.join(timeout=120)


def run_mix(server, paths_file, seconds, connections, delay_ms=None, timeout_s=10, mix=10):
    """One wrk run of mix.lua against `server` (its writes with its key); `delay_ms` (fractional
    allowed) paces each connection. Returns its figures."""
    script = tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False)
    script.write(MIX_LUA.read_text())
    if delay_ms is not None:
        # wrk reads delay() in whole milliseconds: round randomly so the mean is the fraction asked.
        script.write(f"\nlocal pace = {max(0.0, delay_ms):.4f}\n"
                     "function delay()\n  local whole = math.floor(pace)\n"
                     "  if math.random() < pace - whole then return whole + 1 end\n  return whole\nend\n")
    script.close()
    command = ["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", f"--timeout={timeout_s}s", "--latency", "-s", script.name,
               server.base, "--", str(paths_file), str(mix)]
    try:
        # The key by environment, not on wrk's command line (which `ps` shows to anyone).
        result = subprocess.run(command, capture_output=True, text=True, env={**os.environ, "ROWSERVER_KEY": server.key})
    finally:
        os.unlink(script.name)
    match = re.search(r"^MIX (.*)$", result.stdout, re.M)
    if not match:
        raise RuntimeError(f"wrk gave no figures (exit {result.returncode}):\n{result.stdout}\n{result.stderr}")
    figures = json.loads(match.group(1))
    figures["requests_per_s"] = figures["requests"] / max(figures["duration_us"] / 1e6, 1e-9)
    figures["socket_errors"] = sum(figures[key] for key in ("connect_errors", "read_errors", "write_errors", "timeouts"))
    return figures


def temporary_directory(prefix):
    directory = tempfile.mkdtemp(prefix=prefix)
    return pathlib.Path(directory), lambda: shutil.rmtree(directory, ignore_errors=True)
