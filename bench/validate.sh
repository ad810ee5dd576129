#!/usr/bin/env bash
# The simulator against the real pipeline (issue: experiment harness I, item
# 6): case 2 x {Verizon, TMobile, ATT} x {Octopus queue, drop-tail queue} and
# case 1 with the Octopus queue on Verizon, 60 ms RTT, 60 s each, through the
# real elements and octopus-shim and through octo-sim; both scored by the
# same metrics code (octo-metrics / octo-sim).  Prints p99 latency and
# SQI-SSIM side by side with their ratios.  Takes about 8 minutes.
#   BUILD=build bench/validate.sh [OUT]
#
# GCC=1 adds real GCC against the simulator's gcc scheme (issue 17):
# eval/live-eval.py runs webrtc-call.py's gcc arm (rtpgccbwe, needs root
# and rtpgccbwe on GST_PLUGIN_PATH) GCC_REPEATS valid times (default 5) on
# GCC_TRACES (default Verizon-LTE-short), 60 ms RTT, the shipped clip; then
# bench/validate-live.py simulates each valid run's stretch of the trace
# with the clip's own VP8 trace and compares p99 latency and utilisation
# (goal: within 25 %).  Runs the load guard rejected are shown, never
# averaged.  GCC_SCHEME=chromium-gcc takes Chromium's GCC (libwebrtc) as the
# real one instead (docs/design.md: the gcc arm's pacer backlog).
# GCC_ONLY=1 skips the Octopus pairs.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
OUT=${1:-$ROOT/results/validation}
SHIM=$BUILD/router-shim/octopus-shim
METRICS=$BUILD/eval/octo-metrics
SIM=$BUILD/bench/sim/octo-sim
NET=$ROOT/data/traces/network
VID=$ROOT/data/traces/video
SECONDS_RUN=${SECONDS_RUN:-60}
export GST_PLUGIN_PATH=$BUILD/gst-octopus/plugin
export GST_REGISTRY=$BUILD/validate-registry.bin
mkdir -p "$OUT"
port=47400

# real CASE TRACE QUEUE: one run through the elements and the shim
real() {
  local c=$1 trace=$2 queue=$3 dir=$OUT/real-case$1-$2-$3
  local kind video messages policy
  if [ "$c" = 1 ]; then
    kind=temporal video=$VID/mot17-10-temp.trace policy=framerate messages=1
  else
    kind=quality video=$VID/mot17-10-quality.trace policy=quality messages=3
  fi
  mkdir -p "$dir"
  port=$((port + 2))
  gst-launch-1.0 -q -e octopussrc port=$port \
    ! octopusframelog location="$dir/received.csv" > "$dir/rx.log" 2>&1 &
  local rx=$!
  "$SHIM" --listen=127.0.0.1:$((port + 1)) --forward=127.0.0.1:$port \
    --down-trace="$NET/$trace.down" --up-trace="$NET/$trace.up" --delay-ms=30 \
    --queue="$queue" --stats="$dir/shim.json" > "$dir/shim.log" 2>&1 &
  local shim=$!
  sleep 0.5
  gst-launch-1.0 -q -e octopustracesrc kind=$kind tag=false loop=true \
      num-buffers=$((SECONDS_RUN * 30 * messages)) location="$video" \
      sent-log="$dir/sent.csv" \
    ! octopustag policy=$policy \
    ! octopussink host=127.0.0.1 port=$((port + 1)) > "$dir/tx.log" 2>&1
  sleep 2
  kill -INT $rx; wait $rx || true
  kill -TERM $shim; wait $shim || true
  "$METRICS" --case "$c" --sent "$dir/sent.csv" --received "$dir/received.csv" \
    --out "$dir" --scheme "$queue" --trace "$trace" --rtt-ms 60 \
    --video mot17-10 > /dev/null
}

# sim CASE TRACE SCHEME: the same experiment in the simulator
sim() {
  local c=$1 trace=$2 scheme=$3 video
  [ "$c" = 1 ] && video=mot17-10-temp || video=mot17-10-quality
  "$SIM" --case "$c" --scheme "$scheme" --trace "$NET/$trace.down" \
    --up-trace "$NET/$trace.up" --video "$VID/$video.trace" --rtt-ms 60 \
    --duration "$SECONDS_RUN" --out "$OUT/sim-case$c-$trace-$scheme"
}

if [ "${GCC:-0}" = 1 ] || [ "${GCC_ONLY:-0}" = 1 ]; then
  echo "validate: real GCC (live-eval, ${GCC_SECONDS:-30} s calls) ..." >&2
  GST_PLUGIN_PATH=$GST_PLUGIN_PATH:$BUILD/svc-encoder:${RTPGCCBWE_LIB:-$BUILD/rtpgccbwe/lib} \
    "$ROOT/eval/live-eval.py" run "$OUT/live-gcc" --schemes "${GCC_SCHEME:-gcc}" \
    --traces ${GCC_TRACES:-Verizon-LTE-short} --repeats "${GCC_REPEATS:-5}" \
    --seconds "${GCC_SECONDS:-30}" --delay-ms 30 --build "$BUILD" || true
  "$ROOT/bench/validate-live.py" "$OUT/live-gcc" --sim "$SIM" \
    --scheme "${GCC_SCHEME:-gcc}" --include-invalid || true
  [ "${GCC_ONLY:-0}" = 1 ] && exit 0
fi

pairs="2:Verizon-LTE-short:octopus:octopus 2:Verizon-LTE-short:droptail:octobbr
2:TMobile-LTE-short:octopus:octopus 2:TMobile-LTE-short:droptail:octobbr
2:ATT-LTE-driving-2016:octopus:octopus 2:ATT-LTE-driving-2016:droptail:octobbr
1:Verizon-LTE-short:octopus:octopus"
for p in $pairs; do
  IFS=: read -r c trace queue scheme <<< "$p"
  echo "validate: case $c $trace $queue (real, ${SECONDS_RUN} s) ..." >&2
  real "$c" "$trace" "$queue"
  sim "$c" "$trace" "$scheme"
done

/usr/bin/python3 - "$OUT" $pairs <<'EOF'
import json, sys
out = sys.argv[1]
print(f"{'case':>4} {'trace':<22} {'queue':<9} {'p99 real':>9} {'p99 sim':>9} {'ratio':>6}"
      f" {'SQI real':>9} {'SQI sim':>8} {'ratio':>6}")
worst = 0.0
for pair in sys.argv[2:]:
    c, trace, queue, scheme = pair.split(":")
    r = json.load(open(f"{out}/real-case{c}-{trace}-{queue}/summary.json"))
    s = json.load(open(f"{out}/sim-case{c}-{trace}-{scheme}/summary.json"))
    lr = s["p99_latency_ms"] / r["p99_latency_ms"]
    qr = s["sqi_ssim"] / r["sqi_ssim"]
    worst = max(worst, abs(lr - 1), abs(qr - 1))
    print(f"{c:>4} {trace:<22} {queue:<9} {r['p99_latency_ms']:9.1f} {s['p99_latency_ms']:9.1f}"
          f" {lr:6.2f} {r['sqi_ssim']:9.4f} {s['sqi_ssim']:8.4f} {qr:6.3f}")
print(f"largest disagreement: {100 * worst:.1f} % (goal: within 15 %)")
EOF
