#!/usr/bin/python3
"""Live evaluation: each scheme K times per trace through real calls, the
schemes interleaved (A B C A B C ...), every run checked by a load guard;
a table with the mean and 95 % confidence interval of every metric over the
valid runs and an HTML page (latency CDFs, rate/estimate/capacity time
series per run, a link to every run's folder).

    live-eval.py run OUT [--traces T ...] [--schemes S ...] [--repeats K]
        [--seconds N] [--delay-ms D] [--build DIR] [--call-arg ARG ...] [--resume]

Schemes: webrtc-call.py's (gcc, chromium-gcc, octopus-svc, octopus-bbr, ...:
WebRTC calls through octopus-shim --shell), and the Octopus transport's
live case studies (demo-pipelines/octopus-call.py): case2-octopus,
case2-droptail, case2-quco (make demo's case 2 and QUCO's arm), case1-octopus,
case1-droptail, and over two links (TRACE as link a, 5G-driving-1 as link b
unless --call-arg=--trace-b=PATH): mp-SCHEDULER (min-cost, min-rtt, wrr,
edcld, sfl), mp-SCHEDULER-resend (the same, resending lost packets of key
frames: octopus-call.py --resend-keyframes) and the single-path arms
mp-single-a, mp-single-b.

--call-arg passes ARG to every call (repeat it for several),
e.g. --call-arg=--twcc-interval-ms=50 to compare a receiver setting, or
--call-arg=--cc=delay-bbr for the Octopus arms' controller; a setting that
changes one arm's receiver must be compared with every arm run with it.
--resume adds runs to OUT (say a larger --repeats to narrow a confidence
interval): its earlier attempts count towards --repeats and towards the 2K
limit, new attempts are numbered after them, still interleaved among the
schemes named; only for runs of the same code.
    live-eval.py report OUT
    live-eval.py rescore OUT [--build build]

run writes OUT/TRACE/SCHEME/attempt-N/ (the call's files) and
OUT/runs.json (every attempt, valid or not, and why), prints progress, then
the report.  report rebuilds the table (stdout, OUT/table.txt) and
OUT/index.html from OUT/runs.json and the run folders.  rescore scores the
Octopus-transport runs again from their logs (octopus-call.py --rescore,
after a change to the metrics: load records, guard verdicts and the calls
themselves stay), then reports.

Load guard: a run is invalid when the sender's capture->encoded lag or the
receiver's decode lag exceeds one frame interval at p99 (call.json "load"),
when the shim's departure timing error (actual - scheduled send time, its
--stats) exceeds 1 ms at p99 in either direction, when a Chromium sender
reported a qualityLimitationReason other than "none"
(call.json "quality_limitation_reason", a string or a list), ran with a
degradationPreference other than the one asked for or none recorded
("degradation_preference" against "degradation_requested"), or its page
reported an error ("page_errors"), or when the call failed.  Invalid runs
are shown and repeated in a later round, never averaged in; once a scheme has had 2K attempts on a trace without K valid
runs, the runner stops and names the component that lagged most often.
Each record also keeps the share of CPU time the host stole during the call
("host_steal_pct", from /proc/stat; shown in the progress lines and the
page): not a guard, a diagnosis of why a shared host's runs were rejected.

Confidence intervals: mean +- t(0.975, n-1) s / sqrt(n), s the sample
standard deviation (Student's t, n-1 degrees of freedom).  Percentiles in
the load record are numpy's (linear interpolation).  Utilisation: the down
link bytes of messages the shim delivered whole (its
whole_message_bytes_out; untagged streams, whose messages the shim cannot
see: every delivered byte) over the capacity the trace offered from the
first frame's capture to the last one's; for a multipath run, whose
messages are split over links (whole on neither), every byte the links
delivered down over the capacity all its traces offered."""
import argparse
import collections
import html
import json
import math
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from summary import (capacity_bytes, delivered_down_bytes,  # noqa: E402  (one utilisation)
                     encoded_captures_ms)
WEBRTC_CALL = os.path.join(ROOT, "demo-pipelines", "webrtc-call.py")
OCTOPUS_CALL = os.path.join(ROOT, "demo-pipelines", "octopus-call.py")
SHIM_ERROR_LIMIT_MS = 1.0
SERIES_BIN_S = 0.5
METRICS = [("p50_latency_ms", "p50 lat ms", 1), ("p99_latency_ms", "p99 lat ms", 1),
           ("p99_aoi_ms", "p99 AoI ms", 1), ("sqi_ssim", "SQI-SSIM", 4),
           ("frames_shown", "shown %", 1), ("utilisation", "util %", 1)]
