"""The benchmark's figures: medians over rounds, ratios to the references measured in the same
run (the ceiling, the floor, the Hummingbird peer, a baseline binary), the targets of issues #6
and #16 judged as met or missed, and an optional plot."""
import statistics

# The reference endpoint that does the same kind of work as each scenario. A 304 is compared
# with the ceiling's /health: both are a few hundred bytes of headers and no work.
REFERENCE = {
    "health": "health", "revalidate": "health", "detail": "detail", "detail-uncached": "detail",
}
REFERENCE_DEFAULT = "list"
# The scenarios whose ceiling ratio is a target of issue #6: each is measured beside its own
# run of the ceiling's endpoint (see bench.pair).
CEILING_TARGETS = ("health", "page1", "deep", "sorted", "sections", "people-table", "samples-table", "detail", "revalidate")
# The uncached scenarios whose floor ratio is a target of issue #16, each measured beside the
# floor's page (or detail).
FLOOR_TARGETS = ("page1", "deep", "sorted", "sections", "people-table", "detail")
# Issue #16's bars: uncached CPU per request at most this many times the floor's; the default
# configuration (access log on) within this much of the log-off server's CPU per request.
FLOOR_FACTOR = 2.0
ACCESS_LOG_TOLERANCE = 1.05
# The server that runs rowserver in its default configuration, access log to a file, and the
# one it is judged against; and the ceiling that serves rowserver's own gzip page 1.
LOGGED, LOG_OFF = "logged", "rowserver"
GZIP_CEILING = "ceiling-gzip"


def reference_for(server, scenario):
    """(reference server, its endpoint) a row of `server` is measured beside, or None: rowserver's
    ceiling-judged scenarios beside the ceiling (its gzip page beside the ceiling serving the
    same gzip bytes), the uncached server's floor-judged ones beside the floor, the logged
    server's beside the same scenario of the log-off server."""
    if server == "rowserver" and scenario == "page1-gzip":
        return GZIP_CEILING, "list"
    if server == "rowserver" and scenario in CEILING_TARGETS:
        return "ceiling", REFERENCE.get(scenario, REFERENCE_DEFAULT)
    if server == "uncached" and scenario in FLOOR_TARGETS:
        return "floor", REFERENCE.get(scenario, REFERENCE_DEFAULT)
    if server == LOGGED:
        return LOG_OFF, scenario
    return None


def is_reference(server):
    return server in ("ceiling", "hummingbird", "floor", GZIP_CEILING) or server.startswith(BASELINE_PREFIX)


def median_rows(measurements):
    """(server, scenario) -> one row with the median of each figure over the rounds."""
    grouped = {}
    for m in measurements:
        grouped.setdefault((m["server"], m["scenario"]), []).append(m)
    rows = []
    for (server, scenario), runs in grouped.items():
        row = {"server": server, "scenario": scenario, "rounds": len(runs)}
        for key in ("requests_per_s", "p50_ms", "p99_ms", "cpu_us_per_request", "bytes_per_request"):
            if all(key in run for run in runs):
                row[key] = statistics.median(run[key] for run in runs)
        row["errors"] = sum(run["errors"] for run in runs)
        row["non2xx"] = sum(run["non2xx"] for run in runs)
        rows.append(row)
    return rows


def find(rows, server, scenario):
    return next((r for r in rows if r["server"] == server and r["scenario"] == scenario), None)


# A baseline binary's twin of a server (bench.py --baseline) and whether a name is one.
BASELINE_PREFIX = "baseline-"
# Within this much of the baseline's CPU per request, or cheaper: issue #13's bar.
BASELINE_TOLERANCE = 1.10


def baseline_name(server):
    return BASELINE_PREFIX + server


def paired_runs(measurements, server, scenario, reference):
    """[(row's run, reference's run)], one per group measured for the row beside `reference`."""
    groups = {}
    for m in measurements:
        if m.get("pair") and m["pair"].split(":", 1)[1] == f"{server}:{scenario}":
            groups.setdefault(m["pair"], {})[m["server"]] = m
    return [(group[server], group[reference]) for group in groups.values() if server in group and reference in group]


def paired_ratios(measurements, server, scenario, reference="ceiling"):
    """(requests/s ratios, CPU ratios) to `reference`, one per pair measured for the row; a CPU
    ratio is the reference's CPU per request over the row's (a share, like requests/s)."""
    throughput, cpu = [], []
    for row, ceiling in paired_runs(measurements, server, scenario, reference):
        if ceiling["requests_per_s"] > 0:
            throughput.append(row["requests_per_s"] / ceiling["requests_per_s"])
            if row["cpu_us_per_request"] > 0:
                cpu.append(ceiling["cpu_us_per_request"] / row["cpu_us_per_request"])
    return throughput, cpu


