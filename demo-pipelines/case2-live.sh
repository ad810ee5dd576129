#!/bin/sh
# Case study 2, live: the shipped clip (looped) encoded by octopussvcenc as VP9 with
# 3 spatial layers (quality preset, upper layers afresh every 10 frames, key
# frames on the receiver's request, target rate from the transport's
# estimate) through octopus-shim on the Verizon LTE trace (its up
# trace for the ACKs), 60 ms RTT, twice — Octopus queue vs. drop-tail; one
# demo-pipelines/octopus-call.py run each, into OUT/SCHEME/.  Real SSIM: octo-svc-quality
# scores every layer the sender produced against the source; octo-metrics
# joins that with the receiver's log.  Prints frame latency p50/p99, AoI,
# SQI-SSIM and utilisation side by side.  One run per queue is a demo, not
# a result: `make live-eval SCHEMES="case2-octopus case2-droptail"` repeats
# them under the load guard with confidence intervals.
#   BUILD=build demo-pipelines/case2-live.sh
#   SECONDS_PER_RUN=30 WEBM=received.webm demo-pipelines/case2-live.sh
#   SCHEMES="octopus droptail quco" demo-pipelines/case2-live.sh
# WEBM: also write what the first scheme's receiver showed (octopussvcdec)
# to a WebM file (VP8) a person can watch.  DOWN: another down trace (its
# .up next to it, if any, is the up link).
# SCHEMES (default "octopus droptail"): quco adds QUCO (paper 004): the shim's
# quco trimming queue, octopussink congestion-control=quco qualitative=layered
# (each packet a slice of the frame's 3 spatial layers, base first), so a
# trimmed frame is shown at a lower layer.  QUCO holds the queue near its light
# threshold, half the buffer: QUCO_QUEUE="quco:limit=60KB" gives it a smaller one.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/demo-pipelines/case2-live-lib.sh"
live_main 2
