#!/usr/bin/python3
"""Runs a matrix of simulated experiments (build/bench/sim/octo-sim) in
parallel and collects them into results/<run>/: one directory per run with
its per-frame CSV and inputs, summary.json (a list of records), meta.json
(date, host, command: kept apart so identical inputs give identical
summaries), schemes.csv (the simulator's scheme table, octo-sim
--list-schemes-csv: the one list of schemes) and the report (eval/report.py).

Examples:
  bench/experiments.py                              # the default matrix
  bench/experiments.py --cases 2 --schemes octopus,octobbr --rtts 20,60,120
  bench/experiments.py --traces Verizon-LTE-short,/path/to/my.down
  # the papers' Sec. 7 scenarios (Figs. 12/14: case 2, Verizon, 120 ms)
  bench/experiments.py --cases 2 --traces Verizon-LTE-short --rtts 120 \
      --scenarios competing,two-bottlenecks,two-streams \
      --schemes octopus,octobbr,gcc,salsify,awstream-bbr,awstream-cubic

Scenario runs are told apart by their trace label (the summary keeps the
same keys for every run): "legacy-12Mbps-vs-BBR" (competing),
"legacy-12Mbps+<trace>" (two-bottlenecks), "<trace>-2streams" (two-streams,
one record per stream, the second's video label ending in "#2").
"""
import argparse
import csv
import datetime
import io
import json
import os
import platform
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor, as_completed

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NETWORK = os.path.join(ROOT, "data", "traces", "network")
VIDEO = os.path.join(ROOT, "data", "traces", "video")

SCENARIOS = ["single", "competing", "two-bottlenecks", "two-streams"]
DEV_TRACES = {1: ["Verizon-LTE-short", "TMobile-LTE-short", "ATT-LTE-driving-2016"],
              2: ["Verizon-LTE-short", "TMobile-LTE-short", "ATT-LTE-driving-2016"],
              3: ["5G-static-1"]}
VIDEOS = {1: ["mot17-10-temp", "mot17-11-temp"],
          2: ["mot17-10-quality", "mot17-11-quality"],
          3: ["dance"]}
# A video trace's run label is its name without this (mot17-10-quality runs
# as mot17-10; bbb-360p-quality, the shipped clip, as bbb-360p).
VIDEO_KIND = {1: "-temp", 2: "-quality"}


def sim_schemes(sim):
    """The simulator's scheme table (octo-sim --list-schemes-csv) as text
    and as {name: cases}, in report order."""
    text = subprocess.run([sim, "--list-schemes-csv"], check=True,
                          capture_output=True, text=True).stdout
    schemes = {}
    for row in csv.DictReader(io.StringIO(text)):
        schemes[row["name"]] = [int(c) for c in row["cases"].split()]
    return text, schemes


def csv_list(text, convert=str):
    return [convert(x) for x in text.split(",") if x]


def int_list(text):
    try:
        return csv_list(text, int)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected whole numbers separated by commas, got '{text}'")


def shipped(folder, suffix):
    """{name: path} of the traces shipped in @folder, by file name."""
    names = {}
    for f in sorted(os.listdir(folder)):
        if f.endswith(suffix):
            path = os.path.join(folder, f)
            names[f[:-len(suffix)]] = path
    return names


def resolve(name, folder, suffix, case=None):
    """A trace given by name (a shipped trace, or a video's run label for
    @case) or by path."""
    if os.path.sep in name or os.path.exists(name):
        path = os.path.abspath(name)
        if not os.path.exists(path):
            sys.exit(f"experiments: no such trace: {name}")
        return path
    names = shipped(folder, suffix)
    if name in names:
        return names[name]
    if case is not None and name + VIDEO_KIND.get(case, "") in names:
        return names[name + VIDEO_KIND[case]]
    sys.exit(f"experiments: no such trace: {name} (shipped: "
             f"{', '.join(names)}; or give a path)")


def label(path, video):
    base = os.path.basename(path).split(".")[0]
    if video and base.count("-") >= 2:
        base = base.rsplit("-", 1)[0]
    return base


def scenario_trace_label(scenario, trace):
    return {"single": trace, "competing": "legacy-12Mbps-vs-BBR",
            "two-bottlenecks": f"legacy-12Mbps+{trace}",
            "two-streams": f"{trace}-2streams"}[scenario]


def plan(args):
    runs = []
    for case in args.cases:
        traces = args.traces or DEV_TRACES[case]
        videos = args.videos or VIDEOS[case]
        for scenario in args.scenarios:
            # the competing flow's legacy link replaces the trace
            for trace in traces[:1] if scenario == "competing" else traces:
                down = resolve(trace, NETWORK, ".down")
                up = down[:-5] + ".up" if down.endswith(".down") else None
                tlabel = scenario_trace_label(scenario, label(down, False))
                for rtt in args.rtts:
                    for i, video in enumerate(videos):
                        vpath = resolve(video, VIDEO, ".trace", case)
                        other = resolve(videos[(i + 1) % len(videos)], VIDEO, ".trace", case)
                        for scheme in args.schemes:
                            # endpoint baselines model only some cases
                            if case not in args.scheme_cases[scheme]:
                                continue
                            if scheme == "oracle" and scenario != "single":
                                continue
                            name = "-".join([f"case{case}", scheme, tlabel,
                                             f"{rtt}ms", label(vpath, True)])
                            cmd = [args.sim, "--case", str(case), "--scheme", scheme,
                                   "--trace", down, "--video", vpath,
                                   "--rtt-ms", str(rtt), "--duration", str(args.duration),
                                   "--trace-label", tlabel,
                                   "--video-label", label(vpath, True),
                                   "--cross-mbps", str(args.cross_mbps),
                                   "--scenario", scenario,
                                   "--out", os.path.join(args.out, "runs", name)]
                            if scenario == "two-streams":
                                cmd += ["--video2", other]
                            if args.slack_ms is not None:
                                cmd += ["--slack-ms", str(args.slack_ms)]
                            if up and os.path.exists(up) and not args.no_uplink_trace:
                                cmd[cmd.index("--video"):cmd.index("--video")] = ["--up-trace", up]
                            runs.append((name, cmd))
    return runs


