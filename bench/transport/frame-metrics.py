#!/usr/bin/python3
"""Scores octopusframelog CSVs by the project's metric definitions
(DESIGN.md "Metrics"): frame latency p50/p99 over shown frames, age of
information (median/p99), SQI-SSIM (decay 1 s, also 0.5 s and 2 s).

    frame-metrics.py RUN.csv [RUN2.csv ...]

Frames that were never received have no capture time in the CSV; it is
interpolated from the frame id (frames are equally spaced)."""
import csv
import math
import statistics
import sys


def percentile(values, p):
    if not values:
        return float("nan")
    v = sorted(values)
    return v[min(len(v) - 1, int(round(p / 100 * (len(v) - 1))))]


def load(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    known = [(int(r["frame_id"]), int(r["capture_ns"])) for r in rows if r["capture_ns"]]
    if len(known) < 2:
        raise SystemExit(f"{path}: fewer than two frames with capture times")
    (f0, t0), (f1, t1) = known[0], known[-1]
    interval = (t1 - t0) / max(1, f1 - f0)
    frames = []
    for r in rows:
        fid = int(r["frame_id"])
        cap = int(r["capture_ns"]) if r["capture_ns"] else t0 + (fid - f0) * interval
        show = int(r["show_ns"]) if r["show_ns"] else None
        ssim_db = float(r["ssim_db"]) if r["ssim_db"] else None
        frames.append((fid, cap, show, ssim_db))
    return frames


def sqi(frames, decay_s):
    """Mean linear SSIM: shown frames score their SSIM, others the last
    shown frame's SSIM decayed by exp(-dt / decay).  NaN without SSIM data
    (live encodes, point clouds)."""
    if not any(ssim_db is not None for _, _, _, ssim_db in frames):
        return float("nan")
    scores, last = [], None
    for _, cap, show, ssim_db in frames:
        if show is not None and ssim_db is not None:
            s = 1 - 10 ** (-ssim_db / 10)
            last = (s, cap)
            scores.append(s)
        elif last is not None:
            scores.append(last[0] * math.exp(-(cap - last[1]) / 1e9 / decay_s))
        else:
            scores.append(0.0)
    return statistics.fmean(scores)


def aoi(frames):
    shown = sorted((show, cap) for _, cap, show, _ in frames if show is not None)
    samples, newest = [], None
    for show, cap in shown:
        if newest is not None:
            samples.append((show - newest) / 1e6)
        newest = cap if newest is None else max(newest, cap)
    if shown:
        samples.append((shown[-1][0] - newest) / 1e6)
    return samples


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    print(f"{'run':30} {'frames':>6} {'shown':>6} {'lat p50':>8} {'lat p99':>8} "
          f"{'AoI p50':>8} {'AoI p99':>8} {'SQI 1s':>7} {'0.5s':>7} {'2s':>7}")
    for path in sys.argv[1:]:
        frames = load(path)
        lat = [(show - cap) / 1e6 for _, cap, show, _ in frames if show is not None]
        a = aoi(frames)
        print(f"{path[-30:]:30} {len(frames):6d} {len(lat):6d} "
              f"{percentile(lat, 50):8.1f} {percentile(lat, 99):8.1f} "
              f"{percentile(a, 50):8.1f} {percentile(a, 99):8.1f} "
              f"{sqi(frames, 1.0):7.4f} {sqi(frames, 0.5):7.4f} {sqi(frames, 2.0):7.4f}")


if __name__ == "__main__":
    main()
