#!/usr/bin/python3
"""Departure timing error of octopus-shim while forwarding a paced load.

Starts the shim on a trace, sends RATE Mbit/s of 1472-byte datagrams through
it for SECONDS, and prints the shim's own measurement (actual send time minus
the trace-scheduled time, per departure) from its --stats file.

usage: measure-timing.py SHIM TRACE [--rate 20] [--seconds 10] [--rt N]
"""
import argparse
import json
import os
import socket
import subprocess
import tempfile
import time

PAYLOAD = 1472


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("shim")
    ap.add_argument("trace")
    ap.add_argument("--rate", type=float, default=20.0, help="Mbit/s")
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--delay-ms", type=int, default=20)
    ap.add_argument("--rt", type=int, default=0,
                    help="pass --rt-priority N to the shim")
    args = ap.parse_args()

    sink = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sink.bind(("127.0.0.1", 0))
    sink.setblocking(False)
    with tempfile.TemporaryDirectory() as tmp:
        stats = os.path.join(tmp, "stats.json")
        cmd = [args.shim, "--route=127.0.0.1:0=127.0.0.1:%d"
               % sink.getsockname()[1], "--down-trace=" + args.trace,
               "--delay-ms=%d" % args.delay_ms, "--stats=" + stats]
        if args.rt:
            cmd.append("--rt-priority=%d" % args.rt)
        shim = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
        port = int(shim.stdout.readline().split("listening on ")[1]
                   .split(",")[0].rsplit(":", 1)[1])
        src = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        interval = PAYLOAD * 8 / (args.rate * 1e6)
        payload = bytes(PAYLOAD)
        start = time.monotonic()
        sent = received = 0
        next_send = start
        while time.monotonic() - start < args.seconds:
            now = time.monotonic()
            while next_send <= now:
                src.sendto(payload, ("127.0.0.1", port))
                sent += 1
                next_send += interval
            try:
                while True:
                    sink.recv(2048)
                    received += 1
            except BlockingIOError:
                pass
            time.sleep(max(0.0, min(next_send - time.monotonic(), 0.0005)))
        time.sleep(0.2 + args.delay_ms / 1000.0)
        shim.terminate()
        shim.wait(10)
        with open(stats) as f:
            s = json.load(f)
    err = s["departure_timing_error_ms"]["down"]
    print("offered %.1f Mbit/s for %.0f s: %d sent, %d departures; "
          "departure timing error p50 %.3f ms, p99 %.3f ms, max %.3f ms"
          % (args.rate, args.seconds, sent, err["count"], err["p50"],
             err["p99"], err["max"]))


if __name__ == "__main__":
    main()