def baseline_ratios(measurements, server, scenario):
    """CPU per request of the row over its baseline twin's, one per pair."""
    return [row["cpu_us_per_request"] / twin["cpu_us_per_request"]
            for row, twin in paired_runs(measurements, server, scenario, baseline_name(server)) if twin["cpu_us_per_request"] > 0]


def add_ratios(rows, measurements=()):
    """Ratios to the references. A row measured in pairs with a reference takes the median of
    its pairs' ratios; any other row divides its median by the reference row's median.

    Adds `vs_ceiling`/`cpu_vs_ceiling` (shares of the ceiling, paired when `paired` is set),
    `vs_hummingbird`/`cpu_vs_hummingbird`, `cpu_over_floor` (CPU per request in floors: issue
    #16's 2× bar), `cpu_to_baseline` and, for the logged server, `cpu_to_log_off`."""
    for row in rows:
        if is_reference(row["server"]):
            continue
        cpu_to_baseline = baseline_ratios(measurements, row["server"], row["scenario"])
        if cpu_to_baseline:
            row["cpu_to_baseline"] = statistics.median(cpu_to_baseline)
            row["baseline_pairs"] = len(cpu_to_baseline)
        endpoint = REFERENCE.get(row["scenario"], REFERENCE_DEFAULT)
        paired = reference_for(row["server"], row["scenario"])
        if paired and paired[0] in ("ceiling", GZIP_CEILING):
            throughput, cpu = paired_ratios(measurements, row["server"], row["scenario"], paired[0])
            if throughput:
                row["vs_ceiling"] = statistics.median(throughput)
                row["ceiling_endpoint"] = "gzip list" if paired[0] == GZIP_CEILING else endpoint
                row["paired"] = len(throughput)
                if cpu:
                    row["cpu_vs_ceiling"] = statistics.median(cpu)
        if paired and paired[0] == "floor":
            _, shares = paired_ratios(measurements, row["server"], row["scenario"], "floor")
            if shares:
                row["cpu_over_floor"] = statistics.median(1 / share for share in shares)
                row["floor_paired"] = len(shares)
        if paired and paired[0] == LOG_OFF:
            _, shares = paired_ratios(measurements, row["server"], row["scenario"], LOG_OFF)
            if shares:
                row["cpu_to_log_off"] = statistics.median(1 / share for share in shares)
        for reference in ("ceiling", "hummingbird"):
            if reference == "ceiling" and "paired" in row:
                continue
            ref = find(rows, reference, endpoint)
            if ref and ref["requests_per_s"] > 0:
                row[f"vs_{reference}"] = row["requests_per_s"] / ref["requests_per_s"]
                row[f"{reference}_endpoint"] = endpoint
            # Server CPU per request moves far less than requests/s on a shared host (the
            # ceiling's own list figure moved 25 % between two runs of one session): the share
            # of the reference's cost, shown beside the targets' ratios as the steadier figure.
            if ref and row["cpu_us_per_request"] > 0:
                row[f"cpu_vs_{reference}"] = ref["cpu_us_per_request"] / row["cpu_us_per_request"]
        floor = find(rows, "floor", endpoint) if endpoint in ("list", "detail") else None
        if "cpu_over_floor" not in row and floor and floor["cpu_us_per_request"] > 0:
            row["cpu_over_floor"] = row["cpu_us_per_request"] / floor["cpu_us_per_request"]


