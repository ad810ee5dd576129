#!/usr/bin/python3
"""One WebRTC call through octopus-shim: a webrtcbin sender on this host, a
webrtcbin receiver inside `octopus-shim --shell` (its own network namespace
behind the emulated cellular downlink), over libnice (ICE), DTLS and SRTP.

  --scheme octopus      VP8 with 3 temporal layers (GoP 8) at a fixed rate
                        (--bitrate), tagged by `octopustag policy=framerate`
                        and carried in RTP by the rtphdrextoctopus extension;
                        the shim's Octopus queue drops whole frames by the
                        rules (TL2/TL1 first).  No congestion control: the
                        in-network drops alone (octopus-bbr adds the sender).
  --scheme gcc          single-layer VP8 with real Google Congestion Control:
                        rtpgccbwe (gst-plugins-rs, built by
                        scripts/build-rtpgccbwe.sh) as webrtcbin's aux
                        sender, vp8enc's target-bitrate following its
                        estimated-bitrate with libwebrtc's rate control
                        (WEBRTC_VP8_ENCODER below), transport-cc feedback;
                        a drop-tail queue in the shim.
  --scheme octopus-gcc  the octopus stream and queue, the encoder's rate
                        --overshoot times rtpgccbwe's estimate.
  --scheme octopus-bbr  the octopus stream and queue with the Octopus sender
                        for RTP: octopusrtpsender as the aux sender paces
                        with BBR from transport-cc feedback and applies the
                        dropping rules in its send buffer; the encoder's
                        rate is --overshoot (default 1) times its
                        estimated-bitrate.
  --scheme octopus-svc  VP9 with 2 quality layers (octopussvcenc: both at the
                        source size, Q0 a quarter of the rate; no periodic key frame,
                        Q1 re-synced every 10 frames: SVC_ENCODER below),
                        tagged by `octopustag policy=quality`, one RTP frame
                        per layer (rtpvp9svcpay, RFC 9628 flexible mode) with
                        the extension, octopusrtpsender as in octopus-bbr,
                        the Octopus queue in the shim; the receiver
                        depayloads each layer (rtpvp9svcdepay) and
                        octopussvcdec shows every frame at its highest
                        decodable layer.  The encoder follows the estimate
                        as octopussink's bandwidth event makes it (the media
                        rate whose link rate is the estimate: paper 000
                        §6.2, the top layer's cumulative rate ~ B).
  --scheme chromium-gcc headless Chromium sends from outside the shell with
                        libwebrtc's own GCC (chromium_sender.py): the clip
                        as its fake camera, frames identified by a painted
                        index, capture times by its RTCP sender reports;
                        a drop-tail queue in the shim.

Signalling is local: the sender listens on a TCP port of the host and the
receiver (the same script, --role receiver, started by the shim) connects to
it at $OCTOPUS_SHELL_OUTSIDE.  The video starts once DTLS is up.

Receiver settings, the same in every arm (GCC's too): octopusrtpgapclose in
front of the jitterbuffer (rtpbin's RTP decoder), which renumbers the packets
after a gap of whole messages a queue dropped on purpose (without it
rtpjitterbuffer held packets behind such gaps for up to 1.4 s: design §5);
jitterbuffer latency 50 ms and drop-on-latency, no NACK/RTX, so it never
waits long for a frame the network (or octopusrtpsender's send buffer)
dropped: a message the rules
may drop must never be retransmitted; the rtpsession sends RTCP (receiver
reports, and transport-cc feedback where negotiated) at least every
--rtcp-interval-ms (20 ms; GStreamer's default is 5 s) with 50 kB/s of RTCP
bandwidth.  --twcc-interval-ms N sends transport-cc feedback every N ms
whatever the RTP markers (GStreamer 1.22 otherwise sends it per marker, so a
queue that drops the packet with the marker delays the feedback to the next
one; libwebrtc's receivers send it every 50-250 ms).  It is off by default
until measured on a quiet machine: at 50 ms, two GCC calls on a loaded
machine lagged by seconds (see docs/design.md §5).  Only the codec's own loss handling differs: the depayloader asks
for key frames (PLI) and waits for one after a loss for single-layer VP8,
which cannot decode past a lost frame.

Load record (eval/live-eval.py's load guard): the sender's capture->encoded
lag of every frame (encoded.csv: frame,capture_ns,encoded_ns,bytes), the
receiver's decode lag (decoded.csv: frame,input_ns,output_ns: the decoder's
last input before the frame came out, and when it came out, converted to
I420), their p50/p99/max in call.json's "load", next to the shim's
departure timing error (its --stats); "shim_start_ns" is when the shim's
trace began (approximately: when it was started).

The shim writes its event log (shim.log: every packet, RTP sequence
number and timestamp included, every drop with its reason); for VP8 the
sender writes packets.csv (each RTP packet's VP8 descriptor before SRTP
encrypts it), which eval/vp8-wire-check.py joins with shim.log.

Logs (same clock, CLOCK_MONOTONIC): the sender writes sent.csv
(frame,index,capture_ns,keyframe,temporal_layer,level,quality), the receiver
received.csv (frame,index,arrival_ns: when the depayloader had the whole
frame); eval/octo-metrics --case 1 turns them into frames.csv and
summary.json.  quality is the real SSIM of each decoded frame against its
source frame at the source size: the project's one definition (Wang 2004,
Gaussian 11x11, on luma), computed by eval/octo-ssim, with PSNR next to it;
frames the receiver never decoded get 0 (they cannot be shown).

    webrtc-call.py --scheme SCHEME --out DIR [--seconds 30]
        [--trace data/traces/network/Verizon-LTE-short.down] [--delay-ms 30]

Needs root (the shim's network namespace), GST_PLUGIN_PATH with the
octopus plugin (and, for the gcc schemes, rtpgccbwe's library), and the shim,
octo-ssim and octo-metrics binaries (--build, default build)."""
import argparse
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
import warnings

import gi
import numpy as np

gi.require_version("Gst", "1.0")
gi.require_version("GstWebRTC", "1.0")
gi.require_version("GstSdp", "1.0")
gi.require_version("GstRtp", "1.0")
from gi.repository import GLib, GObject, Gst, GstRtp, GstSdp, GstWebRTC  # noqa: E402

OCTOPUS_URI = "http://gst-octopus.invalid/rtp-hdrext/octopus-v1"
TWCC_URI = ("http://www.ietf.org/id/draft-holmer-rmcat-"
            "transport-wide-cc-extensions-01")
