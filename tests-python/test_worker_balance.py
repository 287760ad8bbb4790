"""Connections spread over libmicrohttpd's workers (`Listener`): each worker's epoll set holds
its connections' sockets, which /proc shows (`tfd:` lines of an epoll descriptor's fdinfo), so
the split is read, not guessed from timings. With libmicrohttpd accepting by itself, a burst of
connections could all land on one worker (a third of the benchmark's runs)."""
import os
import re
import socket

import pytest

from conftest import Server


def listening_inodes(pid):
    inodes = set()
    for table in ("tcp", "tcp6"):
        with open(f"/proc/{pid}/net/{table}") as lines:
            for line in list(lines)[1:]:
                fields = line.split()
                if fields[3] == "0A":  # LISTEN
                    inodes.add(fields[9])
    return inodes


def epoll_sockets(pid):
    """{epoll descriptor: the connection sockets registered in it} of process `pid` (a listening
    socket in a worker's set, as libmicrohttpd's own accept has it, is not a connection)."""
    listening = listening_inodes(pid)
    sockets = set()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        match = re.fullmatch(r"socket:\[(\d+)\]", os.readlink(f"/proc/{pid}/fd/{fd}"))
        if match and match.group(1) not in listening:
            sockets.add(fd)
    sets = {}
    for fd in os.listdir(f"/proc/{pid}/fd"):
        if os.readlink(f"/proc/{pid}/fd/{fd}") != "anon_inode:[eventpoll]":
            continue
        with open(f"/proc/{pid}/fdinfo/{fd}") as info:
            registered = re.findall(r"^tfd:\s+(\d+)", info.read(), re.M)
        sets[fd] = {target for target in registered if target in sockets}
    return sets


@pytest.mark.parametrize("threads, connections", [(2, 16), (4, 16), (3, 7)])
def test_a_burst_of_connections_is_split_evenly_over_the_workers(threads, connections):
    server = Server(extra=["--threads", str(threads)])
    clients = []
    try:
        for _ in range(connections):
            client = socket.create_connection(("127.0.0.1", server.port), timeout=10)
            clients.append(client)
        # One answered request on each: every connection is in its worker's epoll set by then.
        for client in clients:
            client.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
        for client in clients:
            assert client.recv(65536).startswith(b"HTTP/1.1 200")
        held = sorted((len(members) for members in epoll_sockets(server.process.pid).values() if members), reverse=True)
        assert sum(held) == connections, held
        assert len(held) == threads, f"{threads} workers, connections held by {len(held)}: {held}"
        # Consecutive descriptors take turns: no worker holds more than one above an even share.
        assert held[0] <= -(-connections // threads) + 1, held
    finally:
        for client in clients:
            client.close()
        server.stop()
