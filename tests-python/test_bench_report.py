"""The benchmark's ratios (Benchmarks/bench_report.py) as data: runs measured side by side in a
group are paired by group, never across groups, and a row is judged against its baseline twin
by the median of its pairs' CPU ratios."""
import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "Benchmarks"))
import bench_report  # noqa: E402


def run(server, scenario, cpu, group, rps=1000.0):
    return {"server": server, "scenario": scenario, "requests_per_s": rps, "p50_ms": 1.0, "p99_ms": 2.0,
            "cpu_us_per_request": cpu, "errors": 0, "non2xx": 0, "pair": group}


def report(measurements):
    rows = bench_report.median_rows(measurements)
    bench_report.add_ratios(rows, measurements)
    return rows, bench_report.baseline_verdicts(rows)


@pytest.mark.parametrize("this, baseline, ratio, within", [
    # Each pair's own ratio, then the median: 1.0, 1.2 and 1.05 -> 1.05, within.
    ([10, 12, 21], [10, 10, 20], 1.05, True),
    # Medians of each side would say 12/10 = 1.2 too; the pairs say 1.2, 1.2, 0.5 -> 1.2, over.
    ([12, 12, 5], [10, 10, 10], 1.2, False),
    # Cheaper than the baseline is within.
    ([5, 6, 7], [10, 10, 10], 0.6, True),
    # Exactly 10 % more is still within.
    ([11, 11, 11], [10, 10, 10], 1.1, True),
])
def test_a_row_is_judged_by_the_median_of_its_pairs_against_its_twin(this, baseline, ratio, within):
    measurements = []
    for number, (mine, theirs) in enumerate(zip(this, baseline), start=1):
        group = f"{number}:uncached:page1"
        measurements += [run("uncached", "page1", mine, group), run("baseline-uncached", "page1", theirs, group)]
    _, verdicts = report(measurements)
    assert len(verdicts) == 1
    verdict = verdicts[0]
    assert (verdict["server"], verdict["scenario"], verdict["pairs"]) == ("uncached", "page1", len(this))
    assert verdict["ratio"] == pytest.approx(ratio)
    assert verdict["within"] is within


def test_the_ceiling_and_the_twin_in_one_group_are_told_apart():
    measurements = [
        run("rowserver", "page1", 20, "1:rowserver:page1", rps=5000), run("ceiling", "list", 10, "1:rowserver:page1", rps=10000),
        run("baseline-rowserver", "page1", 25, "1:rowserver:page1", rps=4000),
        run("rowserver", "page1", 20, "2:rowserver:page1", rps=5000), run("baseline-rowserver", "page1", 25, "2:rowserver:page1", rps=4000),
        run("ceiling", "list", 10, "2:rowserver:page1", rps=10000),
    ]
    rows, verdicts = report(measurements)
    row = bench_report.find(rows, "rowserver", "page1")
    assert row["vs_ceiling"] == pytest.approx(0.5)
    assert row["cpu_vs_ceiling"] == pytest.approx(0.5)
    assert [(v["server"], v["ratio"], v["within"]) for v in verdicts] == [("rowserver", pytest.approx(0.8), True)]


def test_runs_of_other_groups_never_pair():
    # Round 1 has only this binary's run, round 2 only the twin's: no pair, no verdict.
    measurements = [run("uncached", "sorted", 10, "1:uncached:sorted"), run("baseline-uncached", "sorted", 10, "2:uncached:sorted")]
    _, verdicts = report(measurements)
    assert verdicts == []


def test_the_twin_rows_get_no_ratios_of_their_own():
    measurements = [run("uncached", "deep", 10, "1:uncached:deep"), run("baseline-uncached", "deep", 10, "1:uncached:deep")]
    rows, _ = report(measurements)
    assert "cpu_to_baseline" not in bench_report.find(rows, "baseline-uncached", "deep")
    assert bench_report.find(rows, "uncached", "deep")["cpu_to_baseline"] == pytest.approx(1.0)


@pytest.mark.parametrize("server, scenario, reference", [
    ("rowserver", "page1", ("ceiling", "list")),
    ("rowserver", "revalidate", ("ceiling", "health")),
    ("rowserver", "detail", ("ceiling", "detail")),
    ("rowserver", "page1-gzip", ("ceiling-gzip", "list")),
    ("uncached", "deep", ("floor", "list")),
    ("uncached", "detail", ("floor", "detail")),
    ("uncached", "search", None),
    ("logged", "page1", ("rowserver", "page1")),
    ("cached-10k", "page1", None),
])
def test_each_scenario_is_measured_beside_the_reference_that_judges_it(server, scenario, reference):
    assert bench_report.reference_for(server, scenario) == reference


