#!/usr/bin/python3
"""One live run of case study 1 or 2 over the Octopus transport, in the
folder layout eval/live-eval.py reads (the same as webrtc-call.py's):
the shipped clip, looped and paced like a camera, encoded by octopussvcenc
(demo-pipelines/case2-live-send.py) into octopussink, through octopus-shim
(one link, or one per path), into octopussrc here, which logs every
message's arrival and decodes with octopussvcdec as a viewer would.

    octopus-call.py --queue octopus --trace T.down --out DIR [--seconds 20]
    octopus-call.py --queue quco ...         # QUCO: trimming queue, quco cc,
                                             # layered qualitative packets
    octopus-call.py --scheduler min-cost --trace A.down --trace-b B.down ...
    octopus-call.py --single-link b --trace A.down --trace-b B.down ...

--queue: the shim's queue (octopus, droptail, quco; QUCO's arm also sets
octopussink congestion-control=quco, or --quco-cc, and qualitative=layered).  --scheduler:
multipath over two shim links (--trace and --trace-b, each with its own
one-way delay), the --queue on both (octopus or droptail); --single-link a|b is the same
setting with one of the two links only (the multipath table's
single-path arms; like the multipath arms, no up-link trace).  --case 1 sends VP8 with 3
temporal layers (GoP 8, fixed rate), case 2 (default) VP9 with 3 spatial
layers following the estimate.

DIR gets: call.json (the metrics, the load record, the shim's stats, when
the trace began), summary.json and frames.csv (octo-metrics), sent.csv and
scores.csv (octo-svc-quality: every layer's SSIM against the source),
received.csv (octopusframelog), encoded.csv and estimates.csv (the sender),
decoded.csv (frame,input_ns,output_ns: the decoder's last input before a
picture came out, and when it came out), receiver-stats.json (octopussrc's
and octopussvcdec's stats at the end: messages late, given up, lost across
paths, key frames requested), shim*.json and the logs.

Load record: the sender's capture->encoded lag and the receiver's decode
lag (p50/p99/max, ms), the shim's departure timing error (its --stats).
The shims run at SCHED_FIFO --shim-rt-priority (default 50) so that they
keep the trace's time while encoder and decoder load both cores.
"""
import argparse
import json
import os
import subprocess
import sys
import time

import gi

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from load_record import quantiles_ms  # noqa: E402  (webrtc-call.py's too)
from gst_stats import structure_to_dict  # noqa: E402
# case2-live-send.py paces the clip at its own rate (no videorate): the
# load guard's frame interval is 40 ms
FPS = 25
CAPS = {1: "video/x-vp8,width=640,height=360,temporal-layers=3,framerate=25/1",
        2: "video/x-vp9,width=640,height=360,spatial-layers=3,temporal-layers=1,"
           "framerate=25/1"}
CODEC = {1: "vp8", 2: "vp9"}
# Case 2's encoder sends a key frame only on request (case2-live-send.py);
# case 1's has one every GoP of 8.
REQUEST_KEYFRAME = {1: "false", 2: "true"}
# A multipath stream's messages are split over both links, whose one-way
# delays differ by 10 ms before queueing: without a wait, a message whose
# last fragment took the slower link is late once a newer one completed
# over the faster (messages-late in receiver-stats.json).
MULTIPATH_REORDER_WAIT_MS = 30


