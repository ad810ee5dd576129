#!/usr/bin/python3
"""The simulator against a live scheme of eval/live-eval.py on the same
trace, RTT and clip: real GCC (rtpgccbwe in demo-pipelines/webrtc-call.py's
gcc arm, or Chromium's, chromium-gcc) against the simulator's gcc scheme,
make demo's two arms (case2-octopus, case2-droptail) and live case 1's
(case1-octopus, case1-droptail) against octopus and octobbr (issue 17).

For every valid real run of LIVE_OUT/runs.json (the load guard's verdict)
the simulator replays the same stretch of the same down trace: the Mahimahi
trace from the real run's first capture (ms since the shim's trace began),
capturing for as long as it captured (octo-sim --duration-ms: its last
frames, which nothing newer follows into the queues, are the real run's
last) and running the links on for as long as the real shim ran after that
(--drain-ms: what arrives later is lost on both sides), each frame sent
after the real run's median capture->encoded lag (--encode-lag-ms;
--no-encode-lag: at capture), the same RTT (2 x the run's --delay-ms) and
the clip's own video trace as that arm encodes it (eval/clip-video-trace.py:
bbb-360p-vp8.trace for the gcc arms, bbb-360p-live-quality.trace for make
demo's, bbb-360p-live-temp.trace for case 1's). Both sides are scored by the same code (octo-metrics' summary.json;
utilisation as in live-eval.py: link bytes of messages delivered whole over
the capacity the trace offered while the sender captured). Prints per run
and the means per trace and over all valid runs, with the ratio sim / real;
the goal is agreement within 25 % on p99 latency and on utilisation on every
trace.

    bench/validate-live.py LIVE_OUT [--scheme gcc] [--sim-scheme S]
        [--video TRACE] [--sim build/bench/sim/octo-sim] [--out DIR]
        [--metrics build/eval/octo-metrics] [--exclude-tail-ms N]
        [--no-encode-lag] [--include-invalid]

--sim-scheme and --video default to the scheme's counterpart (SIMULATED).

--exclude-tail-ms N compares p99 latency over the frames captured at least N
ms before each real run's last capture, as octo-metrics --captured-until-ns
scores both sides' logs (a run's last frames, which nothing newer follows
into the queues, decide its end: in the live ATT runs they met a fall in
capacity still in the sender's buffer and the simulated ones did not,
docs/design.md §8). --include-invalid also simulates the runs the load guard
rejected and prints them apart, marked invalid: for looking at a loaded
machine's runs, never for the verdict. Exit status 0 when both metrics agree
within 25 %, 1 when they do not, 2 when there is no valid real run or the
command line is wrong (argparse)."""
import argparse
import json
import math
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "eval"))
from summary import encoded_captures_ms  # noqa: E402  (live-eval's and summary's span)
GOAL = 0.25
VIDEO = os.path.join(ROOT, "data", "traces", "video")
# live-eval scheme: (simulator scheme, the clip's trace as that arm encodes it)
SIMULATED = {"gcc": ("gcc", "bbb-360p-vp8.trace"),
             "chromium-gcc": ("gcc", "bbb-360p-vp8.trace"),
             "case2-octopus": ("octopus", "bbb-360p-live-quality.trace"),
             "case2-droptail": ("octobbr", "bbb-360p-live-quality.trace"),
             "case1-octopus": ("octopus", "bbb-360p-live-temp.trace"),
             "case1-droptail": ("octobbr", "bbb-360p-live-temp.trace")}
DEFAULT_DELAY_MS = 30           # live-eval.py's default --delay-ms


def case_of(scheme):
    """The case study a live-eval scheme runs: case1-* are case 1."""
    return 1 if scheme.startswith("case1") else 2


def uses_up_trace(scheme):
    """octopus-call.py's one-link arms (case1-*, case2-*) carry the ACKs over
    the trace's up trace too; webrtc-call.py's shim shapes the down link only
    (and the multipath arms' links have no up trace)."""
    return scheme.startswith("case")


