"""The chromium-gcc arm of webrtc-call.py: headless Chromium sends, with
libwebrtc's own congestion control (GCC on transport-cc feedback), from
outside the shell to webrtc-call.py's webrtcbin receiver inside
`octopus-shim --shell`, so its media crosses the same down trace, queue
(drop-tail) and receiver settings as every other arm.

The camera is Chromium's fake capture device playing a y4m of the shipped
clip (640x360, 25 fps) with each frame's index painted into its top rows
(paint_index: 12 bits, black/white blocks), so that the receiver can tell
which source picture it decoded whatever the browser did to the rate,
resolution or frame rate.  The page logs every frame its encoder hands to
the packetizer (an encoded transform: RTP time, key or delta, bytes, wall
clock): the frames the browser sent.  Capture times come from the
browser's RTCP sender reports, which the receiver records: a frame's
capture time is the report's NTP time plus the RTP time since it (90 kHz),
both on this host's one clock.  The sent frames are numbered in capture
order; those that never arrived count as sent and not shown, as in every
arm (frames the browser's encoder skipped are not sent frames: no other
arm's encoder skips any).  The capture->encoded lag of the load guard is
per frame (the encoded transform's time minus the capture time), the
decode lag the receiver's.

The page posts its getStats() every 500 ms: qualityLimitationReason (the
load guard's Chromium rule) and the estimate (candidate-pair
availableOutgoingBitrate: GCC's target) among them, with the sender's
degradationPreference.  That is maintain-resolution unless
--chromium-degradation says otherwise: every other arm's encoder keeps the
source's 640x360, and a browser camera's own preference (scale the
resolution under a low estimate) is reported as qualityLimitationReason
'bandwidth', which the guard cannot tell from load; with
maintain-resolution a low estimate raises the quantiser and skips frames,
and the reason stays free to say 'cpu'."""
import http.server
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

import numpy as np

INDEX_BITS = 12
INDEX_BLOCK_W, INDEX_BLOCK_H = 32, 16
Y4M_CLIPS = 2                   # indices repeat after this many clip loops
STATS_INTERVAL_MS = 500

