#!/usr/bin/python3
"""Side-by-side tables of live runs, for every live demo: one module, the
metrics computed by the project's tools (latency, AoI and SQI by
octo-metrics, gst-octopus/core/octo-metrics.h; picture quality by
octo-ssim.h's SSIM, with PSNR next to it).

    summary.py live DOWN_TRACE RUN [RUN ...]
    summary.py webrtc OUT SCHEME [SCHEME ...]
    summary.py multipath RUN [RUN ...]

live (case1-live.sh, case2-live.sh, case2-demo.sh, case3-live.sh): each
RUN is a run's folder (demo-pipelines/octopus-call.py's layout):
RUN/summary.json and RUN/frames.csv (octo-metrics --out RUN), RUN/shim.json
(octopus-shim --stats) and, when the run has them, RUN/scores.csv
(octo-svc-quality --scores: SSIM and PSNR of every layer) and
RUN/quality.csv (octo-pc-score: D1 PSNR of the received point clouds).

webrtc (webrtc-compare.sh): OUT/SCHEME/call.json of each webrtc-call.py run.

multipath (case2-multipath.sh): as live, but each run went over one or more
shim links side by side, RUN/shim-LINK.json each (the link's trace is in
it); utilisation per link and over all of them.
"""
import argparse
import csv
import glob
import json
import math
import os

SSIM_NAME = "SSIM (Wang 2004, Gaussian 11x11)"


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


def delivered_down_bytes(stats, whole_messages=True):
    """The link bytes utilisation counts (docs/design.md §7), from the
    shim's stats: of a down stream it saw tagged, the messages it delivered
    whole (no packet dropped, probes left out: octo-whole-messages.h); of an
    untagged one, whose messages it cannot see, every byte.  With
    @whole_messages False (a multipath run: its messages are split over
    links, whole on none) every byte, data and probes."""
    total = 0
    for u in stats["users"]:
        for s in u["streams"]:
            if s["direction"] != "down":
                continue
            # the shim's "stream": the stream id, null when untagged
            tagged = s.get("stream") is not None and s["stream"] >= 0
            total += (s.get("whole_message_bytes_out", 0) if tagged and whole_messages
                      else s.get("bytes_out", 0))
    return total


def frame_interval_ms(numbers, captures_ms):
    """The capture interval a run kept: its capture span over the frames it
    numbers (a log's frame numbers and capture times, in any order).  Read
    from the run rather than from a configured rate, which can disagree
    (octopus-call.py said 30 fps for a clip paced at 25)."""
    return (max(captures_ms) - min(captures_ms)) / (max(numbers) - min(numbers))


