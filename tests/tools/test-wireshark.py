#!/usr/bin/python3
"""Runs tshark with tools/wireshark/octopus.lua over the capture that
make-octopus-pcap writes with the core's packet builders, and asserts the
decoded fields of every packet.

usage: test-wireshark.py MAKE_OCTOPUS_PCAP OCTOPUS_LUA TSHARK
"""
import os
import subprocess
import sys
import tempfile

FIELDS = [
    "frame.number", "octopus.stream_id", "octopus.msg_id", "octopus.first",
    "octopus.last", "octopus.drop", "octopus.priority", "octopus.threshold",
    "octopus.slack_ms", "octopus.bitrate", "octopus.transport_version",
    "octopus.conn_id", "octopus.seq",
    "octopus.send_time_us", "octopus.msg_len", "octopus.offset",
    "octopus.frag_index", "octopus.frag_count", "octopus.capture_time_ns",
    "octopus.frame_id", "octopus.spatial_layer", "octopus.keyframe",
    "octopus.chunks", "octopus.chunks_trimmed", "octopus.chunk_len",
    "octopus_ack.n_ranges", "octopus_ack.conn_id", "octopus_ack.delay_us",
    "octopus_ack.flags", "octopus_ack.arrival_us", "octopus_ack.first",
    "octopus_ack.last", "octopus_nack.trimmed", "octopus_nack.conn_id",
    "octopus_nack.seq", "octopus.chunked", "rtp.ext.rfc5285.id",
    "_ws.col.Protocol",
]

# Bitrates as the 12-bit code rounds them: 2.5 Mbit/s -> 153 << 14,
# 1 Mbit/s -> 244 << 12 (the nearest codes).
EXPECTED = {
    1: {"octopus.stream_id": "3", "octopus.msg_id": "42",
        "octopus.first": "1", "octopus.last": "0", "octopus.drop": "1",
        "octopus.priority": "2", "octopus.threshold": "1",
        "octopus.slack_ms": "300", "octopus.bitrate": "2506752",
        "octopus.transport_version": "2", "octopus.conn_id": "0x5eed0001",
        "octopus.seq": "1000", "octopus.send_time_us": "5555",
        "octopus.msg_len": "1000", "octopus.offset": "0",
        "octopus.frag_index": "0", "octopus.frag_count": "2",
        "octopus.capture_time_ns": "1234567890123",
        "octopus.frame_id": "17", "octopus.spatial_layer": "1",
        "octopus.keyframe": "1", "octopus.chunked": "0",
        "_ws.col.Protocol": "Octopus"},
    2: {"octopus.msg_id": "42", "octopus.first": "0", "octopus.last": "1",
        "octopus.seq": "1001", "octopus.offset": "540",
        "octopus.frag_index": "1", "octopus.capture_time_ns": ""},
    3: {"octopus.msg_id": "43", "octopus.priority": "5",
        "octopus.drop": "0", "octopus.bitrate": "0", "octopus.chunks": "3",
        "octopus.chunks_trimmed": "1", "octopus.chunk_len": "10,20,30"},
    4: {"octopus_ack.n_ranges": "2", "octopus_ack.conn_id": "0x5eed0001",
        "octopus_ack.delay_us": "250", "octopus_ack.flags": "0x01",
        "octopus_ack.arrival_us": "123456789",
        "octopus_ack.first": "1000,990", "octopus_ack.last": "1002,995",
        "octopus.msg_id": ""},
    5: {"rtp.ext.rfc5285.id": "3", "octopus.msg_id": "7",
        "octopus.first": "1", "octopus.last": "1", "octopus.drop": "1",
        "octopus.priority": "1", "octopus.threshold": "2",
        "octopus.bitrate": "999424", "octopus.seq": "",
        "_ws.col.Protocol": "RTP/Octopus"},
    6: {"rtp.ext.rfc5285.id": "20", "octopus.msg_id": "8",
        "octopus.drop": "0", "octopus.priority": "3"},
    7: {"octopus.msg_id": "", "octopus_ack.n_ranges": "",
        "_ws.col.Protocol": "STUN"},
    8: {"octopus.msg_id": "44", "octopus.transport_version": "0",
        "octopus.seq": "", "octopus.conn_id": "",
        "_ws.col.Protocol": "Octopus"},
    9: {"octopus_nack.trimmed": "2", "octopus_nack.conn_id": "0x5eed0001",
        "octopus_nack.seq": "1003", "octopus_ack.n_ranges": "",
        "octopus.msg_id": "", "_ws.col.Protocol": "Octopus"},
}


def main():
    make_pcap, lua, tshark = sys.argv[1:4]
    with tempfile.TemporaryDirectory() as tmp:
        pcap = os.path.join(tmp, "octopus.pcap")
        subprocess.run([make_pcap, pcap], check=True)
        cmd = [tshark, "-n", "-r", pcap, "-X", "lua_script:" + lua,
               "-o", "octopus.rtp_ext_ids:3,20",
               "-d", "udp.port==5006,rtp", "-T", "fields",
               "-E", "separator=\t", "-E", "occurrence=a",
               "-E", "aggregator=,"]
        for field in FIELDS:
            cmd += ["-e", field]
        # a private HOME: no user preferences or plugins
        env = dict(os.environ, HOME=tmp, XDG_CONFIG_HOME=tmp)
        out = subprocess.run(cmd, check=True, capture_output=True, text=True,
                             env=env)
    rows = [line.split("\t") for line in out.stdout.splitlines()]
    if len(rows) != len(EXPECTED):
        sys.exit("expected %d packets, tshark printed %d:\n%s\n%s" %
                 (len(EXPECTED), len(rows), out.stdout, out.stderr))
    failures = []
    for row in rows:
        got = dict(zip(FIELDS, row))
        for field, want in EXPECTED[int(got["frame.number"])].items():
            if got[field] != want:
                failures.append("frame %s: %s = %r, expected %r" %
                                (got["frame.number"], field, got[field],
                                 want))
    if failures:
        sys.exit("\n".join(failures) + "\n\ntshark stderr:\n" + out.stderr)
    print("%d packets decoded as expected" % len(rows))


if __name__ == "__main__":
    main()
