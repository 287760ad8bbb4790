"""The API-key cases of the hostile corpus: each with the one status it must get and, for the
server's own answers, the problem's code and parameter and the WWW-Authenticate challenge."""
import json

import api_keys
from hostile_raw import bearer, req

JSON = ("Content-Type", "application/json")

REALM = 'Bearer realm="rowserver"'
# What a refused credential is answered besides its status: the problem's code and the
# WWW-Authenticate challenge (RFC 6750), read as "challenge".
REQUIRED = {"code": "KEY_REQUIRED", "challenge": REALM}
INVALID = {"code": "INVALID_KEY", "challenge": REALM + ', error="invalid_token"'}
# Every case of insufficient scope writes products.
SCOPE = {"code": "KEY_SCOPE", "challenge": REALM + ', error="insufficient_scope", scope="write:products"'}
# The query parameters the server refuses as credentials (any case), never looking them up.
CREDENTIAL_PARAMETERS = ["access_token", "api_key", "apikey", "key", "token", "secret", "authorization"]
MERGE = ("Content-Type", "application/merge-patch+json")


def auth_cases(victim, keys):
    """(name, raw bytes, {status}, answer): API keys, each case with the one status it must get
    and, for the server's own answers, the problem's fields (code, parameter) and challenge."""
    c = []
    expect = lambda name, raw, status, **answer: c.append((name, raw, {status}, answer))
    write, item = keys["write"], f"/v1/products/{victim}"
    forged = api_keys.forged(write)
    good = json.dumps({"name": "Keyed", "shortDescription": "Warm", "longDescription": "",
                       "price": {"minorUnits": 100, "currency": "USD"}}).encode()
    post = lambda authorization, *headers: req("POST", "/v1/products", [("Authorization", authorization), *headers, JSON], good)
    # No key: 401 on every write route, before its id or body is looked at; an unknown collection is 404 first.
    expect("no key: post", req("POST", "/v1/products", [JSON], good), 401, **REQUIRED)
    expect("no key: patch", req("PATCH", item, [MERGE], b'{"name":"x"}'), 401, **REQUIRED)
    expect("no key: delete", req("DELETE", item), 401, **REQUIRED)
    expect("no key: delete unknown id", req("DELETE", "/v1/products/prd_0000000000000000"), 401, **REQUIRED)
    expect("no key: patch malformed id", req("PATCH", "/v1/products/not-an-id", [MERGE], b"{}"), 401, **REQUIRED)
    expect("no key: malformed json", req("POST", "/v1/products", [JSON], b"{"), 401, **REQUIRED)
    expect("no key: post people", req("POST", "/v1/people", [JSON], b"{}"), 401, **REQUIRED)
    expect("no key: delete department", req("DELETE", "/v1/departments/dep_0000000000000000"), 401, **REQUIRED)
    expect("no key: unknown collection", req("POST", "/v1/nothing", [JSON], good), 404, code="NOT_FOUND")
    # samples are read-only (writable: false): no write route at all, whatever the key.
    # test_a_child_collection_write_needs_a_key has a writable child (tickets' comments).
    expect("no key: post samples", req("POST", "/v1/tracks/trk_0000000000000000/samples", [JSON], b"{}"), 405,
           code="METHOD_NOT_ALLOWED")
    # Only Authorization carries a key: these are requests without one.
    expect("key in proxy-authorization", req("POST", "/v1/products", [("Proxy-Authorization", f"Bearer {write}"), JSON], good),
           401, **REQUIRED)
    expect("key in x-api-key", req("POST", "/v1/products", [("X-API-Key", write), JSON], good), 401, **REQUIRED)
    # Tokens that name no valid key: 401 INVALID_KEY.
    tokens = {"forged secret": forged, "unknown id": "rsk_000000000000_" + write.split("_")[2],
              "truncated": write[:-1], "one digit more": write + "0", "upper case": write.upper(), "no prefix": write[4:],
              "revoked": keys["revoked"], "10,000 characters": "rsk_" + "a" * 9_996,
              "non-ascii": (write[:-1] + "é").encode(), "latin-1 byte": write[:-1].encode() + b"\xe9",
              "control character": write[:-1] + "\x01", "del": write[:-1] + "\x7f", "nul": write[:-1] + "\x00",
              "tab inside": write[:20] + "\t" + write[20:], "space inside": write[:20] + " " + write[20:],
              # A CR without LF: whatever libmicrohttpd makes of it, no key.
              "cr inside": write[:20] + "\r" + write[20:]}
    for name, token in tokens.items():
        expect(f"key {name}", post((b"Bearer " if isinstance(token, bytes) else "Bearer ") + token), 401, **INVALID)
    # 40,000 characters do not fit the connection's 32 KiB: libmicrohttpd's own 431.
    expect("key 40,000 characters", post("Bearer " + "a" * 40_000), 431)
    # Other schemes and malformed Bearer credentials.
    for name, value in {"basic": "Basic dXNlcjpwYXNz", "basic with the key": f"Basic {write}", "token scheme": f"Token {write}",
                        "digest": 'Digest username="x", response="y"', "no scheme": write, "bearer alone": "Bearer",
                        "bearer and spaces": "Bearer    ", "empty value": "", "bearer=": f"Bearer={write}",
                        "bearer tab": f"Bearer\t{write}", "bearerkey": f"Bearer{write}", "two tokens": f"Bearer {write} {write}",
                        "bearer twice": f"Bearer Bearer {write}"}.items():
        expect(f"authorization {name}", post(value), 401, **INVALID)
    # Schemes are case-insensitive (RFC 9110 §11.1) and spaces around the token do not matter.
    for name, value in {"lower-case bearer": f"bearer {write}", "upper-case bearer": f"BEARER {write}",
                        "mixed-case bearer": f"bEaReR {write}", "two spaces": f"Bearer  {write}",
                        "trailing spaces": f"Bearer {write}   ", "leading spaces": f"   Bearer {write}"}.items():
        expect(f"authorization {name}", post(value), 201)
    expect("valid key reads", req("GET", "/v1/products?limit=1", [bearer(write)]), 200)
    # Bad credentials are refused on reads too, and on every route.
    for target in ["/v1/products?limit=1", f"/v1/products/{victim}", "/v1", "/health", "/metrics", "/v1/nothing"]:
        expect(f"forged key on GET {target}", req("GET", target, [bearer(forged)]), 401, **INVALID)
    expect("revoked key on GET", req("GET", "/v1/products?limit=1", [bearer(keys["revoked"])]), 401, **INVALID)
    expect("forged key on HEAD", req("HEAD", "/v1/products?limit=1", [bearer(forged), ("Connection", "close")]), 401,
           challenge=INVALID["challenge"])
    # One Authorization header only, whatever they hold.
    duplicate = {"code": "DUPLICATE_HEADER", "parameter": "Authorization", "challenge": None}
    expect("two authorization headers", req("POST", "/v1/products", [bearer(write)] * 2 + [JSON], good), 400, **duplicate)
    expect("forged then valid authorization", req("POST", "/v1/products", [bearer(forged), bearer(write), JSON], good),
           400, **duplicate)
    expect("two authorization headers on GET", req("GET", "/v1/products?limit=1", [bearer(write)] * 2), 400, **duplicate)
    # Header injection: CR LF inside the value starts a header of its own (a second Authorization
    # is refused); a bare LF is a malformed line to libmicrohttpd (its own 400); a folded
    # continuation line makes libmicrohttpd drop the header (no key: a write gets 401).
    expect("crlf injects a second authorization", post(f"Bearer {forged}\r\nAuthorization: Bearer {write}"), 400, **duplicate)
    expect("lf inside the key", post(write[:20] + "\n" + write[20:]), 400)
    expect("key on a folded line", post(f"Bearer\r\n {write}"), 401, **REQUIRED)
    # Keys in the query string: refused on every route before they are looked up (and logged as REDACTED).
    for name in CREDENTIAL_PARAMETERS:
        expect(f"?{name}= on a read", req("GET", f"/v1/products?limit=1&{name}={write}"), 400, code="KEY_IN_QUERY", parameter=name)
        expect(f"?{name}= on a write", req("POST", f"/v1/products?{name}={write}", [bearer(write), JSON], good),
               400, code="KEY_IN_QUERY", parameter=name)
    expect("?API_KEY= in upper case", req("GET", f"/v1/products?API_KEY={write}"), 400, code="KEY_IN_QUERY", parameter="API_KEY")
    expect("?%74oken= percent-encoded", req("GET", f"/v1/products?%74oken={write}"), 400, code="KEY_IN_QUERY", parameter="token")
    expect("?token= twice", req("GET", f"/v1/products?token={write}&token={write}"), 400, code="KEY_IN_QUERY", parameter="token")
    expect("?key= on a delete without a header", req("DELETE", f"{item}?key={write}"), 400, code="KEY_IN_QUERY", parameter="key")
    expect("?token= on /health", req("GET", f"/health?token={write}"), 400, code="KEY_IN_QUERY", parameter="token")
    expect("?token= on no route", req("GET", f"/v1/nothing?token={write}"), 400, code="KEY_IN_QUERY", parameter="token")
    # Keys whose scopes do not cover the write: 403, and nothing changes.
    expect("read key posts", post(f"Bearer {keys['read']}"), 403, **SCOPE)
    expect("read key patches", req("PATCH", item, [bearer(keys["read"]), MERGE], b'{"name":"x"}'), 403, **SCOPE)
    expect("read key deletes", req("DELETE", item, [bearer(keys["read"])]), 403, **SCOPE)
    expect("read:products key posts", post(f"Bearer {keys['products-read']}"), 403, **SCOPE)
    expect("write:people key posts products", post(f"Bearer {keys['people']}"), 403, **SCOPE)
    expect("write:people key deletes products", req("DELETE", item, [bearer(keys["people"])]), 403, **SCOPE)
    expect("read key reads", req("GET", "/v1/products?limit=1", [bearer(keys["read"])]), 200)
    # ... and a key whose scope does cover it gets past the key to the body's own check.
    expect("write:people key posts people", req("POST", "/v1/people", [bearer(keys["people"]), JSON], b"{}"),
           422, code="VALIDATION_FAILED")
    return c


def make_keys(server):
    """Secrets by what they may do: the server's write key, and keys made with the CLI while it
    runs (one of them revoked at once)."""
    revoked = server.create_key("revoked")
    server.revoke_key(revoked)
    return {"write": server.key, "read": server.create_key("reader", "read"), "people": server.create_key("people", "write:people"),
            "products-read": server.create_key("products reader", "read:products"), "revoked": revoked}
