#!/usr/bin/python3
"""The kernel's own TCP (Reno, CUBIC: TCP_CONGESTION on a plain socket) as
the real loss-based peer of paper 004's scenarios, through octopus-shim's
drop-tail and quco queues, next to octo-sim-quco's simulated NewReno-like
and QUCO rows of the same scenario.

A backlogged TCP sender runs inside `octopus-shim --shell` (a network
namespace; needs root) and sends out of it through the up link: a
constant-rate trace of the scenario's rate, the queue under test with the
scenario's buffer, half the RTT each way; the receiver is this script,
outside.  The shim's event log gives each packet's queueing delay:

  throughput   TCP payload bytes received / the run's seconds
  mean queue   time-averaged bytes queued, by Little's law from the log:
               sum(size x queueing delay) of the packets that left / seconds
               (drops wait nothing; the simulator samples its queue every ms)
  jitter       std of the queueing delay (the one-way delay less its
               constant propagation; the simulator's std of the delay)

TCP's packets carry no chunks, so the quco queue can only forward them as
a FIFO of its buffer: the kernel rows say what a loss-based sender gets
from it, not what QUCO gets.  Each kernel row is one live run.

  bench/kernel-tcp.py [--scenario single|shallow] [--cc reno cubic]
                      [--queues droptail quco] [--seconds 40]
"""
import argparse
import json
import math
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# As bench/quco-table.py's scenarios: rate Mbit/s, RTT ms, buffer bytes.
SCENARIOS = {"single": (1.5, 80, 15000), "shallow": (10.0, 40, 10000)}
LINK_PACKET = 1500          # bytes per trace line (Mahimahi)


def constant_trace(path, rate_mbps):
    """A Mahimahi trace of @rate_mbps: the shortest whole-ms period holding
    a whole number of 1500-byte opportunities (else 60 s, rounded)."""
    per_ms = rate_mbps * 1e6 / 8 / LINK_PACKET / 1000
    period = next((p for p in range(1, 60001)
                   if abs(per_ms * p - round(per_ms * p)) < 1e-9), 60000)
    n = max(1, round(per_ms * period))
    with open(path, "w") as f:
        for i in range(1, n + 1):
            f.write(f"{math.ceil(i * period / n)}\n")


def send(args):
    """Inside the namespace: a backlogged TCP flow for --seconds."""
    host = os.environ["OCTOPUS_SHELL_OUTSIDE"]
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, args.send_cc.encode())
    got = s.getsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, 16)
    if got.rstrip(b"\0").decode() != args.send_cc:
        sys.exit(f"kernel-tcp: TCP_CONGESTION is {got!r}, not {args.send_cc}")
    s.connect((host, args.send_port))
    block = bytes(65536)
    end = time.monotonic() + args.seconds
    while time.monotonic() < end:
        s.send(block)
    s.close()


def receive(server, counter):
    conn, _ = server.accept()
    with conn:
        while True:
            data = conn.recv(1 << 16)
            if not data:
                return
            counter["bytes"] += len(data)


def queue_figures(log_path, seconds):
    """Little's-law mean queue, std and mean of the queueing delay, drops,
    from the up direction of the shim's event log."""
    delays, occupancy, drops = [], 0.0, 0
    with open(log_path) as f:
        for line in f:
            fields = line.split()
            if len(fields) < 5 or fields[0].startswith("#"):
                continue
            if fields[1] == "-" and fields[4] == "up":
                size, delay = int(fields[2]), float(fields[3])
                delays.append(delay)
                occupancy += size * delay / 1000
            elif fields[1] == "d" and fields[4] == "up" and fields[3] != "trim":
                drops += 1
    return {"mean_queue_bytes": occupancy / seconds,
            "delay_std_ms": statistics.pstdev(delays) if delays else float("nan"),
            "queue_delay_mean_ms": statistics.fmean(delays) if delays else float("nan"),
            "packets_left": len(delays), "packets_dropped": drops}


def kernel_run(a, cc, queue, tmp):
    rate, rtt, buf = SCENARIOS[a.scenario]
    trace = os.path.join(tmp, "trace")
    constant_trace(trace, rate)
    log = os.path.join(tmp, f"{cc}-{queue}.log")
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("0.0.0.0", 0))
    server.listen(1)
    counter = {"bytes": 0}
    rx = threading.Thread(target=receive, args=(server, counter), daemon=True)
    rx.start()
    cmd = [a.shim, "--shell", f"--up-trace={trace}", f"--up-queue={queue}:limit={buf}B",
           f"--delay-ms={rtt // 2}", f"--log={log}",
           f"--duration={a.seconds + 10}", "--",
           sys.executable, os.path.abspath(__file__), "--send-cc", cc,
           "--send-port", str(server.getsockname()[1]), "--seconds", str(a.seconds)]
    subprocess.run(cmd, check=True)
    rx.join(timeout=10)
    server.close()
    r = {"row": f"kernel {cc}", "queue": queue,
         "goodput_mbps": counter["bytes"] * 8 / a.seconds / 1e6}
    r.update(queue_figures(log, a.seconds))
    return r


def sim_run(a, scheme):
    rate, rtt, buf = SCENARIOS[a.scenario]
    out = subprocess.run([a.sim, "--scheme", scheme, "--rate-mbps", str(rate),
                          "--rtt-ms", str(rtt), "--buffer", str(buf),
                          "--duration", str(a.seconds)],
                         check=True, capture_output=True, text=True).stdout
    s = json.loads(out)
    return {"row": f"simulated {scheme}", "queue": s["queue"],
            "goodput_mbps": s["goodput_mbps"][0],
            "mean_queue_bytes": s["mean_queue_bytes"],
            "delay_std_ms": s["delay_std_ms"],
            "packets_dropped": s["packets_dropped"]}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scenario", choices=sorted(SCENARIOS), default="single")
    ap.add_argument("--cc", nargs="+", default=["reno", "cubic"])
    ap.add_argument("--queues", nargs="+", default=["droptail", "quco"])
    ap.add_argument("--seconds", type=int, default=40)
    ap.add_argument("--shim", default=os.path.join(ROOT, "build/router-shim/octopus-shim"))
    ap.add_argument("--sim", default=os.path.join(ROOT, "build/bench/sim/octo-sim-quco"))
    ap.add_argument("--json", help="also write the rows here")
    ap.add_argument("--send-cc", help=argparse.SUPPRESS)
    ap.add_argument("--send-port", type=int, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.send_cc:
        send(a)
        return

    rows = [sim_run(a, "newreno"), sim_run(a, "quco")]
    with tempfile.TemporaryDirectory() as tmp:
        for cc in a.cc:
            for queue in a.queues:
                rows.append(kernel_run(a, cc, queue, tmp))
    rate, rtt, buf = SCENARIOS[a.scenario]
    print(f"{a.scenario}: {rate} Mbit/s, {rtt} ms RTT, {buf} B buffer, {a.seconds} s")
    print("| row | queue | throughput Mbit/s | mean queue KB | jitter ms | dropped |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['row']} | {r['queue']} | {r['goodput_mbps']:.3f} | "
              f"{r['mean_queue_bytes'] / 1000:.2f} | {r['delay_std_ms']:.2f} | "
              f"{r['packets_dropped']} |")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
