#!/usr/bin/python3
"""bench/validate-live.py's own arithmetic, no live call: the stretch of a
looping Mahimahi trace the simulator replays for a real run, the
comparison of means over runs and per trace, and the p99 octo-metrics gives
without a run's last frames.

    test-validate-live.py VALIDATE_LIVE_PY OCTO_METRICS"""
import argparse
import importlib.util
import json
import os
import sys
import tempfile


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    return ok


def main():
    spec = importlib.util.spec_from_file_location("validate_live", sys.argv[1])
    v = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(v)
    ok = True
    times = [2, 5, 5, 10]                 # period 10 ms: 4 opportunities
    ok &= check(v.trace_segment(times, 0, 10) == [2, 5, 5, 10], "from the start")
    ok &= check(v.trace_segment(times, 4, 12) == [1, 1, 6, 8, 11, 11],
                "from 4 ms, across the loop")
    ok &= check(v.trace_segment(times, 25, 10) == [5, 7, 10, 10],
                "from the third loop (an opportunity at the start is not in it)")
    rows = [{"trace": "A", "real": {"p99_latency_ms": 100, "utilisation": 40},
             "sim": {"p99_latency_ms": 120, "utilisation": 30}},
            {"trace": "B", "real": {"p99_latency_ms": 300, "utilisation": 60},
             "sim": {"p99_latency_ms": 280, "utilisation": 50}}]
    c = v.compare(rows)
    ok &= check(c["p99_latency_ms"] == {"real": 200, "sim": 200, "ratio": 1.0},
                "means of p99 latency")
    ok &= check(c["utilisation"] == {"real": 50, "sim": 40, "ratio": 0.8},
                "means of utilisation")
    traces = v.by_trace(rows + [dict(rows[0], sim={"p99_latency_ms": 80,
                                                   "utilisation": 50})])
    ok &= check(list(traces) == ["A", "B"] and len(traces["A"]) == 2,
                "runs grouped by trace, in order")
    ok &= check(abs(v.worst_disagreement(v.compare(traces["A"])) - 0.0) < 1e-9
                and abs(v.worst_disagreement(v.compare(traces["B"])) - 1 / 6) < 1e-9,
                "a trace's disagreement is its larger ratio's distance from 1")
    ok &= check(v.SIMULATED["case2-octopus"] == ("octopus", "bbb-360p-live-quality.trace")
                and v.SIMULATED["case2-droptail"][0] == "octobbr",
                "make demo's arms have their simulated counterparts")
    ok &= check(v.SIMULATED["case1-octopus"] == ("octopus", "bbb-360p-live-temp.trace")
                and v.SIMULATED["case1-droptail"][0] == "octobbr"
                and v.case_of("case1-droptail") == 1 and v.case_of("case2-octopus") == 2
                and v.case_of("gcc") == 2,
                "live case 1's arms have theirs, simulated as case 1")
    aoi = [dict(r, real=dict(r["real"], p99_aoi_ms=a), sim=dict(r["sim"], p99_aoi_ms=b))
           for r, a, b in zip(rows, (200, 400), (220, 380))]
    ok &= check(v.compare(aoi)["p99_aoi_ms"] == {"real": 300, "sim": 300, "ratio": 1.0}
                and "p99_aoi_ms" not in c,
                "p99 AoI compared where both sides have it")
    ok &= check(v.uses_up_trace("case2-quco") and v.uses_up_trace("case1-octopus")
                and not v.uses_up_trace("gcc") and not v.uses_up_trace("mp-min-cost"),
                "octopus-call.py's one-link arms replay the up trace, the others not")
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "encoded.csv"), "w") as f:
            f.write("frame,capture_ns,encoded_ns,bytes\n")
            for i, lag_ms in enumerate((12.4, 30.0, 14.6, 13.2, 90.0)):
                f.write(f"{i},{i * 33 * 10**6},{int((i * 33 + lag_ms) * 10**6)},1000\n")
        ok &= check(v.encode_lag_ms(tmp) == 15,
                    f"the real run's median encode lag in whole ms: {v.encode_lag_ms(tmp)}")
    with tempfile.TemporaryDirectory() as tmp:
        # 500 frames 40 ms apart from 700 ms after the shim's start, which
        # ran 23.2 s; the load record's interval (33.3 ms) is not the pace
        with open(os.path.join(tmp, "encoded.csv"), "w") as f:
            f.write("frame,capture_ns,encoded_ns,bytes\n")
            for i in range(500):
                t = 5 * 10**9 + (700 + 40 * i) * 10**6
                f.write(f"{i},{t},{t + 10**7},1000\n")
        with open(os.path.join(tmp, "call.json"), "w") as f:
            json.dump({"shim_start_ns": 5 * 10**9, "shim": {"uptime_s": 23.2},
                       "load": {"frame_interval_ms": 1000 / 30}}, f)
        start, span, interval, drain = v.real_span(tmp)
        ok &= check(abs(start - 700) < 1e-6 and abs(interval - 40) < 1e-6
                    and abs(span - 20000) < 1e-6 and abs(drain - 2500) < 1e-6,
                    f"a real run's start, pace, span and drain: {start:.1f} ms, "
                    f"{interval:.1f} ms, {span:.1f} ms, {drain:.1f} ms "
                    "(700, 40, 20000, 2500)")
    with tempfile.TemporaryDirectory() as tmp:
        # 100 frames 100 ms apart, one layer each: frame i arrives 50 + i ms
        # after capture, the last five 2 s after; frame 3 never arrives
        with open(os.path.join(tmp, "sent.csv"), "w") as f:
            f.write("frame,index,capture_ns,keyframe,temporal_layer,level,quality\n")
            for i in range(100):
                f.write(f"{i},0,{(1000 + 100 * i) * 10**6},1,0,0,0.9\n")
        with open(os.path.join(tmp, "received.csv"), "w") as f:
            f.write("frame,index,arrival_ns\n")
            for i in range(100):
                if i != 3:
                    late = 2000 if i >= 95 else 50 + i
                    f.write(f"{i},0,{(1000 + 100 * i + late) * 10**6}\n")
        args = argparse.Namespace(metrics=sys.argv[2], scheme="case2-octopus")
        everything = v.p99_until(args, tmp, 10900 * 10**6, os.path.join(tmp, "all"))
        ok &= check(abs(everything - 2000) < 1e-6,
                    "up to the last capture: the last frames' 2 s set p99")
        # captured up to 9400 ms: frames 0..84 but 3, latencies 50..134 ms
        shown = [50 + i for i in range(85) if i != 3]
        pos = 0.99 * (len(shown) - 1)
        lo = int(pos)
        want = shown[lo] + (pos - lo) * (shown[lo + 1] - shown[lo])
        cut = v.p99_until(args, tmp, 9400 * 10**6, os.path.join(tmp, "cut"))
        ok &= check(abs(cut - want) < 1e-6,
                    f"the last 1.5 s left out, a frame never shown not counted "
                    f"({cut:.3f} ms, want {want:.3f})")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
