# Shared by the live demos (sourced; ROOT set by them): case1-live.sh and
# case2-live.sh call live_main; case3-live.sh uses the pieces.

# live_env CASE: the build's tools, the output directory, the traces and
# the plugin path.  DOWN/UP, SECONDS_PER_RUN, BASE_PORT and OUT override.
live_env() {
  case_id=$1
  BUILD=${BUILD:-build}
  case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
  SHIM=$BUILD/router-shim/octopus-shim
  METRICS=$BUILD/eval/octo-metrics
  OUT=${OUT:-$BUILD/demo-case$case_id-live}
  RUN_SECONDS=${SECONDS_PER_RUN:-20}
  export GST_PLUGIN_PATH=$BUILD/svc-encoder:$BUILD/pointcloud:$BUILD/gst-octopus/plugin
  export GST_REGISTRY=$BUILD/demo-registry.bin
}

# live_need EXE...: exit with a hint unless every EXE is built.
live_need() {
  for exe in "$@"; do
    [ -x "$exe" ] || { echo "case$case_id-live: $exe not built (run ninja -C $BUILD)" >&2; exit 1; }
  done
}

# live_shim_start QUEUE LISTEN_PORT FORWARD_PORT: octopus-shim on $DOWN (and
# $UP if set; else the up link is unconstrained), 30 ms each way; sets $shim.
live_shim_start() {
  if [ -n "${UP:-}" ]; then up="--up-trace=$UP"; else up=""; fi
  "$SHIM" --listen=127.0.0.1:"$2" --forward=127.0.0.1:"$3" \
    --down-trace="$DOWN" $up --delay-ms=30 --queue="$1" \
    --stats="$OUT/$1-shim.json" > "$OUT/$1-shim.log" 2>&1 &
  shim=$!
}

# live_stop RX_PID: let the link drain what is still queued, then stop the
# receiver (EOS) and the shim.
live_stop() {
  sleep 2
  kill -INT "$1"; wait "$1" || true
  kill -TERM "$shim"; wait "$shim" || true
}

# live_metrics QUEUE VIDEO_LABEL: octo-metrics on $OUT/QUEUE-sent.csv and
# $OUT/QUEUE-received.csv into $OUT/QUEUE/.
live_metrics() {
  "$METRICS" --case "$case_id" --sent "$OUT/$1-sent.csv" \
    --received "$OUT/$1-received.csv" --out "$OUT/$1" \
    --scheme "$1" --trace "$(basename "$DOWN")" --rtt-ms 60 --video "$2"
}

# live_main CASE CODEC RECEIVE_CAPS
live_main() {
  codec=$2; caps=$3
  live_env "$1"
  QUALITY=$BUILD/eval/octo-svc-quality
  CLIP=${CLIP:-$ROOT/data/media/bigbuckbunny.mp4}
  DOWN=${DOWN:-$ROOT/data/traces/network/Verizon-LTE-short.down}
  UP=${UP-$ROOT/data/traces/network/Verizon-LTE-short.up}
  BASE_PORT=${BASE_PORT:-47300}
  WEBM=${WEBM:-}

  live_need "$SHIM" "$METRICS" "$QUALITY"
  mkdir -p "$OUT"

  live_run octopus "$BASE_PORT" $((BASE_PORT + 1)) "$WEBM"
  live_run droptail $((BASE_PORT + 2)) $((BASE_PORT + 3)) ""
  /usr/bin/python3 "$ROOT/eval/summary.py" live "$DOWN" \
    "$OUT/octopus" "$OUT/droptail"
  [ -z "$WEBM" ] || echo "case$case_id-live: the Octopus run as the receiver showed it: $WEBM" >&2
}

live_run() {
  queue=$1; rx_port=$2; shim_port=$3; webm=$4
  if [ -n "$webm" ]; then
    show="octopussvcdec ! videoconvert ! vp8enc deadline=1 cpu-used=8 ! webmmux ! filesink location=$webm"
  else
    show="fakesink sync=false"
  fi
  gst-launch-1.0 -q -e octopussrc port="$rx_port" caps="$caps" ! tee name=t \
      t. ! queue ! octopusframelog location="$OUT/$queue-received.csv" \
      t. ! queue ! $show > "$OUT/$queue-rx.log" 2>&1 &
  rx=$!
  live_shim_start "$queue" "$shim_port" "$rx_port"
  sleep 0.5
  echo "case$case_id-live: $queue queue: sending $(basename "$CLIP") live for ${RUN_SECONDS} s ..." >&2
  /usr/bin/python3 "$ROOT/demo-pipelines/case2-live-send.py" --case "$case_id" \
    --port "$shim_port" --seconds "$RUN_SECONDS" --clip "$CLIP" \
    --dump "$OUT/$queue-layers.bin" > "$OUT/$queue-tx.log" 2>&1
  live_stop "$rx"
  "$QUALITY" --dump "$OUT/$queue-layers.bin" --clip "$CLIP" --codec "$codec" \
    --out "$OUT/$queue-sent.csv" --scores "$OUT/$queue-scores.csv" >&2
  live_metrics "$queue" "$(basename "$CLIP")-live"
}
