#!/usr/bin/python3
"""The chromium-gcc arm's own arithmetic on written-out data, no browser:
a painted frame index survives a blur and a half-size round trip (what a
VP8 encoder at low rate and the browser's downscaling do to it), a
compound RTCP packet's sender reports are read, capture times follow the
nearest sender report across the RTP timestamp's wrap-around, and the
browser's encoded-frame log becomes sent frames.

    test-chromium-sender.py DEMO_PIPELINES_DIR"""
import importlib.util
import os
import sys

import numpy as np

W, H = 640, 360


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    return ok


def main():
    here = sys.argv[1]
    cs = load(os.path.join(here, "chromium_sender.py"), "chromium_sender")
    call = load(os.path.join(here, "webrtc-call.py"), "webrtc_call")
    ok = True
    rng = np.random.default_rng(1)
    picture = rng.integers(0, 256, W * H * 3 // 2, dtype=np.uint8).tobytes()
    for index in (0, 1, 263, 2730, 4095):
        painted = cs.paint_index(picture, W, index)
        luma = np.frombuffer(painted, np.uint8, W * H).reshape(H, W).astype(float)
        # 3x3 box blur, then half size and back (nearest)
        blurred = sum(np.roll(np.roll(luma, dy, 0), dx, 1)
                      for dy in (-1, 0, 1) for dx in (-1, 0, 1)) / 9
        small = blurred[::2, ::2].repeat(2, 0).repeat(2, 1)
        ok &= check(cs.read_index(small) == index, f"index {index} read back")
        ok &= check(painted[W * H:] == picture[W * H:], f"index {index}: chroma untouched")
    # an RR (PT 201, 8 bytes) then an SR (PT 200) with NTP 2^32 * 3913056000 + 2^31
    # (1 Jan 2024 00:00:00.5 UTC) and RTP time 90000
    rr = bytes([0x80, 201, 0, 1]) + (7).to_bytes(4, "big")
    sr = (bytes([0x80, 200, 0, 6]) + (9).to_bytes(4, "big")
          + (3913056000 << 32 | 1 << 31).to_bytes(8, "big") + (90000).to_bytes(4, "big")
          + bytes(8))
    reports = call.sender_reports(rr + sr)
    ok &= check(reports == [(3913056000 << 32 | 1 << 31, 90000)], "sender report read")
    ok &= check(call.ntp_to_ns(reports[0][0]) == 1704067200500000000, "NTP to Unix ns")
    # reports at RTP 2^32 - 9000 (t = 10 s) and 81000 (t = 11 s): a frame
    # at RTP 3600 is 0.04 s after 0 = 10.1 s + 0.04 s; realtime offset 1 s
    reports = [(10 * 10**9, 2**32 - 9000), (11 * 10**9, 81000)]
    times = cs.capture_times(reports, [3600, 2**32 - 18000], 10**9)
    ok &= check(times[3600] == 10 * 10**9 + 140 * 10**6 - 10**9,
                "capture time across the RTP wrap-around")
    ok &= check(times[2**32 - 18000] == 10 * 10**9 - 100 * 10**6 - 10**9,
                "capture time before a report")
    sent = cs.sent_frames([[3600, 1, 900, 1000.5], [7200, 0, 300, 1040.0]])
    ok &= check(sent == {3600: [1, 900, 1000500000], 7200: [0, 300, 1040000000]},
                "encoded-frame log to sent frames")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
