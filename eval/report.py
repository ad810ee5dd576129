#!/usr/bin/python3
"""Plots and an HTML report for a results directory made by experiments.py:
AoI bars (case 1, like the paper's Fig. 6) and tail latency vs. SQI-SSIM
scatters with one-sigma error ellipses (cases 2-3, like Figs. 9, 11, 13),
tables with every scheme's ratio to Octopus, Octopus against the endpoint
baselines with the headline goals, and the Sec. 7 scenarios (tail latency
vs. SQI-SSIM per scheme and stream, like Figs. 12/14).

The schemes' order and which are endpoint baselines come from the
simulator's table that experiments.py writes next to the summary
(schemes.csv, octo-sim --list-schemes-csv).  Metrics: latency, AoI and
SQI-SSIM as gst-octopus/core/octo-metrics.h defines them (SQI over the
video traces' per-layer SSIM), utilisation = link bytes of messages
delivered whole over the capacity offered, probes excluded
(octo_utilisation).

Usage: eval/report.py results/latest
"""
import csv
import html
import json
import math
import os
import sys
from collections import defaultdict

import matplotlib
import matplotlib.ticker
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

# the simulator's scheme table (main() reads it): names in report order,
# and the endpoint-adaptation baselines among them
ORDER = []
ENDPOINT = []
# issue 6's goals: (case, metric, baseline or "best", bound, "<=" or ">=")
GOALS = [(1, "p99_aoi_ms", "best", 0.67, "<="),
         (2, "sqi_ssim", "gcc", 1.15, ">="), (2, "p99_latency_ms", "gcc", 0.5, "<="),
         (3, "sqi_ssim", "vivo", 1.09, ">="), (3, "p99_latency_ms", "vivo", 0.17, "<=")]
SCENARIO_TITLE = {"competing": "Sec. 7.3: a backlogged BBR flow at a 12 Mbit/s legacy FIFO",
                  "two-bottlenecks": "Sec. 7.3 / App. D: a 12 Mbit/s legacy FIFO, then the cellular queue",
                  "two-streams": "Sec. 7.4: two streams share the queue"}


def scenario_of(record):
    """experiments.py labels scenario runs through the trace name."""
    t = record["trace"]
    if t == "legacy-12Mbps-vs-BBR":
        return "competing"
    if t.startswith("legacy-12Mbps+"):
        return "two-bottlenecks"
    if t.endswith("-2streams"):
        return "two-streams"
    return "single"
CASE_TITLE = {1: "Case 1: frame rate (VP8 temporal layers)",
              2: "Case 2: quality (spatial layers)",
              3: "Case 3: volumetric (point-cloud layers, fraction of points)"}
METRICS = [("p99_aoi_ms", "p99 AoI (ms)"), ("median_aoi_ms", "median AoI (ms)"),
           ("p99_latency_ms", "p99 latency (ms)"), ("p50_latency_ms", "p50 latency (ms)"),
           ("sqi_ssim", "SQI-SSIM"), ("utilization", "utilisation")]


def scheme_key(s):
    return (ORDER.index(s) if s in ORDER else len(ORDER), s)


def mean(values):
    values = [v for v in values if v is not None and not math.isnan(v)]
    return sum(values) / len(values) if values else None


def fmt(v, digits=1):
    return "–" if v is None else f"{v:.{digits}f}"


def aoi_bars(records, case, out):
    groups = sorted({(r["trace"], r["video"], r["rtt_ms"]) for r in records})
    schemes = sorted({r["scheme"] for r in records}, key=scheme_key)
    fig, ax = plt.subplots(figsize=(min(12, max(6, 0.3 * len(groups) * len(schemes))), 4.5))
    width = 0.8 / len(schemes)
    for i, scheme in enumerate(schemes):
        vals = []
        for g in groups:
            match = [r["p99_aoi_ms"] for r in records if (r["trace"], r["video"], r["rtt_ms"]) == g
                     and r["scheme"] == scheme]
            vals.append(match[0] if match and match[0] is not None else 0)
        ax.bar(np.arange(len(groups)) + i * width, vals, width, label=scheme)
    ax.set_xticks(np.arange(len(groups)) + 0.4 - width / 2)
    ax.set_xticklabels([f"{t}\n{v}, {rtt} ms" for t, v, rtt in groups], fontsize=7)
    ax.set_ylabel("p99 age of information (ms)")
    ax.set_title(CASE_TITLE[case] + ": tail AoI")
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    plt.close(fig)