class Receiver:
    """octopussrc -> octopusframelog (arrivals) and -> octopussvcdec (what a
    viewer sees), with the decoder's lag per picture."""

    def __init__(self, args, port):
        show = (f"videoconvert ! vp8enc deadline=1 cpu-used=8 ! webmmux ! "
                f'filesink location="{args.webm}"' if args.webm else "fakesink sync=false")
        self.pipeline = Gst.parse_launch(
            f'octopussrc name=src port={port} caps="{CAPS[args.case]}" '
            f"reorder-wait={args.reorder_wait_ms} "
            + (f"resend-wait={args.resend_wait_ms} " if args.resend_wait_ms is not None
               else "")
            + (f"{args.src_options} " if args.src_options else "")
            + f"! tee name=t "
            f't. ! queue ! octopusframelog location="{args.out}/received.csv" '
            f"t. ! queue ! octopussvcdec name=dec request-keyframe={REQUEST_KEYFRAME[args.case]} "
            f"! queue ! {show}")
        dec = self.pipeline.get_by_name("dec")
        dec.get_static_pad("sink").add_probe(Gst.PadProbeType.BUFFER, self.on_input)
        dec.get_static_pad("src").add_probe(Gst.PadProbeType.BUFFER, self.on_output)
        self.input_ns = None
        self.stopping = False
        self.lags = []
        self.stats = {}

    def on_input(self, _pad, _info):
        self.input_ns = time.monotonic_ns()
        return Gst.PadProbeReturn.OK

    def on_output(self, _pad, _info):
        # the decoder runs in its input's thread: from the last input to
        # this picture is the time it took (not so for what EOS flushes out)
        if self.input_ns is not None and not self.stopping:
            self.lags.append((self.input_ns, time.monotonic_ns()))
        return Gst.PadProbeReturn.OK

    def start(self):
        if self.pipeline.set_state(Gst.State.PLAYING) == Gst.StateChangeReturn.FAILURE:
            sys.exit("octopus-call: the receiver did not start (is GST_PLUGIN_PATH set "
                     "to the octopus and octopussvc plugins?)")

    def stop(self):
        self.stopping = True
        self.pipeline.send_event(Gst.Event.new_eos())
        self.pipeline.get_bus().timed_pop_filtered(
            10 * Gst.SECOND, Gst.MessageType.EOS | Gst.MessageType.ERROR)
        # why messages were lost or late, and the decoder's key-frame requests
        self.stats = {name: structure_to_dict(self.pipeline.get_by_name(name)
                                              .get_property("stats"))
                      for name in ("src", "dec")}
        self.pipeline.set_state(Gst.State.NULL)

    def write(self, out):
        with open(os.path.join(out, "decoded.csv"), "w") as f:
            f.write("frame,input_ns,output_ns\n")
            f.writelines(f"{i},{a},{b}\n" for i, (a, b) in enumerate(self.lags))
        with open(os.path.join(out, "receiver-stats.json"), "w") as f:
            json.dump({"octopussrc": self.stats.get("src"),
                       "octopussvcdec": self.stats.get("dec")}, f, indent=1)


def links(args):
    """[(name, down trace, one-way delay ms)] of the run's shim links."""
    a, b = ("a", args.trace, args.delay_ms), ("b", args.trace_b, args.delay_b_ms)
    if args.scheduler:
        return [a, b]
    return [{"a": a, "b": b}[args.single_link]] if args.single_link else [("", *a[1:])]


def up_trace(down):
    up = down[:-len(".down")] + ".up" if down.endswith(".down") else ""
    return up if up and os.path.exists(up) else None


def start_shim(args, name, trace, delay_ms, listen, forward):
    stem = f"shim-{name}" if name else "shim"
    multipath = args.scheduler or args.single_link
    queue = args.queue
    if queue == "quco" and args.quco_queue:
        queue = args.quco_queue
    cmd = [os.path.join(args.build, "router-shim", "octopus-shim"),
           f"--listen=127.0.0.1:{listen}", f"--forward=127.0.0.1:{forward}",
           f"--down-trace={trace}", f"--delay-ms={delay_ms}", f"--queue={queue}",
           f"--stats={os.path.join(args.out, stem + '.json')}"]
    up = up_trace(trace) if not multipath else None
    if up:
        cmd.append(f"--up-trace={up}")
    if args.shim_rt_priority > 0:
        cmd.append(f"--rt-priority={args.shim_rt_priority}")
    with open(os.path.join(args.out, stem + ".log"), "w") as log:
        return subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)


def encode_lags(path):
    with open(path) as f:
        next(f)
        rows = [[int(v) for v in line.split(",")] for line in f if line.strip()]
    return [encoded - capture for _, capture, encoded, _ in rows]


def shim_record(args):
    """The shim's stats as webrtc-call.py's call.json has them; with
    several links, each link's timing errors by LINK-DIRECTION and every
    link's users."""
    stats = []
    for name, _, _ in links(args):
        with open(os.path.join(args.out, (f"shim-{name}" if name else "shim") + ".json")) as f:
            stats.append((name, json.load(f)))
    if len(stats) == 1:
        return stats[0][1]
    return {"departure_timing_error_ms": {f"{name}-{d}": q for name, s in stats
                                          for d, q in s["departure_timing_error_ms"].items()},
            "users": [u for _, s in stats for u in s["users"]],
            "links": {name: s["config"] for name, s in stats}}


