"""The Idempotency-Key and X-Forwarded-For cases of the hostile corpus: each with the one status
it must get (every round gets the same: a key used twice replays, a key reused with another body
is refused however often the corpus runs) and, for the server's own answers, code and parameter."""
import json

from hostile_raw import bearer, req

JSON = ("Content-Type", "application/json")


def header_cases(keys):
    c = []
    expect = lambda name, raw, status, **answer: c.append((name, raw, {status}, answer))
    write = keys["write"]
    body = lambda name: json.dumps({"name": name, "shortDescription": "Once", "longDescription": "",
                                    "price": {"minorUnits": 100, "currency": "USD"}}).encode()
    post = lambda key, payload=body("Idem"), *more: req("POST", "/v1/products", [bearer(write), JSON, ("Idempotency-Key", key), *more],
                                                       payload)
    invalid = {"code": "INVALID_IDEMPOTENCY_KEY", "parameter": "Idempotency-Key"}
    # The same request twice: one item, the same answer.
    expect("idempotency key: first", post("hostile-same"), 201)
    expect("idempotency key: retry", post("hostile-same"), 201)
    # The key with another body, another path, another method: refused.
    expect("idempotency key: first of two bodies", post("hostile-reused"), 201)
    expect("idempotency key: another body", post("hostile-reused", body("Idem two")), 422, code="IDEMPOTENCY_KEY_REUSED")
    expect("idempotency key: another path", req("POST", "/v1/departments", [bearer(write), JSON, ("Idempotency-Key", "hostile-reused")],
                                                 b'{"name":"Idem"}'), 422, code="IDEMPOTENCY_KEY_REUSED")
    expect("idempotency key: a byte more", post("hostile-reused", body("Idem") + b" "), 422, code="IDEMPOTENCY_KEY_REUSED")
    # Malformed keys: 400 before anything is written.
    for name, key in {"empty": "", "256 characters": "k" * 256, "10,000 characters": "k" * 10_000, "space inside": "a b",
                      "non-ascii": "clé".encode(), "latin-1 byte": b"cl\xe9", "del": "a\x7f", "control character": "a\x01"}.items():
        expect(f"idempotency key {name}", post(key), 400, **invalid)
    expect("idempotency key 40,000 characters", post("k" * 40_000), 431)
    expect("two idempotency keys", req("POST", "/v1/products", [bearer(write), JSON, ("Idempotency-Key", "a"), ("Idempotency-Key", "b")],
                                       body("Idem")), 400, code="DUPLICATE_HEADER", parameter="Idempotency-Key")
    # A key does not get a request past authentication, nor a bad body past validation.
    expect("idempotency key without an api key", req("POST", "/v1/products", [JSON, ("Idempotency-Key", "hostile-anonymous")],
                                                      body("Idem")), 401, code="KEY_REQUIRED")
    expect("idempotency key with a malformed body", post("hostile-malformed", b"{"), 400, code="MALFORMED_JSON")
    expect("idempotency key on a read", req("GET", "/v1/products?limit=1", [("Idempotency-Key", "")]), 200)
    # Without a trusted proxy, X-Forwarded-For is never read: anything in it changes nothing.
    for name, value in {"garbage": "not an address", "10,000 characters": "1." * 5_000, "many hops": ", ".join(["10.0.0.1"] * 500),
                        "ipv6 zone": "fe80::1%eth0", "empty": "", "commas": ",,,,", "non-ascii": "ü".encode()}.items():
        expect(f"x-forwarded-for {name}", req("GET", "/v1/products?limit=1", [("X-Forwarded-For", value)]), 200)
    expect("many x-forwarded-for headers", req("GET", "/v1/products?limit=1", [("X-Forwarded-For", "203.0.113.1")] * 50), 200)
    return c
