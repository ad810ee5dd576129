#!/usr/bin/python3
"""Side-by-side table for case2-demo.sh: frame latency p50/p99, AoI and
SQI-SSIM from octo-metrics' summary.json, and link utilisation = link bytes
the shim delivered down / capacity the trace offered over the frames' span.

    case2-summary.py DOWN_TRACE RUN_PREFIX [RUN_PREFIX ...]

Each RUN_PREFIX names RUN_PREFIX/summary.json, RUN_PREFIX/frames.csv
(octo-metrics --out RUN_PREFIX) and RUN_PREFIX-shim.json (octopus-shim
--stats)."""
import csv
import json
import os
import sys


def capacity_bytes(trace_path, start_ms, end_ms):
    """Bytes the Mahimahi trace offers in [start_ms, end_ms) (it loops)."""
    with open(trace_path) as f:
        ms = [int(line) for line in f if line.strip()]
    period = ms[-1]
    total = 0
    for t in ms:
        first = (start_ms - t + period - 1) // period
        last = (end_ms - 1 - t) // period
        total += max(0, last - first + 1)
    return total * 1500


def delivered_down_bytes(stats_path):
    with open(stats_path) as f:
        stats = json.load(f)
    return sum(s["bytes_out"] for u in stats["users"] for s in u["streams"]
               if s["direction"] == "down")


def frame_span_ms(frames_csv):
    with open(frames_csv, newline="") as f:
        captures = [float(r["capture_ms"]) for r in csv.DictReader(f)]
    return min(captures), max(captures) + 1000 / 30


def main():
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    print(f"{'queue':10} {'lat p50 ms':>10} {'lat p99 ms':>10} {'AoI p50':>8} "
          f"{'AoI p99':>8} {'SQI-SSIM':>8} {'util %':>7}")
    for prefix in sys.argv[2:]:
        with open(os.path.join(prefix, "summary.json")) as f:
            s = json.load(f)
        first, last = frame_span_ms(os.path.join(prefix, "frames.csv"))
        # The shim's trace starts with the shim, about 0.5 s before frame 0.
        cap = capacity_bytes(sys.argv[1], 0, int(last - first) + 500)
        util = delivered_down_bytes(prefix + "-shim.json") / cap
        print(f"{os.path.basename(prefix):10} {s['p50_latency_ms']:10.1f} "
              f"{s['p99_latency_ms']:10.1f} {s['median_aoi_ms']:8.1f} "
              f"{s['p99_aoi_ms']:8.1f} {s['sqi_ssim']:8.4f} {100 * util:7.1f}")


if __name__ == "__main__":
    main()
