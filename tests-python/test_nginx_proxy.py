"""rowserver behind a real nginx: with `--trusted-proxy 127.0.0.1`, the client a rate limit
counts is the address nginx saw (its `$proxy_add_x_forwarded_for`), not the proxy's, and not
what a client writes into X-Forwarded-For itself.

The clients connect to nginx from 127.0.0.2 and 127.0.0.3 (any 127/8 address is the loopback);
nginx runs in the foreground as the test's own user (`master_process off`)."""
import http.client
import os
import shutil
import socket
import subprocess
import tempfile
import time

import pytest

from conftest import Server

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Nginx:
    def __init__(self, upstream_port):
        self.directory = tempfile.mkdtemp(prefix="rowserver-nginx-")
        self.port = free_port()
        d = self.directory
        config = f"""
daemon off;
master_process off;
pid {d}/nginx.pid;
error_log {d}/error.log warn;
events {{ worker_connections 64; }}
http {{
    access_log off;
    client_body_temp_path {d}/body;
    proxy_temp_path {d}/proxy;
    fastcgi_temp_path {d}/fastcgi;
    uwsgi_temp_path {d}/uwsgi;
    scgi_temp_path {d}/scgi;
    server {{
        listen 127.0.0.1:{self.port};
        location / {{
            proxy_pass http://127.0.0.1:{upstream_port};
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        }}
    }}
}}
"""
        path = os.path.join(d, "nginx.conf")
        with open(path, "w") as file:
            file.write(config)
        self.process = subprocess.Popen([NGINX, "-c", path, "-p", d], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                if self.process.poll() is not None:
                    raise RuntimeError(f"nginx did not start: {self.process.stderr.read()}")
                time.sleep(0.05)
        raise RuntimeError("nginx did not listen")

    def get(self, path, source, headers=None):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10, source_address=(source, 0))
        try:
            connection.request("GET", path, headers=headers or {})
            response = connection.getresponse()
            return response.status, dict(response.getheaders()), response.read()
        finally:
            connection.close()

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)
        shutil.rmtree(self.directory, ignore_errors=True)


@pytest.mark.skipif(not os.path.exists(NGINX), reason="nginx is installed by scripts/setup.sh")
def test_behind_nginx_each_client_has_its_own_limit_and_cannot_forge_another():
    server = Server(extra=["--rate-limit", "--rate-limit-address", "1/h", "--trusted-proxy", "127.0.0.1", "--per-ip-limit", "0"])
    proxy = Nginx(server.port)
    try:
        status, headers, _ = proxy.get("/health", "127.0.0.2")
        assert status == 200
        assert headers["RateLimit-Policy"] == '"address";q=1;w=3600'
        status, headers, body = proxy.get("/health", "127.0.0.2")
        assert status == 429, body
        assert headers["Content-Type"] == "application/problem+json"
        assert int(headers["Retry-After"]) > 3000
        # Another client behind the same proxy has a bucket of its own.
        assert proxy.get("/health", "127.0.0.3")[0] == 200
        # Naming someone else in X-Forwarded-For does not make 127.0.0.3 someone else: nginx
        # appends the address it saw, and that is the one counted.
        status, _, _ = proxy.get("/health", "127.0.0.3", {"X-Forwarded-For": "203.0.113.77"})
        assert status == 429
        # The proxy's own requests (no header: a health check straight to rowserver) are the proxy's.
        direct = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        direct.request("GET", "/health")
        assert direct.getresponse().status == 200
        direct.close()
    finally:
        proxy.stop()
        server.stop()


def read_until(response, marker, seconds):
    """What the stream sent until `marker` arrived (or the time ran out)."""
    received = b""
    deadline = time.monotonic() + seconds
    while marker not in received and time.monotonic() < deadline:
        received += response.read1(65536)
    return received


@pytest.mark.skipif(not os.path.exists(NGINX), reason="nginx is installed by scripts/setup.sh")
def test_a_stream_through_nginx_arrives_as_it_is_sent():
    """nginx buffers proxied responses by default; a stream says `X-Accel-Buffering: no`, so
    each event and heartbeat passes at once, with nginx's configuration left as it is."""
    server = Server(extra=["--stream-heartbeat", "0.2"])
    proxy = Nginx(server.port)
    try:
        stream = http.client.HTTPConnection("127.0.0.1", proxy.port, timeout=5)
        stream.request("GET", "/v1/products/changes?q=nginx%20lamp", headers={"Accept": "text/event-stream"})
        response = stream.getresponse()
        assert response.status == 200
        assert response.getheader("Content-Type").startswith("text/event-stream")
        # The opening, then heartbeats (comment lines) every 0.2 s.
        assert b"\n\n:\n\n:\n\n" in read_until(response, b"\n\n:\n\n:\n\n", 3)
        write = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        body = '{"name":"Nginx Lamp","shortDescription":"Lit","longDescription":"","price":{"minorUnits":100,"currency":"USD"}}'
        write.request("POST", "/v1/products", body=body, headers={"Content-Type": "application/json", "Authorization": f"Bearer {server.key}"})
        assert write.getresponse().status == 201
        written = time.monotonic()
        received = read_until(response, b"Nginx Lamp", 3)
        assert b"event: changes" in received and b"Nginx Lamp" in received
        assert time.monotonic() - written < 1.0
        stream.close()
    finally:
        proxy.stop()
        server.stop()
