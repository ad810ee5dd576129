#!/usr/bin/python3
"""demo-pipelines/octopus-call.py end to end (octopussvcenc -> octopussink ->
octopus-shim -> octopussrc -> octopussvcdec) on constant-rate traces written
here, checking the folder eval/live-eval.py reads:

  one link   the load record has a capture->encoded lag for every encoded
             frame and a decode lag per decoded picture, the shim's
             departure timing error was recorded in both directions, the
             transport's estimate was logged, frames were shown at
             latencies a 2.4 Mbit/s link allows, the clip's frames were
             sent once each from its frame 0 at its frame interval, and the
             metrics in call.json are octo-metrics' (summary.json).
  two links  (--scheduler min-cost) each link's shim carried data down,
             both traces count as capacity, frames were shown (how many
             varies from run to run: 43-64 of 120 here; the live table is
             in docs/design.md §8).

    test-octopus-call.py OCTOPUS_CALL BUILD_DIR"""
import csv
import json
import os
import subprocess
import sys
import tempfile

SECONDS = 5


def constant_trace(path, interval_ms, length_ms=60000):
    """One 1500-byte opportunity every @interval_ms (Mahimahi format)."""
    with open(path, "w") as f:
        f.writelines(f"{t}\n" for t in range(interval_ms, length_ms + 1, interval_ms))


def run_call(call, build, out, port, options):
    result = subprocess.run(
        ["/usr/bin/python3", call, f"--out={out}", f"--seconds={SECONDS}",
         f"--build={build}", "--shim-rt-priority=0", f"--base-port={port}", *options],
        capture_output=True, text=True, timeout=150)
    if result.returncode != 0:
        sys.exit(f"octopus-call {options} failed ({result.returncode}):\n{result.stderr}")
    with open(os.path.join(out, "call.json")) as f:
        return json.load(f)


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    return ok


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def check_one_link(call, out):
    load = call["load"]
    encoded = read_csv(os.path.join(out, "encoded.csv"))
    frames = read_csv(os.path.join(out, "frames.csv"))
    sent = {}
    for r in read_csv(os.path.join(out, "sent.csv")):
        sent.setdefault(int(r["frame"]), int(r["capture_ns"]))
    first = [sent[f] for f in sorted(sent)[:10]]
    steps = [b - a for a, b in zip(first, first[1:])]
    shown = [float(r["latency_ms"]) for r in frames if r["shown"] == "1"]
    estimates = [int(r["estimated_bitrate"]) for r in read_csv(os.path.join(out, "estimates.csv"))]
    timing = call["shim"]["departure_timing_error_ms"]
    with open(os.path.join(out, "summary.json")) as f:
        summary = json.load(f)
    with open(os.path.join(out, "receiver-stats.json")) as f:
        receiver = json.load(f)
    return all([
        check(receiver["octopussrc"]["messages-delivered"] > 0
              and "keyframe-requests" in receiver["octopussrc"]
              and receiver["octopussvcdec"]["frames-shown"] > 0,
              "receiver-stats.json: octopussrc's and octopussvcdec's counters"),
        check(load["encode_lag_ms"]["count"] == len(encoded) >= SECONDS * 30 // 2
              and all(int(r["encoded_ns"]) > int(r["capture_ns"]) for r in encoded),
              f"capture->encoded lag of every encoded frame: {load['encode_lag_ms']}"),
        check(load["decode_lag_ms"]["count"] > 0 and load["decode_lag_ms"]["max"] < 1000,
              f"decode lag per decoded picture, not the 2 s to the EOS that flushes "
              f"the last one: {load['decode_lag_ms']}"),
        check(timing["down"]["count"] > 0 and timing["up"]["count"] > 0,
              f"the shim's departure timing, both directions: {timing}"),
        check(len(steps) == 9 and max(steps) - min(steps) < 1000000,
              f"the first frames sent at the clip's frame interval (a seek after "
              f"the start sent frame 0 twice): steps {[round(t / 1e6, 1) for t in steps]} ms"),
        check(max(estimates, default=0) > 0,
              f"estimates logged: max {max(estimates, default=0)}"),
        check(len(shown) > len(frames) / 2 and 0 < call["p99_latency_ms"] < 3000,
              f"{len(shown)} of {len(frames)} frames shown, p99 latency "
              f"{call['p99_latency_ms']:.0f} ms"),
        check(call["p99_latency_ms"] == summary["p99_latency_ms"]
              and call["sqi_ssim"] == summary["sqi_ssim"] > 0,
              "call.json carries octo-metrics' figures"),
        check(call["shim_start_ns"] < min(int(r["capture_ns"]) for r in encoded),
              "the trace began before the first capture"),
    ])


def check_two_links(call, out, traces):
    down = {}
    for link in ("a", "b"):
        with open(os.path.join(out, f"shim-{link}.json")) as f:
            stats = json.load(f)
        down[link] = sum(s["bytes_out"] for u in stats["users"] for s in u["streams"]
                         if s["direction"] == "down")
    frames = read_csv(os.path.join(out, "frames.csv"))
    return all([
        check(down["a"] > 0 and down["b"] > 0, f"bytes down per link: {down}"),
        check(call["capacity_traces"] == traces, "both traces count as capacity"),
        check(sorted(call["shim"]["departure_timing_error_ms"]) ==
              ["a-down", "a-up", "b-down", "b-up"], "each link's timing record"),
        check(sum(r["shown"] == "1" for r in frames) > 0,
              f"{sum(r['shown'] == '1' for r in frames)} of {len(frames)} frames shown"),
    ])


def main():
    call, build = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory(prefix="octopus-call-") as tmp:
        a, b = os.path.join(tmp, "a.down"), os.path.join(tmp, "b.down")
        constant_trace(a, 5)           # 2.4 Mbit/s
        constant_trace(b, 10)          # 1.2 Mbit/s
        out = os.path.join(tmp, "one")
        ok = check_one_link(run_call(call, build, out, 47700,
                                     ["--queue=octopus", f"--trace={a}"]), out)
        out = os.path.join(tmp, "two")
        ok = check_two_links(run_call(call, build, out, 47710,
                                      ["--scheduler=min-cost", f"--trace={a}",
                                       f"--trace-b={b}"]), out, [a, b]) and ok
    print("octopus-call: " + ("ok" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