PAGE = """<!doctype html>
<html><body><script>
const post = (path, msg) => fetch(path, {method: 'POST', body: JSON.stringify(msg)});
let pc, sender;
// Every encoded frame as it leaves the encoder: [RTP time, key, bytes,
// wall-clock ms]: the sender's own per-frame log.
const encoded = [];
function logFrame(frame) {
  const m = frame.getMetadata ? frame.getMetadata() : {};
  const ts = m.rtpTimestamp !== undefined ? m.rtpTimestamp : frame.timestamp;
  encoded.push([ts, frame.type === 'key' ? 1 : 0, frame.data.byteLength,
                performance.timeOrigin + performance.now()]);
}
async function main() {
  const stream = await navigator.mediaDevices.getUserMedia(
      {video: {width: WIDTH, height: HEIGHT, frameRate: FPS}});
  const scriptTransform = typeof RTCRtpScriptTransform !== 'undefined';
  pc = new RTCPeerConnection(scriptTransform ? {} : {encodedInsertableStreams: true});
  pc.onicecandidate = (e) => {
    if (e.candidate) post('/msg', {ice: [e.candidate.sdpMLineIndex, e.candidate.candidate]});
  };
  pc.onconnectionstatechange = () => post('/msg', {state: pc.connectionState});
  const tr = pc.addTransceiver(stream.getVideoTracks()[0], {direction: 'sendonly'});
  const vp8 = RTCRtpSender.getCapabilities('video').codecs.filter(
      (c) => c.mimeType === 'video/VP8');
  tr.setCodecPreferences(vp8);
  if (scriptTransform) {
    const worker = new Worker('/worker.js');
    worker.onmessage = (e) => encoded.push(...e.data);
    tr.sender.transform = new RTCRtpScriptTransform(worker, {});
  } else {
    const {readable, writable} = tr.sender.createEncodedStreams();
    readable.pipeThrough(new TransformStream({transform(frame, out) {
      logFrame(frame);
      out.enqueue(frame);
    }})).pipeTo(writable);
  }
  const offer = await pc.createOffer();
  await pc.setLocalDescription(offer);
  post('/msg', {sdp: offer.sdp});
  // webrtcbin may announce candidates before its answer: keep them until then.
  const early = [];
  for (;;) {
    const msgs = await (await fetch('/poll')).json();
    for (const m of msgs) {
      if (m.sdp) {
        await pc.setRemoteDescription({type: 'answer', sdp: m.sdp});
        if (DEGRADATION !== 'browser-default') {
          const params = tr.sender.getParameters();
          params.degradationPreference = DEGRADATION;
          await tr.sender.setParameters(params);
        }
        sender = tr.sender;     // stats from here: the preference is in force
        for (const c of early.splice(0)) await pc.addIceCandidate(c);
      } else if (m.ice) {
        const c = {sdpMLineIndex: m.ice[0], candidate: m.ice[1]};
        if (pc.remoteDescription) await pc.addIceCandidate(c); else early.push(c);
      } else if (m.bye) { clearInterval(statsTimer); pc.close(); return; }
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
async function postStats() {
  if (!sender) return;
  const out = {t: performance.now()};
  (await pc.getStats()).forEach((s) => {
    if (s.type === 'outbound-rtp' && s.kind === 'video') {
      out.qualityLimitationReason = s.qualityLimitationReason;
      out.degradationPreference = DEGRADATION === 'browser-default' ? DEGRADATION :
          sender.getParameters().degradationPreference || 'unset';
      out.framesEncoded = s.framesEncoded || 0;
      out.framesSent = s.framesSent || 0;
      out.totalEncodeTime = s.totalEncodeTime || 0;
      out.targetBitrate = s.targetBitrate || 0;
      out.bytesSent = s.bytesSent || 0;
      out.frameWidth = s.frameWidth || 0;
      out.frameHeight = s.frameHeight || 0;
    } else if (s.type === 'candidate-pair' && s.nominated && s.availableOutgoingBitrate) {
      out.availableOutgoingBitrate = s.availableOutgoingBitrate;
    }
  });
  post('/stats', out);
  if (encoded.length) post('/frames', encoded.splice(0));
}
const statsTimer = setInterval(
    () => postStats().catch((e) => post('/msg', {error: String(e)})), STATS_INTERVAL_MS);
main().catch((e) => post('/msg', {error: String(e)}));
</script></body></html>
"""


WORKER = """
onrtctransform = (event) => {
  const batch = [];
  setInterval(() => { if (batch.length) postMessage(batch.splice(0)); }, 100);
  event.transformer.readable.pipeThrough(new TransformStream({transform(frame, out) {
    const m = frame.getMetadata();
    batch.push([m.rtpTimestamp !== undefined ? m.rtpTimestamp : frame.timestamp,
                frame.type === 'key' ? 1 : 0, frame.data.byteLength,
                performance.timeOrigin + performance.now()]);
    out.enqueue(frame);
  }})).pipeTo(event.transformer.writable);
};
"""


def index_blocks(width):
    """(x0, x1) of each bit's block, most significant bit first."""
    assert INDEX_BITS * INDEX_BLOCK_W <= width
    return [(k * INDEX_BLOCK_W, (k + 1) * INDEX_BLOCK_W) for k in range(INDEX_BITS)]


def paint_index(i420, width, index):
    """@i420 (bytes) with @index painted as black/white blocks in the luma
    plane's top rows."""
    frame = bytearray(i420)
    for k, (x0, x1) in enumerate(index_blocks(width)):
        value = 235 if index >> (INDEX_BITS - 1 - k) & 1 else 16
        for y in range(INDEX_BLOCK_H):
            frame[y * width + x0:y * width + x1] = bytes([value]) * (x1 - x0)
    return bytes(frame)


