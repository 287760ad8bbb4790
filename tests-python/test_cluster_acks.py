"""The cluster run's check that no acknowledged write was lost (Benchmarks/cluster_parts.py):
what the mix logged against what a surviving instance answers, case by case."""
import json
import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "Benchmarks"))
from cluster_parts import lost_writes, read_acks  # noqa: E402


def answer(status, name=None):
    return status, json.dumps({"name": name} if name else {"type": "about:blank", "status": status}).encode()


@pytest.mark.parametrize("events, found, lost", [
    ({"created"}, answer(200, "Mix 1"), False),
    ({"created"}, answer(404), True),
    # A patch was sent but not answered (its instance died): either name is right.
    ({"created", "sent-patch"}, answer(200, "Mix 1 patched"), False),
    ({"created"}, answer(200, "Mix 1 patched"), True),
    ({"created", "sent-patch", "patched"}, answer(200, "Mix 7 patched"), False),
    ({"created", "sent-patch", "patched"}, answer(200, "Mix 1"), True),
    ({"created", "sent-patch", "patched"}, answer(404), True),
    ({"created", "sent-patch", "patched", "sent-delete"}, answer(404), False),
    ({"created", "sent-patch", "patched", "sent-delete"}, answer(200, "Mix 7 patched"), False),
    ({"created", "sent-patch", "patched", "sent-delete", "deleted"}, answer(404), False),
    ({"created", "sent-patch", "patched", "sent-delete", "deleted"}, answer(200, "Mix 7 patched"), True),
    # Never acknowledged as created: nothing to check.
    ({"sent-patch"}, answer(404), False),
])
def test_an_acknowledged_write_missing_from_the_store_is_lost(events, found, lost):
    assert bool(lost_writes({"prd_1": set(events)}, lambda path: found)) == lost


def test_the_log_of_every_thread_is_read(tmp_path):
    (tmp_path / "acks.1").write_text("created prd_a\nsent-patch prd_a\n")
    (tmp_path / "acks.2").write_text("created prd_b\npatched prd_a\n")
    assert read_acks(tmp_path / "acks") == {"prd_a": {"created", "sent-patch", "patched"}, "prd_b": {"created"}}
