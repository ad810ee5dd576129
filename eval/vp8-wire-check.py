#!/usr/bin/python3
"""What a VP8 temporal-layer call put on the wire and what the shim did to
it: the sender's packets (webrtc-call.py's packets.csv, each RTP packet's
VP8 descriptor before SRTP encrypted it) joined by RTP sequence number with
the shim's event log (octopus-shim --log: departures and drops carry
`rtp SEQ TS`).

    vp8-wire-check.py PACKETS_CSV SHIM_LOG [--json]

Checks, per frame (one RTP timestamp): every packet carries a PictureID,
TL0PICIDX and TID (RFC 7741); the PictureID is the same on every packet and
rises by one per frame; TL0PICIDX rises by exactly one per TL0 frame.  Then
per kind (key, TL0, TL1, TL2): frames sent, delivered whole, cut (some
packets dropped) and lost, the shim's drop reasons, and the frames
decodable under docs/design.md's case-1 rule given what was delivered
whole (a key frame restarts; TL0 needs the previous TL0, TL1 the latest
TL0, TL2 the latest TL0/TL1 frame, each decodable)."""
import argparse
import collections
import csv
import json
import sys

KINDS = ("key", "TL0", "TL1", "TL2")


def read_packets(path):
    """Frames in send order: RTP timestamp -> [packet rows]."""
    frames = collections.OrderedDict()
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            frames.setdefault(int(row["rtp_timestamp"]), []).append(row)
    return frames


def read_shim_log(path, direction="down"):
    """(delivered sequence numbers, {seq: Counter of drop reasons})."""
    delivered, drops = set(), collections.defaultdict(collections.Counter)
    with open(path) as f:
        for line in f:
            fields = line.split()
            if "rtp" not in fields or len(fields) < 4:
                continue
            seq = int(fields[fields.index("rtp") + 1])
            if fields[1] == "-" and fields[4] == direction:
                delivered.add(seq)
            elif fields[1] == "d" and fields[4] == direction:
                drops[seq][fields[3]] += 1
    return delivered, drops


def descriptor_faults(frames):
    faults = collections.Counter()
    last_pid = last_tl0 = None
    for packets in frames.values():
        if any(p[k] == "" for p in packets for k in ("picture_id", "tl0picidx", "tid")):
            faults["packets without PictureID, TL0PICIDX or TID"] += 1
            continue
        pids = {int(p["picture_id"]) for p in packets}
        if len(pids) != 1:
            faults["frames with more than one PictureID"] += 1
        pid = min(pids)
        if last_pid is not None and pid != (last_pid + 1) % 32768:
            faults["PictureID steps other than +1"] += 1
        last_pid = pid
        if int(packets[0]["tid"]) == 0:
            tl0 = int(packets[0]["tl0picidx"])
            if last_tl0 is not None and tl0 != (last_tl0 + 1) % 256:
                faults["TL0PICIDX steps other than +1 per TL0 frame"] += 1
            last_tl0 = tl0
    return dict(faults)


def kind_of(packets):
    if packets[0]["key"] == "1":
        return "key"
    return f"TL{packets[0]['tid']}"


def check(frames, delivered, drops):
    per_kind = {k: collections.Counter() for k in KINDS}
    reasons = {k: collections.Counter() for k in KINDS}
    decodable = collections.Counter()
    # the design's rule: whether the latest TL0 (or key) frame, and the
    # latest TL0-or-TL1 frame, are decodable; nothing before a key frame
    tl0_ok = latest_ok = False
    for packets in frames.values():
        kind = kind_of(packets)
        got = sum(int(p["seq"]) in delivered for p in packets)
        whole = got == len(packets)
        per_kind[kind]["sent"] += 1
        per_kind[kind]["whole" if whole else "cut" if got else "lost"] += 1
        for p in packets:
            reasons[kind].update(drops.get(int(p["seq"]), {}))
        if kind == "key":
            ok = whole
        elif kind in ("TL0", "TL1"):
            ok = whole and tl0_ok
        else:
            ok = whole and latest_ok
        if kind in ("key", "TL0"):
            tl0_ok = ok
        if kind != "TL2":
            latest_ok = ok
        decodable[kind] += ok
    return per_kind, reasons, decodable


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("packets")
    p.add_argument("shim_log")
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    frames = read_packets(args.packets)
    delivered, drops = read_shim_log(args.shim_log)
    faults = descriptor_faults(frames)
    per_kind, reasons, decodable = check(frames, delivered, drops)
    result = {"frames": len(frames), "descriptor_faults": faults,
              "per_kind": {k: dict(v) for k, v in per_kind.items()},
              "drop_reasons_packets": {k: dict(v) for k, v in reasons.items()},
              "decodable": dict(decodable), "decodable_total": sum(decodable.values())}
    if args.json:
        json.dump(result, sys.stdout, indent=1)
        print()
        return 0
    print(f"{len(frames)} frames; descriptor faults: {faults or 'none'}")
    print(f"{'kind':<5}{'sent':>6}{'whole':>7}{'cut':>5}{'lost':>6}{'decodable':>11}"
          "  drops (packets) by reason")
    for k in KINDS:
        c = per_kind[k]
        print(f"{k:<5}{c['sent']:>6}{c['whole']:>7}{c['cut']:>5}{c['lost']:>6}"
              f"{decodable[k]:>11}  {dict(reasons[k]) or '-'}")
    print(f"decodable under docs/design.md's case-1 rule: {result['decodable_total']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
