#!/usr/bin/env bash
# Octopus-over-WebRTC (fixed rate, GCC-driven, and its own BBR sender
# octopusrtpsender) vs. GCC-over-WebRTC: the same clip, trace and delay,
# one call per scheme through octopus-shim --shell (webrtc-call.py), then a
# table from each call's summary (octo-metrics) and the shim's counters.
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

/usr/bin/python3 - "$out" $schemes <<'EOF'
import json, os, sys

out, schemes = sys.argv[1], sys.argv[2:]
print(f"{'scheme':<20}{'p50 lat ms':>11}{'p99 lat ms':>11}{'p99 AoI ms':>11}"
      f"{'SQI-SSIM':>9}{'decoded':>10}{'SSIM dec':>9}{'shim drops':>18}")
for scheme in schemes:
    with open(os.path.join(out, scheme, "call.json")) as f:
        s = json.load(f)
    dropped = s["shim"]["users"][0]["queues"]["down"]["dropped"]
    drops = "/".join(str(dropped[r]["packets"]) for r in ("dropper", "overflow"))
    print(f"{scheme:<20}{s['p50_latency_ms']:>11.1f}{s['p99_latency_ms']:>11.1f}"
          f"{s['p99_aoi_ms']:>11.1f}{s['sqi_ssim']:>9.4f}"
          f"{s['frames_decoded']:>5}/{s['frames_sent']:<4}"
          f"{s['mean_ssim_decoded'] or 0:>9.4f}{drops:>18}")
print("latency: capture to the whole frame at the receiver's depayloader; "
      "SQI-SSIM: DESIGN.md's definition over real per-frame SSIM (decoded vs. "
      "source luma); shim drops: packets dropped by dropper/overflow")
EOF