def log_ms_axis(ax):
    """A log latency axis labelled at 1, 2, 5 x 10^k ms only: labels on
    every minor tick (600, 700, 800, 900 ...) ran into each other."""
    ax.set_xscale("log")
    ax.xaxis.set_major_locator(matplotlib.ticker.LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    ax.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}"))
    ax.xaxis.set_minor_locator(matplotlib.ticker.LogLocator(base=10, subs=np.arange(2, 10)))
    ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    ax.tick_params(axis="x", which="major", labelsize=8)


def latency_quality(records, case, out):
    schemes = sorted({r["scheme"] for r in records}, key=scheme_key)
    fig, ax = plt.subplots(figsize=(6.5, 4.5))
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, scheme in enumerate(schemes):
        pts = [(r["p99_latency_ms"], r["sqi_ssim"]) for r in records
               if r["scheme"] == scheme and r["p99_latency_ms"] is not None
               and r["sqi_ssim"] is not None]
        if not pts:
            continue
        color = colors[i % len(colors)]
        xs, ys = np.array(pts).T
        ax.scatter(xs, ys, s=12, color=color, alpha=0.5)
        # centre: geometric mean of latency, as the log axis shows it
        ax.scatter([10 ** np.log10(xs).mean()], [ys.mean()], s=40, color=color,
                   label=scheme, edgecolor="black")
        if len(pts) >= 2:
            # one-sigma ellipse of the points' covariance (in log-latency)
            lx = np.log10(xs)
            cov = np.cov(lx, ys)
            vals, vecs = np.linalg.eigh(cov)
            vals = np.maximum(vals, 1e-12)
            t = np.linspace(0, 2 * np.pi, 100)
            circle = np.stack([np.cos(t), np.sin(t)])
            pts_e = vecs @ (np.sqrt(vals)[:, None] * circle)
            ax.plot(10 ** (lx.mean() + pts_e[0]), ys.mean() + pts_e[1], color=color,
                    linewidth=1)
    log_ms_axis(ax)
    ax.invert_xaxis()
    ax.set_xlabel("p99 frame latency (ms, log scale; better to the right)")
    ax.set_ylabel("SQI-SSIM (decay 1 s)" if case != 3 else "quality (fraction of points)")
    ax.set_title(CASE_TITLE[case])
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    plt.close(fig)


def table(records, case):
    schemes = sorted({r["scheme"] for r in records}, key=scheme_key)
    by_scheme = defaultdict(list)
    for r in records:
        by_scheme[r["scheme"]].append(r)
    base = {k: mean([r[k] for r in by_scheme.get("octopus", [])]) for k, _ in METRICS}
    rows = ["<tr><th>scheme</th>" + "".join(f"<th>{html.escape(t)}</th>" for _, t in METRICS)
            + "<th>runs</th></tr>"]
    for s in schemes:
        cells = []
        for k, _ in METRICS:
            v = mean([r[k] for r in by_scheme[s]])
            ratio = ""
            if s != "octopus" and v and base[k]:
                ratio = f" <small>(Octopus ×{base[k] / v:.2f})</small>"
            cells.append(f"<td>{fmt(v, 3 if k in ('sqi_ssim', 'utilization') else 1)}{ratio}</td>")
        rows.append(f"<tr><td>{html.escape(s)}</td>{''.join(cells)}<td>{len(by_scheme[s])}</td></tr>")
    return "<table>" + "\n".join(rows) + "</table>"


def matched_means(records, scheme, other, key):
    """Means of @key for @scheme and @other over the runs both have."""
    def index(s):
        return {(r["trace"], r["video"], r["rtt_ms"]): r[key] for r in records
                if r["scheme"] == s and r[key] is not None}
    a, b = index(scheme), index(other)
    common = sorted(set(a) & set(b))
    if not common:
        return None, None, 0
    return mean([a[k] for k in common]), mean([b[k] for k in common]), len(common)