def read_csv(path):
    with open(path) as f:
        header = f.readline().strip().split(",")
        return [dict(zip(header, line.strip().split(","))) for line in f if line.strip()]


def trace_times(path):
    with open(path) as f:
        return [int(line) for line in f if line.strip()]


def trace_segment(times, start_ms, length_ms):
    """The delivery opportunities of the looped trace @times in
    [start_ms, start_ms + length_ms], shifted to start at 0: a trace that
    does not loop within @length_ms."""
    period = times[-1]
    out = []
    loop = start_ms // period
    while True:
        base = loop * period
        for t in times:
            at = base + t - start_ms
            if at <= 0:
                continue
            if at > length_ms:
                return out
            out.append(at)
        loop += 1


def real_span(run_dir):
    """(first capture ms since the shim's start, capture span ms, frame
    interval ms, how long the shim ran on after the span, ms) of a real
    run."""
    with open(os.path.join(run_dir, "call.json")) as f:
        call = json.load(f)
    first, last, interval = encoded_captures_ms(run_dir)
    start = first - call["shim_start_ns"] / 1e6
    span = last - first + interval
    # shim_start_ns is taken just before the shim is launched, its uptime
    # counts from its own start: the drain comes out short by that launch
    return start, span, interval, call["shim"]["uptime_s"] * 1e3 - start - span


