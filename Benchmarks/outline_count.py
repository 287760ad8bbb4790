#!/usr/bin/env python3
"""Instructions per request of an outline's levels against flat pages of the same collection.

    python3 Benchmarks/outline_count.py --binary .build-release-tree/release/rowserver

Imports an outline of `--nodes` folders (examples/outline.yaml; 20 roots, 50 children a node
down to the third level, the rest under the first third-level nodes) into a fresh SQLite file,
then serves it under valgrind's callgrind with the response cache off and counts, per scenario,
the instructions the server executed per request (warmed with the same requests first, then
counted on one keep-alive connection): the collection's flat page, a page of roots, a page of
one node's children at each level, a leaf's detail (with its ancestors). The same data is also
served by a copy of the definition without `tree:`, whose flat page is the reference: what a
page of that collection cost before it was an outline. The outline's own whole list is the second
reference: the same rows, each with its `childCount` and `children` link (a third more bytes).
`--keep DIR` keeps the database and one callgrind dump per scenario.
"""
import argparse
import http.client
import json
import pathlib
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
KEEP_DUMPS = False
ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"


def node_id(number):
    value = (1765000000000 << 32) | number
    text = ""
    for _ in range(16):
        text = ALPHABET[value & 31] + text
        value >>= 5
    return "fld_" + text


def write_tree(path, nodes):
    """The JSON Lines of the outline, parents before children; the ids of one node per level."""
    words = ["alpha", "beta", "gamma", "delta", "omega", "sigma", "kappa", "zeta", "theta", "lambda"]
    lines = []

    def add(parent):
        number = len(lines) + 1
        name = f"{words[number % 10]} {words[(number // 10) % 10]} {number}"
        item = {"id": node_id(number), "name": name, "color": ["gray", "blue", "green", "red"][number % 4]}
        if parent:
            item["parentID"] = parent
        lines.append(json.dumps(item))
        return item["id"]

    roots = [add(None) for _ in range(20)]
    second = [add(root) for root in roots for _ in range(50)]
    third = [add(parent) for parent in second for _ in range(50)]
    index = 0
    while len(lines) < nodes:
        add(third[index // 50])
        index += 1
    path.write_text("\n".join(lines) + "\n")
    return {"root": roots[0], "second": second[0], "third": third[0], "leaf": node_id(len(lines))}


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for(port, seconds=120):
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            connection.request("GET", "/health")
            if connection.getresponse().status == 200:
                return
        except OSError:
            time.sleep(0.5)
    raise RuntimeError(f"no server on {port}")


def send(port, path, count):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    for _ in range(count):
        connection.request("GET", path)
        response = connection.getresponse()
        body = response.read()
        if response.status != 200:
            raise RuntimeError(f"{path}: {response.status} {body[:200]}")
    connection.close()
    return body


def count(binary, definition, db, scenarios, requests, folder):
    stripped = folder / "rowserver"
    subprocess.run(["strip", "--strip-debug", "-o", str(stripped), str(binary)], check=True)
    port = free_port()
    out = folder / f"callgrind-{definition.stem}.out"
    command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", str(stripped), "serve", "--port", str(port),
               "--db", str(db), "--collections", str(definition), "--response-cache", "0", "--log-level", "error"]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              env={"ROWSERVER_ACCESS_LOG": "off", "ROWSERVER_RATE_LIMIT": "off", "PATH": "/usr/bin:/bin"})
    results = {}
    try:
        wait_for(port)
        for name, path in scenarios.items():
            send(port, path, requests)
            subprocess.run(["callgrind_control", "--zero", str(server.pid)], check=True, capture_output=True)
            body = send(port, path, requests)
            subprocess.run(["callgrind_control", "--dump=" + name, str(server.pid)], check=True, capture_output=True)
            dump = max(folder.glob(f"callgrind-{definition.stem}.out.*"), key=lambda file: file.stat().st_mtime)
            if KEEP_DUMPS: dump = dump.rename(folder / f"callgrind-{definition.stem}-{name}.dump")
            total = int(re.search(r"^(?:totals|summary): (\d+)", dump.read_text(errors="replace"), re.M).group(1))
            if not KEEP_DUMPS: dump.unlink()
            rows = len(json.loads(body).get("rows", [])) if name != "detail" else 0
            results[name] = (total / requests, rows)
            print(f"{definition.stem:>12} {name:<14} {total / requests:>12,.0f} instructions/request  ({rows} rows)", flush=True)
    finally:
        server.terminate()
        server.wait(timeout=60)
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True, help="a release build of rowserver")
    parser.add_argument("--nodes", type=int, default=100_000)
    parser.add_argument("--requests", type=int, default=100, help="requests per scenario (after as many to warm)")
    parser.add_argument("--keep", default=None, help="keep the database and dumps in this folder")
    arguments = parser.parse_args()
    global KEEP_DUMPS
    KEEP_DUMPS = arguments.keep is not None
    folder = pathlib.Path(arguments.keep or tempfile.mkdtemp(prefix="outline-count-"))
    folder.mkdir(parents=True, exist_ok=True)
    binary = pathlib.Path(arguments.binary).resolve()
    outline = ROOT / "examples" / "outline.yaml"
    flat = folder / "flat.yaml"
    flat.write_text(outline.read_text().replace("    tree: {parent: parentID}\n", "").replace("    tree: {parent: reportsTo}\n", ""))
    ids = write_tree(folder / "tree.jsonl", arguments.nodes)
    databases = {}
    for definition in (outline, flat):
        db = folder / f"{definition.stem}.sqlite"
        db.unlink(missing_ok=True)
        started = time.time()
        subprocess.run([str(binary), "import", "folders", str(folder / "tree.jsonl"), "--collections", str(definition), "--db", str(db)],
                       check=True, capture_output=True)
        print(f"imported {arguments.nodes:,} folders for {definition.stem} in {time.time() - started:.1f} s", flush=True)
        databases[definition] = db
    flat_results = count(binary, flat, databases[flat], {"flat": "/v1/folders"}, arguments.requests, folder)
    tree_results = count(binary, outline, databases[outline], {
        "flat": "/v1/folders",
        "roots": "/v1/folders/roots",
        "children-1": f"/v1/folders/{ids['root']}/children",
        "children-2": f"/v1/folders/{ids['second']}/children",
        "children-3": f"/v1/folders/{ids['third']}/children",
        "detail": f"/v1/folders/{ids['leaf']}",
    }, arguments.requests, folder)
    reference = flat_results["flat"][0]
    whole = tree_results["flat"][0]
    print(f"\nagainst the flat page of the same folders without tree ({reference:,.0f} instructions/request), and against the")
    print(f"outline's own whole list, whose rows carry the same childCount and children link ({whole:,.0f}):")
    for name, (instructions, rows) in tree_results.items():
        print(f"  {name:<14} {instructions / reference:5.2f}x  {instructions / whole:5.2f}x  ({rows} rows)")
    if not arguments.keep:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