def read_index(luma):
    """The index painted into a decoded luma plane (2D array): each block's
    centre half, thresholded at mid-grey."""
    value = 0
    for x0, x1 in index_blocks(luma.shape[1]):
        w, h = x1 - x0, INDEX_BLOCK_H
        centre = luma[h // 4:3 * h // 4, x0 + w // 4:x1 - w // 4]
        value = value << 1 | int(centre.mean() > 128)
    return value


def painted_clip(clip, width):
    """The fake camera's pictures: the clip looped Y4M_CLIPS times, each
    picture carrying its position."""
    return [paint_index(clip[i % len(clip)], width, i) for i in range(Y4M_CLIPS * len(clip))]


def write_y4m(path, pictures, width, height, fps):
    with open(path, "wb") as f:
        f.write(f"YUV4MPEG2 W{width} H{height} F{fps}:1 Ip A1:1 C420jpeg\n".encode())
        for p in pictures:
            f.write(b"FRAME\n")
            f.write(p)


def capture_times(reports, timestamps, realtime_offset_ns):
    """{rtp_timestamp: capture time (CLOCK_MONOTONIC ns)} by the sender
    reports (ntp_ns, rtp_timestamp): each frame by the report nearest in
    RTP time, 32-bit wrap-around included."""
    if not reports:
        return {}
    out = {}
    for ts in timestamps:
        ntp, rtp = min(reports, key=lambda r: abs(((ts - r[1] + 2**31) % 2**32) - 2**31))
        delta = ((ts - rtp + 2**31) % 2**32) - 2**31
        out[ts] = ntp + delta * 1000000000 // 90000 - realtime_offset_ns
    return out


def read_csv(path):
    with open(path) as f:
        header = f.readline().strip().split(",")
        return [dict(zip(header, line.strip().split(","))) for line in f if line.strip()]


class Bridge:
    """Signalling between the page (HTTP: it polls, it posts) and the
    receiver (JSON lines over TCP, webrtc-call.py's Signalling)."""

    def __init__(self, page):
        self.page = page
        self.lock = threading.Lock()
        self.to_page = []
        self.stats = []
        self.encoded = []       # [rtp_timestamp, key, bytes, wall ms]
        self.errors = []
        self.state = None
        self.connected = threading.Event()
        self.done = threading.Event()
        self.receiver = None

    def send(self, **msg):              # from the receiver, to the page
        with self.lock:
            self.to_page.append(msg)

    def on_receiver_message(self, msg):
        if "done" in msg or "closed" in msg:
            self.done.set()
        else:
            self.send(**msg)
        return False

    def handler(self):
        bridge = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def reply(self, body, kind="application/json"):
                data = body.encode()
                self.send_response(200)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self):
                if self.path == "/poll":
                    with bridge.lock:
                        msgs, bridge.to_page = bridge.to_page, []
                    self.reply(json.dumps(msgs))
                elif self.path == "/worker.js":
                    self.reply(WORKER, "text/javascript")
                else:
                    self.reply(bridge.page, "text/html")

            def do_POST(self):
                msg = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                if self.path == "/frames":
                    with bridge.lock:
                        bridge.encoded.extend(msg)
                elif self.path == "/stats":
                    msg["host_ns"] = time.monotonic_ns()
                    with bridge.lock:
                        bridge.stats.append(msg)
                elif "error" in msg:
                    bridge.errors.append(msg["error"])
                elif "state" in msg:
                    bridge.state = msg["state"]
                    if msg["state"] == "connected":
                        bridge.connected.set()
                elif "sdp" in msg or "ice" in msg:
                    bridge.receiver.send(**msg)
                self.reply("{}")
        return Handler


def sent_frames(encoded):
    """{rtp_timestamp: [key, bytes, encoded wall-clock ns]} of the browser's
    encoded-frame log."""
    frames = {}
    for ts, key, size, wall_ms in encoded:
        f = frames.setdefault(int(ts), [0, 0, 0])
        f[0] = max(f[0], int(key))
        f[1] += int(size)
        f[2] = max(f[2], int(wall_ms * 1e6))
    return frames


