#!/usr/bin/python3
"""Side-by-side table for case3-live.sh: frame latency p50/p99, AoI p50/p99
and SQI-SSIM (octo-metrics' summary.json), mean D1 PSNR of the received
frames (octo-pc-score's per-frame CSV) and link utilisation (case2-summary's
definition: link bytes the shim delivered down / capacity the trace offered
over the frames' span).

    case3-summary.py DOWN_TRACE FPS RUN_PREFIX [RUN_PREFIX ...]

Each RUN_PREFIX names RUN_PREFIX/summary.json, RUN_PREFIX/frames.csv,
RUN_PREFIX-quality.csv and RUN_PREFIX-shim.json."""
import csv
import importlib.util
import json
import math
import os
import sys

_spec = importlib.util.spec_from_file_location(
    "case2_summary", os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                  "case2-summary.py"))
case2 = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(case2)


def mean_d1(quality_csv):
    with open(quality_csv, newline="") as f:
        v = [float(r["d1_psnr_db"]) for r in csv.DictReader(f)
             if r["d1_psnr_db"] and math.isfinite(float(r["d1_psnr_db"]))]
    return sum(v) / len(v) if v else float("nan"), len(v)


def main():
    if len(sys.argv) < 4:
        raise SystemExit(__doc__)
    fps = float(sys.argv[2])
    print(f"{'queue':10} {'lat p50 ms':>10} {'lat p99 ms':>10} {'AoI p50':>8} "
          f"{'AoI p99':>8} {'SQI-SSIM':>8} {'shown':>7} {'D1 dB':>6} {'util %':>7}")
    for prefix in sys.argv[3:]:
        with open(os.path.join(prefix, "summary.json")) as f:
            s = json.load(f)
        with open(os.path.join(prefix, "frames.csv"), newline="") as f:
            rows = list(csv.DictReader(f))
        captures = [float(r["capture_ms"]) for r in rows]
        span = max(captures) + 1000 / fps - min(captures)
        # The shim's trace starts with the shim, about 0.5 s before frame 0.
        cap = case2.capacity_bytes(sys.argv[1], 0, int(span) + 500)
        util = case2.delivered_down_bytes(prefix + "-shim.json") / cap
        d1, _ = mean_d1(prefix + "-quality.csv")
        shown = f"{sum(r['shown'] == '1' for r in rows)}/{len(rows)}"
        print(f"{os.path.basename(prefix):10} {s['p50_latency_ms']:10.1f} "
              f"{s['p99_latency_ms']:10.1f} {s['median_aoi_ms']:8.1f} "
              f"{s['p99_aoi_ms']:8.1f} {s['sqi_ssim']:8.4f} {shown:>7} "
              f"{d1:6.2f} {100 * util:7.1f}")


if __name__ == "__main__":
    main()