OCTOPUS_EXT_ID = 3
TWCC_EXT_ID = 1
FPS = 25                        # the clip's own rate
WIDTH, HEIGHT = 640, 360
FRAME_BYTES = WIDTH * HEIGHT * 3 // 2   # I420
JITTERBUFFER_LATENCY_MS = 50
FRAME_INTERVAL_MS = 1000 / FPS
# octopus-svc's encoder (docs/design.md §5, "The live SVC encoder"): two
# layers at the source size, so a frame shown without its dropped Q1 loses
# little (clip at 1.5 Mbit/s: SSIM 0.948 for Q0 alone, 0.962 with Q1, where
# 1/4,1/2,1 spatial layers give 0.69 / 0.83 / 0.95); no periodic key frame
# (its burst set the tail), Q1 re-synced every 10 frames instead so a
# dropped Q1 costs at most 400 ms of it.  Key frames capped at 900 % of a
# frame's share (libwebrtc's VP8 cap: 0.5 x its 600 ms buffer x 30 fps / 10):
# uncapped, the first one (~100 kB at the 1 Mbit/s start) took 350-650 ms to
# pace out and set the short calls' p99 (design §5).
SVC_ENCODER = ("octopussvcenc name=enc codec=vp9 spatial-layers=2 scaling=1,1 "
               "layer-fractions=0.25,1 gop=10000 spatial-sync=10 speed=8 threads=2 "
               "follow-bandwidth=true mtu=1200 max-intra-bitrate-pct=900 "
               "buffer-size=1000 buffer-initial-size=500 buffer-optimal-size=600")
MIN_BITRATE = 200000
BANDWIDTH_EVENT = "GstOctopusBandwidth"     # gstoctopusmeta.h
# octopusrtpsender's state over the call (sender-stats.csv): what its
# controller saw, for the per-frame diagnosis of a call (design §5)
SENDER_STATS_INTERVAL_MS = 100
SENDER_SERIES = ("mode", "bandwidth", "pacing-rate", "cwnd", "inflight",
                 "queued-bytes", "srtt", "min-rtt", "feedback-hold-back",
                 "packets-sent", "packets-lost", "messages-dropped-bitrate",
                 "messages-dropped-dropper", "feedbacks", "restarts")
RTCP_RR_BYTES_PER_S = 50000
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)        # its sibling modules, also when imported by path
from load_record import quantiles_ms  # noqa: E402  (octopus-call.py's too)
NTP_UNIX_OFFSET_S = 2208988800  # 1900 to 1970

# vp8enc temporal layers as in case1-vp8-send.py (docs/design.md case 1):
# TL0 refs the previous TL0 (or the key frame: the alt-ref), TL1 (2, 6) and
# the TL2 frames after a TL0 (1, 5) only TL0, the TL2 frames after a TL1
# (3, 7) TL0 and that TL1 (the golden frame).  Layer sync (the VP8
# descriptor's Y bit: depends on TL0 only) on 1, 2, 5, 6: a receiver such
# as libwebrtc's RtpVp8RefFinder otherwise holds a TL1/TL2 frame back
# while a PictureID between it and its reference is missing, i.e. after
# every TL2 frame the queue dropped on purpose.
LAYER_FLAGS = ("<no-ref-golden+no-upd-golden+no-upd-alt,"
               "no-ref-golden+no-upd-last+no-upd-golden+no-upd-alt+no-upd-entropy,"
               "no-ref-golden+no-upd-last+no-upd-alt,"
               "no-upd-last+no-upd-golden+no-upd-alt+no-upd-entropy,"
               "no-ref-golden+no-upd-golden+no-upd-alt,"
               "no-ref-golden+no-upd-last+no-upd-golden+no-upd-alt+no-upd-entropy,"
               "no-ref-golden+no-upd-last+no-upd-alt,"
               "no-upd-last+no-upd-golden+no-upd-alt+no-upd-entropy>")
SYNC_FLAGS = "<false,true,true,false,false,true,true,false>"


# Every VP8 arm's encoder (the Octopus arms' layers, GoP and key-frame cap
# are configure_temporal_layers's, set over it), rate control as libwebrtc
# sets libvpx's for a call (LibvpxVp8Encoder::InitEncode): CBR over a 1 s
# buffer (500 ms at the start, 600 ms optimal), undershoot 100 %, overshoot
# 15 %, quantiser 2-56, a key frame at most 0.5 x the optimal buffer x fps /
# 10 of the mean frame (750 % at 25 fps), one every 3000 frames (libwebrtc's
# interval) or on request.  vp8enc's default (VBR) follows a lowered target
# over seconds: on ATT it kept sending 0.9-1.2 Mbit/s for 5 s against a
# target of 0.2-0.3 (design 8).  libwebrtc also lets the encoder skip frames
# (at 30 % of the buffer); these arms do not, as no arm's encoder skips
# frames.
WEBRTC_VP8_BUFFER_OPTIMAL_MS = 600
WEBRTC_VP8_ENCODER = ("vp8enc name=enc deadline=1 cpu-used=8 threads=2 end-usage=cbr "
                      "buffer-initial-size=500 "
                      f"buffer-optimal-size={WEBRTC_VP8_BUFFER_OPTIMAL_MS} buffer-size=1000 "
                      "undershoot=100 overshoot=15 min-quantizer=2 max-quantizer=56 "
                      f"max-intra-bitrate={WEBRTC_VP8_BUFFER_OPTIMAL_MS * FPS // 20} "
                      "keyframe-max-dist=3000")


# vp8enc's layer properties are GValueArrays, which PyGObject deprecates.
warnings.filterwarnings("ignore", "GObject.ValueArray", DeprecationWarning)


def int_array(values):
    array = GObject.ValueArray.new(len(values))
    for v in values:
        array.append(GObject.Value(GObject.TYPE_INT, v))
    return array


