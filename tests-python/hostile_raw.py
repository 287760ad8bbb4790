"""Raw-socket requests for the hostile corpora (`test_hostile.py`, `test_hostile_keys.py`): a
request as bytes, one exchange on a fresh connection, and the check of an answer against what
its case expects."""
import json
import socket

def exchange(port, raw, timeout=5.0):
    """Sends raw bytes, returns (status or None, everything the server sent)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        try:
            s.sendall(raw)
        except OSError:
            pass
        received = b""
        try:
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                received += chunk
                if b"\r\n\r\n" in received and _complete(received):
                    break
        except (socket.timeout, ConnectionResetError):
            pass
    status = None
    if received.startswith(b"HTTP/1."):
        try:
            status = int(received.split(b" ", 2)[1])
        except (IndexError, ValueError):
            status = None
    return status, received


def _complete(data):
    head, _, body = data.partition(b"\r\n\r\n")
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            try:
                return len(body) >= int(line.split(b":", 1)[1])
            except ValueError:
                return True
    return not head.lower().count(b"transfer-encoding: chunked") or body.endswith(b"0\r\n\r\n")


def req(method, target, headers=(), body=b"", version="HTTP/1.1", host=True):
    lines = [f"{method} {target} {version}".encode("utf-8")]
    if host:
        lines.append(b"Host: 127.0.0.1")
    for name, value in headers:
        lines.append(name.encode("latin-1") + b": " + (value if isinstance(value, bytes) else value.encode("latin-1")))
    if body and not any(n.lower() in ("content-length", "transfer-encoding") for n, _ in headers):
        lines.append(b"Content-Length: " + str(len(body)).encode())
    return b"\r\n".join(lines) + b"\r\n\r\n" + body


def bearer(secret):
    """The header that carries a key, for `req`."""
    return ("Authorization", f"Bearer {secret}")


# The only 5xx answers allowed, each libmicrohttpd's own, given before any callback so that
# rowserver never sees the request: 505 to an HTTP/2 request line (RFC 9110 §15.6.6, the right
# status for a major version the server does not speak) and 500 to a chunk-size line longer
# than the connection's memory (32 KiB; a library limitation; the process stays up).
LIBRARY_5XX = {"http/2 line": 505, "http/2 preface": 505, "chunk huge extension": 500}


def answered(received):
    """The fields of a raw answer that cases expect: its problem's (code, parameter, …) and its
    WWW-Authenticate challenge, or None."""
    head, _, body = received.partition(b"\r\n\r\n")
    try:
        fields = json.loads(body)
    except ValueError:
        fields = None
    fields = fields if isinstance(fields, dict) else {}
    fields["challenge"] = None
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"www-authenticate":
            fields["challenge"] = value.strip().decode("latin-1")
    return fields


def check(port, case):
    """What is wrong with the answer to one case (None: nothing) and the raw answer."""
    name, raw, allowed, answer = case
    status, received = exchange(port, raw)
    if status is not None and status >= 500 and LIBRARY_5XX.get(name) != status:
        return f"{name}: {status} (a 5xx)", received
    if status not in allowed:
        return f"{name}: got {status}, expected one of {sorted(allowed, key=str)}: {received[:200]!r}", received
    fields = answered(received)
    wrong = {field: fields.get(field) for field, value in answer.items() if fields.get(field) != value}
    if wrong:
        return f"{name}: {status} with {wrong}, expected {answer}", received
    return None, received
