"""Benchmarks/bench_servers.dataset: every server of a run gets its own copy of the generated file."""
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "Benchmarks"))
import bench_servers  # noqa: E402


def generated(folder, products):
    """A stand-in for a generated dataset (dataset() generates only when the file is missing)."""
    path = folder / f"products-{products}.generated.sqlite"
    path.write_bytes(b"generated rows")
    bench_servers.sidecars(path)[2].write_bytes(b"key")
    return path


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