def encoded_captures_ms(run_dir):
    """(first capture, last capture, frame interval), in ms of the capture
    clock, from a live run's encoder log (RUN/encoded.csv)."""
    with open(os.path.join(run_dir, "encoded.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    captures = [int(r["capture_ns"]) / 1e6 for r in rows]
    return (min(captures), max(captures),
            frame_interval_ms([int(r["frame"]) for r in rows], captures))


def capture_span_ms(frames):
    """From the first capture to one interval past the last, in ms, of the
    rows of octo-metrics' frames.csv."""
    captures = [float(r["capture_ms"]) for r in frames]
    interval = frame_interval_ms([int(r["frame"]) for r in frames], captures)
    return max(captures) + interval - min(captures)


def utilisation(trace_path, run, frames):
    """octo_utilisation's definition (gst-octopus/core/octo-metrics.h):
    link bytes of messages delivered whole over the capacity the trace
    offered over the frames' span.  The shim starts the trace about 0.5 s
    before frame 0."""
    span = capture_span_ms(frames)
    with open(os.path.join(run, "shim.json")) as f:
        stats = json.load(f)
    return delivered_down_bytes(stats) / capacity_bytes(trace_path, 0, int(span) + 500)


def shown_scores(run, frames):
    """Mean SSIM and PSNR (dB, identical pictures left out) of the frames
    as shown (their highest layer used), from octo-svc-quality --scores;
    None if the run has no scores."""
    path = os.path.join(run, "scores.csv")
    if not os.path.exists(path):
        return None
    with open(path, newline="") as f:
        scores = {(int(r["frame"]), int(r["index"])): (float(r["ssim"]),
                                                        float(r["psnr_db"]))
                  for r in csv.DictReader(f)}
    ssim, psnr = [], []
    for r in frames:
        used = int(r["layers_used"], 16)
        if r["shown"] != "1" or not used:
            continue
        s = scores.get((int(r["frame"]), used.bit_length() - 1))
        if s is None:
            continue
        ssim.append(s[0])
        if math.isfinite(s[1]):
            psnr.append(s[1])
    mean = (lambda v: sum(v) / len(v) if v else float("nan"))
    return mean(ssim), mean(psnr)


def mean_d1(quality_csv):
    with open(quality_csv, newline="") as f:
        v = [float(r["d1_psnr_db"]) for r in csv.DictReader(f)
             if r["d1_psnr_db"] and math.isfinite(float(r["d1_psnr_db"]))]
    return sum(v) / len(v) if v else float("nan")


def live(args):
    runs = []
    for run in args.runs:
        with open(os.path.join(run, "summary.json")) as f:
            summary = json.load(f)
        with open(os.path.join(run, "frames.csv"), newline="") as f:
            frames = list(csv.DictReader(f))
        quality = os.path.join(run, "quality.csv")
        runs.append((run, summary, frames, shown_scores(run, frames),
                     mean_d1(quality) if os.path.exists(quality) else None))
    has_scores = any(r[3] for r in runs)
    has_d1 = any(r[4] is not None for r in runs)
    print(f"{'queue':10} {'lat p50 ms':>10} {'lat p99 ms':>10} {'AoI p50':>8} "
          f"{'AoI p99':>8} {'SQI-SSIM':>8} {'shown':>9}"
          + (f" {'SSIM':>6} {'PSNR dB':>7}" if has_scores else "")
          + (f" {'D1 dB':>6}" if has_d1 else "") + f" {'util %':>7}")
    for run, s, frames, scores, d1 in runs:
        shown = f"{sum(r['shown'] == '1' for r in frames)}/{len(frames)}"
        line = (f"{os.path.basename(run):10} {s['p50_latency_ms']:10.1f} "
                f"{s['p99_latency_ms']:10.1f} {s['median_aoi_ms']:8.1f} "
                f"{s['p99_aoi_ms']:8.1f} {s['sqi_ssim']:8.4f} {shown:>9}")
        if has_scores:
            ssim, psnr = scores or (float("nan"), float("nan"))
            line += f" {ssim:6.4f} {psnr:7.2f}"
        if has_d1:
            line += f" {d1 if d1 is not None else float('nan'):6.2f}"
        util = utilisation(args.trace, run, frames)
        print(line + f" {100 * util:7.1f}")
    print(f"latency, AoI: capture to shown; SQI-SSIM: 1 s decay over each "
          f"shown frame's quality from the sent log (live video: {SSIM_NAME} "
          f"of the shown layer on luma; point clouds: the (density, distance) "
          f"table of rendered {SSIM_NAME}; trace replay: the video trace's)"
          + ("; SSIM, PSNR: means over the shown frames" if has_scores else "")
          + ("; D1 PSNR: mean over the received clouds" if has_d1 else "")
          + "; util: link bytes of messages delivered whole (probes "
          "excluded) / capacity offered")


def multipath(args):
    print(f"{'run':14} {'lat p50 ms':>10} {'lat p99 ms':>10} {'SQI-SSIM':>8} "
          f"{'shown':>9} {'util % per link':>24} {'util % all':>10}")
    for run in args.runs:
        with open(os.path.join(run, "summary.json")) as f:
            s = json.load(f)
        with open(os.path.join(run, "frames.csv"), newline="") as f:
            frames = list(csv.DictReader(f))
        span = int(capture_span_ms(frames)) + 500
        links, sent_all, capacity_all = [], 0, 0
        for path in sorted(glob.glob(os.path.join(run, "shim-*.json"))):
            with open(path) as f:
                stats = json.load(f)
            trace = stats["config"]["down_trace"]
            sent = delivered_down_bytes(stats, whole_messages=False)
            capacity = capacity_bytes(trace, 0, span)
            link = os.path.basename(path)[len("shim-"):-len(".json")]
            links.append(f"{link} {100 * sent / capacity:.1f}")
            sent_all += sent
            capacity_all += capacity
        shown = f"{sum(r['shown'] == '1' for r in frames)}/{len(frames)}"
        print(f"{os.path.basename(run):14} {s['p50_latency_ms']:10.1f} "
              f"{s['p99_latency_ms']:10.1f} {s['sqi_ssim']:8.4f} {shown:>9} "
              f"{', '.join(links):>24} {100 * sent_all / capacity_all:10.1f}")
    print(f"latency: capture to shown; SQI-SSIM: 1 s decay over each shown "
          f"frame's {SSIM_NAME} of the shown layer (octo-metrics); util: link "
          "bytes each shim delivered down (data and probes) / capacity its "
          "trace offered over the frames' span + 0.5 s; all: summed over the "
          "links the run used")


def webrtc(args):
    print(f"{'scheme':<20}{'p50 lat ms':>11}{'p99 lat ms':>11}{'p99 AoI ms':>11}"
          f"{'SQI-SSIM':>9}{'decoded':>10}{'SSIM dec':>9}{'PSNR dec':>9}"
          f"{'shim drops':>18}")
    for scheme in args.schemes:
        with open(os.path.join(args.out, scheme, "call.json")) as f:
            s = json.load(f)
        dropped = s["shim"]["users"][0]["queues"]["down"]["dropped"]
        drops = "/".join(str(dropped[r]["packets"]) for r in ("dropper", "overflow"))
        print(f"{scheme:<20}{s['p50_latency_ms']:>11.1f}{s['p99_latency_ms']:>11.1f}"
              f"{s['p99_aoi_ms']:>11.1f}{s['sqi_ssim']:>9.4f}"
              f"{s['frames_decoded']:>5}/{s['frames_sent']:<4}"
              f"{s['mean_ssim_decoded'] or 0:>9.4f}"
              f"{s.get('mean_psnr_db_decoded') or 0:>9.2f}{drops:>18}")
    print("latency: capture to the whole frame at the receiver's depayloader; "
          f"SQI-SSIM: octo-metrics' definition over each decoded frame's {SSIM_NAME} "
          "against the source luma (PSNR next to it); shim drops: packets "
          "dropped by dropper/overflow")


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="kind", required=True)
    lv = sub.add_parser("live", help="live demo runs through octopus-shim")
    lv.add_argument("trace", help="the shim's down trace")
    lv.add_argument("runs", nargs="+", metavar="RUN")
    lv.set_defaults(run=live)
    mp = sub.add_parser("multipath", help="live runs over shim links side by side")
    mp.add_argument("runs", nargs="+", metavar="RUN")
    mp.set_defaults(run=multipath)
    wr = sub.add_parser("webrtc", help="webrtc-call.py runs")
    wr.add_argument("out")
    wr.add_argument("schemes", nargs="+", metavar="SCHEME")
    wr.set_defaults(run=webrtc)
    args = p.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