def table(rows):
    lines = ["| server | scenario | req/s | p50 ms | p99 ms | CPU µs/req | bytes/req | vs ceiling | CPU vs ceiling | CPU × floor "
             "| vs Hummingbird | errors |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        ceiling = f"{r['vs_ceiling']:.0%} ({r['ceiling_endpoint']}{', paired' if 'paired' in r else ''})" if "vs_ceiling" in r else "—"
        cpu = f"{r['cpu_vs_ceiling']:.0%}" if "cpu_vs_ceiling" in r else "—"
        floor = f"{r['cpu_over_floor']:.1f}×{' (paired)' if 'floor_paired' in r else ''}" if "cpu_over_floor" in r else "—"
        hummingbird = f"{r['vs_hummingbird']:.1f}×" if "vs_hummingbird" in r else "—"
        size = f"{r['bytes_per_request']:,.0f}" if "bytes_per_request" in r else "—"
        errors = r["errors"] + (0 if r["scenario"] == "revalidate" else r["non2xx"])
        lines.append(f"| {r['server']} | {r['scenario']} | {r['requests_per_s']:,.0f} | {r['p50_ms']:.2f} | {r['p99_ms']:.2f} | "
                     f"{r['cpu_us_per_request']:.1f} | {size} | {ceiling} | {cpu} | {floor} | {hummingbird} | {errors} |")
    return "\n".join(lines)


def targets(rows, facts):
    """Each target of issues #6 and #16: (what, figure, met); a target the run did not measure
    is left out."""
    results = []

    def ratio(server, scenario, key, goal, label):
        row = find(rows, server, scenario)
        if row and key in row:
            figure = f"{row[key]:.1f}×"
            if key == "vs_ceiling":
                figure = f"{row[key]:.0%}" + (f" (CPU {row['cpu_vs_ceiling']:.0%})" if "cpu_vs_ceiling" in row else "")
            results.append((label, figure, row[key] >= goal))

    ratio("rowserver", "page1", "vs_ceiling", 0.60, "list page 1 ≥ 60 % of the ceiling")
    ratio("rowserver", "page1", "vs_hummingbird", 5.0, "list page 1 ≥ 5× Hummingbird")
    for scenario in ("deep", "sorted", "sections", "people-table", "samples-table"):
        ratio("rowserver", scenario, "vs_ceiling", 0.30, f"{scenario} ≥ 30 % of the ceiling")
    ratio("rowserver", "detail", "vs_ceiling", 0.60, "detail ≥ 60 % of the ceiling")
    ratio("rowserver", "revalidate", "vs_ceiling", 0.65, "304 revalidation ≥ 65 % of the ceiling")
    ratio("rowserver", "health", "vs_ceiling", 0.80, "health ≥ 80 % of the ceiling")
    ratio("rowserver", "page1-gzip", "vs_ceiling", 0.50, "cached gzip page 1 ≥ 50 % of the ceiling serving the same bytes")

    for scenario in FLOOR_TARGETS:
        row = find(rows, "uncached", scenario)
        if row and "cpu_over_floor" in row:
            results.append((f"uncached {scenario}: CPU ≤ {FLOOR_FACTOR:.0f}× the floor's {'detail' if scenario == 'detail' else 'page'}",
                            f"{row['cpu_over_floor']:.2f}× ({row['cpu_us_per_request']:.0f} µs)", row["cpu_over_floor"] <= FLOOR_FACTOR))
    for scenario in ("page1", "detail"):
        row = find(rows, LOGGED, scenario)
        if row and "cpu_to_log_off" in row:
            results.append((f"access log to a file, {scenario}: CPU within 5 % of log off", f"{row['cpu_to_log_off']:.2f}×",
                            row["cpu_to_log_off"] <= ACCESS_LOG_TOLERANCE))
    mixed, ceiling_list = find(rows, "rowserver", "mixed"), find(rows, "ceiling", "list")
    if mixed and ceiling_list and ceiling_list["requests_per_s"] > 0:
        share = mixed["requests_per_s"] / ceiling_list["requests_per_s"]
        results.append(("90/10 read/write mix ≥ 30 % of the ceiling's list requests/s", f"{share:.0%}", share >= 0.30))
    writes = find(rows, "rowserver", "writes")
    if writes:
        results.append(("writes on 1M, synchronous=FULL, 32 writers ≥ 5,000/s", f"{writes['requests_per_s']:,.0f}/s",
                        writes["requests_per_s"] >= 5000))

    during, idle = find(rows, "rowserver", "page1-during-writes"), find(rows, "rowserver", "page1")
    if during and idle and idle["p99_ms"] > 0:
        value = during["p99_ms"] / idle["p99_ms"]
        results.append(("reads during writes: page-1 p99 ≤ 3× page 1 alone", f"{value:.2f}× ({during['p99_ms']:.2f} vs "
                        f"{idle['p99_ms']:.2f} ms)", value <= 3))

    def p50_ratio(a, b, goal, label):
        first, second = find(rows, *a), find(rows, *b)
        if first and second and second["p50_ms"] > 0:
            value = first["p50_ms"] / second["p50_ms"]
            results.append((label, f"{value:.2f}× ({first['p50_ms']:.2f} vs {second['p50_ms']:.2f} ms)", value <= goal))

    p50_ratio(("uncached", "page1"), ("uncached-10k", "page1"), 1.25, "uncached page-1 p50, 1M vs 10k ≤ 1.25×")
    p50_ratio(("rowserver", "page1"), ("cached-10k", "page1"), 1.25, "cached page-1 p50, 1M vs 10k ≤ 1.25×")
    p50_ratio(("uncached", "deep"), ("uncached", "page1"), 1.5, "uncached deep p50 ≤ 1.5× page 1")
    p50_ratio(("rowserver", "deep"), ("rowserver", "page1"), 1.5, "cached deep p50 ≤ 1.5× page 1")
    for server, scenario, key, limit, label in (
            ("uncached", "search-1conn", "p50_ms", 5, "search p50, uncached, one connection ≤ 5 ms"),
            ("uncached", "search", "p99_ms", 50, "search p99, uncached, 32 connections ≤ 50 ms"),
            ("rowserver", "search", "p50_ms", 10, "search p50, with the response cache ≤ 10 ms")):
        row = find(rows, server, scenario)
        if row:
            results.append((label, f"{row[key]:.2f} ms", row[key] <= limit))
    if "peak_rss_mib" in facts:
        results.append(("peak RSS, 1M, whole run ≤ 150 MiB", f"{facts['peak_rss_mib']:.0f} MiB", facts["peak_rss_mib"] <= 150))
    if "startup_ms" in facts:
        results.append(("start-up on the 1M database ≤ 1 s", f"{facts['startup_ms']:.0f} ms", facts["startup_ms"] <= 1000))
    return results


def targets_table(results):
    lines = ["| target | figure | |", "|---|---:|---|"]
    for label, figure, met in results:
        lines.append(f"| {label} | {figure} | {'met' if met else 'MISSED'} |")
    return "\n".join(lines)


def baseline_verdicts(rows):
    """One entry per row measured beside a baseline twin: both CPU figures, the ratio, the verdict."""
    verdicts = []
    for row in rows:
        twin = find(rows, baseline_name(row["server"]), row["scenario"])
        if "cpu_to_baseline" in row and twin:
            verdicts.append({"server": row["server"], "scenario": row["scenario"], "cpu_us_per_request": row["cpu_us_per_request"],
                             "baseline_cpu_us_per_request": twin["cpu_us_per_request"], "ratio": row["cpu_to_baseline"],
                             "pairs": row["baseline_pairs"], "within": row["cpu_to_baseline"] <= BASELINE_TOLERANCE})
    return verdicts


def baseline_table(verdicts):
    lines = ["| server | scenario | CPU µs/req | baseline | ratio (median of pairs) | |", "|---|---|---:|---:|---:|---|"]
    for v in verdicts:
        lines.append(f"| {v['server']} | {v['scenario']} | {v['cpu_us_per_request']:.1f} | {v['baseline_cpu_us_per_request']:.1f} | "
                     f"{v['ratio']:.2f} ({v['pairs']}) | {'within 10 %' if v['within'] else 'OVER 10 %'} |")
    return "\n".join(lines)


def plot(rows, path):
    """Server CPU µs per request per server and scenario as horizontal bars on a log scale, the
    floor's and the ceiling's in their own colours, each rowserver bar labelled with its ratio to
    the floor; False when matplotlib is missing."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    colors = {"ceiling": "#555555", GZIP_CEILING: "#888888", "floor": "#2a9d3a", "hummingbird": "#d98c1f"}
    rows = [r for r in rows if r["cpu_us_per_request"] > 0]
    if not rows:
        return False
    figure, axis = plt.subplots(figsize=(9, max(3, len(rows) * 0.32)))
    positions = range(len(rows))[::-1]
    values = [r["cpu_us_per_request"] for r in rows]
    axis.barh(list(positions), values, color=[colors.get(r["server"], "#b0b0d0" if r["server"].startswith(BASELINE_PREFIX)
                                                         else "#2a6fb0") for r in rows])
    axis.set_yticks(list(positions), [f"{r['server']} · {r['scenario']}" for r in rows], fontsize=8)
    for position, row in zip(positions, rows):
        note = f"{row['cpu_us_per_request']:,.1f} µs"
        if "cpu_over_floor" in row:
            note += f"  ({row['cpu_over_floor']:.1f}× the floor)"
        if "cpu_vs_ceiling" in row:
            note += f"  (ceiling {row['cpu_vs_ceiling']:.0%})"
        axis.text(row["cpu_us_per_request"], position, " " + note, va="center", fontsize=7)
    axis.set_xscale("log")
    axis.set_xlim(min(values) / 1.5, max(values) * 30)
    axis.set_xlabel("server CPU µs per request (log scale; wrk -t1 -c32 unless the scenario says)")
    axis.set_title("rowserver against the floor (green) and the ceiling (grey), one run")
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return True
