#!/usr/bin/python3
"""bench/validate-live.py's own arithmetic, no live call: the stretch of a
looping Mahimahi trace the simulator replays for a real run, and the
comparison of means over runs and per trace.

    test-validate-live.py VALIDATE_LIVE_PY"""
import importlib.util
import sys


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
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
