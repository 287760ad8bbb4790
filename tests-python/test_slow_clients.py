"""Issue #7 suite 3, short form: a few hundred slow and idle connections for a few seconds while wrk
measures normal traffic (see slow_clients.py; scripts/slow-clients.sh runs the full 60 s form).

CI runs the debug build on a small, shared machine, so the throughput bar is lower than the
issue's (80 % of baseline, p99 within 3x): here normal clients must see no error and keep half
their baseline rate, and every attacking connection must be closed within its deadline (short
deadlines, so that each passes several times within the run)."""
import shutil

import pytest

import slow_clients
from conftest import binary

pytestmark = pytest.mark.skipif(shutil.which("wrk") is None, reason="needs wrk")


def test_slow_clients_cannot_starve_normal_traffic():
    report = slow_clients.run(binary(), seconds=5, attackers=300, ips=8, request_timeout=3, connection_timeout=2)
    slow_clients.print_report(report)
    assert slow_clients.failures(report, min_ratio=0.5, max_p99_ratio=None) == []
    for kind in ("slowloris", "slow_body", "idle"):
        assert report["closing"][kind]["closed"] > 0, kind