DEFAULT_TRACES = ["Verizon-LTE-short"]
DEFAULT_SCHEMES = ["gcc", "octopus-bbr", "octopus-svc"]


def t_pdf(x, df):
    c = math.exp(math.lgamma((df + 1) / 2) - math.lgamma(df / 2)) / math.sqrt(df * math.pi)
    return c * (1 + x * x / df) ** (-(df + 1) / 2)


def t_cdf(x, df, steps=2000):
    """Student's t distribution function: 1/2 + the density's integral
    from 0 (Simpson's rule; the density is smooth)."""
    if x < 0:
        return 1 - t_cdf(-x, df, steps)
    h = x / steps
    total = t_pdf(0, df) + t_pdf(x, df)
    for i in range(1, steps):
        total += (4 if i % 2 else 2) * t_pdf(i * h, df)
    return 0.5 + total * h / 3


def t_quantile(p, df):
    """The t quantile of probability @p (> 0.5) by bisection."""
    lo, hi = 0.0, 1.0
    while t_cdf(hi, df) < p:
        lo, hi = hi, 2 * hi
    for _ in range(60):
        mid = (lo + hi) / 2
        if t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def mean_ci(values, level=0.95):
    """(mean, half-width of the @level confidence interval), Student's t
    with n-1 degrees of freedom; half-width None for fewer than 2 values."""
    n = len(values)
    if n == 0:
        return None, None
    mean = sum(values) / n
    if n < 2:
        return mean, None
    s = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    return mean, t_quantile(0.5 + level / 2, n - 1) * s / math.sqrt(n)


def guard(call):
    """The load guard: [(component, reason), ...] that make the run
    invalid; empty for a valid run."""
    faults = []
    if "failed" in call:
        return [("call", call["failed"])]
    load = call.get("load") or {}
    interval = load.get("frame_interval_ms")
    for key, component in (("encode_lag_ms", "sender encoder (capture->encoded)"),
                           ("decode_lag_ms", "receiver decoder")):
        q = load.get(key) or {}
        if interval is None or q.get("p99") is None:
            faults.append((component, "no lag record"))
        elif q["p99"] > interval:
            faults.append((component, f"p99 lag {q['p99']:.1f} ms > one frame "
                                      f"interval ({interval:.1f} ms)"))
    timing = (call.get("shim") or {}).get("departure_timing_error_ms")
    if timing is None:
        faults.append(("octopus-shim", "no departure timing record"))
    else:
        for direction, q in sorted(timing.items()):
            if q.get("count") and q["p99"] > SHIM_ERROR_LIMIT_MS:
                faults.append(("octopus-shim", f"{direction} departure timing error p99 "
                                               f"{q['p99']:.2f} ms > {SHIM_ERROR_LIMIT_MS:g} ms"))
    reasons = call.get("quality_limitation_reason")
    if isinstance(reasons, str):
        reasons = [reasons]
    bad = sorted({r for r in reasons or [] if r != "none"})
    if bad:
        faults.append(("Chromium sender", "qualityLimitationReason " + ",".join(bad)))
    requested = call.get("degradation_requested")
    if requested is not None and call.get("degradation_preference") != [requested]:
        faults.append(("Chromium sender", f"degradationPreference "
                       f"{call.get('degradation_preference')}, asked for {requested}"))
    if call.get("page_errors"):
        faults.append(("Chromium sender", "page: " + "; ".join(call["page_errors"])))
    return faults


