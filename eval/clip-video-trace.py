#!/usr/bin/python3
"""Video traces of the shipped clip (data/media/bigbuckbunny.mp4 at
640x360, 25 fps, looped), encoded by the encoders the live runs use, so
that the simulator carries the same video as `make live-eval`:

  NAME-quality.trace  VP9, 3 spatial layers: octopussvcenc codec=vp9
                      spatial-layers=3 gop=10 speed=8 (the octopus-svc arm of
                      demo-pipelines/webrtc-call.py; case 2's encoder), one
                      encoding per aggregate rate of --levels; per-layer
                      cumulative rates are the encoder's own split.
  NAME-temp.trace     VP8, 3 temporal layers, GoP 8: vp8enc as webrtc-call.py's
                      octopus arms run it (WEBRTC_VP8_ENCODER's rate control,
                      configure_temporal_layers's layer pattern, split, flags
                      and key-frame cap), at --vp8-bitrate.
  NAME-live-temp.trace
                      VP8, 3 temporal layers, GoP 8, as live case 1 encodes
                      them (demo-pipelines/case2-live-send.py CASE1_ENCODER:
                      octopussvcenc, every layer's frames near a frame's
                      share) at its fixed 2 Mbit/s and 25 fps.
  NAME-live-quality.trace
                      VP9, 3 spatial layers as `make demo` encodes them
                      (demo-pipelines/case2-live-send.py: no periodic key
                      picture, every layer restarting at an intra base sync
                      every 10 frames, speed 9) at the clip's 25 fps, as
                      case2-live-send.py paces it,
                      one encoding per rate of --live-levels, up to the
                      20 Mbit/s the live encoder may reach; the trace's GoP
                      is the sync interval (a sync restarts every layer and
                      carries the droppers a key picture does, design 6).
  NAME-vp8.trace      single-layer VP8 as the gcc arm encodes it (vp8enc
                      with libwebrtc's rate control: webrtc-call.py's
                      WEBRTC_VP8_ENCODER), one encoding per rate of
                      --levels: a 1-layer quality trace for the simulator's
                      gcc scheme.

Sizes are the encoders' output per layer (per frame for VP8); quality is
the project's one SSIM (Wang 2004, gst-octopus/core/eval/octo-ssim.h) of
each picture as a receiver shows it, computed by eval/octo-svc-quality from
the octopussvclog dump (each VP9 layer decoded with the layers below it and
upscaled to 640x360, as octopussvcdec shows it), written as dB
(-10 log10(1 - SSIM)) like the artifact's traces.  Each trace is the clip
looped to whole clips and whole GoPs, at least --min-frames long (VP9 and
single-layer VP8: 660 frames = 5 clips; VP8 3 TL: 792 = 6 clips, 99 GoPs),
so that the simulator's looped trace keeps both in phase.

    eval/clip-video-trace.py [--out data/traces/video] [--build build]

Writes NAME.provenance.json next to the traces (command, commit, encoder
versions, mean rate and SSIM per level).  Needs GST_PLUGIN_PATH with the
octopus and octopussvc plugins (scripts/gst-env.sh) and octo-svc-quality."""
import argparse
import datetime
import functools
import json
import math
import os
import struct
import subprocess
import sys
import tempfile
import warnings

import gi

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "demo-pipelines"))
warnings.filterwarnings("ignore", "GObject.ValueArray", DeprecationWarning)

WIDTH, HEIGHT, FPS = 640, 360, 25
SVC_GOP, VP8_GOP = 10, 8
SVC_FRACTIONS = (0.2, 0.5, 1.0)     # octopussvcenc's default spatial split
DUMP_MAGIC = b"OSVCDMP1"
DUMP_HEADER = struct.Struct("<IBBBBQI")    # svc-encoder/core/svc-dump.h


def webrtc_call():
    """demo-pipelines/webrtc-call.py as a module: its clip loader and VP8
    layer setup are the ones the live arms use."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(
        "webrtc_call", os.path.join(ROOT, "demo-pipelines", "webrtc-call.py"))
    call = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(call)
    assert (call.WIDTH, call.HEIGHT) == (WIDTH, HEIGHT)
    return call


@functools.cache
def live_send():
    """demo-pipelines/case2-live-send.py as a module: the live encoders'
    settings (CASE1_ENCODER, CASE2_ENCODER)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(
        "case2_live_send", os.path.join(ROOT, "demo-pipelines", "case2-live-send.py"))
    send = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(send)
    return send