def goals_table(records):
    """Octopus against every endpoint baseline, and the issue's goals."""
    rows = ["<tr><th>case</th><th>baseline</th><th>runs</th><th>p99 AoI ms</th>"
            "<th>p99 latency ms</th><th>SQI-SSIM</th><th>goal</th><th>Octopus / baseline</th>"
            "<th>met</th></tr>"]
    for case in sorted({r["case"] for r in records}):
        recs = [r for r in records if r["case"] == case]
        present = [s for s in ENDPOINT if any(r["scheme"] == s for r in recs)]
        best = None
        if present:
            best = min(present, key=lambda s: matched_means(recs, s, "octopus", "p99_aoi_ms")[0]
                       or float("inf"))
        for s in present:
            cells = []
            n = 0
            for key in ["p99_aoi_ms", "p99_latency_ms", "sqi_ssim"]:
                o, b, n = matched_means(recs, "octopus", s, key)
                digits = 3 if key == "sqi_ssim" else 0
                cells.append(f"<td>{fmt(o, digits)} vs {fmt(b, digits)}"
                             + (f" <small>(×{o / b:.2f})</small>" if o and b else "") + "</td>")
            goals = [g for g in GOALS if g[0] == case and (g[2] == s or (g[2] == "best" and s == best))]
            if not goals:
                rows.append(f"<tr><td>{case}</td><td>{html.escape(s)}</td><td>{n}</td>{''.join(cells)}"
                            "<td>–</td><td>–</td><td>–</td></tr>")
            for _, key, _, bound, op in goals:
                o, b, _ = matched_means(recs, "octopus", s, key)
                ratio = o / b if o and b else None
                met = ratio is not None and (ratio <= bound if op == "<=" else ratio >= bound)
                rows.append(f"<tr><td>{case}</td><td>{html.escape(s)}</td><td>{n}</td>{''.join(cells)}"
                            f"<td>{html.escape(f'{key} {op} {bound}×')}</td><td>{fmt(ratio, 2)}</td>"
                            f"<td>{'yes' if met else 'NO'}</td></tr>")
    return "<table>" + "\n".join(rows) + "</table>"


def goal_lines(records):
    """The issue's goals as text lines: what `make experiments` prints."""
    lines = []
    for case, key, baseline, bound, op in GOALS:
        recs = [r for r in records if r["case"] == case]
        present = [s for s in ENDPOINT if any(r["scheme"] == s for r in recs)]
        if baseline == "best" and present:
            baseline = min(present, key=lambda s: matched_means(recs, s, "octopus", key)[0]
                           or float("inf"))
        o, b, n = matched_means(recs, "octopus", baseline, key)
        if not o or not b:
            continue
        ratio = o / b
        met = ratio <= bound if op == "<=" else ratio >= bound
        lines.append(f"case {case}: Octopus {key} {o:.3f} / {baseline} {b:.3f} = {ratio:.2f}x "
                     f"(goal {op} {bound}x, {n} runs): {'met' if met else 'MISSED'}")
    return lines


# issue 18's simulated goals, per trace and RTT: Octopus against the Oracle
# (tail metric, SQI, utilisation bounds), case 1 also against the best
# endpoint baseline, case 2 also against OctoBBR (no regression)
ORACLE_GOALS = {1: ("p99_aoi_ms", 1.25, 0.95, 0.85), 2: ("p99_latency_ms", 1.25, 0.95, 0.85)}