def encode_lag_ms(run_dir):
    """The real run's median capture->encoded lag in whole ms (encoded.csv)."""
    rows = read_csv(os.path.join(run_dir, "encoded.csv"))
    lags = sorted(int(r["encoded_ns"]) - int(r["capture_ns"]) for r in rows)
    return round(lags[len(lags) // 2] / 1e6)


def simulate(args, record, out):
    """The simulator's run of @record's stretch of trace; its summary."""
    run_dir = os.path.join(args.live_out, record["dir"])
    start, span, interval, drain = real_span(run_dir)
    down = os.path.join(ROOT, "data", "traces", "network", record["trace"] + ".down")
    lag = 0 if args.no_encode_lag else encode_lag_ms(run_dir)
    seg_path = os.path.join(out, "trace.down")
    os.makedirs(out, exist_ok=True)
    links = [(down, seg_path, "--trace")]
    up = down[:-len(".down")] + ".up"
    if uses_up_trace(record["scheme"]) and os.path.exists(up):
        links.append((up, os.path.join(out, "trace.up"), "--up-trace"))
    for full, path, _ in links:
        with open(path, "w") as f:
            # a little more than the run: the simulator may send past its end
            f.write("\n".join(map(str, trace_segment(trace_times(full), int(start),
                                                     math.ceil(span + drain) + 5000)))
                    + "\n")
    rtt = 2 * record.get("delay_ms", DEFAULT_DELAY_MS)
    subprocess.run([args.sim, f"--case={case_of(record['scheme'])}",
                    f"--scheme={args.sim_scheme}",
                    f"--video={args.video}", f"--rtt-ms={rtt}",
                    f"--duration-ms={round(span)}", f"--drain-ms={max(lag, round(drain))}",
                    f"--encode-lag-ms={lag}",
                    f"--out={out}",
                    f"--trace-label={record['trace']}@{int(start)}ms"]
                   + [f"{flag}={path}" for _, path, flag in links],
                   check=True, capture_output=True)
    with open(os.path.join(out, "summary.json")) as f:
        summary = json.load(f)
    summary = summary[0] if isinstance(summary, list) else summary
    # the simulator captures from 0 = the real run's first capture for as
    # long as the real run did, so its last frame is the real one's
    return {"p99_latency_ms": summary["p99_latency_ms"] if not args.exclude_tail_ms else
            p99_until(args, out, (span - interval - args.exclude_tail_ms) * 1e6,
                      os.path.join(out, "until")),
            "utilisation": 100 * summary["utilization"],
            "p99_aoi_ms": summary["p99_aoi_ms"],
            "start_ms": start, "duration_ms": round(span), "drain_ms": round(drain),
            "encode_lag_ms": lag, "rtt_ms": rtt}


def last_capture_ns(run_dir):
    """The newest capture time in a run's sender log (octo-metrics' sent.csv)."""
    return max(int(r["capture_ns"]) for r in read_csv(os.path.join(run_dir, "sent.csv")))


def p99_until(args, run_dir, until_ns, out):
    """p99 latency of @run_dir's frames captured up to @until_ns, scored by
    octo-metrics from the run's sender and receiver logs (the simulator
    writes the same logs), as if the run had ended there."""
    subprocess.run([args.metrics, f"--case={case_of(args.scheme)}",
                    f"--sent={run_dir}/sent.csv",
                    f"--received={run_dir}/received.csv",
                    f"--captured-until-ns={int(until_ns)}", f"--out={out}"],
                   check=True, capture_output=True)
    with open(os.path.join(out, "summary.json")) as f:
        summary = json.load(f)
    return (summary[0] if isinstance(summary, list) else summary)["p99_latency_ms"]


def mean(values):
    return sum(values) / len(values) if values else None


# compared; the verdict is on the first two (p99 AoI, case 1's goal metric,
# is shown beside them)
METRICS = ("p99_latency_ms", "utilisation", "p99_aoi_ms")


def compare(rows):
    """Means over @rows of (real, sim) per metric and the ratio sim / real."""
    result = {}
    for key in (k for k in METRICS
                if all(k in r["real"] and k in r["sim"] for r in rows)):
        real = mean([r["real"][key] for r in rows])
        sim = mean([r["sim"][key] for r in rows])
        result[key] = {"real": real, "sim": sim,
                       "ratio": sim / real if real else None}
    return result


def by_trace(rows):
    """{trace: rows} in the order the traces first appear."""
    out = {}
    for r in rows:
        out.setdefault(r["trace"], []).append(r)
    return out


def worst_disagreement(comparison):
    return max(abs(comparison[k]["ratio"] - 1) for k in ("p99_latency_ms", "utilisation"))


def print_rows(title, rows):
    print(title)
    print(f"  {'run':<34}{'start s':>8}{'p99 real':>10}{'p99 sim':>9}"
          f"{'util real':>10}{'util sim':>9}  guard")
    for r in rows:
        faults = "; ".join(": ".join(f) for f in r["faults"]) or "valid"
        print(f"  {r['dir']:<34}{r['sim']['start_ms'] / 1000:8.1f}"
              f"{r['real']['p99_latency_ms']:10.1f}{r['sim']['p99_latency_ms']:9.1f}"
              f"{r['real']['utilisation']:10.1f}{r['sim']['utilisation']:9.1f}  {faults}")


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("live_out", help="an eval/live-eval.py run folder")
    p.add_argument("--sim", default=os.path.join(ROOT, "build", "bench", "sim", "octo-sim"))
    p.add_argument("--video", default=None,
                   help="the simulator's video trace (default: the scheme's, SIMULATED)")
    p.add_argument("--out", default=None, help="simulated runs (default LIVE_OUT/sim)")
    p.add_argument("--scheme", default="gcc", help="the real runs' scheme")
    p.add_argument("--sim-scheme", default=None,
                   help="the simulator's scheme (default: the scheme's, SIMULATED)")
    p.add_argument("--include-invalid", action="store_true")
    p.add_argument("--no-encode-lag", action="store_true",
                   help="the simulator sends each frame at its capture (default: after "
                        "the real run's median capture->encoded lag)")
    p.add_argument("--metrics", default=os.path.join(ROOT, "build", "eval", "octo-metrics"))
    p.add_argument("--exclude-tail-ms", type=int, default=0,
                   help="p99 latency over the frames captured at least this long "
                        "before each real run's last capture, on both sides, scored by "
                        "octo-metrics (default 0: every frame, the summaries' p99)")
    args = p.parse_args()
    if args.scheme not in SIMULATED and not (args.sim_scheme and args.video):
        p.error(f"no simulated counterpart known for {args.scheme}: "
                "give --sim-scheme and --video")
    sim_scheme, video = SIMULATED.get(args.scheme, (None, None))
    args.sim_scheme = args.sim_scheme or sim_scheme
    args.video = args.video or os.path.join(VIDEO, video)
    out = args.out or os.path.join(args.live_out, "sim")
    with open(os.path.join(args.live_out, "runs.json")) as f:
        records = [r for r in json.load(f)["runs"] if r["scheme"] == args.scheme]
    valid, invalid = [], []
    for r in records:
        if "metrics" not in r or not os.path.exists(
                os.path.join(args.live_out, r["dir"], "encoded.csv")):
            continue
        if r["faults"] and not args.include_invalid:
            invalid.append(dict(r, sim=None))
            continue
        sim = simulate(args, r, os.path.join(out, r["dir"]))
        real = dict(r["metrics"])
        if args.exclude_tail_ms:
            run_dir = os.path.join(args.live_out, r["dir"])
            real["p99_latency_ms"] = p99_until(
                args, run_dir, last_capture_ns(run_dir) - args.exclude_tail_ms * 1e6,
                os.path.join(out, r["dir"], "real-until"))
        row = dict(r, real=real, sim=sim)
        (invalid if r["faults"] else valid).append(row)
    n_invalid = sum(1 for r in records if r["faults"])
    print(f"validate-live: {args.scheme} real vs {args.sim_scheme} simulated, "
          f"{len(records)} real runs: {len(records) - n_invalid} valid, {n_invalid} invalid "
          f"(load guard); video {os.path.basename(args.video)}")
    verdict = {"valid_runs": len(valid), "invalid_runs": n_invalid}
    if args.include_invalid and any(r["sim"] for r in invalid):
        shown = [r for r in invalid if r["sim"]]
        print_rows("invalid runs (NOT a result: the load guard rejected them)", shown)
        verdict["invalid_comparison"] = compare(shown)
        for key, c in verdict["invalid_comparison"].items():
            print(f"  mean over invalid runs {key}: real {c['real']:.1f} sim {c['sim']:.1f} "
                  f"ratio {c['ratio']:.2f}")
    if not valid:
        print("validate-live: no valid real run: no verdict (re-run live-eval on a quiet machine)")
        verdict["agree"] = None
        code = 2
    else:
        print_rows("valid runs", valid)
        verdict.update(compare(valid))
        verdict["traces"] = {t: dict(compare(rs), runs=len(rs))
                             for t, rs in by_trace(valid).items()}
        worst = max(worst_disagreement(c) for c in verdict["traces"].values())
        verdict["agree"] = worst <= GOAL
        for trace, c in verdict["traces"].items():
            print(f"  {trace} ({c['runs']} valid runs): " + "; ".join(
                f"{key} real {c[key]['real']:.1f} sim {c[key]['sim']:.1f} "
                f"ratio {c[key]['ratio']:.2f}" for key in METRICS if key in c))
        for key in (k for k in METRICS if k in verdict):
            c = verdict[key]
            print(f"  mean over {len(valid)} valid runs {key}: real {c['real']:.1f} "
                  f"sim {c['sim']:.1f} ratio {c['ratio']:.2f}")
        print(f"validate-live: largest disagreement on one trace {100 * worst:.1f} % "
              f"(goal: within {100 * GOAL:.0f} %): {'met' if verdict['agree'] else 'MISSED'}")
        code = 0 if verdict["agree"] else 1
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "validate-live.json"), "w") as f:
        json.dump(verdict, f, indent=1)
    return code


if __name__ == "__main__":
    sys.exit(main())
