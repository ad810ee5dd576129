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

# live_shim_start QUEUE LISTEN_PORT FORWARD_PORT [NAME]: octopus-shim on $DOWN
# (and $UP if set; else the up link is unconstrained), 30 ms each way, its
# stats and log named NAME (default QUEUE); sets $shim.
live_shim_start() {
  if [ -n "${UP:-}" ]; then up="--up-trace=$UP"; else up=""; fi
  "$SHIM" --listen=127.0.0.1:"$2" --forward=127.0.0.1:"$3" \
    --down-trace="$DOWN" $up --delay-ms=30 --queue="$1" \
    --stats="$OUT/${4:-$1}-shim.json" > "$OUT/${4:-$1}-shim.log" 2>&1 &
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

# live_scheme SCHEME: the shim's queue and octopussink's options of one
# arm (sets $queue, $send_opts).  octopus: the Octopus queue, BBR;
# droptail: drop-tail, BBR; quco: the quco trimming queue ($QUCO_QUEUE,
# default "quco": thresholds at 50/75/90 % of the shim's 375 KB buffer), the
# QUCO window and qualitative packets (a frame's layers as gold | silver |
# bronze chunks of every packet; docs/quco-chunks.md).
live_scheme() {
  case $1 in
    octopus|droptail) queue=$1; send_opts="" ;;
    quco) queue=${QUCO_QUEUE:-quco}
      send_opts="--congestion-control=quco --qualitative=layered" ;;
    *) echo "case$case_id-live: unknown scheme '$1' (octopus, droptail, quco)" >&2
      exit 2 ;;
  esac
}

# live_main CASE CODEC RECEIVE_CAPS: every scheme of $SCHEMES (default
# "octopus droptail") in turn, then the table.
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

  port=$BASE_PORT; runs=""; webm=$WEBM
  for scheme in ${SCHEMES:-octopus droptail}; do
    live_run "$scheme" "$port" $((port + 1)) "$webm"
    webm=""; port=$((port + 2)); runs="$runs $OUT/$scheme"
  done
  # shellcheck disable=SC2086 # one argument per run
  /usr/bin/python3 "$ROOT/eval/summary.py" live "$DOWN" $runs
  [ -z "$WEBM" ] || echo "case$case_id-live: the first scheme's run as the receiver showed it: $WEBM" >&2
}

live_run() {
  scheme=$1; rx_port=$2; shim_port=$3; webm=$4
  live_scheme "$scheme"
  if [ -n "$webm" ]; then
    show="octopussvcdec ! videoconvert ! vp8enc deadline=1 cpu-used=8 ! webmmux ! filesink location=$webm"
  else
    show="fakesink sync=false"
  fi
  gst-launch-1.0 -q -e octopussrc port="$rx_port" caps="$caps" ! tee name=t \
      t. ! queue ! octopusframelog location="$OUT/$scheme-received.csv" \
      t. ! queue ! $show > "$OUT/$scheme-rx.log" 2>&1 &
  rx=$!
  live_shim_start "$queue" "$shim_port" "$rx_port" "$scheme"
  sleep 0.5
  echo "case$case_id-live: $scheme: sending $(basename "$CLIP") live for ${RUN_SECONDS} s ..." >&2
  # shellcheck disable=SC2086 # options are separate words
  /usr/bin/python3 "$ROOT/demo-pipelines/case2-live-send.py" --case "$case_id" \
    --port "$shim_port" --seconds "$RUN_SECONDS" --clip "$CLIP" $send_opts \
    --dump "$OUT/$scheme-layers.bin" > "$OUT/$scheme-tx.log" 2>&1
  live_stop "$rx"
  "$QUALITY" --dump "$OUT/$scheme-layers.bin" --clip "$CLIP" --codec "$codec" \
    --out "$OUT/$scheme-sent.csv" --scores "$OUT/$scheme-scores.csv" >&2
  live_metrics "$scheme" "$(basename "$CLIP")-live"
}
