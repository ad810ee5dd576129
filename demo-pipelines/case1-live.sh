#!/bin/sh
# Case study 1, live: the shipped clip (looped) encoded by octopussvcenc as VP8 with
# 3 temporal layers (framerate preset, GoP 8, fixed 2 Mbit/s) through
# octopus-shim on the Verizon LTE trace, 60 ms RTT, Octopus queue vs.
# drop-tail; prints AoI (median, p99), frame latency and SQI-SSIM (real SSIM
# per frame from octo-svc-quality) side by side.
#   BUILD=build demo-pipelines/case1-live.sh
#   WEBM=received.webm demo-pipelines/case1-live.sh
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/demo-pipelines/case2-live-lib.sh"
live_main 1