def schedule(traces, schemes, repeats, run_one, progress=print, earlier=()):
    """Runs every scheme until it has @repeats valid runs per trace, the
    schemes interleaved: each round runs, in order, every scheme still
    short of valid runs, so an invalid run is repeated in the next round.
    run_one(trace, scheme, attempt) returns the attempt's record with its
    "faults" (the guard's list).  @earlier: records of a run being resumed;
    their attempts and valid runs count, and new attempts are numbered after
    them.  Returns (records, stop): the new records, and stop None or
    {trace, scheme, component, ...} when a scheme reached 2 * @repeats
    attempts on a trace without @repeats valid runs."""
    records = []
    total = len(traces) * len(schemes) * repeats
    done = sum(min(repeats, sum(1 for r in earlier if r["trace"] == trace_name(t)
                                and r["scheme"] == s and not r["faults"]))
               for t in traces for s in schemes)
    for trace in traces:
        mine = [r for r in earlier if r["trace"] == trace_name(trace)]
        valid = {s: sum(1 for r in mine if r["scheme"] == s and not r["faults"])
                 for s in schemes}
        attempts = {s: max((r["attempt"] for r in mine if r["scheme"] == s), default=0)
                    for s in schemes}
        while any(valid[s] < repeats for s in schemes):
            for scheme in schemes:
                if valid[scheme] >= repeats:
                    continue
                if attempts[scheme] >= 2 * repeats:
                    return records, stop_report(list(earlier) + records,
                                                trace_name(trace), scheme, repeats)
                attempts[scheme] += 1
                record = run_one(trace, scheme, attempts[scheme])
                records.append(record)
                steal = record.get("host_steal_pct")
                steal = f" (host steal {steal:.1f} %)" if steal is not None else ""
                if record["faults"]:
                    progress(f"[{done}/{total} valid] {trace} {scheme} attempt "
                             f"{attempts[scheme]}: INVALID: " + "; ".join(
                                 f"{c}: {r}" for c, r in record["faults"]) + steal)
                else:
                    valid[scheme] += 1
                    done += 1
                    progress(f"[{done}/{total} valid] {trace} {scheme} attempt "
                             f"{attempts[scheme]}: valid ({valid[scheme]}/{repeats})"
                             + "".join(f", {k} {record['metrics'][k]:.1f}"
                                       for k in ("p99_latency_ms",)
                                       if record.get("metrics", {}).get(k) is not None)
                             + steal)
    return records, None


def stop_report(records, trace, scheme, repeats):
    """Names the component that made the most of the scheme's attempts on
    the trace invalid."""
    counts = collections.Counter(
        c for r in records if r["trace"] == trace and r["scheme"] == scheme
        for c in dict.fromkeys(c for c, _ in r["faults"]))
    component, n = counts.most_common(1)[0]
    return {"trace": trace, "scheme": scheme, "component": component,
            "invalid_attempts": n, "attempts": 2 * repeats,
            "faults_by_component": dict(counts.most_common())}


def read_csv(path):
    with open(path) as f:
        header = f.readline().strip().split(",")
        return [dict(zip(header, line.strip().split(","))) for line in f if line.strip()]


def capture_span_ms(run_dir, call):
    """[first capture, last capture + a frame interval) in ms since the
    shim's start (its trace's origin), the interval the run kept (not the
    load record's, which was 33.3 ms for Octopus-transport runs paced at
    25 fps before d853446)."""
    first, last, interval = encoded_captures_ms(run_dir)
    return (int(first - call["shim_start_ns"] / 1e6),
            int(last - call["shim_start_ns"] / 1e6 + interval))


def utilisation(run_dir, call, trace_path):
    multipath = len(call.get("capacity_traces", [])) > 1
    delivered = delivered_down_bytes(call["shim"], whole_messages=not multipath)
    start, end = capture_span_ms(run_dir, call)
    return delivered / sum(capacity_bytes(t, start, end)
                           for t in call.get("capacity_traces", [trace_path]))


def run_metrics(run_dir, call, trace_path):
    m = {k: call.get(k) for k in ("p50_latency_ms", "p99_latency_ms", "p99_aoi_ms",
                                   "sqi_ssim")}
    frames = read_csv(os.path.join(run_dir, "frames.csv"))
    if frames:
        m["frames_shown"] = 100 * sum(f["shown"] == "1" for f in frames) / len(frames)
    m["utilisation"] = 100 * utilisation(run_dir, call, trace_path)
    return m


def trace_path(name):
    if os.sep in name or name.endswith(".down"):
        return os.path.abspath(name)
    return os.path.join(ROOT, "data", "traces", "network", name + ".down")


def trace_name(name):
    return os.path.basename(name).removesuffix(".down")


