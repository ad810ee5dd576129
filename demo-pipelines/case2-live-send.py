#!/usr/bin/python3
"""Live SVC sender for case studies 1 and 2: the shipped clip, looped and
paced like a camera, encoded by octopussvcenc and tagged by octopustag.

  case 1: VP8, 3 temporal layers, GoP 8, octopustag policy=framerate
  case 2: VP9, 3 spatial layers, GoP 10, octopustag policy=quality, target
          rate following octopussink's bandwidth estimate per GoP

octopussvclog records every message for octo-svc-quality (the run's real SSIM).
--congestion-control and --qualitative are octopussink's properties (the
quco arm: quco and layered).

    case2-live-send.py --case 2 --port 5004 --seconds 20 --dump layers.bin
    case2-live-send.py --case 2 --paths 127.0.0.1:6000,127.0.0.1:6001 \
        --scheduler min-cost --max-bitrate 20000000 --dump layers.bin

--paths sends over several paths at once (octopussink paths=..., the core's
multipath session with --scheduler); --max-bitrate caps what
follow-bandwidth may set (octopussvcenc max-bitrate).
"""
import argparse
import json
import os
import sys
import warnings

import gi

gi.require_version("Gst", "1.0")
from gi.repository import GLib, Gst  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--case", type=int, choices=(1, 2), default=2)
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=5004)
    p.add_argument("--seconds", type=float, default=20)
    p.add_argument("--bitrate", type=int, default=2000000,
                   help="initial (case 2) or fixed (case 1) target, bits/s")
    p.add_argument("--clip", default=os.path.join(ROOT, "data/media/bigbuckbunny.mp4"))
    p.add_argument("--dump", required=True, help="octopussvclog layer dump to write")
    p.add_argument("--congestion-control", default="bbr",
                   help="octopussink congestion-control (bbr, quco, ...)")
    p.add_argument("--qualitative", default="off",
                   help="octopussink qualitative (off, layered, equal)")
    p.add_argument("--paths", help="[LOCAL@]HOST:PORT,... : multipath instead of --host/--port")
    p.add_argument("--scheduler", default="min-cost", help="multipath scheduler")
    p.add_argument("--max-bitrate", type=int, default=20000000,
                   help="case 2: cap on the rate follow-bandwidth sets, bits/s")
    p.add_argument("--sink-stats", help="write octopussink's last stats (with "
                   "the per-path ones when multipath) to this JSON file")
    args = p.parse_args()

    if args.case == 1:
        encoder = (f"octopussvcenc codec=vp8 temporal-layers=3 gop=8 bitrate={args.bitrate} "
                   "speed=8 ! octopustag policy=framerate")
    else:
        encoder = (f"octopussvcenc codec=vp9 spatial-layers=3 gop=10 bitrate={args.bitrate} "
                   f"max-bitrate={args.max_bitrate} speed=7 follow-bandwidth=true "
                   "! octopustag policy=quality")
    if args.paths:
        sink = f'octopussink paths="{args.paths}" scheduler={args.scheduler}'
    else:
        sink = f"octopussink host={args.host} port={args.port}"
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
    state = {"looping": False, "sink_stats": None}

    def seek_segment(flags):
        pipeline.seek(1.0, Gst.Format.TIME, flags | Gst.SeekFlags.SEGMENT,
                      Gst.SeekType.SET, 0, Gst.SeekType.NONE, -1)

    def on_message(_bus, msg):
        if msg.type == Gst.MessageType.SEGMENT_DONE:
            seek_segment(Gst.SeekFlags.NONE)      # seamless loop of the clip
        elif (msg.type == Gst.MessageType.STATE_CHANGED and msg.src == pipeline
              and msg.parse_state_changed()[1] == Gst.State.PLAYING
              and not state["looping"]):
            state["looping"] = True
            seek_segment(Gst.SeekFlags.FLUSH | Gst.SeekFlags.ACCURATE)
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

    GLib.timeout_add(int(args.seconds * 1000), end_of_run)
    pipeline.set_state(Gst.State.PLAYING)
    loop.run()
    pipeline.set_state(Gst.State.NULL)
    if args.sink_stats and state["sink_stats"] is not None:
        with open(args.sink_stats, "w") as f:
            json.dump(state["sink_stats"], f, indent=1)


def structure_to_dict(s):
    """A stats GstStructure as JSON-able values; its arrays (of numbers, or
    of structures as "paths") through Gst's only Python accessor for them,
    GObject.ValueArray (deprecated, hence the silenced warning)."""
    out = {}
    for i in range(s.n_fields()):
        name = s.nth_field_name(i)
        if s.get_field_type(name) != Gst.ValueArray.__gtype__:
            out[name] = s.get_value(name)
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            arr = s.get_array(name)[1]
            items = [arr.get_nth(k) for k in range(arr.n_values)]
        out[name] = [structure_to_dict(v) if isinstance(v, Gst.Structure) else v
                     for v in items]
    return out

if __name__ == "__main__":
    main()
