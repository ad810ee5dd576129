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
# Prints p50/p99 latency, SQI-SSIM, frames shown and utilisation per link;
# OUT/ARM-sink-stats.json keeps octopussink's last stats (per path: up,
# downs, rates, RTTs, packets sent/acked/lost/rescheduled).
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
CAPS="video/x-vp9,width=640,height=360,spatial-layers=3,temporal-layers=1,framerate=30/1"

live_need "$SHIM" "$METRICS" "$QUALITY"
mkdir -p "$OUT"
# whatever ends the script, the receiver and the links it started go with it
rx=""; shims=""
trap 'for pid in $rx $shims; do kill "$pid" 2>/dev/null || true; done' EXIT

# link_start ARM NAME TRACE DELAY LISTEN_PORT RX_PORT: one shim link; its
# pid is appended to $shims.
link_start() {
  "$SHIM" --listen=127.0.0.1:"$5" --forward=127.0.0.1:"$6" \
    --down-trace="$3" --delay-ms="$4" --queue=octopus \
    --stats="$OUT/$1-shim-$2.json" > "$OUT/$1-shim-$2.log" 2>&1 &
  shims="$shims $!"
}

mp_run() {
  arm=$1; rx_port=$2; port_a=$((rx_port + 1)); port_b=$((rx_port + 2))
  rm -f "$OUT/$arm"-shim-*.json
  gst-launch-1.0 -q -e octopussrc port="$rx_port" caps="$CAPS" \
      ! octopusframelog location="$OUT/$arm-received.csv" \
      > "$OUT/$arm-rx.log" 2>&1 &
  rx=$!
  shims=""
  case $arm in
    single-a)
      link_start "$arm" a "$LINK_A" "$DELAY_A_MS" "$port_a" "$rx_port"
      send="--port $port_a"; rtt=$((2 * DELAY_A_MS)) ;;
    single-b)
      link_start "$arm" b "$LINK_B" "$DELAY_B_MS" "$port_b" "$rx_port"
      send="--port $port_b"; rtt=$((2 * DELAY_B_MS)) ;;
    *)
      link_start "$arm" a "$LINK_A" "$DELAY_A_MS" "$port_a" "$rx_port"
      link_start "$arm" b "$LINK_B" "$DELAY_B_MS" "$port_b" "$rx_port"
      send="--paths 127.0.0.1:$port_a,127.0.0.1:$port_b --scheduler $arm"
      rtt=$((2 * DELAY_A_MS)) ;;
  esac
  sleep 0.5
  echo "case2-multipath: $arm: sending $(basename "$CLIP") live for ${RUN_SECONDS} s ..." >&2
  # shellcheck disable=SC2086
  /usr/bin/python3 "$ROOT/demo-pipelines/case2-live-send.py" --case 2 $send \
    --max-bitrate "$MAX_BITRATE" --seconds "$RUN_SECONDS" --clip "$CLIP" \
    --dump "$OUT/$arm-layers.bin" --sink-stats "$OUT/$arm-sink-stats.json" \
    > "$OUT/$arm-tx.log" 2>&1
  sleep 2                       # the links drain what they still hold
  kill -INT "$rx" 2>/dev/null || true; wait "$rx" || true
  for pid in $shims; do kill -TERM "$pid"; wait "$pid" || true; done
  rx=""; shims=""
  "$QUALITY" --dump "$OUT/$arm-layers.bin" --clip "$CLIP" --codec vp9 \
    --out "$OUT/$arm-sent.csv" --scores "$OUT/$arm-scores.csv" >&2
  "$METRICS" --case 2 --sent "$OUT/$arm-sent.csv" \
    --received "$OUT/$arm-received.csv" --out "$OUT/$arm" --scheme "$arm" \
    --trace "$(basename "$LINK_A")+$(basename "$LINK_B")" \
    --rtt-ms "$rtt" --video "$(basename "$CLIP")-live"
}

port=$BASE_PORT
prefixes=""
for arm in $ARMS; do
  mp_run "$arm" "$port"
  prefixes="$prefixes $OUT/$arm"
  port=$((port + 3))
done
echo "links: a = $(basename "$LINK_A") (${DELAY_A_MS} ms one way), b = $(basename "$LINK_B") (${DELAY_B_MS} ms)"
# shellcheck disable=SC2086
/usr/bin/python3 "$ROOT/eval/summary.py" multipath $prefixes
