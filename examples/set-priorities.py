#!/usr/bin/python3
"""Sets Octopus dropping parameters per buffer from Python, in a live pipeline.

A conferencing app knows things no preset does: here, every frame while the
"speaker" is active (frames 30-59) is more important.  octopustag's "tag"
signal hands each buffer's GstOctopusMeta to the handler as a writable
Gst.Structure ("octopus-params", fields named as the meta's); what the
handler sets travels in the Octopus header.  The receiver reads the header
back the same way (octopussrc ! octopustag policy=none keeps the received
meta and emits "tag" too) and the script checks that every message arrived
with the priority the sender gave it.

    GST_PLUGIN_PATH=$(scripts/gst-env.sh --path) examples/set-priorities.py
"""
import argparse
import sys

import gi

gi.require_version("Gst", "1.0")
from gi.repository import GLib, Gst  # noqa: E402


def sender_priority(params):
    """The application's rule: speaker frames 0 (keep), else by layer."""
    ok, frame = params.get_uint("frame_id")
    ok, layer = params.get_uint("temporal_layer")
    if 30 <= frame < 60:
        return 0
    return 1 + layer


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=90,
                    help="frames to send (30 fps; default 90)")
    args = ap.parse_args()
    Gst.init(None)

    rx = Gst.parse_launch(
        "octopussrc name=src port=0 stats-interval=0 "
        "! octopustag name=rxtag policy=none ! fakesink")
    received = {}

    def on_received(_tag, _buffer, params):
        ok, frame = params.get_uint("frame_id")
        ok, prio = params.get_uint("priority")
        received[frame] = prio

    rx.get_by_name("rxtag").connect("tag", on_received)
    rx.set_state(Gst.State.PLAYING)
    port = rx.get_by_name("src").get_property("bound-port")

    tx = Gst.parse_launch(
        f"videotestsrc is-live=true num-buffers={args.frames} "
        "! video/x-raw,width=320,height=180,framerate=30/1 "
        "! octopussvcenc codec=vp8 temporal-layers=3 "
        "! octopustag name=tag policy=framerate "
        f"! octopussink host=127.0.0.1 port={port} stats-interval=0")
    sent = {}

    def on_tag(_tag, _buffer, params):
        prio = sender_priority(params)
        params.set_value("priority", prio)
        ok, frame = params.get_uint("frame_id")
        sent[frame] = prio

    tx.get_by_name("tag").connect("tag", on_tag)
    loop = GLib.MainLoop()
    bus = tx.get_bus()
    bus.add_signal_watch()

    def on_message(_bus, msg):
        if msg.type == Gst.MessageType.ERROR:
            err, dbg = msg.parse_error()
            print(f"error: {err.message} ({dbg})", file=sys.stderr)
            loop.quit()
        elif msg.type == Gst.MessageType.EOS:
            # the last messages are still on their way to the receiver
            GLib.timeout_add(500, loop.quit)

    bus.connect("message", on_message)
    tx.set_state(Gst.State.PLAYING)
    GLib.timeout_add_seconds(30, loop.quit)
    loop.run()
    tx.set_state(Gst.State.NULL)
    rx.set_state(Gst.State.NULL)

    wrong = {f: (sent.get(f), p) for f, p in received.items()
             if sent.get(f) != p}
    print(f"sent {len(sent)} frames, received {len(received)}; "
          f"priorities set {sorted(set(sent.values()))}, "
          f"received with another priority: {len(wrong)}")
    if not received or wrong or len(received) < len(sent) * 0.9:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
