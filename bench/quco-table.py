#!/usr/bin/python3
"""Paper 004's three scenarios (Figs. 4-7) in build/bench/sim/octo-sim-quco:
QUCO (quco queue + Algorithm 3) against a loss-based NewReno-like sender and
BBR (drop-tail queue), and trim-aware BBR (quco queue), printed as one
Markdown table with the goals' verdicts.

  single   1.5 Mbit/s, 80 ms RTT, 15 KB buffer (the BDP), 40 s (paper Fig. 4)
  two      10 Mbit/s, 24 ms RTT, 30 KB buffer (the BDP); the second flow
           starts once the first fills the link (5 s + offset), 30 s; the
           time to Jain >= 0.95 (0.5 s windows, held 2 s) is the median over
           --offsets start offsets 0..990 ms (paper Fig. 6)
  shallow  10 Mbit/s, 40 ms RTT, 10 KB buffer (a fifth of the BDP), 40 s
           (paper Fig. 7; its parameters are not in the text)

Throughput is the chunk bytes delivered (trimmed bytes do not count);
"declared lost" counts the packets the senders' loss detection declared
lost (more than "dropped": reordering read as loss).

  bench/quco-table.py [--sim build/bench/sim/octo-sim-quco] [--json FILE]
                      [--plot FILE.png]

--plot draws paper Fig. 4's panels for the single-flow scenario: each
sender's window and the bottleneck queue over time, QUCO against NewReno.
"""
import argparse
import csv
import json
import os
import statistics
import subprocess
import sys
import tempfile

# (row label, --scheme, --queue or None for the scheme's own queue); the
# goals compare the first two.  Variants: Algorithm 3 as printed (a back-off
# per NACK, not once per round trip), the paper's class mechanism
# (classes=2), and lower thresholds (what the mean queue costs).
SCHEMES = [("quco", "quco", None), ("newreno", "newreno", None),
           ("bbr", "bbr", None), ("bbr-quco", "bbr-quco", None),
           ("quco every NACK", "quco-every-nack", None),
           ("quco classes=2", "quco", "quco:classes=2"),
           ("quco light=25,medium=50,high=75", "quco",
            "quco:light=25,medium=50,high=75")]
SCENARIOS = {
    "single": ["--rate-mbps", "1.5", "--rtt-ms", "80", "--buffer", "15000",
               "--duration", "40"],
    "two": ["--flows", "2", "--rate-mbps", "10", "--rtt-ms", "24",
            "--buffer", "30000", "--duration", "30"],
    "shallow": ["--rate-mbps", "10", "--rtt-ms", "40", "--buffer", "10000",
                "--duration", "40"],
}


def run(sim, scheme, args):
    label, name, queue = scheme
    extra = ["--queue", queue] if queue else []
    out = subprocess.run([sim, "--scheme", name] + extra + args, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)