def evaluate(out, trace, scheme, attempt):
    """The record of the run in its folder: guard verdict and metrics."""
    rel = os.path.join(trace_name(trace), scheme, f"attempt-{attempt}")
    run_dir = os.path.join(out, rel)
    record = {"trace": trace_name(trace), "scheme": scheme, "attempt": attempt,
              "dir": rel}
    path = os.path.join(run_dir, "call.json")
    if not os.path.exists(path):
        failed_path = os.path.join(run_dir, "failed.txt")
        reason = "no call.json"
        if os.path.exists(failed_path):
            with open(failed_path) as f:
                reason = f.read().strip() or reason
        record["faults"] = guard({"failed": reason})
        return record
    with open(path) as f:
        call = json.load(f)
    record["faults"] = guard(call)
    record["load"] = {"encode_lag_p99_ms": call["load"]["encode_lag_ms"]["p99"],
                      "decode_lag_p99_ms": call["load"]["decode_lag_ms"]["p99"],
                      "shim_error_p99_ms": max(
                          (q["p99"] for q in call["shim"]["departure_timing_error_ms"].values()
                           if q.get("count")), default=None)} if "load" in call else {}
    record["metrics"] = run_metrics(run_dir, call, trace_path(trace))
    return record


def call_command(args, trace, scheme, run_dir):
    """The command of one run: octopus-call.py for the Octopus transport's
    case-study arms, else webrtc-call.py --scheme SCHEME."""
    common = [f"--out={run_dir}", f"--seconds={args.seconds}",
              f"--trace={trace_path(trace)}", f"--delay-ms={args.delay_ms}",
              f"--build={args.build}"]
    case, _, arm = scheme.partition("-")
    if case in ("case1", "case2") and arm in ("octopus", "droptail", "quco"):
        options = [f"--case={case[-1]}", f"--queue={arm}"]
    elif case == "mp" and arm in ("single-a", "single-b"):
        options = [f"--single-link={arm[-1]}"]
    elif case == "mp" and arm.endswith("-resend"):
        options = [f"--scheduler={arm[:-len('-resend')]}", "--resend-keyframes"]
    elif case == "mp" and arm:
        options = [f"--scheduler={arm}"]
    else:
        return ["/usr/bin/python3", WEBRTC_CALL, f"--scheme={scheme}"] + common + args.call_arg
    return (["/usr/bin/python3", OCTOPUS_CALL, f"--label={scheme}"] + options + common
            + args.call_arg)


def host_cpu_ticks(stat_text):
    """(stolen, total) CPU ticks since boot from /proc/stat's text: what
    the hypervisor gave other guests while this one had work (steal), of
    all the time it accounted (user..steal)."""
    for line in stat_text.splitlines():
        fields = line.split()
        if fields and fields[0] == "cpu":
            ticks = [int(x) for x in fields[1:9]]
            return ticks[7], sum(ticks)
    raise ValueError("/proc/stat has no cpu line")


def steal_percent(before, after):
    """The share of CPU time the host stole between two host_cpu_ticks()
    readings, in %; None if no time passed."""
    total = after[1] - before[1]
    return 100.0 * (after[0] - before[0]) / total if total > 0 else None


def read_host_ticks():
    with open("/proc/stat") as f:
        return host_cpu_ticks(f.read())


def live_call(args, trace, scheme, attempt):
    run_dir = os.path.join(args.out, trace_name(trace), scheme, f"attempt-{attempt}")
    os.makedirs(run_dir, exist_ok=True)
    for name in ("call.json", "failed.txt"):
        if os.path.exists(os.path.join(run_dir, name)):
            os.remove(os.path.join(run_dir, name))
    ticks = read_host_ticks()
    with open(os.path.join(run_dir, "call.log"), "w") as log:
        rc = subprocess.run(call_command(args, trace, scheme, run_dir),
                            stdout=log, stderr=log).returncode
    steal = steal_percent(ticks, read_host_ticks())
    if rc != 0:
        with open(os.path.join(run_dir, "call.log")) as f:
            last = [line.strip() for line in f if line.strip()][-1:] or [""]
        with open(os.path.join(run_dir, "failed.txt"), "w") as f:
            f.write(f"the call exited {rc}: {last[0]}\n")
    # the decoded pictures were for scoring (call.json has the scores)
    decoded = os.path.join(run_dir, "decoded.npz")
    if os.path.exists(decoded):
        os.remove(decoded)
    record = evaluate(args.out, trace, scheme, attempt)
    record["loadavg"] = os.getloadavg()[0]
    # not a guard: a diagnosis of runs the guard rejects on a shared host
    record["host_steal_pct"] = steal
    record["delay_ms"] = args.delay_ms          # one way: bench/validate-live.py's RTT
    record["seconds"] = args.seconds
    record["call_args"] = args.call_arg
    return record


