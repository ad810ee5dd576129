# Shared by the live demos (sourced; ROOT set by them): case1-live.sh and
# case2-live.sh call live_main, whose runs are demo-pipelines/octopus-call.py's
# (the one live run of the Octopus transport, also eval/live-eval.py's);
# case3-live.sh uses the pieces.  Every run writes its own folder OUT/RUN/.

# live_env CASE: the build's tools, the output directory, the traces and
# the plugin path.  DOWN, SECONDS_PER_RUN, BASE_PORT and OUT override.
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

# live_shim_start QUEUE LISTEN_PORT FORWARD_PORT RUN_DIR: octopus-shim on
# $DOWN (and $UP if set; else the up link is unconstrained), 30 ms each way,
# its stats in RUN_DIR/shim.json and its output in RUN_DIR/shim.log; sets
# $shim.
live_shim_start() {
  if [ -n "${UP:-}" ]; then up="--up-trace=$UP"; else up=""; fi
  "$SHIM" --listen=127.0.0.1:"$2" --forward=127.0.0.1:"$3" \
    --down-trace="$DOWN" $up --delay-ms=30 --queue="$1" \
    --stats="$4/shim.json" > "$4/shim.log" 2>&1 &
  shim=$!
}

# live_stop RX_PID: let the link drain what is still queued, then stop the
# receiver (EOS) and the shim.
live_stop() {
  sleep 2
  kill -INT "$1"; wait "$1" || true
  kill -TERM "$shim"; wait "$shim" || true
}

# live_metrics RUN_DIR SCHEME VIDEO_LABEL: octo-metrics on RUN_DIR/sent.csv
# and RUN_DIR/received.csv into RUN_DIR.
live_metrics() {
  "$METRICS" --case "$case_id" --sent "$1/sent.csv" --received "$1/received.csv" \
    --out "$1" --scheme "$2" --trace "$(basename "$DOWN")" --rtt-ms 60 --video "$3"
}

# live_main CASE: every scheme of $SCHEMES (default "octopus droptail": the
# shim's queue; quco: QUCO's arm, octopus-call.py --queue quco) in turn, one
# octopus-call.py run each into OUT/SCHEME/, then the table.  QUCO_QUEUE
# gives the quco arm's shim queue; WEBM writes what the first run's receiver
# showed.
live_main() {
  live_env "$1"
  CLIP=${CLIP:-$ROOT/data/media/bigbuckbunny.mp4}
  DOWN=${DOWN:-$ROOT/data/traces/network/Verizon-LTE-short.down}
  BASE_PORT=${BASE_PORT:-47300}
  live_need "$SHIM" "$METRICS" "$BUILD/eval/octo-svc-quality"
  mkdir -p "$OUT"
  port=$BASE_PORT; runs=""; webm=${WEBM:+--webm=$WEBM}
  for scheme in ${SCHEMES:-octopus droptail}; do
    /usr/bin/python3 "$ROOT/demo-pipelines/octopus-call.py" --case "$case_id" \
      --queue "$scheme" ${QUCO_QUEUE:+--quco-queue=$QUCO_QUEUE} $webm \
      --trace "$DOWN" --seconds "$RUN_SECONDS" --clip "$CLIP" --build "$BUILD" \
      --base-port "$port" --out "$OUT/$scheme"
    webm=""; port=$((port + 2)); runs="$runs $OUT/$scheme"
  done
  # shellcheck disable=SC2086 # one argument per run
  /usr/bin/python3 "$ROOT/eval/summary.py" live "$DOWN" $runs
  [ -z "${WEBM:-}" ] || echo "case$case_id-live: the first scheme's run as the receiver showed it: $WEBM" >&2
}
