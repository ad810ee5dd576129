#!/usr/bin/python3
"""eval/live-eval.py on recorded run data, no live calls: the confidence
interval arithmetic (Student's t quantiles against scipy.stats.t when
Debian's python3-scipy is there, else against a printed table), the load
guard marking runs invalid (a recorded call's files with the lags, the
shim's departure error or Chromium's qualityLimitationReason over the
limits, a Chromium sender without the degradationPreference asked for or
with page errors), the interleaved order with invalid runs repeated and
left out of the means, the stop after 2K attempts naming the component, and the report.

    test-live-eval.py LIVE_EVAL_PY RECORDED_RUN_DIR BUILD_DIR

and rescore, which scores a written-out Octopus-transport run again with
BUILD_DIR's octo-metrics."""
import copy
import importlib.util
import json
import math
import os
import shutil
import sys
import tempfile

# t(0.975, df), two-sided 95 %, from a printed table (df: quantile)
T975 = {1: 12.7062, 2: 4.3027, 3: 3.1824, 4: 2.7764, 5: 2.5706, 6: 2.4469,
        7: 2.3646, 8: 2.3060, 9: 2.2622, 10: 2.2281, 15: 2.1314, 20: 2.0860,
        30: 2.0423, 60: 2.0003}

failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def load(path):
    spec = importlib.util.spec_from_file_location("live_eval", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_ci(le):
    try:
        from scipy import stats
        reference = {df: float(stats.t.ppf(0.975, df)) for df in T975}
        source, tol = "scipy.stats.t", 1e-6
    except ImportError:
        reference, source, tol = T975, "table", 5e-5
    worst = max(abs(le.t_quantile(0.975, df) - q) for df, q in reference.items())
    check(worst < tol, f"t(0.975, df) for df {sorted(reference)} vs {source}: "
                       f"max |diff| {worst:.2g}")
    check(abs(le.t_cdf(2.0, 5) - 0.94903026) < 1e-7, "t_cdf(2, 5) = 0.94903026")
    # 10, 12, 14, 16, 18: mean 14, s = sqrt(10), half = t(.975, 4) s / sqrt(5)
    mean, half = le.mean_ci([10, 12, 14, 16, 18])
    check(mean == 14 and abs(half - 2.776445 * math.sqrt(10) / math.sqrt(5)) < 1e-5,
          f"mean_ci(10..18 step 2) = {mean} ± {half:.5f} (14 ± 3.92649)")
    mean, half = le.mean_ci([300.0, 320.0])
    check(abs(half - 12.7062 * math.sqrt(200) / math.sqrt(2)) < 1e-3,
          f"two samples use df 1: half-width {half:.3f}")
    check(le.mean_ci([5.0]) == (5.0, None), "one sample: no interval")


def write_call(run_dir, call):
    with open(os.path.join(run_dir, "call.json"), "w") as f:
        json.dump(call, f)


def test_guard(le, recorded):
    """The recorded call, made valid and then pushed over each limit."""
    tmp = tempfile.mkdtemp(prefix="live-eval-guard-")
    try:
        with open(os.path.join(recorded, "call.json")) as f:
            base = json.load(f)
        base["load"]["encode_lag_ms"]["p99"] = 30.0
        base["load"]["decode_lag_ms"]["p99"] = 10.0
        for q in base["shim"]["departure_timing_error_ms"].values():
            q["p99"] = 0.2
        variants = {
            "valid": (lambda c: None, None),
            "encode": (lambda c: c["load"]["encode_lag_ms"].update(p99=40.1),
                       "sender encoder (capture->encoded)"),
            "decode": (lambda c: c["load"]["decode_lag_ms"].update(p99=55.0),
                       "receiver decoder"),
            "shim": (lambda c: c["shim"]["departure_timing_error_ms"]["up"].update(p99=1.01),
                     "octopus-shim"),
            "chromium": (lambda c: c.update(quality_limitation_reason=["none", "cpu"]),
                         "Chromium sender"),
            "chromium-preference": (lambda c: c.update(
                degradation_requested="maintain-resolution",
                degradation_preference=["maintain-resolution", "unset"]), "Chromium sender"),
            "chromium-page": (lambda c: c.update(page_errors=["TypeError: x"]),
                              "Chromium sender"),
            "chromium-kept": (lambda c: c.update(
                degradation_requested="maintain-resolution",
                degradation_preference=["maintain-resolution"]), None),
        }
        trace = le.trace_path(base["trace"].removesuffix(".down"))
        for name, (change, component) in variants.items():
            rel = os.path.join(le.trace_name(trace), name, "attempt-1")
            run_dir = os.path.join(tmp, rel)
            shutil.copytree(recorded, run_dir)
            call = copy.deepcopy(base)
            change(call)
            write_call(run_dir, call)
            record = le.evaluate(tmp, trace, name, 1)
            got = [c for c, _ in record["faults"]]
            check(got == ([component] if component else []),
                  f"guard on the recorded run, {name}: {record['faults']}")
        check(record["metrics"]["utilisation"] > 0
              and record["metrics"]["p99_latency_ms"] == base["p99_latency_ms"],
              f"metrics of the recorded run: {record['metrics']}")
        # exactly at the limits is still valid
        call = copy.deepcopy(base)
        call["load"]["encode_lag_ms"]["p99"] = call["load"]["frame_interval_ms"]
        call["shim"]["departure_timing_error_ms"]["down"]["p99"] = 1.0
        check(le.guard(call) == [], "lags equal to the limits are valid")
        check([c for c, _ in le.guard({"failed": "exit 1"})] == ["call"],
              "a failed call is invalid")
        nolag = copy.deepcopy(base)
        del nolag["load"]
        check(len(le.guard(nolag)) == 2, "a call without a lag record is invalid")
    finally:
        shutil.rmtree(tmp)


def test_commands(le, recorded):
    """Each scheme's call: the Octopus transport's arms by octopus-call.py
    with their options, every other scheme by webrtc-call.py; a multipath
    run's utilisation over the capacity of both its traces."""
    args = type("Args", (), {"seconds": 20, "delay_ms": 30, "build": "/b",
                             "call_arg": ["--x=1"]})()
    expect = {"case2-quco": ("octopus-call.py", ["--case=2", "--queue=quco"]),
              "case1-droptail": ("octopus-call.py", ["--case=1", "--queue=droptail"]),
              "mp-min-cost": ("octopus-call.py", ["--scheduler=min-cost"]),
              "mp-single-b": ("octopus-call.py", ["--single-link=b"]),
              "gcc": ("webrtc-call.py", ["--scheme=gcc"]),
              "octopus-svc": ("webrtc-call.py", ["--scheme=octopus-svc"])}
    for scheme, (script, options) in expect.items():
        cmd = le.call_command(args, "Verizon-LTE-short", scheme, "/o")
        check(os.path.basename(cmd[1]) == script and all(o in cmd for o in options)
              and cmd[-1] == "--x=1" and "--out=/o" in cmd
              and ("--label=" + scheme in cmd) == (script == "octopus-call.py"),
              f"{scheme}: {os.path.basename(cmd[1])} {' '.join(cmd[2:])}")
    with open(os.path.join(recorded, "call.json")) as f:
        call = json.load(f)
    trace = le.trace_path(call["trace"].removesuffix(".down"))
    call["capacity_traces"] = [trace, trace]
    every = sum(s["bytes_out"] for u in call["shim"]["users"] for s in u["streams"]
                if s["direction"] == "down")
    capacity = le.capacity_bytes(trace, *le.capture_span_ms(recorded, call))
    got = le.utilisation(recorded, call, trace)
    check(abs(got - every / (2 * capacity)) < 1e-12,
          f"multipath utilisation: every byte down over both links' capacity: "
          f"{100 * got:.2f} %")
    # one link: a stream the shim saw tagged ("stream": its id) counts only
    # the messages delivered whole, an untagged one ("stream": null) every byte
    call["capacity_traces"] = [trace]
    call["shim"] = {"users": [{"streams": [
        {"direction": "down", "stream": 0, "bytes_out": 9000,
         "whole_message_bytes_out": 6000},
        {"direction": "down", "stream": None, "bytes_out": 500,
         "whole_message_bytes_out": 0},
        {"direction": "up", "stream": None, "bytes_out": 7777,
         "whole_message_bytes_out": 0}]}]}
    got = le.utilisation(recorded, call, trace)
    check(abs(got - 6500 / capacity) < 1e-12,
          f"one link: whole messages of the tagged stream, every byte of the "
          f"untagged one: {got * capacity:.0f} bytes (6500 expected)")


def scripted(verdicts):
    """run_one returning, per (scheme, attempt), the scripted faults."""
    order = []

    def run_one(trace, scheme, attempt):
        order.append(f"{scheme}{attempt}")
        faults = verdicts.get((scheme, attempt), [])
        return {"trace": trace, "scheme": scheme, "attempt": attempt, "faults": faults,
                "metrics": {"p99_latency_ms": 100.0 * attempt}}
    return run_one, order


def test_schedule(le):
    run_one, order = scripted({})
    records, stop = le.schedule(["T"], ["A", "B", "C"], 3, run_one, progress=lambda _: None)
    check(order == ["A1", "B1", "C1", "A2", "B2", "C2", "A3", "B3", "C3"] and stop is None,
          f"interleaved A B C A B C ...: {' '.join(order)}")
    lag = [("receiver decoder", "p99 lag 60.0 ms > one frame interval (40.0 ms)")]
    run_one, order = scripted({("B", 1): lag, ("A", 2): lag})
    records, stop = le.schedule(["T"], ["A", "B", "C"], 2, run_one, progress=lambda _: None)
    check(order == ["A1", "B1", "C1", "A2", "B2", "C2", "A3", "B3"] and stop is None,
          f"invalid runs repeated in the next rounds: {' '.join(order)}")
    text = le.table(records)
    row_b = next(line for line in text.splitlines() if line.split()[1:2] == ["B"])
    # B's valid runs are attempts 2 and 3 (200, 300 ms): mean 250, not 200
    check(row_b.split()[2:4] == ["2", "1"] and "250.0±" in row_b,
          f"invalid runs shown, not averaged: {row_b.split()[:5]}")
    enc = [("sender encoder (capture->encoded)", "p99 lag 80 ms")]
    shim = [("octopus-shim", "down departure timing error p99 3 ms")]
    verdicts = {("B", n): (enc if n % 3 else shim) for n in range(1, 20)}
    run_one, order = scripted(verdicts)
    records, stop = le.schedule(["T"], ["A", "B"], 3, run_one, progress=lambda _: None)
    b_attempts = sum(1 for r in records if r["scheme"] == "B")
    check(stop is not None and stop["scheme"] == "B" and b_attempts == 6
          and stop["component"] == "sender encoder (capture->encoded)"
          and stop["faults_by_component"] == {"sender encoder (capture->encoded)": 4,
                                              "octopus-shim": 2},
          f"stops after 2K = 6 attempts naming the component: {stop}")


def test_host_steal(le):
    before = le.host_cpu_ticks("cpu  100 5 50 800 10 0 5 30 0 0\ncpu0 1 2 3\n")
    after = le.host_cpu_ticks("intr 7\ncpu  700 5 150 1700 10 0 15 130 0 0\n")
    # 1710 ticks passed (600 user, 100 system, 900 idle, 10 softirq, 100
    # stolen); guest time is inside user time and not added again
    check(before == (30, 1000) and after == (130, 2710)
          and abs(le.steal_percent(before, after) - 100 * 100 / 1710) < 1e-9
          and le.steal_percent(after, after) is None,
          f"host steal from /proc/stat: {before} -> {after}: "
          f"{le.steal_percent(before, after):.2f} %")


def test_resume(le):
    """A resumed run counts the earlier attempts: A had 2 valid of 2, B 1
    valid of 2 (attempt 2 invalid); asking 3 valid each, the new rounds run
    A3, B3 (invalid), then B4 and B5, numbered after the earlier ones."""
    lag = [("receiver decoder", "p99 lag 60.0 ms > one frame interval (40.0 ms)")]
    earlier = [{"trace": "T", "scheme": s, "attempt": a, "faults": f}
               for s, a, f in (("A", 1, []), ("B", 1, []), ("A", 2, []), ("B", 2, lag))]
    run_one, order = scripted({("B", 3): lag})
    records, stop = le.schedule(["T"], ["A", "B"], 3, run_one, progress=lambda _: None,
                                earlier=earlier)
    check(order == ["A3", "B3", "B4", "B5"] and len(records) == 4 and stop is None,
          f"resume: earlier attempts counted, new ones numbered after: {' '.join(order)}")
    run_one, order = scripted({("B", n): lag for n in range(3, 9)})
    records, stop = le.schedule(["T"], ["B"], 3, run_one, progress=lambda _: None,
                                earlier=earlier)
    check(order == ["B3", "B4", "B5", "B6"] and stop is not None
          and stop["invalid_attempts"] == 5 and stop["attempts"] == 6,
          f"resume: the 2K limit counts earlier attempts: {' '.join(order)}, {stop}")


def test_report(le, recorded):
    tmp = tempfile.mkdtemp(prefix="live-eval-report-")
    try:
        with open(os.path.join(recorded, "call.json")) as f:
            base = json.load(f)
        trace = le.trace_path(base["trace"].removesuffix(".down"))
        for attempt, p99 in ((1, 0.3), (2, 2.5)):
            rel = os.path.join(le.trace_name(trace), "octopus-bbr", f"attempt-{attempt}")
            shutil.copytree(recorded, os.path.join(tmp, rel))
            call = copy.deepcopy(base)
            call["load"]["encode_lag_ms"]["p99"] = call["load"]["decode_lag_ms"]["p99"] = 5.0
            for q in call["shim"]["departure_timing_error_ms"].values():
                q["p99"] = p99
            write_call(os.path.join(tmp, rel), call)
        records = [le.evaluate(tmp, trace, "octopus-bbr", n) for n in (1, 2)]
        for r in records:
            r["call_args"] = ["--twcc-interval-ms=50"]
        le.write_runs(tmp, records, None)
        le.report(tmp)
        with open(os.path.join(tmp, "table.txt")) as f:
            check(f.read().rstrip().endswith(
                "call arguments: --twcc-interval-ms=50"),
                "table.txt names the arguments the calls ran with")
        with open(os.path.join(tmp, "index.html")) as f:
            page = f.read()
        check("INVALID: octopus-shim" in page and "attempt-1/" in page
              and os.path.exists(os.path.join(tmp, records[0]["dir"], "series.png"))
              and os.path.exists(os.path.join(tmp, "plots",
                                              f"cdf-{le.trace_name(trace)}.png")),
              "index.html: verdicts, links to every run, CDF and time series")
    finally:
        shutil.rmtree(tmp)


def test_rescore(le, recorded, build):
    """rescore scores an Octopus-transport run again from its logs: three
    frames of three layers, frame 1's Q2 lost, frame 2 a spatial sync of Q1
    and Q2 (their key-frame flag without Q0's), so frame 2 shows all three
    layers; the load record and the guard's verdict stay."""
    tmp = tempfile.mkdtemp(prefix="live-eval-rescore-")
    try:
        with open(os.path.join(recorded, "call.json")) as f:
            call = json.load(f)
        call.update({"case": 2, "scheme": "case2-octopus", "rtt_ms": 60,
                     "video": "synthetic", "sqi_ssim": 0.0})
        trace = le.trace_path(call["trace"].removesuffix(".down"))
        rel = os.path.join(le.trace_name(trace), "case2-octopus", "attempt-1")
        run_dir = os.path.join(tmp, rel)
        shutil.copytree(recorded, run_dir)
        write_call(run_dir, call)
        ms = 1000000
        with open(os.path.join(run_dir, "sent.csv"), "w") as f:
            f.write("frame,index,capture_ns,keyframe,temporal_layer,level,quality\n")
            for frame in range(3):
                for layer in range(3):
                    key = frame == 0 or (frame == 2 and layer > 0)
                    f.write(f"{frame},{layer},{(1000 + 33 * frame) * ms},{int(key)},0,0,"
                            f"{0.7 + 0.1 * layer}\n")
        with open(os.path.join(run_dir, "received.csv"), "w") as f:
            f.write("frame,index,arrival_ns\n")
            for frame in range(3):
                for layer in range(3):
                    if (frame, layer) != (1, 2):
                        f.write(f"{frame},{layer},{(1050 + 33 * frame + layer) * ms}\n")
        record = le.evaluate(tmp, trace, "case2-octopus", 1)
        le.write_runs(tmp, [record], None)
        args = type("Args", (), {"out": tmp, "build": build})()
        le.rescore(args)
        with open(os.path.join(run_dir, "frames.csv")) as f:
            used = [row.split(",")[8] for row in f.read().split()[1:]]
        with open(os.path.join(run_dir, "call.json")) as f:
            after = json.load(f)
        with open(os.path.join(tmp, "runs.json")) as f:
            runs = json.load(f)["runs"]
        check(used == ["0x7", "0x3", "0x7"] and after["load"] == call["load"]
              and after["sqi_ssim"] > 0.7
              and runs[0]["faults"] == [list(f) for f in record["faults"]]
              and runs[0]["metrics"]["sqi_ssim"] == after["sqi_ssim"],
              f"rescore: layers shown {used} (0x7 0x3 0x7 expected), SQI "
              f"{after['sqi_ssim']:.3f}, load record and verdict kept")
    finally:
        shutil.rmtree(tmp)


def main():
    le = load(sys.argv[1])
    recorded = sys.argv[2]
    test_ci(le)
    test_guard(le, recorded)
    test_schedule(le)
    test_resume(le)
    test_host_steal(le)
    test_commands(le, recorded)
    test_report(le, recorded)
    test_rescore(le, recorded, sys.argv[3])
    print("live-eval: " + ("ok" if not failures else f"{len(failures)} failed"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