def score(call, args, pictures, encoded, errors):
    """sent.csv, received.csv and encoded.csv from the browser's
    encoded-frame log and the receiver's logs: the frames the browser sent,
    numbered in capture order (frames its encoder skipped are not sent
    frames, as no other arm's encoder skips any), each with its capture
    time by the sender reports; the SSIM of every decoded frame against the
    picture it shows.  Returns (frames sent, frames decoded, scores, encode
    lags in ns)."""
    realtime_offset = time.time_ns() - time.monotonic_ns()
    reports = [(int(r["ntp_ns"]), int(r["rtp_timestamp"]))
               for r in read_csv(os.path.join(args.out, "sender-reports.csv"))]
    arrivals = {int(r["frame"]): int(r["arrival_ns"])
                for r in read_csv(os.path.join(args.out, "received-raw.csv"))}
    indices = {int(r["rtp_timestamp"]): int(r["index"])
               for r in read_csv(os.path.join(args.out, "painted-index.csv"))}
    sent = sent_frames(encoded)
    captures = capture_times(reports, set(sent), realtime_offset)
    if not captures:
        sys.exit("webrtc-call: no encoded-frame log or sender report from the browser"
                 + (f" (the page: {'; '.join(sorted(set(errors)))})" if errors else ""))
    order = sorted(captures, key=captures.get)
    frame_of = {ts: k for k, ts in enumerate(order)}
    decoded = np.load(os.path.join(args.out, "decoded.npz"))
    scored = [ts for ts in order if str(ts) in decoded and ts in indices]
    scores = dict(zip(scored, call.score_frames(
        os.path.join(args.build, "eval", "octo-ssim"), args.out,
        [(call.luma(pictures[indices[ts] % len(pictures)]), decoded[str(ts)])
         for ts in scored])))
    with open(os.path.join(args.out, "sent.csv"), "w") as f:
        f.write("frame,index,capture_ns,keyframe,temporal_layer,level,quality\n")
        for ts in order:
            q = scores[ts][0] if ts in scores else 0.0
            f.write(f"{frame_of[ts]},0,{captures[ts]},{sent[ts][0]},0,0,{q:.6f}\n")
    with open(os.path.join(args.out, "received.csv"), "w") as f:
        f.write("frame,index,arrival_ns\n")
        for ts in order:
            if ts in arrivals:
                f.write(f"{frame_of[ts]},0,{arrivals[ts]}\n")
    lags = []
    with open(os.path.join(args.out, "encoded.csv"), "w") as f:
        f.write("frame,capture_ns,encoded_ns,bytes\n")
        for ts in order:
            done = sent[ts][2] - realtime_offset
            lags.append(done - captures[ts])
            f.write(f"{frame_of[ts]},{captures[ts]},{done},{sent[ts][1]}\n")
    return len(order), len(decoded.files), scores, lags