def send(args, port, paths):
    """case2-live-send.py into the link(s); its exit status."""
    cmd = ["/usr/bin/python3", os.path.join(HERE, "case2-live-send.py"),
           f"--case={args.case}", f"--seconds={args.seconds}", f"--clip={args.clip}",
           f"--dump={args.out}/layers.bin", f"--encoded-log={args.out}/encoded.csv",
           f"--estimates={args.out}/estimates.csv",
           f"--sink-stats={args.out}/sink-stats.json", f"--max-bitrate={args.max_bitrate}",
           f"--slack-ms={args.slack_ms}", f"--encoder-options={args.encoder_options}",
           f"--sink-options={args.sink_options}"
           + (" resend-keyframes=true" if args.resend_keyframes else "")]
    if args.scheduler:
        cmd += [f"--paths={','.join(paths)}", f"--scheduler={args.scheduler}"]
    else:
        cmd += [f"--port={port + 1}"]
    if args.queue == "quco" and not (args.scheduler or args.single_link):
        cmd += [f"--congestion-control={args.quco_cc}", "--qualitative=layered"]
    print(f"octopus-call: {args.label}: sending {os.path.basename(args.clip)} live for "
          f"{args.seconds} s ...", file=sys.stderr, flush=True)
    with open(os.path.join(args.out, "tx.log"), "w") as log:
        return subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT).returncode


def run(args):
    os.makedirs(args.out, exist_ok=True)
    Gst.init(None)
    port = args.base_port
    receiver = Receiver(args, port)
    receiver.start()
    shim_start_ns = time.monotonic_ns()
    shims, paths = [], []
    try:
        for i, (name, trace, delay) in enumerate(links(args)):
            shims.append(start_shim(args, name, trace, delay, port + 1 + i, port))
            paths.append(f"127.0.0.1:{port + 1 + i}")
        time.sleep(0.5)
        rc = send(args, port, paths)
        time.sleep(2)                    # the links deliver what they still hold
    finally:
        # whatever ended the run, the receiver and the links go with it
        receiver.stop()
        for shim in shims:
            shim.terminate()
            shim.wait()
    if rc != 0:
        sys.exit(f"octopus-call: the sender exited with {rc} (see {args.out}/tx.log)")
    receiver.write(args.out)
    subprocess.run([os.path.join(args.build, "eval", "octo-svc-quality"),
                    f"--dump={args.out}/layers.bin", f"--clip={args.clip}",
                    f"--codec={CODEC[args.case]}", f"--out={args.out}/sent.csv",
                    f"--scores={args.out}/scores.csv"], check=True)
    trace = "+".join(os.path.basename(t) for _, t, _ in links(args))
    call = score(args, trace, 2 * links(args)[0][2], f"{os.path.basename(args.clip)}-live")
    call["quality_metric"] = "SSIM (Wang 2004, Gaussian 11x11)"
    call["shim_start_ns"] = shim_start_ns
    call["shim"] = shim_record(args)
    call["capacity_traces"] = [t for _, t, _ in links(args)]
    call["load"] = {"frame_interval_ms": 1000 / FPS,
                    "encode_lag_ms": quantiles_ms(encode_lags(f"{args.out}/encoded.csv")),
                    "decode_lag_ms": quantiles_ms([b - a for a, b in receiver.lags])}
    with open(os.path.join(args.out, "call.json"), "w") as f:
        json.dump(call, f, indent=1)
    print(f"octopus-call: {args.label}: p99 latency {call['p99_latency_ms']:.1f} ms, "
          f"SQI {call['sqi_ssim']:.3f}", file=sys.stderr)


def score(args, trace, rtt_ms, video):
    """octo-metrics over the run's sent.csv and received.csv: frames.csv,
    summary.json, and the summary's metrics."""
    subprocess.run([os.path.join(args.build, "eval", "octo-metrics"), f"--case={args.case}",
                    f"--sent={args.out}/sent.csv", f"--received={args.out}/received.csv",
                    f"--out={args.out}", f"--scheme={args.label}", f"--trace={trace}",
                    f"--rtt-ms={rtt_ms}", f"--video={video}"], check=True)
    with open(os.path.join(args.out, "summary.json")) as f:
        return json.load(f)


