"""The scenarios of Benchmarks/bench.py: the paths, wrk scripts and arguments each server is
measured with, built from the server and its dataset (ids, a deep cursor, search terms)."""
import random
import sqlite3

import bench_report
from bench_servers import SCRATCH, ceiling_bytes

GZIP = ["-H", "Accept-Encoding: gzip"]
# Stands for the path's ETag at the moment a run starts (`with_current_etag`): a page's tag
# changes with every write to its collection (the page links its change feed from the newest
# change), so a tag taken when the scenarios were made was stale after the writes scenarios, and
# half of a "304" run's answers were full pages.
CURRENT_ETAG = "{current ETag}"


def with_current_etag(extra, server, path):
    """`extra` with CURRENT_ETAG replaced by the ETag `server` answers `path` with now."""
    if not any(CURRENT_ETAG in value for value in extra):
        return list(extra)
    tag = server.get(path)[1].get("ETag", "")
    return [value.replace(CURRENT_ETAG, tag) for value in extra]


def walk_to(server, path, rows):
    """The `links.next` of the page that starts `rows` rows into `path` (limit 200 steps)."""
    target = f"{path}{'&' if '?' in path else '?'}limit=200"
    seen = 0
    while seen < rows:
        page = server.json(target)
        seen += len(page["rows"])
        target = page["links"]["next"]
        if target is None:
            break
    return target.replace("limit=200", "limit=50") if target else path


def write_paths(name, paths):
    SCRATCH.mkdir(parents=True, exist_ok=True)
    file = SCRATCH / f"{name}.paths"
    file.write_text("\n".join(paths) + "\n")
    return file


def products_table(connection):
    """The products' table: `items_products` since collections became definitions (issue #13),
    `products` in a baseline binary from before."""
    names = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    return "items_products" if "items_products" in names else "products"


def search_terms(db):
    """Words of 100 random product names (seeded) as a user types them (without the punctuation
    around them), their 2-letter starts, and texts that match nothing."""
    connection = sqlite3.connect(str(db))
    table = products_table(connection)
    top = connection.execute(f"SELECT max(pk) FROM {table}").fetchone()[0] or 1
    chooser = random.Random(7)
    words = []
    for pk in chooser.sample(range(1, top + 1), min(100, top)):
        row = connection.execute(f"SELECT title_key FROM {table} WHERE pk = ?", (pk,)).fetchone()
        if row and row[0]:
            words.append(chooser.choice(row[0].split()).strip(",.;:()"))
    connection.close()
    short = sorted({word[:2] for word in words if len(word) >= 2})[:10]
    return words + short + ["7q", "qqqq", "xyzzy", "walnut chair"]


def scenarios(server, db, dataset_products, tag=""):
    """name -> (path, lua script or None, extra wrk args, script args, connections or None);
    `tag` keeps each server's path files apart (a baseline's, and each server of a run's)."""
    connection = sqlite3.connect(str(db))
    ids = [row[0] for row in connection.execute(f"SELECT id FROM {products_table(connection)} ORDER BY random() LIMIT 10000")]
    connection.close()
    track = server.json("/v1/tracks?limit=1")["rows"][0]
    deep = walk_to(server, "/v1/products", dataset_products // 2)
    search = write_paths(f"{tag}search-{dataset_products}", [f"/v1/products?q={term.replace(' ', '%20')}&limit=50"
                                                         for term in search_terms(db)])
    details = write_paths(f"{tag}details-{dataset_products}", [f"/v1/products/{i}" for i in ids])
    mixed = write_paths(f"{tag}mixed-{dataset_products}", [f"/v1/products/{i}" for i in ids[:2000]]
                        + ["/v1/products?limit=50", deep, "/v1/people?group=department", "/v1/products?limit=50&sort=-price"])
    return {
        "health": ("/health", None, [], [], None),
        "page1": ("/v1/products?limit=50", None, [], [], None),
        # Page 1 while 32 other connections write (bench.py runs writes.lua beside it): its p99
        # against page 1's alone is issue #16's "reads during writes".
        "page1-during-writes": ("/v1/products?limit=50", None, [], [], None),
        "page1-gzip": ("/v1/products?limit=50", None, GZIP, [], None),
        "deep": (deep, None, [], [], None),
        "sorted": ("/v1/products?limit=50&sort=-price", None, [], [], None),
        "sections": ("/v1/people?group=department&limit=50", None, [], [], None),
        # Totals (issue #47): a filtered page without a total, with an estimated one (counted to
        # 1,000 rows, then estimated) and with an exact one (counted to its bound, 10,000 rows).
        "filtered": ("/v1/products?limit=50&maxPrice=USD:100.00", None, [], [], None),
        "filtered-estimated": ("/v1/products?limit=50&maxPrice=USD:100.00&count=estimated", None, [], [], None),
        "filtered-exact": ("/v1/products?limit=50&maxPrice=USD:100.00&count=exact", None, [], [], None),
        "page1-estimated": ("/v1/products?limit=50&count=estimated", None, [], [], None),
        # A filter that keeps most of its currency's rows: a cheap page, the sample's hardest case.
        "wide": ("/v1/products?limit=50&minPrice=USD:0.00", None, [], [], None),
        "wide-estimated": ("/v1/products?limit=50&minPrice=USD:0.00&count=estimated", None, [], [], None),
        "sections-estimated": ("/v1/people?group=department&limit=50&count=estimated", None, [], [], None),
        "people-table": ("/v1/people?view=table&limit=50", None, [], [], None),
        "samples-table": (f"/v1/tracks/{track['id']}/samples?view=table&limit=50", None, [], [], None),
        "search": ("/", "paths.lua", [], [str(search)], None),
        "search-1conn": ("/", "paths.lua", [], [str(search)], 1),
        "detail": ("/", "paths.lua", [], [str(details)], None),
        "revalidate": ("/v1/products?limit=50", None, ["-H", f"If-None-Match: {CURRENT_ETAG}"], [], None),
        "writes": ("/", "writes.lua", [], ["1"], None),
        "mixed": ("/", "writes.lua", [], ["10", str(mixed)], None),
    }


def reference_scenarios(references, server):
    if server.name == "floor":
        details = write_paths(f"floor-details-{references.floor_products}", references.floor_detail_paths())
    else:
        details = write_paths("reference-details", references.detail_paths())
    return {
        "health": ("/health", None, [], [], None),
        "list": ("/v1/products?limit=50", None, [], [], None),
        "detail": ("/", "paths.lua", [], [str(details)], None),
    }


def gzip_ceiling(server):
    """ceiling-bytes serving `server`'s own gzip page 1 (issue #16: a cached compressed page
    against the ceiling serving the same compressed bytes)."""
    status, headers, body = server.get("/v1/products?limit=50", {"Accept-Encoding": "gzip"})
    if status != 200 or headers.get("Content-Encoding") != "gzip":
        raise RuntimeError(f"{server.name} sent no gzip page 1 (status {status}, headers {headers})")
    file = SCRATCH / "page1.json.gz"
    file.write_bytes(body)
    ceiling = ceiling_bytes(bench_report.GZIP_CEILING, file, "gzip")
    return ceiling, {"list": ("/v1/products?limit=50", None, GZIP, [], None)}