def test_an_uncached_row_is_judged_in_floors_by_the_median_of_its_pairs():
    # Pair ratios 3.0, 1.5 and 2.0 -> 2.0: met exactly at the bar. The floor's medians alone
    # (10 µs) against the row's (30 µs) would have said 3.0.
    measurements = []
    for number, (mine, floor) in enumerate([(30, 10), (15, 10), (40, 20)], start=1):
        group = f"{number}:uncached:page1"
        measurements += [run("uncached", "page1", mine, group), run("floor", "list", floor, group)]
    rows, _ = report(measurements)
    row = bench_report.find(rows, "uncached", "page1")
    assert row["cpu_over_floor"] == pytest.approx(2.0)
    assert row["floor_paired"] == 3
    judged = {label: (figure, met) for label, figure, met in bench_report.targets(rows, {})}
    assert judged["uncached page1: CPU ≤ 2× the floor's page"] == ("2.00× (30 µs)", True)


def test_an_unpaired_row_gets_its_floor_ratio_from_the_medians():
    measurements = [run("rowserver", "sections", 12, None), run("floor", "list", 40, None), run("floor", "detail", 10, None),
                    run("rowserver", "detail", 5, None), run("rowserver", "health", 3, None)]
    rows, _ = report(measurements)
    assert bench_report.find(rows, "rowserver", "sections")["cpu_over_floor"] == pytest.approx(0.3)
    assert bench_report.find(rows, "rowserver", "detail")["cpu_over_floor"] == pytest.approx(0.5)
    # /health does no query: no floor to compare it with.
    assert "cpu_over_floor" not in bench_report.find(rows, "rowserver", "health")


@pytest.mark.parametrize("logged, log_off, met", [([21, 21], [20, 20], True), ([22, 22], [20, 20], False)])
def test_the_default_configuration_is_judged_against_the_log_off_server(logged, log_off, met):
    measurements = []
    for number, (mine, theirs) in enumerate(zip(logged, log_off), start=1):
        group = f"{number}:logged:detail"
        measurements += [run("logged", "detail", mine, group), run("rowserver", "detail", theirs, group)]
    rows, _ = report(measurements)
    judged = {label: met for label, _, met in bench_report.targets(rows, {})}
    assert judged["access log to a file, detail: CPU within 5 % of log off"] is met


def test_the_gzip_page_is_judged_against_the_ceiling_serving_the_same_bytes():
    measurements = [run("rowserver", "page1-gzip", 20, "1:rowserver:page1-gzip", rps=30000),
                    run("ceiling-gzip", "list", 10, "1:rowserver:page1-gzip", rps=50000),
                    run("ceiling", "list", 5, None, rps=100000)]
    rows, _ = report(measurements)
    row = bench_report.find(rows, "rowserver", "page1-gzip")
    assert (row["vs_ceiling"], row["ceiling_endpoint"]) == (pytest.approx(0.6), "gzip list")
    judged = {label: met for label, _, met in bench_report.targets(rows, {})}
    assert judged["cached gzip page 1 ≥ 50 % of the ceiling serving the same bytes"] is True


def test_bytes_per_request_are_kept_when_every_round_has_them():
    measurements = [run("rowserver", "page1-gzip", 20, None) | {"bytes_per_request": 1700.0},
                    run("rowserver", "page1-gzip", 20, None) | {"bytes_per_request": 1900.0}]
    rows, _ = report(measurements)
    assert bench_report.find(rows, "rowserver", "page1-gzip")["bytes_per_request"] == pytest.approx(1800.0)
    assert "| 1,800 |" in bench_report.table(rows)


@pytest.mark.parametrize("during, alone, met", [(6.0, 2.0, True), (6.1, 2.0, False)])
def test_reads_during_writes_are_judged_by_their_p99_against_the_same_reads_alone(during, alone, met):
    measurements = [run("rowserver", "page1-during-writes", 20, None) | {"p99_ms": during},
                    run("rowserver", "page1", 20, None) | {"p99_ms": alone}]
    rows, _ = report(measurements)
    judged = {label: met for label, _, met in bench_report.targets(rows, {})}
    assert judged["reads during writes: page-1 p99 ≤ 3× page 1 alone"] is met