def run_seconds(out, record):
    """A record's --seconds; for one written before records kept it, its
    capture span rounded to whole seconds (None: no encoded.csv)."""
    if "seconds" in record:
        return record["seconds"]
    run_dir = os.path.join(out, record["dir"])
    if not os.path.exists(os.path.join(run_dir, "encoded.csv")):
        return None
    first, last, _ = encoded_captures_ms(run_dir)
    return round((last - first) / 1e3)


def earlier_records(args):
    """--resume: the records in OUT/runs.json, checked to be runs of the
    same length, delay and call arguments as this one's."""
    with open(os.path.join(args.out, "runs.json")) as f:
        records = json.load(f)["runs"]
    for r in records:
        same = {"seconds": args.seconds, "delay_ms": args.delay_ms,
                "call_args": args.call_arg}
        had = dict(r, seconds=run_seconds(args.out, r))
        other = {k: had[k] for k in same
                 if had.get(k) is not None and had[k] != same[k]}
        if other:
            sys.exit(f"live-eval: cannot resume {args.out}: {r['dir']} was run with "
                     + ", ".join(f"{k} {v}" for k, v in other.items()) + ", this run with "
                     + ", ".join(f"{k} {same[k]}" for k in other))
    return records


def run(args):
    os.makedirs(args.out, exist_ok=True)
    earlier = earlier_records(args) if args.resume else []
    print(f"live-eval: {len(args.traces)} trace(s) x {len(args.schemes)} scheme(s) x "
          f"{args.repeats} valid runs of {args.seconds} s, interleaved; "
          + (f"resuming with {len(earlier)} earlier attempt(s); " if args.resume else "")
          + f"load now {os.getloadavg()[0]:.1f}", file=sys.stderr)
    records = list(earlier)

    def run_one(trace, scheme, attempt):
        print(f"live-eval: {trace_name(trace)} {scheme} attempt {attempt} "
              f"(load {os.getloadavg()[0]:.1f}) ...", file=sys.stderr, flush=True)
        record = live_call(args, trace, scheme, attempt)
        records.append(record)
        write_runs(args.out, records, None)
        return record

    _, stop = schedule(args.traces, args.schemes, args.repeats, run_one,
                       progress=lambda line: print("live-eval: " + line, file=sys.stderr,
                                                   flush=True),
                       earlier=earlier)
    write_runs(args.out, records, stop)
    report(args.out)
    if stop:
        print(f"live-eval: stopped: {stop['scheme']} on {stop['trace']} had "
              f"{stop['attempts']} attempts without {args.repeats} valid runs; "
              f"the component that lagged: {stop['component']} "
              f"({stop['invalid_attempts']} invalid attempts; all: "
              + ", ".join(f"{c} {n}" for c, n in stop["faults_by_component"].items())
              + ")", file=sys.stderr)
        return 2
    return 0


def rescore(args):
    with open(os.path.join(args.out, "runs.json")) as f:
        saved = json.load(f)
    records = []
    # the call's own options; --rescore takes trace, RTT and video from the
    # run's call.json
    options = argparse.Namespace(build=args.build, seconds=20, delay_ms=30, call_arg=[])
    for old in saved["runs"]:
        run_dir = os.path.join(args.out, old["dir"])
        command = call_command(options, old["trace"], old["scheme"], run_dir)
        if OCTOPUS_CALL in command and os.path.exists(os.path.join(run_dir, "call.json")):
            subprocess.run(command + old.get("call_args", []) + ["--rescore"], check=True,
                           stdout=subprocess.DEVNULL)
        record = evaluate(args.out, old["trace"], old["scheme"], old["attempt"])
        records.append({**old, **record})
    write_runs(args.out, records, saved.get("stop"))
    report(args.out)
    return 0


def write_runs(out, records, stop):
    with open(os.path.join(out, "runs.json"), "w") as f:
        json.dump({"runs": records, "stop": stop}, f, indent=1)