def trace_frames(args, clip, gop):
    """The shortest length >= --min-frames of whole clips and whole GoPs."""
    unit = math.lcm(len(clip), gop)
    return unit * max(1, -(-args.min_frames // unit))


def encode(clip, n_frames, encoder, dump, configure=None):
    """Pushes @n_frames of @clip (looped) at FPS through @encoder into an
    octopussvclog dump, as fast as the encoder goes."""
    pipeline = Gst.parse_launch(
        "appsrc name=src format=time caps=video/x-raw,format=I420,"
        f"width={WIDTH},height={HEIGHT},framerate={FPS}/1,pixel-aspect-ratio=1/1 "
        f'! {encoder} ! octopussvclog location="{dump}" ! fakesink')
    if configure:
        configure(pipeline.get_by_name("enc"))
    src = pipeline.get_by_name("src")
    pipeline.set_state(Gst.State.PLAYING)
    for i in range(n_frames):
        buf = Gst.Buffer.new_wrapped(clip[i % len(clip)])
        buf.pts = i * Gst.SECOND // FPS
        buf.duration = Gst.SECOND // FPS
        if src.emit("push-buffer", buf) != Gst.FlowReturn.OK:
            sys.exit("clip-video-trace: the encoder refused a frame")
    src.emit("end-of-stream")
    msg = pipeline.get_bus().timed_pop_filtered(
        Gst.CLOCK_TIME_NONE, Gst.MessageType.EOS | Gst.MessageType.ERROR)
    pipeline.set_state(Gst.State.NULL)
    if msg.type == Gst.MessageType.ERROR:
        sys.exit(f"clip-video-trace: {msg.parse_error()[0].message}")


def read_dump(path):
    """{(frame_id, index): size} of an octopussvclog dump."""
    sizes = {}
    with open(path, "rb") as f:
        data = f.read()
    if not data.startswith(DUMP_MAGIC):
        sys.exit(f"clip-video-trace: {path} is not a layer dump")
    pos = len(DUMP_MAGIC)
    while pos < len(data):
        frame, index, _tl, _key, _res, _cap, size = DUMP_HEADER.unpack_from(data, pos)
        sizes[(frame, index)] = size
        pos += DUMP_HEADER.size + size
    return sizes


def score(args, dump, codec, temporal_layers, work):
    """{(frame_id, index): SSIM} of every message, by octo-svc-quality."""
    scores = os.path.join(work, "scores.csv")
    subprocess.run([os.path.join(args.build, "eval", "octo-svc-quality"),
                    f"--dump={dump}", f"--clip={args.clip}", f"--codec={codec}",
                    f"--temporal-layers={temporal_layers}",
                    f"--out={os.path.join(work, 'sent.csv')}",
                    f"--scores={scores}"], check=True, capture_output=True)
    ssim = {}
    with open(scores) as f:
        next(f)
        for line in f:
            frame, index, value, _psnr = line.strip().split(",")
            ssim[(int(frame), int(index))] = float(value)
    return ssim


def ssim_db(ssim):
    return -10 * math.log10(max(1 - ssim, 1e-10))


def frames_of(sizes, ssim, n_frames, n_layers):
    """[(frame, layer, bytes, ssim)] in order; every frame must have every layer."""
    rows = []
    for frame in range(n_frames):
        for layer in range(n_layers):
            if (frame, layer) not in sizes or (frame, layer) not in ssim:
                sys.exit(f"clip-video-trace: frame {frame} layer {layer} "
                         "missing from the encoding")
            rows.append((frame, layer, sizes[(frame, layer)], ssim[(frame, layer)]))
    return rows


def level_stats(rows, n_frames, n_layers):
    top = [r for r in rows if r[1] == n_layers - 1]
    return {"mean_kbps": round(sum(r[2] for r in rows) * 8 * FPS / n_frames / 1000, 1),
            "mean_ssim_top_layer": round(sum(r[3] for r in top) / len(top), 4)}


def quality_trace(args, clip, work, kind):
    """Lines of a quality trace and per-level statistics: VP9 3 spatial
    layers (kind "quality", or "live" as make demo encodes them) or
    single-layer VP8 (kind "vp8")."""
    lines, stats = [], {}
    codec = "vp8" if kind == "vp8" else "vp9"
    n_frames = trace_frames(args, clip, SVC_GOP if codec == "vp9" else 1)
    for kbps in args.live_levels if kind == "live" else args.levels:
        dump = os.path.join(work, f"{kind}-{kbps}.dump")
        if kind == "live":
            n_layers, fractions, gop = 3, SVC_FRACTIONS, SVC_GOP
            encoder = (f"octopussvcenc name=enc {live_send().CASE2_ENCODER} "
                       f"bitrate={kbps * 1000} max-bitrate=0")
        elif codec == "vp9":
            n_layers, fractions, gop = 3, SVC_FRACTIONS, SVC_GOP
            encoder = (f"octopussvcenc name=enc codec=vp9 spatial-layers=3 gop={SVC_GOP} "
                       f"speed=8 threads=2 bitrate={kbps * 1000} max-bitrate=0")
        else:
            n_layers, fractions, gop = 1, (1.0,), n_frames
            encoder = (f"{webrtc_call().WEBRTC_VP8_ENCODER} target-bitrate={kbps * 1000} "
                       "! octopustag policy=framerate")
        print(f"clip-video-trace: {codec} {kbps} kbit/s ...", file=sys.stderr)
        encode(clip, n_frames, encoder, dump)
        rows = frames_of(read_dump(dump), score(args, dump, codec, 1, work),
                         n_frames, n_layers)
        stats[kbps] = level_stats(rows, n_frames, n_layers)
        for frame, layer, size, ssim in rows:
            cum = round(kbps * fractions[layer])
            lines.append(f"{kbps} {frame} {layer} {size} {cum} {ssim_db(ssim):.3f}")
        os.remove(dump)
    return [f"{gop} {n_layers} {FPS}"] + lines, stats


def temporal_trace(args, clip, work, kind):
    """Lines of a VP8 3-TL trace and its statistics: the WebRTC arms'
    vp8enc (kind "temp") or live case 1's octopussvcenc ("live-temp")."""
    dump = os.path.join(work, "vp8-tl.dump")
    n_frames = trace_frames(args, clip, VP8_GOP)
    if kind == "temp":
        call = webrtc_call()
        print(f"clip-video-trace: vp8 3 TL {args.vp8_bitrate} bit/s ...", file=sys.stderr)
        encode(clip, n_frames, f"{call.WEBRTC_VP8_ENCODER} ! octopustag policy=framerate", dump,
               lambda enc: call.configure_temporal_layers(enc, args.vp8_bitrate))
    else:
        send = live_send()
        print(f"clip-video-trace: live case 1, {send.CASE1_BITRATE} bit/s ...",
              file=sys.stderr)
        encode(clip, n_frames, f"octopussvcenc name=enc {send.CASE1_ENCODER} "
               f"bitrate={send.CASE1_BITRATE} ! octopustag policy=framerate", dump)
    sizes = read_dump(dump)
    ssim = score(args, dump, "vp8", 3, work)
    rows = frames_of(sizes, ssim, n_frames, 1)
    os.remove(dump)
    lines = [f"{VP8_GOP} {FPS}"] + [f"{f} {size} {ssim_db(s):.3f}" for f, _l, size, s in rows]
    return lines, level_stats(rows, n_frames, 1)


def ordered(value):
    """@value with every mapping's keys sorted, rates numerically: the
    levels of an entry read back from the file are strings, which
    json.dump's sort_keys would put in text order (1000 before 200)."""
    if not isinstance(value, dict):
        return value
    def key(k):
        return (0, int(k), "") if str(k).isdigit() else (1, 0, str(k))
    return {k: ordered(v) for k, v in sorted(value.items(), key=lambda kv: key(kv[0]))}


def version(element):
    factory = Gst.ElementFactory.find(element)
    return factory.get_plugin().get_version() if factory else None


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--clip", default=os.path.join(ROOT, "data", "media", "bigbuckbunny.mp4"))
    p.add_argument("--name", default="bbb-360p", help="trace name prefix")
    p.add_argument("--out", default=os.path.join(ROOT, "data", "traces", "video"))
    p.add_argument("--build", default=os.path.join(ROOT, "build"))
    p.add_argument("--min-frames", type=int, default=600,
                   help="the shortest trace, frames (rounded up to whole "
                        "clips and GoPs)")
    p.add_argument("--levels", type=lambda s: [int(x) for x in s.split(",")],
                   default=[200, 300, 450, 650, 900, 1250, 1750, 2500, 3500, 5000],
                   help="aggregate rates of the quality traces, kbit/s")
    p.add_argument("--live-levels", type=lambda s: [int(x) for x in s.split(",")],
                   default=[300, 500, 750, 1000, 1500, 2000, 3000, 4000, 5500, 7500,
                            10000, 14000, 20000],
                   help="aggregate rates of the live-quality trace, kbit/s")
    p.add_argument("--vp8-bitrate", type=int, default=3000000,
                   help="the VP8 3-TL rate (webrtc-call.py's octopus arm)")
    p.add_argument("--only", choices=["quality", "live", "temp", "live-temp", "vp8"],
                   action="append",
                   help="write only these traces (repeatable; default all)")
    args = p.parse_args()
    Gst.init(None)
    if not Gst.ElementFactory.find("octopussvclog"):
        sys.exit("clip-video-trace: no octopussvclog: eval \"$(scripts/gst-env.sh)\"")
    clip = webrtc_call().load_clip(args.clip)
    which = args.only or ["quality", "live", "temp", "live-temp", "vp8"]
    prov_path = os.path.join(args.out, f"{args.name}.provenance.json")
    provenance = {}
    if os.path.exists(prov_path):
        with open(prov_path) as f:
            provenance = json.load(f)
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    # a trace made from uncommitted code says so
    if subprocess.run(["git", "-C", ROOT, "diff", "--quiet", "HEAD"]).returncode != 0:
        commit += " (with uncommitted changes)"
    common = {"clip": os.path.relpath(args.clip, ROOT), "clip_frames": len(clip),
              "fps": FPS, "size": f"{WIDTH}x{HEIGHT}",
              "metric": "SSIM (Wang 2004, Gaussian 11x11, luma) by eval/octo-svc-quality, in dB",
              "commit": commit, "date": datetime.date.today().isoformat(),
              "command": "eval/clip-video-trace.py " + " ".join(sys.argv[1:]),
              "libvpx_plugin": version("vp8enc"),
              "gstreamer": Gst.version_string()}
    with tempfile.TemporaryDirectory() as work:
        for kind in which:
            if kind in ("temp", "live-temp"):
                lines, stats = temporal_trace(args, clip, work, kind)
                live = live_send()
                detail = {"encoder": "vp8enc, webrtc-call.py WEBRTC_VP8_ENCODER and "
                                     "configure_temporal_layers"
                          if kind == "temp" else f"octopussvcenc {live.CASE1_ENCODER}",
                          "bitrate": args.vp8_bitrate if kind == "temp"
                          else live.CASE1_BITRATE, "gop": VP8_GOP,
                          "frames": len(lines) - 1, "stats": stats}
            else:
                levels = args.live_levels if kind == "live" else args.levels
                lines, stats = quality_trace(args, clip, work, kind)
                detail = {"encoder": {"quality": "octopussvcenc codec=vp9 spatial-layers=3 "
                                                 "gop=10 speed=8",
                                      "live": f"octopussvcenc {live_send().CASE2_ENCODER}",
                                      "vp8": webrtc_call().WEBRTC_VP8_ENCODER}[kind],
                          "levels_kbps": levels, "stats": stats,
                          "fps": FPS,
                          "frames": (len(lines) - 1) // (1 if kind == "vp8" else 3)
                          // len(levels)}
            name = f"{args.name}-{'live-quality' if kind == 'live' else kind}.trace"
            with open(os.path.join(args.out, name), "w") as f:
                f.write("\n".join(lines) + "\n")
            provenance[name] = dict(common, **detail)
            # after each trace: an interrupted run keeps what it finished
            with open(prov_path, "w") as f:
                json.dump(ordered(provenance), f, indent=1)
                f.write("\n")
            print(f"clip-video-trace: wrote {name}", file=sys.stderr)


if __name__ == "__main__":
    main()
