#!/usr/bin/python3
"""eval/vp8-wire-check.py and webrtc-call.py's VP8 descriptor reader on
written-out data: a GoP of 8 (key, TL2, TL1, TL2, TL0, TL2, TL1, TL2) and
the next key frame, the shim's log delivering some frames whole, cutting
one and dropping others; the design's decodability rule; descriptor faults.

    test-vp8-wire-check.py VP8_WIRE_CHECK_PY WEBRTC_CALL_PY"""
import importlib.util
import json
import os
import subprocess
import sys
import tempfile

failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def descriptor(pid, tl0, tid, sync, start, key):
    """A VP8 payload: X, S, PID 0; I (15-bit), L, T; then the payload
    header's first byte (P bit 0 for a key frame)."""
    return bytes([0x80 | (0x10 if start else 0), 0xe0, 0x80 | pid >> 8, pid & 0xff,
                  tl0, tid << 6 | sync << 5, 0x00 if key else 0x01])


def test_descriptor(call):
    check(call.vp8_descriptor(descriptor(300, 7, 2, 1, 1, False)) == (1, 300, 7, 2, 1, 0),
          "descriptor: start, 15-bit PictureID, TL0PICIDX, TID, Y, delta frame")
    check(call.vp8_descriptor(descriptor(5, 0, 0, 1, 1, True))[5] == 1,
          "descriptor: key frame from the payload header's P bit")
    check(call.vp8_descriptor(descriptor(5, 0, 0, 1, 0, True))[5] == "",
          "descriptor: no key flag on a continuation packet")
    check(call.vp8_descriptor(bytes([0x10, 0x00])) == (1, "", "", "", "", 1),
          "descriptor: no extension, no PictureID/TL0PICIDX/TID")


# frame: (kind, tid, packets, packets delivered, drop reason of the others)
GOP = [("key", 0, 3, 3, None), ("TL2", 2, 1, 0, "dropper"), ("TL1", 1, 1, 1, None),
       ("TL2", 2, 1, 1, None), ("TL0", 0, 2, 1, "overflow"), ("TL2", 2, 1, 1, None),
       ("TL1", 1, 1, 1, None), ("TL2", 2, 1, 0, "dropper"), ("key", 0, 2, 2, None),
       ("TL2", 2, 1, 1, None)]


def write_call(tmp, tl0_skip=False):
    packets = ["seq,rtp_timestamp,marker,start,picture_id,tl0picidx,tid,layer_sync,key"]
    log = ["# octopus-shim event log"]
    seq, tl0 = 1000, 0
    for n, (kind, tid, count, got, reason) in enumerate(GOP):
        if tid == 0 and n:
            tl0 += 2 if tl0_skip and n == 4 else 1
        for i in range(count):
            key = int(kind == "key") if i == 0 else ""
            packets.append(f"{seq},{3600 * n},{int(i == count - 1)},{int(i == 0)},"
                           f"{100 + n},{tl0},{tid},0,{key}")
            if i < got:
                log.append(f"{n}.5 - 1200 3.0 down 0 s0@ssrc:1 rtp {seq} {3600 * n}")
            else:
                log.append(f"{n}.1 d 1200 {reason} down 0 s0@ssrc:1 rtp {seq} {3600 * n}")
            seq += 1
    log.append("9.9 - 80 1.0 up 0 -@10.0.0.1:5 rtp 7 7")
    paths = [os.path.join(tmp, "packets.csv"), os.path.join(tmp, "shim.log")]
    for path, lines in zip(paths, (packets, log)):
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
    return paths


def run(tool, paths):
    out = subprocess.run(["/usr/bin/python3", tool, *paths, "--json"], check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)


def test_check(tool):
    with tempfile.TemporaryDirectory() as tmp:
        r = run(tool, write_call(tmp))
        check(r["descriptor_faults"] == {}, f"no descriptor faults: {r['descriptor_faults']}")
        check(r["per_kind"]["key"] == {"sent": 2, "whole": 2}
              and r["per_kind"]["TL0"] == {"sent": 1, "cut": 1}
              and r["per_kind"]["TL2"] == {"sent": 5, "lost": 2, "whole": 3},
              f"whole/cut/lost per kind: {r['per_kind']}")
        check(r["drop_reasons_packets"]["TL0"] == {"overflow": 1}
              and r["drop_reasons_packets"]["TL2"] == {"dropper": 2},
              f"drop reasons: {r['drop_reasons_packets']}")
        # key, TL1 (2), TL2 (3) decode; the cut TL0 stops 5, 6; the next key and its TL2
        check(r["decodable"] == {"key": 2, "TL0": 0, "TL1": 1, "TL2": 2}
              and r["decodable_total"] == 5, f"decodable by the design's rule: {r['decodable']}")
        r = run(tool, write_call(tmp, tl0_skip=True))
        check(r["descriptor_faults"] == {"TL0PICIDX steps other than +1 per TL0 frame": 1},
              f"a TL0PICIDX skip is found: {r['descriptor_faults']}")


def main():
    tool, call_path = sys.argv[1], sys.argv[2]
    test_descriptor(load(call_path, "webrtc_call"))
    test_check(tool)
    print("vp8-wire-check: " + ("ok" if not failures else f"{len(failures)} failed"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
