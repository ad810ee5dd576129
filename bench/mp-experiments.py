#!/usr/bin/python3
"""The Delay-BBR paper's (003) experiments in the multipath simulator
(build/bench/sim/octo-sim-mp), printed as Markdown tables.

  table1  three flows of one controller started 40 s apart on one link
          (3/4/5 Mbit/s, 100 ms one-way, drop-tail buffers of 300/400/600 ms
          of the link rate), 300 s: mean one-way delay of every delivered
          packet, loss (packets dropped by the buffer / sent) and Jain's
          fairness of the throughputs while all three run (80-300 s), for
          Delay-BBR and BBR;
  table2  the same for cases 1, 4, 7 (300 ms buffers) with GCC as well;
  sweep   two paths, two competing backlogged flows on path 1 and one on
          path 2 (Delay-BBR, as the video's paths), a multipath video
          source of at most 2 Mbit/s that follows the estimate at once,
          300 s: mean and p99 frame delay (capture to last packet) of the
          complete frames, and the share of frames complete, for every
          scheduler (means over --seeds controller seeds, since the
          competing flows' dynamics differ from seed to seed);
          capacity/one-way pairs in SWEEP.

Examples:
  bench/mp-experiments.py                     # all three, 300 s each run
  bench/mp-experiments.py --only sweep --duration 60
"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEDULERS = ["min-cost", "wrr", "edcld", "sfl", "min-rtt"]
# (Mbit/s, one-way ms) of path 1 and path 2: equal and 4:1 capacities,
# 20-150 ms delays
SWEEP = [
    ((4, 20), (4, 20)),
    ((4, 20), (4, 80)),
    ((4, 50), (4, 150)),
    ((4, 150), (4, 20)),
    ((8, 20), (2, 20)),
    ((2, 20), (8, 20)),
    ((8, 30), (2, 100)),
    ((2, 30), (8, 100)),
    ((8, 150), (2, 20)),
    ((6, 60), (3, 120)),
]
SWEEP_BUFFER_MS = 300
# a scheduler's mean frame delay is compared only if it completes this
# share of the frames (the mean is over complete frames)
MIN_COMPLETE = 95.0


def run(sim, links, flows, duration, window_from=0, seed=1):
    cmd = [sim, "--duration", str(duration), "--window-from", str(window_from),
           "--seed", str(seed)]
    for link in links:
        cmd += ["--link", "%g,%g,%g" % link]
    for flow in flows:
        cmd += ["--flow", flow]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True)
    return [json.loads(line) for line in out.stdout.splitlines()]


def jain(xs):
    return sum(xs) ** 2 / (len(xs) * sum(x * x for x in xs)) if any(xs) else 0


def staggered(sim, mbps, buffer_ms, cc, duration):
    flows = ["0,%s,min-cost,%d,0" % (cc, start) for start in (0, 40, 80)]
    res = run(sim, [(mbps, 100, buffer_ms)], flows, duration,
              window_from=min(80, duration / 2))
    sent = sum(r["packets_sent"] for r in res)
    delivered = sum(r["packets_delivered"] for r in res)
    owd = sum(r["owd_ms"] * r["packets_delivered"] for r in res) / delivered
    loss = 100.0 * sum(r["packets_lost"] for r in res) / sent
    return owd, loss, jain([r["window_mbps"] for r in res])


def table1(sim, duration, cases, ccs, title):
    print("### %s (%d s)\n" % (title, duration))
    head = "| case | link | buffer |"
    rule = "|---|---|---|"
    for cc in ccs:
        head += " %s OWD ms | loss %% | Jain |" % cc
        rule += "---|---|---|"
    print(head)
    print(rule)
    for case, mbps, buffer_ms in cases:
        row = "| %d | %g Mbit/s | %d ms |" % (case, mbps, buffer_ms)
        for cc in ccs:
            row += " %.1f | %.2f | %.3f |" % staggered(sim, mbps, buffer_ms,
                                                       cc, duration)
        print(row, flush=True)
    print()


def sweep(sim, duration, seeds):
    print("### Scheduler sweep (%d s; buffers %d ms of each link's rate; "
          "seeds 1-%d)\n" % (duration, SWEEP_BUFFER_MS, seeds))
    print("Each cell: mean / p99 frame delay in ms of the complete frames "
          "(means over the seeds), and the share of frames complete; the "
          "lowest mean among schedulers completing >= %g %% of the frames."
          "\n" % MIN_COMPLETE)
    print("| # | path 1 | path 2 | " + " | ".join(SCHEDULERS) +
          " | lowest mean |")
    print("|---|---|---|" + "---|" * len(SCHEDULERS) + "---|")
    wins = {s: 0 for s in SCHEDULERS}
    for i, ((c1, d1), (c2, d2)) in enumerate(SWEEP, 1):
        links = [(c1, d1, SWEEP_BUFFER_MS), (c2, d2, SWEEP_BUFFER_MS)]
        cells, means = [], {}
        for sched in SCHEDULERS:
            flows = ["0+1,delay-bbr,%s,0,2" % sched,
                     "0,delay-bbr,%s,0,0" % sched,
                     "0,delay-bbr,%s,0,0" % sched,
                     "1,delay-bbr,%s,0,0" % sched]
            videos = [run(sim, links, flows, duration, seed=seed)[0]
                      for seed in range(1, seeds + 1)]
            mean = sum(v["frame_delay_mean_ms"] for v in videos) / seeds
            p99 = sum(v["frame_delay_p99_ms"] for v in videos) / seeds
            complete = 100.0 * sum(v["frames_complete"] for v in videos) / \
                max(sum(v["frames"] for v in videos), 1)
            if complete >= MIN_COMPLETE:
                means[sched] = mean
            cells.append("%.1f / %.1f (%.1f %%)" % (mean, p99, complete))
        best = min(means, key=means.get) if means else "none"
        if means:
            wins[best] += 1
        print("| %d | %g Mbit/s, %g ms | %g Mbit/s, %g ms | %s | %s |"
              % (i, c1, d1, c2, d2, " | ".join(cells), best), flush=True)
    print("\nLowest mean frame delay: " +
          ", ".join("%s %d" % (s, n) for s, n in wins.items()) +
          " of %d settings (none: %d).\n"
          % (len(SWEEP), len(SWEEP) - sum(wins.values())))


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sim", default=os.path.join(
        HERE, "..", "build", "bench", "sim", "octo-sim-mp"),
        help="the octo-sim-mp binary (default: build/bench/sim/octo-sim-mp)")
    parser.add_argument("--duration", type=int, default=300,
                        help="seconds per run (default 300, the paper's)")
    parser.add_argument("--seeds", type=int, default=3,
                        help="sweep: controller seeds per setting (default 3)")
    parser.add_argument("--only", choices=["table1", "table2", "sweep"],
                        help="one experiment (default: all)")
    args = parser.parse_args()
    if not os.access(args.sim, os.X_OK):
        parser.error("no simulator at %s (build it: ninja -C build)" % args.sim)
    cases = [(1 + 3 * r + b, mbps, buf)
             for r, mbps in enumerate((3, 4, 5))
             for b, buf in enumerate((300, 400, 600))]
    if args.only in (None, "table1"):
        table1(args.sim, args.duration, cases, ["delay-bbr", "bbr"],
               "Table 1: Delay-BBR vs BBR, three flows 40 s apart")
    if args.only in (None, "table2"):
        table1(args.sim, args.duration, [c for c in cases if c[0] in (1, 4, 7)],
               ["gcc", "bbr", "delay-bbr"],
               "Table 2: GCC, BBR and Delay-BBR, three flows 40 s apart")
    if args.only in (None, "sweep"):
        sweep(args.sim, args.duration, args.seeds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
