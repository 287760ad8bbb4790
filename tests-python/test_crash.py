"""The kill -9 harness, short form for CI: a few cycles, no acknowledged write lost."""
import os

from crash_harness import run


def test_no_acknowledged_write_is_lost_across_sigkill():
    totals = run(int(os.environ.get("CRASH_CYCLES", "3")), seed=7)
    assert totals["cycles"] >= 3
    assert totals["acknowledged"] > 50, "the writers did not get going"
    assert totals["verified"] > 0
    assert totals["lost"] == []