def plot(sim, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax_w, ax_q) = plt.subplots(2, 1, sharex=True, figsize=(8, 6))
    with tempfile.TemporaryDirectory() as tmp:
        for label, name in (("QUCO", "quco"), ("NewReno-like", "newreno")):
            series = os.path.join(tmp, name + ".csv")
            subprocess.run([sim, "--scheme", name, "--series", series] +
                           SCENARIOS["single"], check=True,
                           capture_output=True)
            with open(series) as f:
                rows = list(csv.DictReader(f))
            t = [float(r["t_s"]) for r in rows]
            ax_w.plot(t, [int(r["cwnd_bytes"]) / 1500 for r in rows],
                      label=label)
            ax_q.plot(t, [int(r["queue_bytes"]) / 1000 for r in rows],
                      label=label)
    ax_w.set_ylabel("window (1500-byte packets)")
    ax_q.set_ylabel("bottleneck queue (KB)")
    ax_q.set_xlabel("time (s)")
    ax_w.set_title("Single flow, 1.5 Mbit/s, 80 ms RTT, 15 KB buffer")
    ax_w.legend()
    ax_q.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sim", default="build/bench/sim/octo-sim-quco")
    ap.add_argument("--offsets", type=int, default=10,
                    help="second-flow start offsets in the two-flow "
                    "scenario (default 10)")
    ap.add_argument("--json", help="also write every run's record here")
    ap.add_argument("--plot", help="PNG of the single-flow windows and queue")
    a = ap.parse_args()

    records = []
    rows = {}
    for name, args in SCENARIOS.items():
        for scheme in SCHEMES:
            if name != "two":
                r = run(a.sim, scheme, args)
                r["scenario"] = name
                records.append(r)
                rows[(name, scheme[0])] = r
                continue
            runs = []
            for k in range(a.offsets):
                start = 5000 + k * 1000 // a.offsets
                r = run(a.sim, scheme, args + ["--second-start-ms", str(start)])
                r["scenario"] = name
                r["second_start_ms"] = start
                records.append(r)
                runs.append(r)
            times = [r["time_to_jain95_s"] for r in runs]
            merged = dict(runs[0])
            for key in ("packets_declared_lost", "link_utilisation", "mean_queue_bytes",
                        "mean_queue_packets", "delay_mean_ms", "delay_std_ms",
                        "delay_p99_ms", "jain_last_10s"):
                merged[key] = statistics.mean(r[key] for r in runs)
            merged["goodput_mbps"] = [statistics.mean(
                r["goodput_mbps"][i] for r in runs) for i in range(2)]
            merged["packets_trimmed"] = statistics.mean(
                r["packets_trimmed"] for r in runs)
            merged["packets_received"] = statistics.mean(
                r["packets_received"] for r in runs)
            merged["packets_dropped"] = statistics.mean(
                r["packets_dropped"] for r in runs)
            never = sum(1 for t in times if t < 0)
            merged["time_to_jain95_s"] = statistics.median(
                t if t >= 0 else float("inf") for t in times)
            merged["time_to_jain95_range"] = (min(times), max(times), never)
            rows[(name, scheme[0])] = merged

    print("| scenario | scheme | throughput Mbit/s | link util. | mean queue "
          "KB (pkts) | delay mean ms | jitter (std) ms | p99 ms | trimmed "
          "pkts % | dropped | declared lost | Jain>=0.95 after s (min-max) | "
          "Jain last 10 s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for (name, scheme), r in rows.items():
        tput = sum(r["goodput_mbps"])
        jain = "" if "time_to_jain95_s" not in r else \
            "%.2f (%.2f-%.2f%s)" % (r["time_to_jain95_s"],
                                    *r["time_to_jain95_range"][:2],
                                    ", %d never" % r["time_to_jain95_range"][2]
                                    if r["time_to_jain95_range"][2] else "")
        print("| %s | %s | %.3f | %.3f | %.2f (%.1f) | %.1f | %.2f | %.1f | "
              "%.1f | %d | %d | %s | %s |" % (
                  name, scheme, tput, r["link_utilisation"],
                  r["mean_queue_bytes"] / 1000, r["mean_queue_packets"],
                  r["delay_mean_ms"], r["delay_std_ms"], r["delay_p99_ms"],
                  100 * r["packets_trimmed"] / max(r["packets_received"], 1),
                  r["packets_dropped"], r["packets_declared_lost"], jain,
                  "%.4f" % r["jain_last_10s"] if "jain_last_10s" in r else ""))

    print()
    # the goals' verdicts for QUCO's window and for the QUCO queue with
    # trim-aware BBR (the combination the paper suggests), each against
    # NewReno
    for row, label in (("quco", "QUCO"), ("bbr-quco", "trim-aware BBR")):
        for name in ("single", "shallow"):
            q, n = rows[(name, row)], rows[(name, "newreno")]
            tq, tn = sum(q["goodput_mbps"]), sum(n["goodput_mbps"])
            print("%s, %s: throughput /NewReno %.3f (equal within 5 %%: %s); "
                  "jitter %.2f vs %.2f ms (%s); mean queue %.2f vs %.2f KB "
                  "(%s)" % (
                      name, label, tq / tn,
                      "yes" if abs(tq / tn - 1) <= 0.05 else "no",
                      q["delay_std_ms"], n["delay_std_ms"],
                      "below" if q["delay_std_ms"] < n["delay_std_ms"] else
                      "NOT below", q["mean_queue_bytes"] / 1000,
                      n["mean_queue_bytes"] / 1000,
                      "below" if q["mean_queue_bytes"] < n["mean_queue_bytes"]
                      else "NOT below"))
        q, n = rows[("two", row)], rows[("two", "newreno")]
        print("two, %s: median time to Jain >= 0.95, %.2f s vs NewReno %.2f s "
              "(%s)" % (label, q["time_to_jain95_s"], n["time_to_jain95_s"],
                        "faster" if q["time_to_jain95_s"] <
                        n["time_to_jain95_s"] else "NOT faster"))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(records, f, indent=1)
    if a.plot:
        plot(a.sim, a.plot)
    return 0


if __name__ == "__main__":
    sys.exit(main())