def set_layer_bitrates(enc, bitrate):
    """TL0 a quarter, TL0+TL1 half of the rate, as live case 1's encoder
    (case2-live-send.py CASE1_ENCODER layer-fractions, design 6): the
    queues then hold TL1 and TL2 frames, half the bytes, to drop."""
    enc.set_property("temporal-scalability-target-bitrate",
                     int_array([bitrate // 4, bitrate // 2, bitrate]))
    enc.set_property("target-bitrate", bitrate)


def configure_temporal_layers(enc, bitrate):
    enc.set_property("temporal-scalability-number-layers", 3)
    enc.set_property("temporal-scalability-periodicity", 4)
    enc.set_property("temporal-scalability-layer-id", int_array([0, 2, 1, 2]))
    enc.set_property("temporal-scalability-rate-decimator", int_array([4, 2, 1]))
    set_layer_bitrates(enc, bitrate)
    Gst.util_set_object_arg(enc, "temporal-scalability-layer-flags", LAYER_FLAGS)
    Gst.util_set_object_arg(enc, "temporal-scalability-layer-sync-flags", SYNC_FLAGS)
    enc.set_property("error-resilient", 1)
    enc.set_property("keyframe-max-dist", 8)
    # A key frame of at most 1.5 TL0 frames (a quarter of the rate over a
    # quarter of the frames: 150 % of the mean frame), as live case 1's.
    # Uncapped, vp8enc spends ~80 kB per key frame at 2 Mbit/s, the key
    # frames alone exceed the rate, and each one (a dropper with threshold
    # 0) purges the backlogged GoP before it, TL0 frames included.
    enc.set_property("max-intra-bitrate", 150)


SCHEMES = ["octopus", "gcc", "octopus-gcc", "octopus-bbr", "octopus-svc",
           "chromium-gcc"]


def tags_layers(scheme):
    return scheme in ("octopus", "octopus-gcc", "octopus-bbr", "octopus-svc")


def is_svc(scheme):
    return scheme == "octopus-svc"


def uses_octopus_sender(scheme):
    return scheme in ("octopus-bbr", "octopus-svc")


def is_chromium(scheme):
    """Headless Chromium sends (libwebrtc's own GCC), outside the shell:
    chromium_sender.py."""
    return scheme == "chromium-gcc"


def caps_from_offer(sdp):
    """The receiver's caps for a browser's offer: its VP8 payload type and
    transport-cc extension id, no NACK (the same receiver settings as every
    other arm)."""
    pt = re.search(r"^a=rtpmap:(\d+) VP8/90000", sdp, re.M)
    ext = re.search(r"^a=extmap:(\d+) " + re.escape(TWCC_URI), sdp, re.M)
    if not pt or not ext:
        sys.exit("webrtc-call: the browser offered no VP8 with transport-cc")
    return Gst.Caps.from_string(
        f"application/x-rtp,media=video,encoding-name=VP8,payload={pt.group(1)},"
        f"clock-rate=90000,extmap-{ext.group(1)}=(string){TWCC_URI},"
        "rtcp-fb-transport-cc=(boolean)true")


def ntp_to_ns(ntp):
    """An RTCP sender report's 64-bit NTP time as ns since 1970 (the host's
    CLOCK_REALTIME, which libwebrtc's NTP clock follows)."""
    seconds = (ntp >> 32) - NTP_UNIX_OFFSET_S
    return seconds * 1000000000 + ((ntp & 0xffffffff) * 1000000000 >> 32)


def sender_reports(data):
    """(ntp, rtp_timestamp) of each sender report in a compound RTCP packet
    (RFC 3550 6.4.1)."""
    out = []
    pos = 0
    while pos + 4 <= len(data):
        kind = data[pos + 1]
        end = pos + 4 * (int.from_bytes(data[pos + 2:pos + 4], "big") + 1)
        if kind == 200 and pos + 20 <= min(end, len(data)):
            out.append((int.from_bytes(data[pos + 8:pos + 16], "big"),
                        int.from_bytes(data[pos + 16:pos + 20], "big")))
        pos = end
    return out


def uses_gcc(scheme):
    return scheme in ("gcc", "octopus-gcc")


def uses_twcc(scheme):
    """An aux sender that needs transport-cc feedback."""
    return uses_gcc(scheme) or uses_octopus_sender(scheme)


def rtp_caps(scheme):
    ext = []
    if tags_layers(scheme):
        ext.append(f"extmap-{OCTOPUS_EXT_ID}=(string){OCTOPUS_URI}")
    if uses_twcc(scheme):
        ext.append(f"extmap-{TWCC_EXT_ID}=(string){TWCC_URI},"
                   "rtcp-fb-transport-cc=(boolean)true")
    ext = ",".join(ext)
    codec = "VP9" if is_svc(scheme) else "VP8"
    if is_svc(scheme):
        # PLI, no NACK: octopus-svc sends no periodic key frame, so its
        # receiver asks for one when it lost the base layer (octopussvcdec
        # request-keyframe).  The VP8 arms stay as measured before (no
        # PLI); whether PLI changes them is not measured.
        ext += ",rtcp-fb-nack-pli=(boolean)true"
    return Gst.Caps.from_string(f"application/x-rtp,media=video,encoding-name={codec},"
                                f"payload=96,clock-rate=90000,{ext}")


PACKETS_HEADER = "seq,rtp_timestamp,marker,start,picture_id,tl0picidx,tid,layer_sync,key"


def vp8_descriptor(d):
    """(start, picture_id, tl0picidx, tid, layer_sync, key) of a VP8 RTP
    payload (RFC 7741); "" for a field the packet does not carry (key: only
    on a partition's first packet)."""
    if len(d) < 1:
        return ("",) * 6
    start = (d[0] >> 4) & 1
    pid = tl0 = tid = sync = key = ""
    i = 1
    if d[0] & 0x80 and len(d) > 1:
        x = d[1]
        i = 2
        if x & 0x80 and i < len(d):
            pid = d[i] & 0x7f
            if d[i] & 0x80 and i + 1 < len(d):
                pid = pid << 8 | d[i + 1]
                i += 1
            i += 1
        if x & 0x40 and i < len(d):
            tl0 = d[i]
            i += 1
        if x & 0x30 and i < len(d):
            if x & 0x20:
                tid, sync = d[i] >> 6, (d[i] >> 5) & 1
            i += 1
    if start and (d[0] & 0x07) == 0 and i < len(d):
        key = int(not d[i] & 1)
    return (start, pid, tl0, tid, sync, key)


def write_packets(path, packets):
    """The sender's VP8 packets as sent, before SRTP encrypts the payload:
    eval/vp8-wire-check.py joins them with the shim's log by sequence
    number."""
    with open(path, "w") as f:
        f.write(PACKETS_HEADER + "\n")
        for p in packets:
            f.write(",".join(str(v) for v in p) + "\n")


def gap_closer():
    closer = Gst.ElementFactory.make("octopusrtpgapclose")
    closer.set_property("ext-id", OCTOPUS_EXT_ID)
    return closer


def frame_of_time(ns):
    """Frame number of a running time; the payloader's RTP timestamp
    (timestamp-offset=0) is the same running time at 90 kHz."""
    return (ns * FPS + Gst.SECOND // 2) // Gst.SECOND


def frame_of_rtptime(ts):
    return (ts * FPS + 45000) // 90000


def luma(i420):
    """The luma plane of a WIDTHxHEIGHT I420 frame (default strides): what
    SSIM is computed on."""
    return np.frombuffer(i420, dtype=np.uint8, count=WIDTH * HEIGHT).reshape(
        HEIGHT, WIDTH)


def load_clip(path):
    """Every frame of @path as WIDTHxHEIGHT I420 bytes."""
    pipeline = Gst.parse_launch(
        f'filesrc location="{path}" ! decodebin ! videoconvert ! videoscale '
        f"! video/x-raw,format=I420,width={WIDTH},height={HEIGHT},"
        "pixel-aspect-ratio=1/1 ! appsink name=out sync=false")
    sink = pipeline.get_by_name("out")
    pipeline.set_state(Gst.State.PLAYING)
    frames = []
    while True:
        sample = sink.emit("pull-sample")
        if sample is None:
            break
        buf = sample.get_buffer()
        if buf.get_size() == FRAME_BYTES:
            frames.append(buf.extract_dup(0, FRAME_BYTES))
    pipeline.set_state(Gst.State.NULL)
    if not frames:
        sys.exit(f"webrtc-call: no {WIDTH}x{HEIGHT} frames decoded from {path}")
    return frames


def score_frames(tool, out, pairs):
    """SSIM and PSNR of each (source, decoded) luma pair, by the project's
    one implementation (eval/octo-ssim): [(ssim, psnr_db), ...]."""
    if not pairs:
        return []
    paths = [os.path.join(out, n) for n in ("score-source.y", "score-decoded.y")]
    for path, side in zip(paths, (0, 1)):
        with open(path, "wb") as f:
            for pair in pairs:
                f.write(pair[side].tobytes())
    rows = subprocess.run([tool, f"--width={WIDTH}", f"--height={HEIGHT}"] + paths,
                          check=True, capture_output=True, text=True).stdout.split()
    for path in paths:
        os.remove(path)
    return [(float(r.split(",")[1]), float(r.split(",")[2])) for r in rows[1:]]


class Signalling:
    """JSON lines over one TCP connection; messages go to @on_message on
    the GLib main context."""

    def __init__(self, sock, on_message):
        self.sock = sock
        self.lock = threading.Lock()
        self.on_message = on_message
        threading.Thread(target=self._read, daemon=True).start()

    def send(self, **msg):
        with self.lock:
            self.sock.sendall((json.dumps(msg) + "\n").encode())

    def _read(self):
        for line in self.sock.makefile("r"):
            GLib.idle_add(self.on_message, json.loads(line))
        GLib.idle_add(self.on_message, {"closed": True})


def connect_ice(webrtc, signalling, ice_agents):
    # Keep a Python reference to the ice-agent: it must outlive the call.
    ice_agents.append(webrtc.get_property("ice-agent"))
    webrtc.connect("on-ice-candidate",
                   lambda _w, mline, cand: signalling.send(ice=[mline, cand]))


def wait_promise(promise, field):
    promise.wait()
    reply = promise.get_reply()
    if reply is None or not reply.has_field(field):
        sys.exit(f"webrtc-call: no {field}: {reply.to_string() if reply else None}")
    # The reply belongs to the promise: keep a description of our own.
    return description(reply.get_value(field).sdp.as_text(),
                       GstWebRTC.WebRTCSDPType.OFFER if field == "offer"
                       else GstWebRTC.WebRTCSDPType.ANSWER)


def description(text, sdp_type):
    _, sdp = GstSdp.SDPMessage.new_from_text(text)
    return GstWebRTC.WebRTCSessionDescription.new(sdp_type, sdp)


class Sender:
    def __init__(self, args, loop):
        self.args = args
        self.loop = loop
        self.ice_agents = []
        self.sent = {}          # frame -> [capture_ns, keyframe, layer]
        self.clip = load_clip(args.clip)
        self.source = {}        # frame -> clip frame index
        self.estimates = []
        self.sender_series = []  # octopusrtpsender's stats every 100 ms
        self.encoded = {}       # frame -> [encoded_ns, bytes] (last layer)
        self.packets = []       # VP8: (seq, ts, marker) + vp8_descriptor()
        self.done = False
        self.started = False
        self.failed = None
        octopus = tags_layers(args.scheme)
        if is_svc(args.scheme):
            encode = (f"{SVC_ENCODER} bitrate={args.bitrate} "
                      f"max-bitrate={args.max_bitrate} "
                      "! octopustag policy=quality mtu=1200 "
                      # GStreamer's rtpsession sends transport-cc feedback
                      # per RTP marker: one per layer frame keeps it coming
                      # when queues drop Q1/Q2 (which end the picture).
                      "! rtpvp9svcpay name=pay timestamp-offset=0 mtu=1200 "
                      "marker-per-layer-frame=true ")
        else:
            # every VP8 arm has libwebrtc's rate control; the Octopus arms'
            # layers, GoP and key-frame cap: configure_temporal_layers
            encode = (f"{WEBRTC_VP8_ENCODER} target-bitrate={args.bitrate} "
                      + ("! octopustag policy=framerate " if octopus else "")
                      + "! rtpvp8pay name=pay timestamp-offset=0 mtu=1200 "
                        "picture-id-mode=15-bit ")
        # The clip, looped, in real time: appsrc blocks, identity releases
        # each frame at its running time (its capture time).
        desc = ("appsrc name=src is-live=true format=time block=true "
                f"max-buffers=2 caps=video/x-raw,format=I420,width={WIDTH},"
                f"height={HEIGHT},framerate={FPS}/1,pixel-aspect-ratio=1/1 "
                "! identity sync=true ! queue max-size-buffers=2 ! "
                + encode + "! capsfilter name=rtpcaps "
                "! webrtcbin name=send bundle-policy=max-bundle")
        self.pipeline = Gst.parse_launch(desc)
        self.enc = self.pipeline.get_by_name("enc")
        # octopussvcenc's GoP and layer rates are its own.
        if octopus and not is_svc(args.scheme):
            configure_temporal_layers(self.enc, args.bitrate)
        self.pipeline.get_by_name("rtpcaps").set_property("caps", rtp_caps(args.scheme))
        self.webrtc = self.pipeline.get_by_name("send")
        if uses_gcc(args.scheme):
            if Gst.ElementFactory.find("rtpgccbwe") is None:
                sys.exit("webrtc-call: no rtpgccbwe: run scripts/build-rtpgccbwe.sh "
                         "and add its lib directory to GST_PLUGIN_PATH")
            self.webrtc.connect("request-aux-sender", self.on_request_aux_sender)
        elif uses_octopus_sender(args.scheme):
            self.webrtc.connect("request-aux-sender", self.on_request_octopus_sender)
        self.octopus_sender = None
        pad = self.enc.get_static_pad("sink")
        pad.add_probe(Gst.PadProbeType.BUFFER, self.on_raw_frame)
        pad = self.enc.get_static_pad("src")
        pad.add_probe(Gst.PadProbeType.BUFFER, self.on_encoded_frame)
        pad = self.pipeline.get_by_name("pay").get_static_pad("src")
        pad.add_probe(Gst.PadProbeType.BUFFER | Gst.PadProbeType.BUFFER_LIST,
                      self.on_rtp)
        bus = self.pipeline.get_bus()
        bus.add_signal_watch()
        bus.connect("message", self.on_bus)

    def on_request_aux_sender(self, _webrtc, _transport):
        gcc = Gst.ElementFactory.make("rtpgccbwe")
        gcc.set_property("min-bitrate", MIN_BITRATE)
        gcc.set_property("max-bitrate", self.args.max_bitrate)
        gcc.set_property("estimated-bitrate", self.args.bitrate)
        gcc.connect("notify::estimated-bitrate", self.on_estimate)
        return gcc

    def on_request_octopus_sender(self, _webrtc, _transport):
        sender = Gst.ElementFactory.make("octopusrtpsender")
        sender.set_property("max-bitrate", self.args.max_bitrate)
        sender.set_property("initial-bitrate", self.args.bitrate)
        Gst.util_set_object_arg(sender, "congestion-control", self.args.cc)
        sender.connect("notify::estimated-bitrate", self.on_estimate)
        sender.set_property("stats-interval", SENDER_STATS_INTERVAL_MS)
        self.octopus_sender = sender
        return sender

    def on_estimate(self, gcc, _pspec):
        # A floor like rtpgccbwe's min-bitrate: key frames must still fit.
        rate = max(gcc.get_property("estimated-bitrate"), MIN_BITRATE)
        if is_svc(self.args.scheme):
            # as octopussink tells it: the top layer's link rate ~ the
            # estimate, from the next spatial sync
            self.enc.get_static_pad("src").send_event(Gst.Event.new_custom(
                Gst.EventType.CUSTOM_UPSTREAM, Gst.Structure.new_from_string(
                    f"{BANDWIDTH_EVENT}, bitrate=(guint64){rate}")))
        elif tags_layers(self.args.scheme):
            # Octopus: overshoot the estimate, the queues drop TL2/TL1.
            set_layer_bitrates(self.enc, int(rate * self.args.overshoot))
        else:
            self.enc.set_property("target-bitrate", rate)
        self.estimates.append((time.monotonic_ns(), rate))

    def start(self, signalling):
        self.signalling = signalling
        trans = self.webrtc.emit("get-transceiver", 0)
        trans.set_property("codec-preferences", rtp_caps(self.args.scheme))
        connect_ice(self.webrtc, signalling, self.ice_agents)
        self.webrtc.connect("notify::connection-state", self.on_connection_state)
        self.pipeline.set_state(Gst.State.PLAYING)
        promise = Gst.Promise.new()
        self.webrtc.emit("create-offer", None, promise)
        offer = wait_promise(promise, "offer")
        self.set_description("set-local-description", offer)
        signalling.send(sdp=offer.sdp.as_text())

    def set_description(self, signal, desc):
        promise = Gst.Promise.new()
        self.webrtc.emit(signal, desc, promise)
        promise.wait()

    def on_message(self, msg):
        if "sdp" in msg:
            self.set_description("set-remote-description", description(
                msg["sdp"], GstWebRTC.WebRTCSDPType.ANSWER))
        elif "ice" in msg:
            self.webrtc.emit("add-ice-candidate", *msg["ice"])
        elif "done" in msg:
            # The receiver exits (and the shim with it) once it sees this:
            # nothing of ours may still be crossing the link then.
            self.signalling.sock.shutdown(socket.SHUT_WR)
            self.loop.quit()
        elif "closed" in msg:
            self.give_up("the receiver closed the signalling connection")
        return False

    def on_connection_state(self, webrtc, _pspec):
        state = webrtc.get_property("connection-state")
        if state == GstWebRTC.WebRTCPeerConnectionState.CONNECTED:
            if not self.started:
                self.started = True
                print("webrtc-call: connected, video starts", file=sys.stderr)
                threading.Thread(target=self.push_frames, daemon=True).start()
        elif state == GstWebRTC.WebRTCPeerConnectionState.FAILED:
            GLib.idle_add(self.give_up, "the peer connection failed")

    def on_raw_frame(self, _pad, info):
        buf = info.get_buffer()
        frame = frame_of_time(buf.pts)
        # The pipeline clock is CLOCK_MONOTONIC, the receiver's clock.
        self.sent.setdefault(frame, [self.pipeline.get_base_time() + buf.pts, 0, 0])
        return Gst.PadProbeReturn.OK

    def on_encoded_frame(self, _pad, info):
        buf = info.get_buffer()
        frame = frame_of_time(buf.pts)
        entry = self.sent.get(frame)
        if entry is not None:
            encoded = self.encoded.setdefault(frame, [0, 0])
            encoded[0] = time.monotonic_ns()
            encoded[1] += buf.get_size()
            # octopussvcenc: one buffer per spatial layer; a key picture's Q0 is
            # the one without DELTA_UNIT.
            key = int(not buf.has_flags(Gst.BufferFlags.DELTA_UNIT))
            entry[1] = max(entry[1], key) if is_svc(self.args.scheme) else key
        return Gst.PadProbeReturn.OK

    def on_rtp(self, _pad, info):
        """The temporal layer as rtpvp8pay wrote it (TID of the VP8 payload
        descriptor, RFC 7741), from the encoder's own layer id."""
        if info.type & Gst.PadProbeType.BUFFER_LIST:
            blist = info.get_buffer_list()
            for i in range(blist.length()):
                self.read_layer(blist.get(i))
        else:
            self.read_layer(info.get_buffer())
        return Gst.PadProbeReturn.OK

    def read_layer(self, buf):
        if is_svc(self.args.scheme):
            return          # one temporal layer; spatial layers are per frame
        ok, rtp = GstRtp.RTPBuffer.map(buf, Gst.MapFlags.READ)
        if not ok:
            return
        seq, ts, marker = rtp.get_seq(), rtp.get_timestamp(), rtp.get_marker()
        d = rtp.get_payload().get_data()
        rtp.unmap()
        desc = vp8_descriptor(d)
        self.packets.append((seq, ts, int(marker)) + desc)
        entry = self.sent.get(frame_of_rtptime(ts))
        tid = desc[3]
        if entry is not None and tid != "":
            entry[2] = tid

    def push_frames(self):
        src = self.pipeline.get_by_name("src")
        start = (self.pipeline.get_clock().get_time()
                 - self.pipeline.get_base_time() + 100 * Gst.MSECOND)
        for n in range(self.args.seconds * FPS):
            pts = start + n * Gst.SECOND // FPS
            buf = Gst.Buffer.new_wrapped(self.clip[n % len(self.clip)])
            buf.pts = pts
            buf.duration = Gst.SECOND // FPS
            self.source[frame_of_time(pts)] = n % len(self.clip)
            if src.emit("push-buffer", buf) != Gst.FlowReturn.OK:
                break
        # Let the last frames cross the link before the receiver stops.
        GLib.timeout_add(2000, self.finish)

    def give_up(self, reason="the call did not finish in time"):
        self.failed = reason
        self.loop.quit()
        return False

    def finish(self):
        if not self.done:
            self.done = True
            self.signalling.send(bye=True)
        return False

    def on_bus(self, _bus, msg):
        if msg.type == Gst.MessageType.ERROR:
            err, dbg = msg.parse_error()
            self.give_up(f"sender error: {err.message} ({dbg})")
        elif msg.type == Gst.MessageType.ELEMENT and msg.get_structure() \
                .has_name("application/x-octopus-rtp-sender-stats"):
            st = msg.get_structure()
            self.sender_series.append(
                [time.monotonic_ns()] + [st.get_value(f) for f in SENDER_SERIES])


class Receiver:
    def __init__(self, args, loop):
        self.args = args
        self.loop = loop
        self.ice_agents = []
        self.rtptime_of_pts = {}
        self.arrivals = {}      # frame -> arrival_ns
        self.decoded = {}       # frame -> luma
        self.decode_input_ns = 0
        self.decode_lags = {}   # frame -> (input_ns, output_ns)
        self.indices = {}       # Chromium: frame (RTP time) -> painted index
        self.reports = []       # Chromium: RTCP SRs (ntp_ns, rtp_timestamp)
        self.pipeline = Gst.Pipeline.new("receiver")
        self.webrtc = Gst.ElementFactory.make("webrtcbin", "recv")
        self.webrtc.set_property("bundle-policy", GstWebRTC.WebRTCBundlePolicy.MAX_BUNDLE)
        self.webrtc.set_property("latency", JITTERBUFFER_LATENCY_MS)
        self.pipeline.add(self.webrtc)
        # in front of the jitterbuffer, after SRTP: closes the sequence
        # gaps of whole messages a queue dropped, which the jitterbuffer
        # would otherwise wait for (a no-op on streams without the header)
        self.webrtc.get_by_name("rtpbin").connect(
            "request-rtp-decoder", lambda _rtpbin, _session: gap_closer())
        self.pipeline.connect("deep-element-added", self.on_element_added)
        self.webrtc.connect("pad-added", self.on_pad_added)
        if not is_chromium(args.scheme):    # Chromium's: from its offer
            self.webrtc.emit("add-transceiver",
                             GstWebRTC.WebRTCRTPTransceiverDirection.RECVONLY,
                             rtp_caps(args.scheme))

    def on_element_added(self, _bin, _sub, element):
        factory = element.get_factory()
        if factory is not None and factory.get_name() == "rtpjitterbuffer":
            element.set_property("drop-on-latency", True)
            element.set_property("do-retransmission", False)
        if (factory is not None and factory.get_name() == "rtpsession"
                and self.args.rtcp_interval_ms > 0):
            # transport-cc feedback rides in RTCP, which GStreamer 1.22 sends
            # at most every rtcp-min-interval (5 s; early feedback about once
            # a second): feedback that late starves any sender-side
            # controller.  Every arm gets the same interval.
            element.set_property("rtcp-min-interval",
                                 self.args.rtcp_interval_ms * Gst.MSECOND)
            element.set_property("rtcp-rr-bandwidth", RTCP_RR_BYTES_PER_S)
            if is_chromium(self.args.scheme):
                element.get_property("internal-session").connect(
                    "on-receiving-rtcp", self.on_rtcp)
        if (factory is not None and factory.get_name() == "rtpsession"
                and self.args.twcc_interval_ms > 0):
            element.get_property("internal-session").set_property(
                "twcc-feedback-interval", self.args.twcc_interval_ms * Gst.MSECOND)

    def on_rtcp(self, _session, buf):
        """Sender reports map the browser's RTP times to its capture clock."""
        for ntp, rtptime in sender_reports(buf.extract_dup(0, buf.get_size())):
            self.reports.append((ntp_to_ns(ntp), rtptime))

    def start(self, signalling):
        self.signalling = signalling
        connect_ice(self.webrtc, signalling, self.ice_agents)
        self.pipeline.set_state(Gst.State.PLAYING)

    def on_message(self, msg):
        if "sdp" in msg:
            if is_chromium(self.args.scheme):
                self.webrtc.emit("add-transceiver",
                                 GstWebRTC.WebRTCRTPTransceiverDirection.RECVONLY,
                                 caps_from_offer(msg["sdp"]))
            offer = description(msg["sdp"], GstWebRTC.WebRTCSDPType.OFFER)
            promise = Gst.Promise.new()
            self.webrtc.emit("set-remote-description", offer, promise)
            promise.wait()
            promise = Gst.Promise.new()
            self.webrtc.emit("create-answer", None, promise)
            answer = wait_promise(promise, "answer")
            promise = Gst.Promise.new()
            self.webrtc.emit("set-local-description", answer, promise)
            promise.wait()
            self.signalling.send(sdp=answer.sdp.as_text())
        elif "ice" in msg:
            self.webrtc.emit("add-ice-candidate", *msg["ice"])
        elif "bye" in msg:
            self.write_logs()
            self.signalling.send(done=True)
        elif "closed" in msg:
            self.loop.quit()
        return False

    def on_pad_added(self, _webrtc, pad):
        if pad.get_direction() != Gst.PadDirection.SRC:
            return
        # A single-layer stream cannot decode past a lost frame: wait for a
        # key frame and ask for one (PLI), as WebRTC does.  With temporal
        # layers a gap is usually a TL2/TL1 frame the queue dropped on
        # purpose: TL0 still decodes, and a PLI would only add key frames
        # to a congested link.
        recover = "false" if tags_layers(self.args.scheme) else "true"
        if is_svc(self.args.scheme):
            # A frame shown at a lower layer is smaller: scaled to the
            # source size, as a viewer would see it, for SSIM.
            decode = ("rtpvp9svcdepay name=depay ! octopussvcdec request-keyframe=true "
                      "! videoscale "
                      "! videoconvert ")
        else:
            decode = (f"rtpvp8depay name=depay request-keyframe={recover} "
                      f"wait-for-keyframe={recover} ! vp8dec ")
            if is_chromium(self.args.scheme):
                # the browser scales its resolution with the rate
                decode += "! videoscale ! videoconvert "
        bin_ = Gst.parse_bin_from_description(
            decode + f"! video/x-raw,format=I420,width={WIDTH},height={HEIGHT},"
            "pixel-aspect-ratio=1/1 ! appsink name=decoded emit-signals=true sync=false",
            True)
        self.pipeline.add(bin_)
        depay = bin_.get_by_name("depay")
        depay.get_static_pad("sink").add_probe(Gst.PadProbeType.BUFFER, self.on_rtp)
        depay.get_static_pad("src").add_probe(Gst.PadProbeType.BUFFER, self.on_frame)
        depay.get_static_pad("src").add_probe(Gst.PadProbeType.BUFFER,
                                              self.on_decoder_input)
        bin_.get_by_name("decoded").connect("new-sample", self.on_decoded)
        bin_.sync_state_with_parent()
        pad.link(bin_.get_static_pad("sink"))

    def on_rtp(self, _pad, info):
        buf = info.get_buffer()
        ok, rtp = GstRtp.RTPBuffer.map(buf, Gst.MapFlags.READ)
        if ok:
            self.rtptime_of_pts[buf.pts] = rtp.get_timestamp()
            rtp.unmap()
        return Gst.PadProbeReturn.OK

    def frame_of_pts(self, pts):
        """Our senders' frames by number; a browser's by RTP time (its
        frame numbers come from the sender reports afterwards)."""
        ts = self.rtptime_of_pts.get(pts)
        if ts is None or is_chromium(self.args.scheme):
            return ts
        return frame_of_rtptime(ts)

    def on_frame(self, _pad, info):
        frame = self.frame_of_pts(info.get_buffer().pts)
        # SVC: a frame is shown at its highest layer, when that arrived.
        if frame is not None and (frame not in self.arrivals
                                  or is_svc(self.args.scheme)):
            self.arrivals[frame] = time.monotonic_ns()
        return Gst.PadProbeReturn.OK

    def on_decoder_input(self, _pad, _info):
        # depayloader, decoder and converters share the jitterbuffer's
        # streaming thread: from here to the appsink is the decode time.
        self.decode_input_ns = time.monotonic_ns()
        return Gst.PadProbeReturn.OK

    def on_decoded(self, sink):
        buf = sink.emit("pull-sample").get_buffer()
        frame = self.frame_of_pts(buf.pts)
        if frame is not None:
            self.decode_lags[frame] = (self.decode_input_ns, time.monotonic_ns())
        if frame is not None and buf.get_size() == FRAME_BYTES:
            self.decoded[frame] = luma(buf.extract_dup(0, FRAME_BYTES))
            if is_chromium(self.args.scheme):
                self.indices[frame] = chromium_sender().read_index(self.decoded[frame])
        return Gst.FlowReturn.OK

    def write_logs(self):
        self.pipeline.set_state(Gst.State.NULL)
        with open(os.path.join(self.args.out, "received-raw.csv"), "w") as f:
            f.write("frame,arrival_ns\n")
            for frame, t in sorted(self.arrivals.items()):
                f.write(f"{frame},{t}\n")
        with open(os.path.join(self.args.out, "decoded.csv"), "w") as f:
            f.write("frame,input_ns,output_ns\n")
            for frame, (t_in, t_out) in sorted(self.decode_lags.items()):
                f.write(f"{frame},{t_in},{t_out}\n")
        if is_chromium(self.args.scheme):
            with open(os.path.join(self.args.out, "sender-reports.csv"), "w") as f:
                f.write("ntp_ns,rtp_timestamp\n")
                f.writelines(f"{n},{r}\n" for n, r in self.reports)
            with open(os.path.join(self.args.out, "painted-index.csv"), "w") as f:
                f.write("rtp_timestamp,index\n")
                f.writelines(f"{t},{i}\n" for t, i in sorted(self.indices.items()))
        np.savez_compressed(os.path.join(self.args.out, "decoded.npz"),
                            **{str(k): v for k, v in self.decoded.items()})


def chromium_sender():
    """demo-pipelines/chromium_sender.py, loaded when a call needs it."""
    import chromium_sender as module
    return module


def run_receiver(args):
    loop = GLib.MainLoop()
    receiver = Receiver(args, loop)
    outside = os.environ["OCTOPUS_SHELL_OUTSIDE"]
    sock = socket.create_connection((outside, args.signalling_port), timeout=10)
    sock.settimeout(None)
    # libnice gathers only octo0 in here: the host is reached through it.
    receiver.start(Signalling(sock, receiver.on_message))
    loop.run()
    sock.close()
    # GStreamer's threads must not keep the namespace (and the shim) alive.
    os._exit(0)


def shim_command(args):
    shim = os.path.join(args.build, "router-shim", "octopus-shim")
    cmd = [shim, "--shell", f"--down-trace={args.trace}",
           f"--delay-ms={args.delay_ms}",
           f"--stats={os.path.join(args.out, 'shim-stats.json')}",
           f"--log={os.path.join(args.out, 'shim.log')}"]
    if args.shim_rt_priority > 0:
        # the link emulator must keep the trace's time while the call's
        # encoder and decoder load both cores (the load guard checks it)
        cmd += [f"--rt-priority={args.shim_rt_priority}"]
    if tags_layers(args.scheme):
        cmd += ["--queue=octopus", f"--rtp-ext-id={OCTOPUS_EXT_ID}"]
    else:
        cmd += ["--queue=droptail"]
    return cmd + ["--", "/usr/bin/python3", os.path.abspath(__file__),
                  "--role=receiver", f"--scheme={args.scheme}",
                  f"--rtcp-interval-ms={args.rtcp_interval_ms}",
                  f"--twcc-interval-ms={args.twcc_interval_ms}",
                  f"--out={args.out}", f"--signalling-port={args.signalling_port}"]


def write_metrics_inputs(args, sender):
    received = {}
    with open(os.path.join(args.out, "received-raw.csv")) as f:
        next(f)
        for line in f:
            frame, t = line.split(",")
            received[int(frame)] = int(t)
    decoded = np.load(os.path.join(args.out, "decoded.npz"))
    first = min(sender.sent)
    scored = [frame for frame in sorted(sender.sent)
              if str(frame) in decoded and frame in sender.source]
    scores = dict(zip(scored, score_frames(
        os.path.join(args.build, "eval", "octo-ssim"), args.out,
        [(luma(sender.clip[sender.source[frame]]), decoded[str(frame)])
         for frame in scored])))
    with open(os.path.join(args.out, "sent.csv"), "w") as f:
        f.write("frame,index,capture_ns,keyframe,temporal_layer,level,quality\n")
        for frame, (capture, key, layer) in sorted(sender.sent.items()):
            q = scores[frame][0] if frame in scores else 0.0
            f.write(f"{frame - first},0,{capture},{key},{layer},0,{q:.6f}\n")
    with open(os.path.join(args.out, "received.csv"), "w") as f:
        f.write("frame,index,arrival_ns\n")
        for frame, t in sorted(received.items()):
            if frame in sender.sent:
                f.write(f"{frame - first},0,{t}\n")
    return len(decoded.files), scores


def load_record(args, sender):
    """Writes encoded.csv; the sender's capture->encoded and the receiver's
    decode lags (ms) for the load guard."""
    with open(os.path.join(args.out, "encoded.csv"), "w") as f:
        f.write("frame,capture_ns,encoded_ns,bytes\n")
        for frame, (t, size) in sorted(sender.encoded.items()):
            f.write(f"{frame},{sender.sent[frame][0]},{t},{size}\n")
    decode = []
    with open(os.path.join(args.out, "decoded.csv")) as f:
        next(f)
        for line in f:
            _, t_in, t_out = (int(v) for v in line.split(","))
            decode.append(t_out - t_in)
    return {"frame_interval_ms": FRAME_INTERVAL_MS,
            "encode_lag_ms": quantiles_ms([t - sender.sent[frame][0] for frame, (t, _)
                                           in sender.encoded.items()]),
            "decode_lag_ms": quantiles_ms(decode)}


def run_sender(args):
    os.makedirs(args.out, exist_ok=True)
    loop = GLib.MainLoop()
    sender = Sender(args, loop)
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("0.0.0.0", 0))
    server.listen(1)
    args.signalling_port = server.getsockname()[1]
    shim_start_ns = time.monotonic_ns()
    shim = subprocess.Popen(shim_command(args))
    server.settimeout(20)
    try:
        conn, _ = server.accept()
    except socket.timeout:
        shim.kill()
        sys.exit("webrtc-call: the receiver did not connect for signalling")
    sender.start(Signalling(conn, sender.on_message))
    GLib.timeout_add_seconds(args.seconds + 60, sender.give_up)
    loop.run()
    if sender.failed:
        shim.terminate()
        shim.wait()
        sys.exit(f"webrtc-call: {sender.failed}")
    sender.octopus_stats = None
    if sender.octopus_sender is not None:
        stats = sender.octopus_sender.get_property("stats")
        # The per-priority drop counts are GstValueArrays, which PyGObject
        # cannot read; the totals next to them can be.
        array = GObject.type_from_name("GstValueArray")
        names = [stats.nth_field_name(i) for i in range(stats.n_fields())]
        sender.octopus_stats = {name: stats.get_value(name) for name in names
                                if stats.get_field_type(name) != array}
    sender.pipeline.set_state(Gst.State.NULL)
    if shim.wait(timeout=60) != 0:
        sys.exit(f"webrtc-call: the receiver exited with {shim.returncode}")
    n_decoded, scores = write_metrics_inputs(args, sender)
    metrics = os.path.join(args.build, "eval", "octo-metrics")
    subprocess.run([metrics, "--case=1", f"--sent={args.out}/sent.csv",
                    f"--received={args.out}/received.csv", f"--out={args.out}",
                    f"--scheme={args.scheme}-webrtc",
                    f"--trace={os.path.basename(args.trace)}", f"--video={os.path.basename(args.clip)}",
                    f"--rtt-ms={2 * args.delay_ms}"], check=True)
    with open(os.path.join(args.out, "summary.json")) as f:
        summary = json.load(f)
    summary["frames_sent"] = len(sender.sent)
    summary["frames_decoded"] = n_decoded
    summary["quality_metric"] = "SSIM (Wang 2004, Gaussian 11x11)"
    summary["mean_ssim_decoded"] = (sum(s for s, _ in scores.values()) / len(scores)
                                    if scores else None)
    psnrs = [p for _, p in scores.values() if p != float("inf")]
    summary["mean_psnr_db_decoded"] = sum(psnrs) / len(psnrs) if psnrs else None
    if sender.estimates:
        with open(os.path.join(args.out, "estimates.csv"), "w") as f:
            f.write("time_ns,estimated_bitrate\n")
            for t, rate in sender.estimates:
                f.write(f"{t},{rate}\n")
        rates = [rate for _, rate in sender.estimates]
        summary["estimate_bps"] = {"min": min(rates), "max": max(rates),
                                   "final": rates[-1]}
    if sender.octopus_stats is not None:
        summary["octopus_sender"] = sender.octopus_stats
    if sender.sender_series:
        with open(os.path.join(args.out, "sender-stats.csv"), "w") as f:
            f.write(",".join(["time_ns"] + [n.replace("-", "_") for n in
                                            SENDER_SERIES]) + "\n")
            for row in sender.sender_series:
                f.write(",".join(str(v) for v in row) + "\n")
    summary["shim_start_ns"] = shim_start_ns
    if sender.packets:
        write_packets(os.path.join(args.out, "packets.csv"), sender.packets)
    summary["load"] = load_record(args, sender)
    with open(os.path.join(args.out, "shim-stats.json")) as f:
        summary["shim"] = json.load(f)
    with open(os.path.join(args.out, "call.json"), "w") as f:
        json.dump(summary, f, indent=1)
    print(json.dumps({k: v for k, v in summary.items() if k != "shim"}))


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--scheme", choices=SCHEMES, required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--seconds", type=int, default=30)
    p.add_argument("--trace", default=os.path.join(
        HERE, "..", "data", "traces", "network", "Verizon-LTE-short.down"))
    p.add_argument("--delay-ms", type=int, default=30)
    p.add_argument("--bitrate", type=int, default=None,
                   help="octopus: the encoder's fixed rate; gcc: the start "
                        "estimate (default 3 Mbit/s / 1 Mbit/s)")
    p.add_argument("--max-bitrate", type=int, default=6000000)
    p.add_argument("--overshoot", type=float, default=None,
                   help="octopus-gcc, octopus-bbr: the encoder's rate / "
                        "the aux sender's estimate (default 1.5 over GCC; "
                        "1 over BBR, whose gain cycle and max filter "
                        "overshoot already)")
    p.add_argument("--cc", choices=["bbr", "delay-bbr"], default="bbr",
                   help="octopus-bbr, octopus-svc: octopusrtpsender's "
                        "congestion control")
    p.add_argument("--rtcp-interval-ms", type=int, default=20,
                   help="the receiver's rtcp-min-interval, the same for every "
                        "scheme (0: GStreamer's default, 5 s)")
    p.add_argument("--shim-rt-priority", type=int, default=50,
                   help="octopus-shim's SCHED_FIFO priority (0: normal "
                        "scheduling); its command runs at normal priority")
    p.add_argument("--twcc-interval-ms", type=int, default=0,
                   help="the receiver's transport-cc feedback interval, the "
                        "same for every scheme (0: GStreamer 1.22's default, "
                        "one feedback per RTP marker)")
    p.add_argument("--chromium-degradation", default="maintain-resolution",
                   choices=["maintain-resolution", "maintain-framerate", "balanced",
                            "browser-default"],
                   help="chromium-gcc: the browser sender's degradationPreference. "
                        "maintain-resolution (default) keeps the source's 640x360 as "
                        "every other arm's encoder does, so under a low estimate the "
                        "browser raises its quantiser and skips frames instead of "
                        "scaling down, and qualityLimitationReason stays free to "
                        "report load (cpu); browser-default keeps the browser's own "
                        "(a camera's: scale the resolution, reported as 'bandwidth')")
    p.add_argument("--clip", default=os.path.join(
        HERE, "..", "data", "media", "bigbuckbunny.mp4"))
    p.add_argument("--build", default=os.path.join(HERE, "..", "build"))
    p.add_argument("--role", choices=["sender", "receiver"], default="sender")
    p.add_argument("--signalling-port", type=int, default=0)
    args = p.parse_args()
    if args.bitrate is None:
        args.bitrate = 3000000 if args.scheme == "octopus" else 1000000
    if args.overshoot is None:
        args.overshoot = 1.0 if uses_octopus_sender(args.scheme) else 1.5
    args.out = os.path.abspath(args.out)
    Gst.init(None)
    if args.role == "receiver":
        run_receiver(args)
    elif is_chromium(args.scheme):
        chromium_sender().run(args, sys.modules[__name__])
    else:
        run_sender(args)


if __name__ == "__main__":
    main()