def progress(done, total, failed):
    width = 40
    filled = width * done // max(total, 1)
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}"
                     + (f" ({failed} failed)" if failed else ""))
    sys.stderr.flush()


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--cases", type=int_list, default=[1, 2, 3],
                   help="case studies, comma-separated, of 1 (framerate), "
                        "2 (quality), 3 (volumetric) (default: 1,2,3)")
    p.add_argument("--schemes", type=csv_list, default=None,
                   help="comma-separated; default: every scheme "
                        "octo-sim --list-schemes lists, each run for the "
                        "cases it models")
    p.add_argument("--scenarios", type=csv_list, default=["single"],
                   help="of " + ", ".join(SCENARIOS) + " (default: single)")
    p.add_argument("--rtts", type=int_list, default=[60],
                   help="round-trip propagation delays in ms, comma-separated "
                        "(default: 60)")
    p.add_argument("--traces", type=csv_list, default=None,
                   help="network traces by name (data/traces/network) or path; "
                        "default: the dev traces of each case")
    p.add_argument("--videos", type=csv_list, default=None,
                   help="video traces by name (data/traces/video), by the "
                        "label runs carry (e.g. mot17-10) or path; default: "
                        "the case's own")
    p.add_argument("--duration", type=int, default=60,
                   help="seconds of each run (default: 60)")
    p.add_argument("--cross-mbps", type=float, default=0,
                   help="constant-rate cross traffic through the bottleneck, "
                        "Mbit/s (default: 0)")
    p.add_argument("--slack-ms", type=int, default=None,
                   help="slack of every tagged message, ms (octo-sim "
                        "--slack-ms; default: the preset's, 10 for case 2, "
                        "else 0)")
    p.add_argument("--out", default=os.path.join(ROOT, "results", "latest"),
                   help="results folder (default: results/latest)")
    p.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 2,
                   help="runs in parallel (default: the number of CPUs)")
    p.add_argument("--sim", default=os.path.join(ROOT, "build", "bench", "sim", "octo-sim"),
                   help="the simulator binary (default: build/bench/sim/octo-sim)")
    p.add_argument("--no-uplink-trace", action="store_true",
                   help="unconstrained uplink even where a .up trace exists")
    p.add_argument("--no-report", action="store_true",
                   help="collect summary.json only, no plots or HTML")
    args = p.parse_args()
    if args.slack_ms is not None and not 0 <= args.slack_ms <= 1023:
        p.error(f"--slack-ms: {args.slack_ms} is outside 0..1023 ms (the tag's field)")
    bad = [c for c in args.cases if c not in VIDEOS]
    if bad:
        p.error(f"--cases: no case study {', '.join(map(str, bad))} "
                f"(known: {', '.join(map(str, VIDEOS))})")
    if args.duration <= 0 or args.jobs <= 0 or any(r < 0 for r in args.rtts):
        p.error("--duration and --jobs must be positive, --rtts not negative")
    if not os.access(args.sim, os.X_OK):
        sys.exit(f"experiments: simulator not built: {args.sim} (run make)")
    scheme_table, args.scheme_cases = sim_schemes(args.sim)
    known = list(args.scheme_cases)
    args.schemes = args.schemes or known
    unknown = [s for s in args.schemes if s not in known]
    if unknown:
        sys.exit(f"experiments: unknown scheme(s) {', '.join(unknown)}; known: {', '.join(known)}")
    unknown = [s for s in args.scenarios if s not in SCENARIOS]
    if unknown:
        sys.exit(f"experiments: unknown scenario(s) {', '.join(unknown)}; known: {', '.join(SCENARIOS)}")
    args.out = os.path.abspath(args.out)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "schemes.csv"), "w") as f:
        f.write(scheme_table)

    runs = plan(args)
    failed = []
    done = 0
    progress(0, len(runs), 0)
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = {pool.submit(subprocess.run, cmd, capture_output=True, text=True): name
                   for name, cmd in runs}
        for future in as_completed(futures):
            result = future.result()
            if result.returncode != 0:
                failed.append((futures[future], result.stderr.strip()))
            done += 1
            progress(done, len(runs), len(failed))
    sys.stderr.write("\n")
    for name, err in failed:
        sys.stderr.write(f"experiments: {name} failed: {err}\n")

    records = []
    for name, _ in sorted(runs):
        for sub in ["", "stream2"]:
            path = os.path.join(args.out, "runs", name, sub, "summary.json")
            if os.path.exists(path):
                with open(path) as f:
                    records.append(json.load(f))
    with open(os.path.join(args.out, "summary.json"), "w") as f:
        json.dump(records, f, indent=1, sort_keys=False)
        f.write("\n")
    with open(os.path.join(args.out, "meta.json"), "w") as f:
        json.dump({"date": datetime.datetime.now(datetime.timezone.utc).isoformat(),
                   "host": platform.node(), "command": sys.argv,
                   "git": subprocess.run(["git", "-C", ROOT, "rev-parse", "HEAD"],
                                         capture_output=True, text=True).stdout.strip(),
                   "runs": len(runs), "failed": [n for n, _ in failed]}, f, indent=1)
        f.write("\n")
    print(f"experiments: {len(records)} runs in {args.out}/summary.json")
    if not args.no_report:
        subprocess.run([sys.executable, os.path.join(ROOT, "eval", "report.py"), args.out],
                       check=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