def table(records):
    """Text table: per trace and scheme, valid/invalid counts and mean +-
    95 % CI half-width of every metric over the valid runs."""
    lines = []
    head = f"{'trace':<20}{'scheme':<14}{'valid':>6}{'inval':>6}"
    head += "".join(f"{label:>20}" for _, label, _ in METRICS)
    lines.append(head)
    groups = collections.OrderedDict()
    for r in records:
        groups.setdefault((r["trace"], r["scheme"]), []).append(r)
    for (trace, scheme), runs in groups.items():
        valid = [r for r in runs if not r["faults"]]
        line = f"{trace[:19]:<20}{scheme:<14}{len(valid):>6}{len(runs) - len(valid):>6}"
        for key, _, digits in METRICS:
            values = [r["metrics"][key] for r in valid
                      if r.get("metrics", {}).get(key) is not None]
            mean, half = mean_ci(values)
            cell = ("–" if mean is None else f"{mean:.{digits}f}±"
                    + ("–" if half is None else f"{half:.{digits}f}"))
            line += f"{cell:>20}"
        lines.append(line)
    lines.append("mean ± half-width of the 95 % CI (Student's t, n-1 dof) over the valid "
                 "runs; invalid runs (load guard) are excluded. latency, AoI: capture "
                 "to the whole frame at the receiver; SQI-SSIM over SSIM (Wang 2004, "
                 "Gaussian 11x11); shown: frames shown (octo-metrics' frames.csv) / sent; util: link bytes of "
                 "messages delivered whole / capacity offered")
    call_args = sorted({" ".join(r.get("call_args", [])) for r in records} - {""})
    if call_args:
        lines.append("call arguments: " + "; ".join(call_args))
    return "\n".join(lines)