def oracle_lines(records):
    """Octopus against the Oracle per trace and RTT: what `make experiments`
    prints after the endpoint goals."""
    lines = []
    for case, (key, tail, sqi, util) in ORACLE_GOALS.items():
        recs = [r for r in records if r["case"] == case]
        for trace, rtt in sorted({(r["trace"], r["rtt_ms"]) for r in recs}):
            runs = [r for r in recs if r["trace"] == trace and r["rtt_ms"] == rtt]
            ratios = {k: matched_means(runs, "octopus", "oracle", k)
                      for k in (key, "sqi_ssim", "utilization")}
            if any(not o or not b for o, b, _ in ratios.values()):
                continue
            checks = [(f"{key} {ratios[key][0]:.0f}", ratios[key][0] / ratios[key][1], "<=", tail),
                      ("SQI", ratios["sqi_ssim"][0] / ratios["sqi_ssim"][1], ">=", sqi),
                      ("utilisation", ratios["utilization"][0] / ratios["utilization"][1],
                       ">=", util)]
            extra = ""
            if case == 1:
                present = [s for s in ENDPOINT if any(r["scheme"] == s for r in runs)]
                base = [matched_means(runs, "octopus", s, key)[1] for s in present]
                base = [b for b in base if b]
                if base:
                    bound = max(0.67 * min(base), 1.1 * ratios[key][1])
                    ok = ratios[key][0] <= bound
                    extra = f"; {key} <= {bound:.0f} (0.67x best endpoint or 1.1x Oracle): " \
                            f"{'met' if ok else 'MISSED'}"
            if case == 2:
                o, b, _ = matched_means(runs, "octopus", "octobbr", key)
                qo, qb, _ = matched_means(runs, "octopus", "octobbr", "sqi_ssim")
                if o and b and qo and qb:
                    ok = o / b <= 0.39 and qo / qb >= 0.96
                    extra = f"; vs OctoBBR p99 {o / b:.2f}x (<= 0.39) SQI {qo / qb:.2f}x " \
                            f"(>= 0.96): {'met' if ok else 'MISSED'}"
            parts = [f"{name} {ratio:.2f}x ({op} {bound}): "
                     f"{'met' if (ratio <= bound if op == '<=' else ratio >= bound) else 'MISSED'}"
                     for name, ratio, op, bound in checks]
            lines.append(f"case {case} {trace} {rtt} ms, Octopus / Oracle: " + ", ".join(parts)
                         + extra)
    return lines


def scenario_plot(records, case, scenario, out):
    """Figs. 12/14 style: p99 latency vs SQI-SSIM, one marker per scheme
    (per stream in the two-stream scenario), means over the runs."""
    schemes = sorted({r["scheme"] for r in records}, key=scheme_key)
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    fig, ax = plt.subplots(figsize=(6.5, 4.5))
    for i, scheme in enumerate(schemes):
        for stream, marker in [(1, "o"), (2, "^")]:
            pts = [(r["p99_latency_ms"], r["sqi_ssim"]) for r in records
                   if r["scheme"] == scheme and r["video"].endswith("#2") == (stream == 2)
                   and r["p99_latency_ms"] is not None]
            if not pts:
                continue
            xs, ys = np.array(pts).T
            name = scheme if scenario != "two-streams" else f"{scheme} stream {stream}"
            # shrinking sizes keep coinciding schemes visible (Octopus is
            # OctoBBR at a legacy switch)
            ax.scatter([xs.mean()], [ys.mean()], s=110 - 12 * i, marker=marker,
                       color=colors[i % len(colors)], edgecolor="black", label=name)
    log_ms_axis(ax)
    ax.invert_xaxis()
    ax.set_xlabel("p99 frame latency (ms, log scale; better to the right)")
    ax.set_ylabel("SQI-SSIM (decay 1 s)" if case != 3 else "quality (fraction of points)")
    ax.set_title(f"Case {case}, {SCENARIO_TITLE[scenario]}", fontsize=9)
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    plt.close(fig)


RUN_KEY = ("case", "scheme", "trace", "rtt_ms", "video")


def run_dirs(out):
    """Each record's run directory (runs/NAME, as experiments.py names it),
    found through the run's own summary.json (one record, or a list for the
    two-stream scenario)."""
    dirs = {}
    runs = os.path.join(out, "runs")
    for name in sorted(os.listdir(runs)) if os.path.isdir(runs) else []:
        try:
            with open(os.path.join(runs, name, "summary.json")) as f:
                got = json.load(f)
        except (OSError, ValueError):
            continue
        for r in got if isinstance(got, list) else [got]:
            dirs[tuple(r.get(k) for k in RUN_KEY)] = name
    return dirs


