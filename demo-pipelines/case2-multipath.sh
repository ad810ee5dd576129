#!/bin/sh
# Case study 2 over two cellular links at once: the shipped clip (looped)
# encoded live by octopussvcenc as VP9 with 3 spatial layers, its target
# following octopussink's estimate up to MAX_BITRATE (default 20 Mbit/s,
# above the two traces' summed capacity, so the source is never the limit),
# through two octopus-shim links side by side (Octopus queue, one trace
# each: LINK_A an LTE trace, LINK_B a 5G one) into one octopussrc.  Arms:
#   min-cost  both links, the paper's scheduler (octopussink paths=A,B)
#   min-rtt   both links, the common multipath default
#   single-a  link A alone            single-b  link B alone
# One demo-pipelines/octopus-call.py run per arm into OUT/ARM/; prints
# p50/p99 latency, SQI-SSIM, frames shown and utilisation per link;
# OUT/ARM/sink-stats.json keeps octopussink's last stats (per path: up,
# downs, rates, RTTs, packets sent/acked/lost/rescheduled).  One run per arm
# is a demo: `make live-eval SCHEMES="mp-min-cost mp-min-rtt mp-single-a
# mp-single-b"` repeats them under the load guard.
#   BUILD=build demo-pipelines/case2-multipath.sh
#   SECONDS_PER_RUN=30 ARMS="min-cost single-b" demo-pipelines/case2-multipath.sh
# LINK_A, LINK_B (traces), DELAY_A_MS, DELAY_B_MS (one way), BASE_PORT, OUT.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/demo-pipelines/case2-live-lib.sh"
OUT_GIVEN=${OUT:-}
live_env 2
[ -n "$OUT_GIVEN" ] || OUT=$BUILD/demo-case2-multipath
QUALITY=$BUILD/eval/octo-svc-quality
CLIP=${CLIP:-$ROOT/data/media/bigbuckbunny.mp4}
LINK_A=${LINK_A:-$ROOT/data/traces/network/Verizon-LTE-short.down}
LINK_B=${LINK_B:-$ROOT/data/traces/network/5G-driving-1.down}
DELAY_A_MS=${DELAY_A_MS:-30}
DELAY_B_MS=${DELAY_B_MS:-20}
MAX_BITRATE=${MAX_BITRATE:-20000000}
ARMS=${ARMS:-"min-cost min-rtt single-a single-b"}
BASE_PORT=${BASE_PORT:-47400}

live_need "$SHIM" "$METRICS" "$QUALITY"
mkdir -p "$OUT"

port=$BASE_PORT
runs=""
for arm in $ARMS; do
  case $arm in
    single-a|single-b) how="--single-link=${arm#single-}" ;;
    *) how="--scheduler=$arm" ;;
  esac
  /usr/bin/python3 "$ROOT/demo-pipelines/octopus-call.py" "$how" \
    --trace "$LINK_A" --delay-ms "$DELAY_A_MS" --trace-b "$LINK_B" \
    --delay-b-ms "$DELAY_B_MS" --max-bitrate "$MAX_BITRATE" \
    --seconds "$RUN_SECONDS" --clip "$CLIP" --build "$BUILD" \
    --base-port "$port" --out "$OUT/$arm"
  runs="$runs $OUT/$arm"
  port=$((port + 3))
done
echo "links: a = $(basename "$LINK_A") (${DELAY_A_MS} ms one way), b = $(basename "$LINK_B") (${DELAY_B_MS} ms)"
# shellcheck disable=SC2086
/usr/bin/python3 "$ROOT/eval/summary.py" multipath $runs
