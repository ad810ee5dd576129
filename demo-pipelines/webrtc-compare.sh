#!/usr/bin/env bash
# Octopus-over-WebRTC (fixed rate, GCC-driven, and its own BBR sender
# octopusrtpsender) vs. GCC-over-WebRTC: the same clip, trace and delay,
# one call per scheme through octopus-shim --shell (webrtc-call.py), then a
# table from each call's summary (octo-metrics) and the shim's counters.
# One call per scheme is a demonstration, not a measurement: `make
# live-eval` repeats the calls, guards against an overloaded machine and
# reports 95 % confidence intervals.
#
#   demo-pipelines/webrtc-compare.sh [OUT_DIR]     (default results/webrtc)
#
# Environment: BUILD (default build), TRACE, CALL_SECONDS (default 30),
# DELAY_MS (default 30), SCHEMES (default "octopus octopus-gcc octopus-bbr
# octopus-svc gcc").
# Builds rtpgccbwe first (scripts/build-rtpgccbwe.sh, skipped when built).
# Needs root (network namespaces).  Calls are real-time and CPU-bound: a
# busy machine shows up as sender-side delay, so the load is printed too.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${BUILD:-$root/build}" && pwd)
out=${1:-$root/results/webrtc}
trace=${TRACE:-$root/data/traces/network/Verizon-LTE-short.down}
seconds=${CALL_SECONDS:-30}
delay_ms=${DELAY_MS:-30}
schemes=${SCHEMES:-octopus octopus-gcc octopus-bbr octopus-svc gcc}

"$root/scripts/build-rtpgccbwe.sh" "$build/rtpgccbwe"
export GST_PLUGIN_PATH="$build/gst-octopus/plugin:$build/svc-encoder:$build/rtpgccbwe/lib${GST_PLUGIN_PATH:+:$GST_PLUGIN_PATH}"

mkdir -p "$out"
for scheme in $schemes; do
  echo "webrtc-compare: $scheme ($(cut -d' ' -f1-3 /proc/loadavg) load)" >&2
  "$root/demo-pipelines/webrtc-call.py" --scheme "$scheme" --out "$out/$scheme" \
    --seconds "$seconds" --trace "$trace" --delay-ms "$delay_ms" \
    --build "$build" > "$out/$scheme.log"
done

/usr/bin/python3 "$root/eval/summary.py" webrtc "$out" $schemes