def run(args, call):
    """The sender role of the chromium-gcc arm (webrtc-call.py --scheme
    chromium-gcc)."""
    chromium = shutil.which(os.environ.get("CHROMIUM", "chromium"))
    if chromium is None:
        sys.exit("webrtc-call: no chromium (apt-get install chromium, or set CHROMIUM)")
    os.makedirs(args.out, exist_ok=True)
    clip = call.load_clip(args.clip)
    pictures = painted_clip(clip, call.WIDTH)
    work = tempfile.mkdtemp(prefix="chromium-sender-")
    y4m = os.path.join(work, "camera.y4m")
    write_y4m(y4m, pictures, call.WIDTH, call.HEIGHT, call.FPS)
    page = (PAGE.replace("WIDTH", str(call.WIDTH)).replace("HEIGHT", str(call.HEIGHT))
            .replace("FPS", str(call.FPS))
            .replace("STATS_INTERVAL_MS", str(STATS_INTERVAL_MS))
            .replace("DEGRADATION", json.dumps(args.chromium_degradation)))
    bridge = Bridge(page)
    http_server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), bridge.handler())
    threading.Thread(target=http_server.serve_forever, daemon=True).start()
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("0.0.0.0", 0))
    server.listen(1)
    args.signalling_port = server.getsockname()[1]
    shim_start_ns = time.monotonic_ns()
    shim = subprocess.Popen(call.shim_command(args))
    server.settimeout(20)
    try:
        conn, _ = server.accept()
    except socket.timeout:
        shim.kill()
        sys.exit("webrtc-call: the receiver did not connect for signalling")
    loop = call.GLib.MainLoop()
    threading.Thread(target=loop.run, daemon=True).start()
    bridge.receiver = call.Signalling(conn, bridge.on_receiver_message)
    browser = subprocess.Popen([
        chromium, "--headless=new", "--no-sandbox", "--disable-gpu",
        f"--user-data-dir={work}/profile", "--no-first-run",
        "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream",
        f"--use-file-for-fake-video-capture={y4m}",
        "--disable-features=WebRtcHideLocalIpsWithMdns",
        f"http://127.0.0.1:{http_server.server_address[1]}/"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        env=dict(os.environ, LD_PRELOAD=""))
    failed = None
    if not bridge.connected.wait(30):
        failed = f"the browser did not connect ({bridge.state}; {bridge.errors})"
    else:
        print("webrtc-call: connected, the browser sends", file=sys.stderr)
        time.sleep(args.seconds)
        bridge.send(bye=True)            # the page closes its connection
        time.sleep(2)                    # the last frames cross the link
        bridge.receiver.send(bye=True)
        if not bridge.done.wait(60):
            failed = "the receiver did not finish"
    browser.terminate()
    browser.wait(timeout=30)
    shutil.rmtree(work, ignore_errors=True)
    bridge.receiver.sock.shutdown(socket.SHUT_WR)
    loop.quit()
    if failed:
        shim.terminate()
        shim.wait()
        sys.exit(f"webrtc-call: {failed}")
    if shim.wait(timeout=60) != 0:
        sys.exit(f"webrtc-call: the receiver exited with {shim.returncode}")
    n_sent, n_decoded, scores, lags = score(call, args, pictures, bridge.encoded, bridge.errors)
    metrics = os.path.join(args.build, "eval", "octo-metrics")
    subprocess.run([metrics, "--case=1", f"--sent={args.out}/sent.csv",
                    f"--received={args.out}/received.csv", f"--out={args.out}",
                    f"--scheme={args.scheme}-webrtc",
                    f"--trace={os.path.basename(args.trace)}",
                    f"--video={os.path.basename(args.clip)}",
                    f"--rtt-ms={2 * args.delay_ms}"], check=True)
    with open(os.path.join(args.out, "summary.json")) as f:
        summary = json.load(f)
    stats = bridge.stats
    summary["frames_sent"] = n_sent
    summary["frames_decoded"] = n_decoded
    summary["frames_encoded_by_browser"] = max((s.get("framesEncoded", 0) for s in stats),
                                               default=0)
    summary["quality_metric"] = "SSIM (Wang 2004, Gaussian 11x11)"
    summary["mean_ssim_decoded"] = (sum(s for s, _ in scores.values()) / len(scores)
                                    if scores else None)
    summary["page_errors"] = sorted(set(bridge.errors))
    summary["degradation_requested"] = args.chromium_degradation
    summary["degradation_preference"] = sorted(
        {s["degradationPreference"] for s in stats if s.get("degradationPreference")})
    summary["quality_limitation_reason"] = sorted(
        {s["qualityLimitationReason"] for s in stats if s.get("qualityLimitationReason")})
    estimates = [(s["host_ns"], int(s["availableOutgoingBitrate"])) for s in stats
                 if s.get("availableOutgoingBitrate")]
    if estimates:
        with open(os.path.join(args.out, "estimates.csv"), "w") as f:
            f.write("time_ns,estimated_bitrate\n")
            f.writelines(f"{t},{rate}\n" for t, rate in estimates)
        rates = [rate for _, rate in estimates]
        summary["estimate_bps"] = {"min": min(rates), "max": max(rates), "final": rates[-1]}
    with open(os.path.join(args.out, "browser-stats.json"), "w") as f:
        json.dump(stats, f)
    summary["shim_start_ns"] = shim_start_ns
    decode = [int(r["output_ns"]) - int(r["input_ns"])
              for r in read_csv(os.path.join(args.out, "decoded.csv"))]
    summary["load"] = {"frame_interval_ms": call.FRAME_INTERVAL_MS,
                       "encode_lag_ms": call.quantiles_ms(lags),
                       "decode_lag_ms": call.quantiles_ms(decode)}
    with open(os.path.join(args.out, "shim-stats.json")) as f:
        summary["shim"] = json.load(f)
    with open(os.path.join(args.out, "call.json"), "w") as f:
        json.dump(summary, f, indent=1)
    print(json.dumps({k: v for k, v in summary.items() if k != "shim"}))
