# Shared by case1-live.sh and case2-live.sh (sourced; ROOT set by them).
# live_main CASE CODEC RECEIVE_CAPS
live_main() {
  case_id=$1; codec=$2; caps=$3
  BUILD=${BUILD:-build}
  case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
  SHIM=$BUILD/router-shim/octopus-shim
  METRICS=$BUILD/bench/sim/octo-metrics
  QUALITY=$BUILD/svc-encoder/octo-svc-quality
  OUT=${OUT:-$BUILD/demo-case$case_id-live}
  CLIP=${CLIP:-$ROOT/data/media/bigbuckbunny.mp4}
  DOWN=${DOWN:-$ROOT/data/traces/network/Verizon-LTE-short.down}
  UP=${UP:-$ROOT/data/traces/network/Verizon-LTE-short.up}
  RUN_SECONDS=${SECONDS_PER_RUN:-20}
  BASE_PORT=${BASE_PORT:-47300}
  WEBM=${WEBM:-}
  export GST_PLUGIN_PATH=$BUILD/svc-encoder:$BUILD/gst-octopus/plugin
  export GST_REGISTRY=$BUILD/demo-registry.bin

  for exe in "$SHIM" "$METRICS" "$QUALITY"; do
    [ -x "$exe" ] || { echo "case$case_id-live: $exe not built (run ninja -C $BUILD)" >&2; exit 1; }
  done
  mkdir -p "$OUT"

  live_run octopus "$BASE_PORT" $((BASE_PORT + 1)) "$WEBM"
  live_run droptail $((BASE_PORT + 2)) $((BASE_PORT + 3)) ""
  /usr/bin/python3 "$ROOT/demo-pipelines/case2-summary.py" "$DOWN" \
    "$OUT/octopus" "$OUT/droptail"
  [ -z "$WEBM" ] || echo "case$case_id-live: the Octopus run as the receiver showed it: $WEBM" >&2
}

live_run() {
  queue=$1; rx_port=$2; shim_port=$3; webm=$4
  if [ -n "$webm" ]; then
    show="svcdec ! videoconvert ! vp8enc deadline=1 cpu-used=8 ! webmmux ! filesink location=$webm"
  else
    show="fakesink sync=false"
  fi
  gst-launch-1.0 -q -e octopussrc port="$rx_port" caps="$caps" ! tee name=t \
      t. ! queue ! octopusframelog location="$OUT/$queue-received.csv" \
      t. ! queue ! $show > "$OUT/$queue-rx.log" 2>&1 &
  rx=$!
  "$SHIM" --listen=127.0.0.1:"$shim_port" --forward=127.0.0.1:"$rx_port" \
    --down-trace="$DOWN" --up-trace="$UP" --delay-ms=30 --queue="$queue" \
    --stats="$OUT/$queue-shim.json" > "$OUT/$queue-shim.log" 2>&1 &
  shim=$!
  sleep 0.5
  echo "case$case_id-live: $queue queue: sending $(basename "$CLIP") live for ${RUN_SECONDS} s ..." >&2
  /usr/bin/python3 "$ROOT/demo-pipelines/case2-live-send.py" --case "$case_id" \
    --port "$shim_port" --seconds "$RUN_SECONDS" --clip "$CLIP" \
    --dump "$OUT/$queue-layers.bin" > "$OUT/$queue-tx.log" 2>&1
  # Let the link drain what is still queued, then stop both ends.
  sleep 2
  kill -INT "$rx"; wait "$rx" || true
  kill -TERM "$shim"; wait "$shim" || true
  "$QUALITY" --dump "$OUT/$queue-layers.bin" --clip "$CLIP" --codec "$codec" \
    --out "$OUT/$queue-sent.csv" >&2
  "$METRICS" --case "$case_id" --sent "$OUT/$queue-sent.csv" \
    --received "$OUT/$queue-received.csv" --out "$OUT/$queue" \
    --scheme "$queue" --trace "$(basename "$DOWN")" --rtt-ms 60 \
    --video "$(basename "$CLIP")-live"
}
