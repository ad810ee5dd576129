#!/usr/bin/python3
"""Plots and an HTML report for a results directory made by experiments.py:
AoI bars (case 1, like the paper's Fig. 6) and tail latency vs. SQI-SSIM
scatters with one-sigma error ellipses (cases 2-3, like Figs. 9, 11, 13),
and tables with every scheme's ratio to Octopus.

Usage: bench/report.py results/latest
"""
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

ORDER = ["octopus", "octobbr", "fifo", "pdrop50", "pdrop100", "pdrop200",
         "pdrop375", "codel", "bode", "oracle", "gcc", "salsify", "awstream",
         "vivo"]
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
    ax.set_xscale("log")
    ax.xaxis.set_major_formatter(matplotlib.ticker.ScalarFormatter())
    ax.xaxis.set_minor_formatter(matplotlib.ticker.ScalarFormatter())
    ax.tick_params(axis="x", which="minor", labelsize=7)
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


def runs_table(records):
    keys = ["case", "scheme", "trace", "rtt_ms", "video", "median_aoi_ms", "p99_aoi_ms",
            "p50_latency_ms", "p99_latency_ms", "sqi_ssim", "utilization"]
    rows = ["<tr>" + "".join(f"<th>{k}</th>" for k in keys) + "<th>drops</th></tr>"]
    for r in records:
        cells = "".join(f"<td>{fmt(r[k], 3) if isinstance(r[k], float) else html.escape(str(r[k]))}</td>"
                        for k in keys)
        drops = ", ".join(f"{k} {v}" for k, v in r["drops"].items() if v)
        rows.append(f"<tr>{cells}<td>{html.escape(drops)}</td></tr>")
    return "<table>" + "\n".join(rows) + "</table>"


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    with open(os.path.join(out, "summary.json")) as f:
        records = json.load(f)
    parts = ["<!doctype html><meta charset=utf-8><title>gst-octopus experiments</title>",
             "<style>body{font-family:sans-serif;max-width:1200px;margin:auto}"
             "table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #ccc;"
             "padding:3px 6px;text-align:right}img{max-width:100%}</style>",
             "<h1>gst-octopus: simulated experiments</h1>",
             "<p>Means over the runs of each scheme (traces × videos × RTTs); "
             "\"Octopus ×r\" is Octopus's value divided by the scheme's "
             "(for latency and AoI, r &lt; 1 means Octopus is lower). SQI-SSIM uses a 1 s "
             "decay; details.json in each run gives 0.5 s and 2 s.</p>"]
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
    parts.append("<h2>Every run</h2>")
    parts.append(runs_table(records))
    with open(os.path.join(out, "index.html"), "w") as f:
        f.write("\n".join(parts) + "\n")
    print(f"report: {os.path.join(out, 'index.html')}")


if __name__ == "__main__":
    main()
