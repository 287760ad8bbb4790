"""Benchmarks/count.py's pure parts: the requests of a bench scenario, and a callgrind dump's total."""
import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "Benchmarks"))
import bench_scenarios  # noqa: E402
import count  # noqa: E402


def test_a_fixed_scenario_repeats_its_path_with_its_headers():
    spec = ("/v1/products?limit=50", None, ["-H", "Accept-Encoding: gzip", "-H", "If-None-Match: \"x\""], [], None)
    assert count.requests_of(spec, 3, server=None) == [("/v1/products?limit=50", {"Accept-Encoding": "gzip", "If-None-Match": "\"x\""})] * 3


def test_a_rotating_scenario_takes_the_first_paths_of_its_file(tmp_path):
    paths = tmp_path / "details.paths"
    paths.write_text("/v1/products/a\n/v1/products/b\n/v1/products/c\n")
    spec = ("/", "paths.lua", [], [str(paths)], None)
    assert count.requests_of(spec, 2, server=None) == [("/v1/products/a", {}), ("/v1/products/b", {})]


def test_a_revalidation_sends_the_tag_its_path_has_when_it_runs():
    class Server:
        def __init__(self):
            self.asked = []

        def get(self, path):
            self.asked.append(path)
            return 200, {"ETag": "\"l2\""}, b"{}"

    server = Server()
    spec = ("/v1/products?limit=50", None, ["-H", f"If-None-Match: {bench_scenarios.CURRENT_ETAG}"], [], None)
    assert count.requests_of(spec, 2, server) == [("/v1/products?limit=50", {"If-None-Match": "\"l2\""})] * 2
    assert server.asked == ["/v1/products?limit=50"]


@pytest.mark.parametrize("text, total", [
    ("events: Ir\nfn=main\n1 5\ntotals: 123456\n", 123456),
    ("events: Ir\nsummary: 42\n", 42),
])
def test_the_total_is_read_from_the_dump(tmp_path, text, total):
    dump = tmp_path / "callgrind.out.1"
    dump.write_text(text)
    assert count.instructions(dump) == total


def test_a_dump_without_a_total_is_an_error(tmp_path):
    dump = tmp_path / "callgrind.out.1"
    dump.write_text("events: Ir\n")
    with pytest.raises(RuntimeError):
        count.instructions(dump)
