#!/usr/bin/env python3
"""Writes the seed corpora in Fuzz/corpus/<target>/: a few valid and a few hostile inputs each.

Token seeds are sealed the way TokenSigner does it (HMAC-SHA256, first 16 bytes, base64url)
with the fuzz key 0..31 that FuzzTokens uses, so the fuzzer starts from tokens that open.
Files are named by content hash, as libFuzzer names its own entries; rerunning is harmless.
"""
import base64, hashlib, hmac, os, struct

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")
KEY = bytes(range(32))
CROCKFORD = "0123456789abcdefghjkmnpqrstvwxyz"
COLLECTIONS = ["products", "departments", "people", "articles", "documents", "tracks", "samples"]


def entity_id(prefix, bits, timestamp=1_700_000_000_000):
    value = (timestamp << 32) | bits
    return prefix + "_" + "".join(CROCKFORD[(value >> (5 * (15 - i))) & 31] for i in range(16))


def seal(payload):
    tag = hmac.new(KEY, payload, hashlib.sha256).digest()[:16]
    return base64.urlsafe_b64encode(payload + tag).rstrip(b"=")


def fingerprint(canonical):
    return hashlib.sha256(canonical.encode()).digest()[:8]


def cursor_payload(canonical, values):
    out = bytes([1]) + fingerprint(canonical) + bytes([len(values)])
    for value in values:
        if isinstance(value, int):
            out += bytes([1]) + struct.pack(">q", value)
        else:
            text = value.encode()
            out += bytes([0]) + struct.pack(">I", len(text)) + text
    return out


def write(target, *inputs):
    folder = os.path.join(ROOT, target)
    os.makedirs(folder, exist_ok=True)
    for data in inputs:
        data = data.encode() if isinstance(data, str) else data
        with open(os.path.join(folder, hashlib.sha1(data).hexdigest()), "wb") as f:
            f.write(data)


write("request-target",
      "/", "*", "/v1/products?limit=10&sort=-price,name", "/v1/people/per_01%2Fabc", "/v1/products/%00",
      "http://example.com/v1/x?q=a+b%20c", "/a//b/?&&=x&y", "/%C3%A9/%E2%82%AC?n%C3%A9=%F0%9F%8E%B9",
      "/v1/./x", "/v1/%2e%2E/x", "/v1?%zz", "/v1?a=%C3", b"/v1/\xff\xfe?x=\xc0\xaf")

METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT", "QUERY"]
product_id = entity_id("prd", 1)
track_id = entity_id("trk", 6)
write("router", *[bytes([METHODS.index(m)]) + path.encode() for m, path in [
    ("GET", "/v1/products"), ("HEAD", "/v1/products/" + product_id), ("GET", "/v1/products/changes"),
    ("PATCH", "/v1/products/changes"), ("GET", "/v1/tracks/" + track_id + "/samples"),
    ("GET", "/v1/tracks/" + track_id + "/samples/" + entity_id("smp", 9)), ("POST", "/v1/people"),
    ("DELETE", "/v1/people/" + entity_id("per", 3)), ("OPTIONS", "/health"), ("GET", "/metrics"),
    ("GET", "/openapi.yaml"), ("GET", "/v1"), ("GET", "/v1/products/a%2Fb"), ("GET", "/v1/products/"),
    ("PUT", "/v1/tracks/x/samples/%00"), ("GET", "/explorer/")]])

department = entity_id("dep", 2)
write("list-options",
      bytes([0]) + b"limit=20&sort=-price,name&view=table&minPrice=USD:1.00&maxPrice=EUR:50&q=key+board&cursor=abc",
      bytes([2]) + f"group=department&department={department}&sort=familyName,-givenName".encode(),
      bytes([2]) + b"view=table&group=department",
      bytes([6]) + b"view=table&sort=-timestamp&limit=200",
      bytes([5]) + b"q=%20%20&limit=007&limit=1",
      bytes([0x80]) + b"-price,name", bytes([0x82]) + b"familyName,,givenName", bytes([0x86]) + b"--timestamp")

products_by_name = "products|p=|s=name|f=|q=|g=|v=rows"
people_search = "people|p=|s=familyName,givenName|f=|q=ann|g=|v=rows"
cursor1 = cursor_payload(products_by_name, ["keyboard", product_id])
cursor2 = cursor_payload(people_search, ["Lee", "Ann", entity_id("per", 3)])
samples = cursor_payload("samples|p=|s=timestamp|f=|q=|g=|v=rows", [1_700_000_000_000, entity_id("smp", 9)])
change = bytes([3, len(b"products")]) + b"products" + struct.pack(">q", 4242)
write("tokens",
      bytes([0]) + seal(cursor1), bytes([1]) + cursor1, bytes([8]) + seal(cursor2), bytes([9]) + cursor2,
      bytes([13]) + samples, bytes([12]) + seal(samples), bytes([2]) + seal(change), bytes([3]) + change,
      bytes([0]) + seal(cursor1)[:-1] + b"B", bytes([2]) + b"garbage")

write("json",
      '{"a":[1,2.5e3,"x\\u00e9",null,true,false],"b":{"c":-0.0e-7}}', ' [ ] ', '"\\ud83c\\udfb9"', '"\\ud800"',
      '{"a":1,"a":2}', '[' * 33 + ']' * 33, '1e400', '01', '9223372036854775808', '-9223372036854775808',
      '1.2e1', b'"\xc0\xaf"', b'\xef\xbb\xbf{}', '{"k":"\\u0000"}', '[1,]')

write("merge-patch",
      '[{"a":{"b":1,"c":[1]},"d":2},{"a":{"b":null,"e":{"f":null}},"d":[3]}]', '{"name":"x","price":{"currency":null}}',
      'null', '[1,2]', '[{"a":1},"x"]', '[[],{"a":{"b":{"c":null}}}]', '{"tags":{"0":"b"}}')


def item(collection, mode, body):
    return bytes([COLLECTIONS.index(collection) + 7 * (mode == "patch")]) + body.encode()


channel = [entity_id("chn", 7), entity_id("chn", 8)]
write("item-decoder",
      item("products", "create", '{"name":"Keyboard","shortDescription":"Quiet","price":{"minorUnits":12000,"currency":"EUR"}}'),
      item("products", "patch", '{"price":{"minorUnits":1.2e3,"formatted":"x"},"links":null}'),
      item("departments", "create", '{"name":"  "}'),
      item("people", "create", '{"givenName":"Ann","familyName":"Lee","emailAddress":"a@b","phoneNumber":"(0) 1",'
           f'"departmentID":"{department}"}}'),
      item("people", "patch", '{"emailAddress":"a b@c","phoneNumber":"x"}'),
      item("articles", "patch", '{"headline":"\\u0000","markdown":null}'),
      item("documents", "create", '{"id":null,"title":"T","body":"' + "b" * 300 + '"}'),
      item("tracks", "patch", '{"channels":[{"id":"%s","name":"L"},{"id":"%s","name":"R"},{"name":"C"}]}' % tuple(channel)),
      item("tracks", "create", '{"title":"Mix","channels":[{"name":"L"}]}'),
      item("samples", "create", '{}'))

# Inputs that once found a defect (in a parser or in a target's own checks), kept as seeds.
write("request-target", b"http\x1a//plc", b"http://exa\xff~mp+b%20c", b"http://a b", "/a\u0301/?\u0301x=1")
write("item-decoder", item("products", "create", '{"\u0352~1080b":1}'))
