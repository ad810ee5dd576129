#!/usr/bin/python3
"""Case study 1, live: VP8 with 3 temporal layers -> octopustag
policy=framerate -> octopussink.

vp8enc's temporal-layer properties are GValueArrays that gst-launch cannot
set, and vp8enc crashes with temporal layers but no layer-sync flags, so the
encoder is configured here from code.  The layer pattern is the 0,2,1,2
structure of docs/design.md (GoP 8: keyframe-max-dist 8).

    case1-vp8-send.py [--host 127.0.0.1] [--port 5004] [--seconds 10]
                      [--bitrate 2000000] [--source videotestsrc]

Run case1-receive.sh first (or point --port at octopus-shim)."""
import argparse
import sys

import gi

gi.require_version("Gst", "1.0")
from gi.repository import GLib, GObject, Gst  # noqa: E402

# Layer flags of the 0,2,1,2 pattern: TL0 refs TL0 only, TL1 refs TL0, TL2
# refs the newest TL0/TL1; layer sync on the frames that depend on TL0 only
# (webrtc-call.py says why).
LAYER_FLAGS = ("<no-ref-golden+no-upd-golden+no-upd-alt,"
               "no-ref-golden+no-upd-last+no-upd-golden+no-upd-alt+no-upd-entropy,"
               "no-ref-golden+no-upd-last+no-upd-alt,"
               "no-upd-last+no-upd-golden+no-upd-alt+no-upd-entropy,"
               "no-ref-golden+no-upd-golden+no-upd-alt,"
               "no-ref-golden+no-upd-last+no-upd-golden+no-upd-alt+no-upd-entropy,"
               "no-ref-golden+no-upd-last+no-upd-alt,"
               "no-upd-last+no-upd-golden+no-upd-alt+no-upd-entropy>")
SYNC_FLAGS = "<false,true,true,false,false,true,true,false>"


def int_array(values):
    array = GObject.ValueArray.new(len(values))
    for v in values:
        array.append(GObject.Value(GObject.TYPE_INT, v))
    return array


def configure_temporal_layers(enc, bitrate):
    enc.set_property("temporal-scalability-number-layers", 3)
    enc.set_property("temporal-scalability-periodicity", 4)
    enc.set_property("temporal-scalability-layer-id", int_array([0, 2, 1, 2]))
    enc.set_property("temporal-scalability-rate-decimator", int_array([4, 2, 1]))
    enc.set_property("temporal-scalability-target-bitrate",
                     int_array([bitrate * 4 // 10, bitrate * 6 // 10, bitrate]))
    Gst.util_set_object_arg(enc, "temporal-scalability-layer-flags", LAYER_FLAGS)
    Gst.util_set_object_arg(enc, "temporal-scalability-layer-sync-flags", SYNC_FLAGS)
    enc.set_property("error-resilient", 1)
    enc.set_property("keyframe-max-dist", 8)
    enc.set_property("deadline", 1)
    enc.set_property("target-bitrate", bitrate)


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=5004)
    p.add_argument("--seconds", type=int, default=10)
    p.add_argument("--bitrate", type=int, default=2000000)
    p.add_argument("--source", default="videotestsrc is-live=true pattern=ball")
    args = p.parse_args()

    Gst.init(None)
    desc = (f"{args.source} num-buffers={args.seconds * 30} ! "
            "video/x-raw,width=640,height=360,framerate=30/1 ! videoconvert ! "
            "vp8enc name=enc ! octopustag policy=framerate ! "
            f"octopussink name=sink host={args.host} port={args.port}")
    try:
        pipeline = Gst.parse_launch(desc)
    except GLib.Error as e:
        sys.exit(f"cannot build the pipeline ({e.message}); is GST_PLUGIN_PATH "
                 "set to the octopus plugin's build directory?")
    configure_temporal_layers(pipeline.get_by_name("enc"), args.bitrate)

    pipeline.set_state(Gst.State.PLAYING)
    bus = pipeline.get_bus()
    while True:
        msg = bus.timed_pop_filtered(Gst.CLOCK_TIME_NONE, Gst.MessageType.EOS |
                                     Gst.MessageType.ERROR | Gst.MessageType.ELEMENT)
        if msg.type == Gst.MessageType.ELEMENT:
            s = msg.get_structure()
            if s.get_name() == "application/x-octopus-sink-stats":
                v = s.get_value
                print(f"pacing {v('pacing-rate') / 1e6:7.2f} Mbit/s  "
                      f"estimate {v('bandwidth') / 1e6:7.2f} Mbit/s  "
                      f"{v('mode'):9}  queued {v('queued-bytes'):7d} B  "
                      f"dropped by dropper {v('messages-dropped-dropper')}")
            continue
        if msg.type == Gst.MessageType.ERROR:
            err, dbg = msg.parse_error()
            print(f"error: {err.message} ({dbg})", file=sys.stderr)
        break
    pipeline.set_state(Gst.State.NULL)


if __name__ == "__main__":
    main()
