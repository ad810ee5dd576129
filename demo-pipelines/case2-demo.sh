#!/bin/sh
# Case study 2 through octopus-shim, twice: the Octopus queue vs. drop-tail.
# The quality trace (3 layers, level per GoP from the transport's estimate)
# crosses the Verizon LTE trace with 60 ms RTT; eval/octo-metrics scores
# each run from the sender's and the receiver's logs; prints frame latency
# p50/p99, SQI-SSIM and link utilisation side by side.
#   BUILD=build demo-pipelines/case2-demo.sh
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
SHIM=$BUILD/router-shim/octopus-shim
METRICS=$BUILD/eval/octo-metrics
OUT=${OUT:-$BUILD/demo-case2}
VIDEO=${VIDEO:-$ROOT/data/traces/video/mot17-10-quality.trace}
DOWN=${DOWN:-$ROOT/data/traces/network/Verizon-LTE-short.down}
UP=${UP:-$ROOT/data/traces/network/Verizon-LTE-short.up}
BASE_PORT=${BASE_PORT:-47200}
export GST_PLUGIN_PATH=$BUILD/gst-octopus/plugin
export GST_REGISTRY=$BUILD/demo-registry.bin

for exe in "$SHIM" "$METRICS"; do
  [ -x "$exe" ] || { echo "case2-demo: $exe not built (run ninja -C $BUILD)" >&2; exit 1; }
done
mkdir -p "$OUT"

run() {
  queue=$1; rx_port=$2; shim_port=$3
  gst-launch-1.0 -q -e octopussrc port="$rx_port" \
    ! octopusframelog location="$OUT/$queue-received.csv" \
    > "$OUT/$queue-rx.log" 2>&1 &
  rx=$!
  "$SHIM" --listen=127.0.0.1:"$shim_port" --forward=127.0.0.1:"$rx_port" \
    --down-trace="$DOWN" --up-trace="$UP" --delay-ms=30 --queue="$queue" \
    --stats="$OUT/$queue-shim.json" > "$OUT/$queue-shim.log" 2>&1 &
  shim=$!
  sleep 0.5
  echo "case2-demo: $queue queue: replaying $(basename "$VIDEO") ..." >&2
  gst-launch-1.0 -q -e octopustracesrc kind=quality tag=false \
      location="$VIDEO" sent-log="$OUT/$queue-sent.csv" \
    ! octopustag policy=quality \
    ! octopussink host=127.0.0.1 port="$shim_port" > "$OUT/$queue-tx.log" 2>&1
  # Let the link drain what is still queued, then stop both ends.
  sleep 2
  kill -INT "$rx"; wait "$rx" || true
  kill -TERM "$shim"; wait "$shim" || true
  # The project's one metrics implementation scores the two logs.
  "$METRICS" --case 2 --sent "$OUT/$queue-sent.csv" \
    --received "$OUT/$queue-received.csv" --out "$OUT/$queue" \
    --scheme "$queue" --trace "$(basename "$DOWN")" --rtt-ms 60 \
    --video "$(basename "$VIDEO")"
}

run octopus "$BASE_PORT" $((BASE_PORT + 1))
run droptail $((BASE_PORT + 2)) $((BASE_PORT + 3))
/usr/bin/python3 "$ROOT/eval/summary.py" live "$DOWN" \
  "$OUT/octopus" "$OUT/droptail"
