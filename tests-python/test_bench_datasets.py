"""Benchmarks/bench_servers: every server of a run gets its own copy of the generated file, and a
run says how its connections split over the workers."""
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "Benchmarks"))
import bench_servers  # noqa: E402


import pytest


@pytest.fixture(autouse=True)
def one_generator(monkeypatch):
    """Every binary here generates what the files below were stamped with."""
    monkeypatch.setattr(bench_servers, "generator_fingerprint", lambda binary: "same")


def generated(folder, products, generator="same"):
    """A stand-in for a generated dataset (dataset() generates only when the file is missing,
    or was made by another generator)."""
    path = folder / f"products-{products}.generated.sqlite"
    path.write_bytes(b"generated rows")
    bench_servers.sidecars(path)[2].write_bytes(b"key")
    path.with_name(path.name + ".generator").write_text(generator)
    return path


def test_a_dataset_made_by_another_generator_is_made_again_and_copied_again(tmp_path, monkeypatch):
    generated(tmp_path, 6)
    old = bench_servers.dataset("unused", 6, tmp_path, owner="rowserver")
    assert old.read_bytes() == b"generated rows"
    made = []

    def generate(binary, products, target):
        made.append(products)
        target.write_bytes(b"rows of the new generator")

    monkeypatch.setattr(bench_servers, "generate", generate)
    monkeypatch.setattr(bench_servers, "generator_fingerprint", lambda binary: "new")
    again = bench_servers.dataset("unused", 6, tmp_path, owner="rowserver")
    assert made == [6]
    assert again == old and again.read_bytes() == b"rows of the new generator"
    # Made once: the stamp now names the new generator.
    assert bench_servers.dataset("unused", 6, tmp_path, owner="other").read_bytes() == b"rows of the new generator"
    assert made == [6]


def test_each_owner_serves_its_own_copy_and_one_owners_writes_stay_its_own(tmp_path):
    generated(tmp_path, 5)
    writer = bench_servers.dataset("unused", 5, tmp_path, owner="rowserver")
    reader = bench_servers.dataset("unused", 5, tmp_path, owner="uncached")
    assert writer != reader
    assert writer.read_bytes() == reader.read_bytes() == b"generated rows"
    assert bench_servers.sidecars(reader)[2].read_bytes() == b"key"
    writer.write_bytes(b"generated rows and 330,000 written ones")
    # The same owner asking again in the same run gets its copy as it is now, not a new one.
    assert bench_servers.dataset("unused", 5, tmp_path, owner="rowserver").read_bytes().endswith(b"written ones")
    assert reader.read_bytes() == b"generated rows"
    assert (tmp_path / "products-5.generated.sqlite").read_bytes() == b"generated rows"


def test_without_an_owner_the_copy_keeps_its_old_name(tmp_path):
    generated(tmp_path, 7)
    assert bench_servers.dataset("unused", 7, tmp_path).name == "products-7.sqlite"


def test_the_busiest_workers_share_tells_a_split_run_from_one_served_by_one_worker():
    share = bench_servers.Process.busiest_worker_share
    assert share({"1": 10, "2": 5}, {"1": 110, "2": 5}) == 1.0
    assert share({"1": 10, "2": 5}, {"1": 60, "2": 55}) == 0.5
    # A worker that started during the run counts from zero.
    assert share({"1": 10}, {"1": 40, "2": 10}) == 0.75
    assert share({}, {}) is None
    assert share({"1": 3}, {"1": 3}) is None