def plots(out, records):
    """PNG files (relative paths) per trace: latency CDFs of the valid runs,
    and per run rate/estimate/capacity."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
    os.makedirs(os.path.join(out, "plots"), exist_ok=True)
    cdfs, series = {}, {}
    colours = {}
    for trace in dict.fromkeys(r["trace"] for r in records):
        fig, ax = plt.subplots(figsize=(7, 4))
        for r in records:
            if r["trace"] != trace or r["faults"]:
                continue
            colour = colours.setdefault(r["scheme"], f"C{len(colours)}")
            lat = sorted(float(f["latency_ms"]) for f in read_csv(
                os.path.join(out, r["dir"], "frames.csv")) if f["latency_ms"])
            if lat:
                ax.plot(lat, np.arange(1, len(lat) + 1) / len(lat), color=colour,
                        alpha=0.7, label=r["scheme"] if r["attempt"] == 1 else None)
        ax.set_xscale("log")
        ax.set_xlabel("latency, capture to whole frame (ms)")
        ax.set_ylabel("CDF")
        ax.set_title(f"{trace}: every valid run")
        handles, labels = ax.get_legend_handles_labels()
        uniq = dict(zip(labels, handles))
        ax.legend(uniq.values(), uniq.keys())
        cdfs[trace] = os.path.join("plots", f"cdf-{trace}.png")
        fig.tight_layout()
        fig.savefig(os.path.join(out, cdfs[trace]), dpi=80)
        plt.close(fig)
    for r in records:
        run_dir = os.path.join(out, r["dir"])
        path = os.path.join(run_dir, "call.json")
        if not os.path.exists(path):
            continue
        with open(path) as f:
            call = json.load(f)
        t0 = call["shim_start_ns"]
        start, end = capture_span_ms(run_dir, call)
        bins = np.arange(0, end / 1000 + SERIES_BIN_S, SERIES_BIN_S)
        fig, ax = plt.subplots(figsize=(7, 3))
        enc = read_csv(os.path.join(run_dir, "encoded.csv"))
        t = [(int(e["encoded_ns"]) - t0) / 1e9 for e in enc]
        sizes, _ = np.histogram(t, bins, weights=[8 * int(e["bytes"]) for e in enc])
        ax.step(bins[:-1], sizes / SERIES_BIN_S / 1e6, where="post", label="encoded rate")
        est_path = os.path.join(run_dir, "estimates.csv")
        if os.path.exists(est_path):
            est = read_csv(est_path)
            ax.step([(int(e["time_ns"]) - t0) / 1e9 for e in est],
                    [int(e["estimated_bitrate"]) / 1e6 for e in est], where="post",
                    label="estimate")
        cap = [capacity_bytes(trace_path(r["trace"]), int(1000 * a), int(1000 * b)) * 8
               / SERIES_BIN_S / 1e6 for a, b in zip(bins[:-1], bins[1:])]
        ax.step(bins[:-1], cap, where="post", label="capacity", color="grey", alpha=0.6)
        ax.set_xlim(start / 1000, end / 1000)
        ax.set_xlabel("time since the shim's start (s)")
        ax.set_ylabel("Mbit/s")
        ax.legend(fontsize="small")
        ax.set_title(f"{r['trace']} {r['scheme']} attempt {r['attempt']}")
        series[r["dir"]] = os.path.join(r["dir"], "series.png")
        fig.tight_layout()
        fig.savefig(os.path.join(out, series[r["dir"]]), dpi=80)
        plt.close(fig)
    return cdfs, series


def write_html(out, records, stop, text):
    cdfs, series = plots(out, records)
    e = html.escape
    parts = ["<!doctype html><meta charset=utf-8><title>live evaluation</title>",
             "<h1>Live evaluation</h1>", f"<pre>{e(text)}</pre>"]
    if stop:
        parts.append(f"<p><b>Stopped:</b> {e(stop['scheme'])} on {e(stop['trace'])}: "
                     f"{stop['attempts']} attempts without enough valid runs; the "
                     f"component that lagged: {e(stop['component'])}</p>")
    for trace, png in cdfs.items():
        parts.append(f"<h2>{e(trace)}</h2><img src='{e(png)}'>")
        parts.append("<table border=1 cellpadding=3><tr><th>scheme</th><th>attempt</th>"
                     "<th>verdict</th><th>p99 lat ms</th><th>encode lag p99</th>"
                     "<th>decode lag p99</th><th>shim error p99</th>"
                     "<th>host steal %</th><th>series</th></tr>")
        for r in records:
            if r["trace"] != trace:
                continue
            verdict = ("valid" if not r["faults"] else "INVALID: " + "; ".join(
                f"{c}: {why}" for c, why in r["faults"]))
            load = r.get("load", {})
            cells = [f"<a href='{e(r['dir'])}/'>{e(r['scheme'])}</a>", str(r["attempt"]),
                     e(verdict), fmt(r.get("metrics", {}).get("p99_latency_ms")),
                     fmt(load.get("encode_lag_p99_ms")), fmt(load.get("decode_lag_p99_ms")),
                     fmt(load.get("shim_error_p99_ms"), 2), fmt(r.get("host_steal_pct")),
                     f"<img src='{e(series[r['dir']])}' width=420>" if r["dir"] in series
                     else ""]
            parts.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
        parts.append("</table>")
    with open(os.path.join(out, "index.html"), "w") as f:
        f.write("\n".join(parts) + "\n")


def fmt(v, digits=1):
    return "–" if v is None else f"{v:.{digits}f}"


def report(out):
    with open(os.path.join(out, "runs.json")) as f:
        runs = json.load(f)
    text = table(runs["runs"])
    print(text)
    with open(os.path.join(out, "table.txt"), "w") as f:
        f.write(text + "\n")
    write_html(out, runs["runs"], runs["stop"], text)
    print(f"live-eval: {os.path.join(out, 'index.html')}", file=sys.stderr)
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run", help="run the calls, then report")
    r.add_argument("out")
    r.add_argument("--traces", nargs="+", default=DEFAULT_TRACES,
                   help="names under data/traces/network (without .down) or paths")
    r.add_argument("--schemes", nargs="+", default=DEFAULT_SCHEMES)
    r.add_argument("--repeats", type=int, default=5, help="valid runs per scheme and trace")
    r.add_argument("--seconds", type=int, default=30)
    r.add_argument("--delay-ms", type=int, default=30)
    r.add_argument("--build", default=os.path.join(ROOT, "build"))
    r.add_argument("--call-arg", action="append", default=[],
                   help="an argument for every call (repeatable)")
    r.add_argument("--resume", action="store_true",
                   help="keep OUT/runs.json's attempts (same --seconds, --delay-ms and "
                        "--call-arg) and add runs until each scheme has --repeats valid "
                        "ones, counting the earlier ones")
    g = sub.add_parser("report", help="table and HTML from OUT/runs.json")
    g.add_argument("out")
    s = sub.add_parser("rescore", help="score the Octopus-transport runs in OUT again "
                       "from their logs, then report")
    s.add_argument("out")
    s.add_argument("--build", default=os.path.join(ROOT, "build"))
    args = p.parse_args()
    args.out = os.path.abspath(args.out)
    if args.command == "run":
        args.build = os.path.abspath(args.build)
        return run(args)
    if args.command == "rescore":
        args.build = os.path.abspath(args.build)
        return rescore(args)
    return report(args.out)


if __name__ == "__main__":
    sys.exit(main())