def runs_table(records, dirs):
    keys = ["case", "scheme", "trace", "rtt_ms", "video", "median_aoi_ms", "p99_aoi_ms",
            "p50_latency_ms", "p99_latency_ms", "sqi_ssim", "utilization"]
    rows = ["<tr>" + "".join(f"<th>{k}</th>" for k in keys) + "<th>drops</th><th>run</th></tr>"]
    for r in records:
        cells = "".join(f"<td>{fmt(r[k], 3) if isinstance(r[k], float) else html.escape(str(r[k]))}</td>"
                        for k in keys)
        drops = ", ".join(f"{k} {v}" for k, v in r["drops"].items() if v)
        name = dirs.get(tuple(r.get(k) for k in RUN_KEY))
        run = "" if name is None else (
            f'<a href="runs/{html.escape(name)}/">folder</a> '
            f'<a href="runs/{html.escape(name)}/frames.csv">frames.csv</a>')
        rows.append(f"<tr>{cells}<td>{html.escape(drops)}</td><td>{run}</td></tr>")
    return "<table>" + "\n".join(rows) + "</table>"


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    with open(os.path.join(out, "schemes.csv"), newline="") as f:
        for row in csv.DictReader(f):
            ORDER.append(row["name"])
            if row["endpoint_baseline"] == "1":
                ENDPOINT.append(row["name"])
    with open(os.path.join(out, "summary.json")) as f:
        everything = json.load(f)
    records = [r for r in everything if scenario_of(r) == "single"]
    parts = ["<!doctype html><meta charset=utf-8><title>gst-octopus experiments</title>",
             "<style>body{font-family:sans-serif;max-width:1200px;margin:auto}"
             "table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #ccc;"
             "padding:3px 6px;text-align:right}img{max-width:100%}</style>",
             "<h1>gst-octopus: simulated experiments</h1>",
             "<p>Means over the runs of each scheme (traces × videos × RTTs); "
             "\"Octopus ×r\" is Octopus's value divided by the scheme's "
             "(for latency and AoI, r &lt; 1 means Octopus is lower). SQI-SSIM uses a 1 s "
             "decay over the video traces' per-layer SSIM; details.json in each run gives "
             "0.5 s and 2 s. Utilisation: link bytes of messages delivered whole over the "
             "capacity the trace offered, bandwidth probes excluded.</p>"]
    for case in sorted({r["case"] for r in records}):
        recs = [r for r in records if r["case"] == case]
        parts.append(f"<h2>{html.escape(CASE_TITLE[case])}</h2>")
        parts.append(table(recs, case))
        if case == 1:
            aoi_bars(recs, case, os.path.join(out, "case1-aoi.png"))
            parts.append('<p><img src="case1-aoi.png"></p>')
        name = f"case{case}-latency-quality.png"
        latency_quality(recs, case, os.path.join(out, name))
        parts.append(f'<p><img src="{name}"></p>')
    if any(r["scheme"] in ENDPOINT for r in records):
        parts.append("<h2>Octopus vs. the endpoint baselines</h2>")
        parts.append("<p>Means over the runs both schemes have (same trace, video, RTT); "
                     "\"best\" in case 1 is the endpoint baseline with the lowest p99 AoI.</p>")
        parts.append(goals_table(records))
    for scenario in ["competing", "two-bottlenecks", "two-streams"]:
        recs = [r for r in everything if scenario_of(r) == scenario]
        if not recs:
            continue
        parts.append(f"<h2>{html.escape(SCENARIO_TITLE[scenario])}</h2>")
        for case in sorted({r["case"] for r in recs}):
            crecs = [r for r in recs if r["case"] == case]
            parts.append(table(crecs, case))
            name = f"case{case}-{scenario}.png"
            scenario_plot(crecs, case, scenario, os.path.join(out, name))
            parts.append(f'<p><img src="{name}"></p>')
    parts.append("<h2>Every run</h2>")
    parts.append("<p>Each run's folder holds its per-frame CSVs (frames.csv, sent.csv, "
                 "received.csv), inputs.json (traces with their SHA-256) and details.json.</p>")
    parts.append(runs_table(everything, run_dirs(out)))
    with open(os.path.join(out, "index.html"), "w") as f:
        f.write("\n".join(parts) + "\n")
    for line in goal_lines(records) + oracle_lines(records):
        print(line)
    print(f"report: {os.path.join(out, 'index.html')}")


if __name__ == "__main__":
    main()
