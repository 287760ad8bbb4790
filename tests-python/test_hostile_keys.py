"""API keys beyond the corpus: a child collection's writes, and no secret in any log, metric
or answer after every auth case."""
import api_keys
from conftest import ROOT, Server
from hostile_keys import CREDENTIAL_PARAMETERS, INVALID, JSON, REALM, REQUIRED, auth_cases, make_keys
from hostile_raw import bearer, check, exchange, req


def test_a_child_collection_write_needs_a_key():
    """The demo's only child collection (samples) is read-only: examples/tickets.yaml's comments
    are written under their ticket, POST /v1/tickets/{id}/comments."""
    server = Server(collections=ROOT / "examples" / "tickets.yaml")
    try:
        agents = server.create_key("agents", "write:agents")
        target = "/v1/tickets/tkt_0000000000000000/comments"
        comments = {"code": "KEY_SCOPE", "challenge": REALM + ', error="insufficient_scope", scope="write:comments"'}
        failures = [check(server.port, case)[0] for case in [
            ("no key", req("POST", target, [JSON], b"{}"), {401}, REQUIRED),
            ("forged key", req("POST", target, [bearer(api_keys.forged(server.key)), JSON], b"{}"), {401}, INVALID),
            ("write:agents key", req("POST", target, [bearer(agents), JSON], b"{}"), {403}, comments),
            # Past the key, the parent's id is checked: this ticket does not exist.
            ("write key", req("POST", target, [bearer(server.key), JSON], b"{}"), {404}, {"code": "NOT_FOUND"}),
        ]]
    finally:
        server.stop()
    assert [failure for failure in failures if failure] == []


def secret_fragments(secret):
    """The first and last 16 digits of a key's secret part (after `rsk_<id>_`; the id is public,
    the access log names it): any 16 of them in a log or an answer would be a leak."""
    part = secret.split("_")[2]
    return {part[:16], part[-16:]}


def test_no_secret_leaks_into_logs_metrics_or_answers(tmp_path):
    """After valid, forged, revoked, misplaced and query-string keys (the auth cases), no secret
    is in the access log (a file), the server's stderr (at trace level) or stdout, /metrics, or
    any answer; the access log shows each query credential as REDACTED and a key by its id."""
    access_log, stderr_path = tmp_path / "access.log", tmp_path / "stderr"
    with open(stderr_path, "w") as stderr:
        server = Server(access_log=str(access_log), log_level="trace", stderr=stderr)
        try:
            keys = make_keys(server)
            victim = server.get_json("/v1/products?limit=1")["rows"][0]["id"]
            answers = [exchange(server.port, raw)[1] for _, raw, _, _ in auth_cases(victim, keys)]
            metrics = exchange(server.port, req("GET", "/metrics", [("Connection", "close")]))[1]
        finally:
            server.stop()  # SIGTERM: the access log's last lines are written before the exit
    places = {"access log": access_log.read_text(), "stderr": stderr_path.read_text(), "stdout": server.process.stdout.read(),
              "/metrics": metrics.decode("latin-1"), "answers": b"\n".join(answers).decode("latin-1")}
    assert "INVALID_KEY" in places["answers"] and "http_requests_total" in places["/metrics"]
    leaks = [f"{fragment} ({name} key) in {place}" for name, secret in keys.items() for fragment in secret_fragments(secret)
             for place, text in places.items() if fragment in text]
    assert leaks == []
    for name in CREDENTIAL_PARAMETERS:
        assert f"{name}=REDACTED" in places["access log"], name
    assert f'"key":"{api_keys.key_id(keys["write"])}"' in places["access log"]
