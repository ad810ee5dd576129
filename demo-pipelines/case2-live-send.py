#!/usr/bin/python3
"""Live SVC sender for case studies 1 and 2: the shipped clip, looped and
paced like a camera, encoded by octopussvcenc and tagged by octopustag.

  case 1: VP8, 3 temporal layers, GoP 8, octopustag policy=framerate; a
          quarter of the rate in TL0, key frames capped at 1.5 TL0 frames,
          a 1 s rate-control buffer (libwebrtc's), at a fixed rate
  case 2: VP9, 3 spatial layers, no periodic key frame: every 10 frames a
          sync picture references no earlier frame (spatial-sync with
          intra-base-sync: its base layer is intra-coded), so the queues may
          drop everything older; a key frame only when the receiver asks (an
          ACK flag, from octopussvcdec request-keyframe); octopustag
          policy=quality, target rate following octopussink's bandwidth
          estimate at each sync

octopussvclog records every message for octo-svc-quality (the run's real SSIM).
--congestion-control and --qualitative are octopussink's properties (the
quco arm: quco and layered).

    case2-live-send.py --case 2 --port 5004 --seconds 20 --dump layers.bin
    case2-live-send.py --case 2 --paths 127.0.0.1:6000,127.0.0.1:6001 \
        --scheduler min-cost --max-bitrate 20000000 --dump layers.bin

--paths sends over several paths at once (octopussink paths=..., the core's
multipath session with --scheduler); --max-bitrate caps what
follow-bandwidth may set (octopussvcenc max-bitrate).

Load record (eval/live-eval.py's guard, as demo-pipelines/webrtc-call.py
writes it): --encoded-log FILE gets frame,capture_ns,encoded_ns,bytes per
frame (capture: when the paced frame left for the encoder; encoded: when
its last layer came out; CLOCK_MONOTONIC, the pipeline clock);
--estimates FILE gets time_ns,estimated_bitrate every 100 ms
(octopussink's estimated-bitrate).
"""
import argparse
import json
import os
import sys
import time

import gi

gi.require_version("Gst", "1.0")
from gi.repository import GLib, Gst  # noqa: E402

from gst_stats import structure_to_dict  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


# Case 1's encoder at a fixed rate.  Every layer's frames about a frame's
# share, the key frame too (as in the artifact's case-1 traces): TL0 a
# quarter of the rate, its key frame at most 1.5 TL0 frames, libwebrtc's 1 s
# rate-control buffer.  With libvpx's 6 s buffer and no cap the key frames
# took 89 % of the bits, so dropping TL1/TL2 shed little (design 8, session
# 19).  eval/clip-video-trace.py encodes the simulator's trace with it.
CASE1_ENCODER = ("codec=vp8 temporal-layers=3 gop=8 layer-fractions=0.25,0.5,1 "
                 "max-intra-bitrate-pct=150 buffer-size=1000 buffer-initial-size=500 "
                 "buffer-optimal-size=600 speed=8")
