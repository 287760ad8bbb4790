"""What Benchmarks/cluster.py runs and watches: PostgreSQL (scripts/postgres.sh), a cluster
(scripts/cluster.sh: instances behind nginx), the CPU time of a set of processes, and the check
that every write the mix saw acknowledged is in the database afterwards."""
import http.client
import json
import os
import pathlib
import re
import signal
import subprocess
import tempfile
import time

from bench_servers import ROOT, free_port

CLOCK = os.sysconf("SC_CLK_TCK")


def cpu_by_pid(pids):
    """{pid: user + system ticks} of those of `pids` still running."""
    ticks = {}
    for pid in pids:
        try:
            fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        except (FileNotFoundError, ProcessLookupError):
            continue
        ticks[pid] = int(fields[11]) + int(fields[12])
    return ticks


def cpu_ticks(pids):
    """User + system ticks of `pids` (those that are gone count 0)."""
    return sum(cpu_by_pid(pids).values())


def cpu_spent(before, after):
    """Ticks spent between two `cpu_by_pid` snapshots, the second taken of the processes running
    then: a process started in between (a PostgreSQL backend a pool opened under the load) counts
    whole. A process gone by the second snapshot drops out: not a time of its own counted less,
    nor its time before the first subtracted."""
    return sum(ticks - before.get(pid, 0) for pid, ticks in after.items())


def children(parent):
    """The PIDs whose parent is `parent`."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = open(f"/proc/{entry}/stat").read().rsplit(")", 1)[1].split()
        except (FileNotFoundError, ProcessLookupError):
            continue
        if int(fields[1]) == parent:
            found.append(int(entry))
    return found


class Postgres:
    """A PostgreSQL server of its own (scripts/postgres.sh start), its processes' CPU countable."""

    def __init__(self):
        output = subprocess.run([str(ROOT / "scripts" / "postgres.sh"), "start"], check=True, capture_output=True, text=True).stdout
        values = dict(line.split("=", 1) for line in output.splitlines() if "=" in line)
        self.url = values["ROWSERVER_TEST_POSTGRES"]
        self.folder = values["ROWSERVER_TEST_POSTGRES_DIR"]
        pid_file = next(pathlib.Path(self.folder).rglob("postmaster.pid"))
        self.pid = int(pid_file.read_text().split()[0])

    def database(self, name):
        """The URL of a new database `name`."""
        subprocess.run(["psql", "-q", self.url, "-c", f"CREATE DATABASE {name}"], check=True, capture_output=True)
        return self.url.rsplit("/", 1)[0] + "/" + name

    def pids(self):
        return [self.pid, *children(self.pid)]

    def stop(self):
        subprocess.run([str(ROOT / "scripts" / "postgres.sh"), "stop", self.folder], check=False, capture_output=True)


class Cluster:
    """scripts/cluster.sh with `instances` instances of `binary` (and PRODUCTS generated), parsed
    from what it prints: nginx's port and PID, each instance's port and PID, the database."""

    def __init__(self, binary, instances, products):
        env = {**os.environ, "ROWSERVER_BIN": str(binary), "INSTANCES": str(instances), "PORT": str(free_port()),
               "PRODUCTS": str(products)}
        self.errors = tempfile.TemporaryFile("w+")
        self.process = subprocess.Popen([str(ROOT / "scripts" / "cluster.sh")], stdout=subprocess.PIPE, stderr=self.errors,
                                        text=True, env=env, start_new_session=True)
        self.instances = []
        deadline = time.time() + 600
        while time.time() < deadline:
            line = self.process.stdout.readline()
            if not line:
                self.errors.seek(0)
                raise RuntimeError(f"cluster.sh stopped: {self.errors.read()}")
            if match := re.search(r"listening on http://127\.0\.0\.1:(\d+)", line):
                self.port = int(match.group(1))
            elif match := re.search(r"instance \d+: http://127\.0\.0\.1:(\d+) \(pid (\d+)\)", line):
                self.instances.append({"port": int(match.group(1)), "pid": int(match.group(2))})
            elif match := re.search(r"nginx: pid (\d+)", line):
                self.nginx = int(match.group(1))
            elif match := re.search(r"database: (\S+)", line):
                self.url = match.group(1)
            elif match := re.search(r"postgres folder: (\S+)", line):
                self.postgres_folder = pathlib.Path(match.group(1))
            elif match := re.search(r"logs: (\S+)", line):
                self.logs = pathlib.Path(match.group(1))
                break
        self.base = f"http://127.0.0.1:{self.port}"
        self.key = subprocess.run([str(binary), "keys", "create", "--database", self.url, "--name", "cluster", "--scope", "write"],
                                  check=True, capture_output=True, text=True).stdout.strip()
        self.postgres = int((self.postgres_folder / "data" / "postmaster.pid").read_text().split()[0])

    def request(self, method, path, body=None, headers=None, timeout=60, port=None):
        connection = http.client.HTTPConnection("127.0.0.1", port or self.port, timeout=timeout)
        try:
            connection.request(method, path, body=body, headers=headers or {})
            response = connection.getresponse()
            return response.status, dict(response.getheaders()), response.read()
        finally:
            connection.close()

    def json(self, path):
        return json.loads(self.request("GET", path)[2])

    def nginx_errors(self):
        try:
            return (self.logs / "nginx.error.log").read_text().splitlines()
        except FileNotFoundError:
            return []

    def pids(self):
        """{"nginx": [pid], "rowserver": [pids of the instances alive], "postgres": [postmaster and its children]}."""
        return {"nginx": [self.nginx], "rowserver": [instance["pid"] for instance in self.instances],
                "postgres": [self.postgres, *children(self.postgres)]}

    def stop(self):
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()


def read_acks(prefix):
    """{id: set of events} from mix.lua's ROWSERVER_ACKS files (`prefix`.1, .2, …)."""
    events = {}
    for file in sorted(pathlib.Path(prefix).parent.glob(pathlib.Path(prefix).name + ".*")):
        for line in file.read_text().splitlines():
            what, _, item = line.partition(" ")
            if item:
                events.setdefault(item, set()).add(what)
    return events


def lost_writes(events, get):
    """The acknowledged writes that are not in the store, as (id, what was expected, what was
    found); `get(path)` returns (status, body). An id whose write was sent but not answered
    (the instance died with it open) may show either state: that write was never acknowledged."""
    lost = []
    for item, seen in sorted(events.items()):
        if "created" not in seen:
            continue
        status, body = get(f"/v1/products/{item}")
        name = json.loads(body).get("name", "") if status == 200 else None
        if "deleted" in seen:
            expected, fine = "deleted", status == 404
        elif "patched" in seen:
            expected = "patched"
            fine = (status == 200 and name.endswith(" patched")) or ("sent-delete" in seen and status == 404)
        else:
            expected = "created"
            fine = status == 200 and (not name.endswith(" patched") or "sent-patch" in seen)
        if not fine:
            lost.append((item, expected, f"{status} {name!r}"))
    return lost


def summarize_acks(events):
    return {what: sum(1 for seen in events.values() if what in seen)
            for what in ("created", "patched", "deleted", "sent-patch", "sent-delete")}

