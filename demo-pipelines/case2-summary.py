#!/usr/bin/python3
"""Side-by-side table for case2-demo.sh: frame latency p50/p99, SQI-SSIM
(decay 1 s; 0.5 s and 2 s too) and link utilisation (link bytes the shim
delivered down / capacity the trace offered while frames were shown).

    case2-summary.py DOWN_TRACE RUN_PREFIX [RUN_PREFIX ...]

Each RUN_PREFIX has RUN_PREFIX.csv (octopusframelog) and
RUN_PREFIX-shim.json (octopus-shim --stats)."""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "bench", "transport"))
import importlib.util  # noqa: E402

spec = importlib.util.spec_from_file_location(
    "frame_metrics", os.path.join(sys.path[0], "frame-metrics.py"))
fm = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fm)


def trace_capacity_bps(path):
    with open(path) as f:
        ms = [int(line) for line in f if line.strip()]
    return len(ms) * 1500 * 8 / (ms[-1] / 1000)


def delivered_down_bytes(stats_path):
    with open(stats_path) as f:
        stats = json.load(f)
    return sum(s["bytes_out"] for u in stats["users"] for s in u["streams"]
               if s["direction"] == "down")


def main():
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    capacity = trace_capacity_bps(sys.argv[1])
    print(f"{'queue':10} {'frames':>6} {'shown':>6} {'lat p50 ms':>10} "
          f"{'lat p99 ms':>10} {'SQI-SSIM':>8} {'(0.5s)':>7} {'(2s)':>7} "
          f"{'util %':>7}")
    for prefix in sys.argv[2:]:
        frames = fm.load(prefix + ".csv")
        shown = [(cap, show) for _, cap, show, _ in frames if show is not None]
        lat = [(show - cap) / 1e6 for cap, show in shown]
        span = (frames[-1][1] - frames[0][1]) / 1e9 + 1 / 30
        util = delivered_down_bytes(prefix + "-shim.json") * 8 / (capacity * span)
        print(f"{os.path.basename(prefix):10} {len(frames):6d} {len(lat):6d} "
              f"{fm.percentile(lat, 50):10.1f} {fm.percentile(lat, 99):10.1f} "
              f"{fm.sqi(frames, 1.0):8.4f} {fm.sqi(frames, 0.5):7.4f} "
              f"{fm.sqi(frames, 2.0):7.4f} {100 * util:7.1f}")


if __name__ == "__main__":
    main()