def rescore(args):
    """Scores the run in --out again from its logs (after a change to the
    metrics), keeping its trace, RTT, video and load record."""
    path = os.path.join(args.out, "call.json")
    with open(path) as f:
        call = json.load(f)
    call.update(score(args, call["trace"], call["rtt_ms"], call["video"]))
    with open(path, "w") as f:
        json.dump(call, f, indent=1)


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--case", type=int, choices=(1, 2), default=2)
    p.add_argument("--queue", choices=("octopus", "droptail", "quco"), default="octopus")
    p.add_argument("--quco-queue", help="the quco arm's shim queue spec (default quco: "
                   "thresholds at 50/75/90 %% of the 375 KB buffer)")
    p.add_argument("--quco-cc", choices=("quco", "trim-aware-bbr"), default="quco",
                   help="the quco arm's controller: QUCO's window (Algorithm 3) or BBR "
                   "that also backs off on the queue's trim NACKs")
    p.add_argument("--scheduler", help="multipath over --trace and --trace-b with this "
                   "octopussink scheduler (min-cost, min-rtt, wrr, edcld, sfl)")
    p.add_argument("--single-link", choices=("a", "b"),
                   help="the multipath setting over link a or b alone")
    p.add_argument("--trace", required=True, help="down trace (Mahimahi); its .up "
                   "next to it is the up link when it exists (one link only)")
    p.add_argument("--trace-b", default=os.path.join(ROOT, "data", "traces", "network",
                                                     "5G-driving-1.down"))
    p.add_argument("--delay-ms", type=int, default=30, help="one way")
    p.add_argument("--delay-b-ms", type=int, default=20, help="one way, link b")
    p.add_argument("--seconds", type=float, default=20)
    p.add_argument("--reorder-wait-ms", type=int,
                   help="octopussrc reorder-wait: how long a complete message waits for "
                   "an older one split over the other path (default: 30 with --scheduler, "
                   "the links' 10 ms difference in one-way delay plus queueing skew; "
                   "else 0)")
    p.add_argument("--resend-wait-ms", type=int,
                   help="octopussrc resend-wait: how long a complete message waits for an "
                        "older one whose sender resends lost packets (--resend-keyframes); "
                        "default: the element's")
    p.add_argument("--slack-ms", type=int, default=-1,
                   help="octopustag slack (ms) of every message: droppable only after "
                        "queueing this long (-1, the default: the policy's, 10 for "
                        "case 2, 0 for case 1)")
    p.add_argument("--max-bitrate", type=int, default=20000000,
                   help="case 2: the most the encoder may follow the estimate to, bits/s")
    p.add_argument("--encoder-options", default="",
                   help="more octopussvcenc properties (case2-live-send.py --encoder-options)")
    p.add_argument("--sink-options", default="",
                   help="more octopussink properties (case2-live-send.py --sink-options)")
    p.add_argument("--src-options", default="",
                   help="more octopussrc properties, e.g. ack-timestamps=false")
    p.add_argument("--resend-keyframes", action="store_true",
                   help="with --scheduler: octopussink resend-keyframes (lost packets of "
                        "key frames sent again on the faster link; octopussrc holds newer "
                        "frames up to its resend-wait for them)")
    p.add_argument("--clip", default=os.path.join(ROOT, "data", "media", "bigbuckbunny.mp4"))
    p.add_argument("--out", required=True)
    p.add_argument("--build", default=os.path.join(ROOT, "build"))
    p.add_argument("--base-port", type=int, default=47300,
                   help="the receiver's port; the shim links listen on the next ones")
    p.add_argument("--shim-rt-priority", type=int, default=50,
                   help="octopus-shim's SCHED_FIFO priority (0: normal scheduling)")
    p.add_argument("--label", help="the run's name in its summary (default: the arm)")
    p.add_argument("--webm", help="also write what the receiver showed to this WebM file")
    p.add_argument("--rescore", action="store_true",
                   help="no call: score the run already in --out again (its call.json "
                        "keeps the load record; trace, RTT and video are its own)")
    args = p.parse_args()
    args.build = os.path.abspath(args.build)
    if args.queue == "quco" and (args.scheduler or args.single_link):
        p.error("--queue=quco is single-path (its sender is not multipath)")
    if args.resend_keyframes and not args.scheduler:
        p.error("--resend-keyframes needs --scheduler (it resends over both links)")
    if args.scheduler and args.single_link:
        p.error("--scheduler (both links) and --single-link exclude each other")
    if args.reorder_wait_ms is None:
        args.reorder_wait_ms = MULTIPATH_REORDER_WAIT_MS if args.scheduler else 0
    args.label = args.label or args.scheduler or (
        f"single-{args.single_link}" if args.single_link else args.queue)
    if args.rescore:
        rescore(args)
    else:
        run(args)


if __name__ == "__main__":
    main()