CASE1_BITRATE = 2000000
# Case 2's encoder, its rate following the transport (case 2 below): no
# periodic key picture, every layer afresh from an intra base every 10
# frames (why: at the key picture's encode cost, below).
# eval/clip-video-trace.py encodes the simulator's trace with it.
CASE2_ENCODER = ("codec=vp9 spatial-layers=3 gop=10000 spatial-sync=10 "
                 "intra-base-sync=true speed=9 threads=2")


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--case", type=int, choices=(1, 2), default=2)
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=5004)
    p.add_argument("--seconds", type=float, default=20)
    p.add_argument("--bitrate", type=int, default=CASE1_BITRATE,
                   help="initial (case 2) or fixed (case 1) target, bits/s")
    p.add_argument("--clip", default=os.path.join(ROOT, "data/media/bigbuckbunny.mp4"))
    p.add_argument("--dump", required=True, help="octopussvclog layer dump to write")
    p.add_argument("--congestion-control", default="bbr",
                   help="octopussink congestion-control (bbr, quco, ...)")
    p.add_argument("--qualitative", default="off",
                   help="octopussink qualitative (off, layered, equal)")
    p.add_argument("--slack-ms", type=int, default=-1,
                   help="octopustag slack: a message is droppable only after queueing "
                        "this long (-1, the default: the policy's, 10 ms for case 2's "
                        "quality policy, 0 for case 1's framerate)")
    p.add_argument("--paths", help="[LOCAL@]HOST:PORT,... : multipath instead of --host/--port")
    p.add_argument("--scheduler", default="min-cost", help="multipath scheduler")
    p.add_argument("--max-bitrate", type=int, default=20000000,
                   help="case 2: cap on the rate follow-bandwidth sets, bits/s")
    p.add_argument("--sink-stats", help="write octopussink's last stats (with "
                   "the per-path ones when multipath) to this JSON file")
    p.add_argument("--encoded-log", help="write each frame's capture and encoded "
                   "times (CSV) to this file")
    p.add_argument("--estimates", help="write octopussink's estimate every 100 ms "
                   "(CSV) to this file")
    p.add_argument("--encoder-options", default="",
                   help="more octopussvcenc properties, e.g. \"layer-fractions=0.2,0.4,1\"")
    p.add_argument("--sink-options", default="",
                   help="more octopussink properties, e.g. \"outage-restart=0\"")
    args = p.parse_args()

    if args.case == 1:
        encoder = (f"octopussvcenc name=encoder {CASE1_ENCODER} bitrate={args.bitrate} "
                   f"{args.encoder_options} ! octopustag policy=framerate slack={args.slack_ms}")
    else:
        # A key picture every 10 frames took 22-27 ms to encode at the median
        # and up to 32 ms with nothing else running (a sync picture, whose
        # upper layers are as large: 14-17 and 18-21 ms; with an intra base
        # layer 11-14 and 16-19 ms in two runs), near the clip's 40 ms
        # frame interval (25 fps, paced as it is) once the shim and the
        # receiver share the two cores (design 8).  The intra base
        # layer gives the queues the dropper the key picture's had.
        encoder = (f"octopussvcenc name=encoder {CASE2_ENCODER} bitrate={args.bitrate} "
                   f"max-bitrate={args.max_bitrate} follow-bandwidth=true "
                   f"{args.encoder_options} ! octopustag policy=quality slack={args.slack_ms}")
    if args.paths:
        sink = f'octopussink name=sink paths="{args.paths}" scheduler={args.scheduler}'
    else:
        sink = f"octopussink name=sink host={args.host} port={args.port}"
    sink += f" {args.sink_options}"
    # identity sync=true releases each frame at its time (no preroll), so
    # capture times are the clock times a camera would give.
    desc = (f'filesrc location="{args.clip}" ! decodebin ! videoconvert ! videoscale '
            "! video/x-raw,format=I420,width=640,height=360 ! identity name=pace sync=true "
            f'! {encoder} ! octopussvclog location="{args.dump}" ! {sink} '
            f"congestion-control={args.congestion_control} qualitative={args.qualitative}")
    Gst.init(None)
    try:
        pipeline = Gst.parse_launch(desc)
    except GLib.Error as e:
        sys.exit(f"case2-live-send: cannot build the pipeline ({e.message}); "
                 "is GST_PLUGIN_PATH set to the octopus and octopussvc plugins?")

    loop = GLib.MainLoop()
    state = {"sink_stats": None}

    def seek_segment(flags):
        pipeline.seek(1.0, Gst.Format.TIME, flags | Gst.SeekFlags.SEGMENT,
                      Gst.SeekType.SET, 0, Gst.SeekType.NONE, -1)

    def on_message(_bus, msg):
        if msg.type == Gst.MessageType.SEGMENT_DONE:
            seek_segment(Gst.SeekFlags.NONE)      # seamless loop of the clip
        elif msg.type == Gst.MessageType.ERROR:
            err, dbg = msg.parse_error()
            print(f"case2-live-send: {err.message} ({dbg})", file=sys.stderr)
            loop.quit()
        elif msg.type == Gst.MessageType.EOS:
            loop.quit()
        elif (msg.type == Gst.MessageType.ELEMENT and msg.get_structure()
              and msg.get_structure().get_name() == "application/x-octopus-sink-stats"):
            state["sink_stats"] = structure_to_dict(msg.get_structure())

    bus = pipeline.get_bus()
    bus.add_signal_watch()
    bus.connect("message", on_message)

    def end_of_run():
        # The looping source never ends: end the stream after the pacer
        # from its streaming thread and drop what still comes.
        sent = []

        def probe(pad, _info):
            if not sent:
                sent.append(True)
                pad.push_event(Gst.Event.new_eos())
            return Gst.PadProbeReturn.DROP

        pad = pipeline.get_by_name("pace").get_static_pad("src")
        pad.add_probe(Gst.PadProbeType.BUFFER, probe)
        return False

    def start_loop():
        # The looping segment seek flushes, so it comes before PLAYING: the
        # first frame, held by identity sync=true in PAUSED, is flushed
        # before anything is captured, and the clip's frame 0 is the
        # stream's frame 0 at its clock time (a seek after PLAYING sent
        # frame 0 twice, the first one stamped before it left).
        seek_segment(Gst.SeekFlags.FLUSH | Gst.SeekFlags.ACCURATE)
        load.start()
        pipeline.set_state(Gst.State.PLAYING)
        GLib.timeout_add(int(args.seconds * 1000), end_of_run)
        return False

    def on_first_buffer(_pad, _info):
        # decodebin has linked the clip to the pacer: it can be seeked
        GLib.idle_add(start_loop)
        return Gst.PadProbeReturn.REMOVE

    load = LoadLog(pipeline)
    pipeline.get_by_name("pace").get_static_pad("sink").add_probe(
        Gst.PadProbeType.BUFFER, on_first_buffer)
    pipeline.set_state(Gst.State.PAUSED)
    loop.run()
    pipeline.set_state(Gst.State.NULL)
    if args.encoded_log:
        load.write_encoded(args.encoded_log)
    if args.estimates:
        load.write_estimates(args.estimates)
    if args.sink_stats and state["sink_stats"] is not None:
        with open(args.sink_stats, "w") as f:
            json.dump(state["sink_stats"], f, indent=1)


class LoadLog:
    """Each frame's capture and encoded times, and the estimate over time."""

    def __init__(self, pipeline):
        self.frames = {}          # pts -> frame number, for the encoder's output
        self.captured = []        # frame -> capture_ns
        self.encoded = {}         # frame -> [encoded_ns, bytes]
        self.estimates = []
        self.pipeline = pipeline
        self.sink = pipeline.get_by_name("sink")

    def start(self):
        self.pipeline.get_by_name("pace").get_static_pad("src").add_probe(
            Gst.PadProbeType.BUFFER, self.on_captured)
        self.pipeline.get_by_name("encoder").get_static_pad("src").add_probe(
            Gst.PadProbeType.BUFFER, self.on_encoded)
        GLib.timeout_add(100, self.on_tick)

    def on_captured(self, _pad, info):
        # identity sync=true lets the frame go at its clock time: its capture
        self.frames[info.get_buffer().pts] = len(self.captured)
        self.captured.append(time.monotonic_ns())
        return Gst.PadProbeReturn.OK

    def on_encoded(self, _pad, info):
        buf = info.get_buffer()
        frame = self.frames.get(buf.pts)
        if frame is not None:
            entry = self.encoded.setdefault(frame, [0, 0])
            entry[0] = time.monotonic_ns()
            entry[1] += buf.get_size()
        return Gst.PadProbeReturn.OK

    def on_tick(self):
        self.estimates.append((time.monotonic_ns(),
                               self.sink.get_property("estimated-bitrate")))
        return True

    def write_encoded(self, path):
        with open(path, "w") as f:
            f.write("frame,capture_ns,encoded_ns,bytes\n")
            for frame, (t, size) in sorted(self.encoded.items()):
                f.write(f"{frame},{self.captured[frame]},{t},{size}\n")

    def write_estimates(self, path):
        with open(path, "w") as f:
            f.write("time_ns,estimated_bitrate\n")
            f.writelines(f"{t},{rate}\n" for t, rate in self.estimates)


if __name__ == "__main__":
    main()
