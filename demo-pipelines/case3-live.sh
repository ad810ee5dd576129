#!/bin/sh
# Case study 3, live: the Stanford bunny turned at 36°/s and paced at 20 fps
# by octopusplysrc, coded by octopuspcenc into 2x2 cells x 5 density layers
# (Draco, volumetric tags), sent by octopussink through octopus-shim on the
# 5G-driving-1 trace (30 ms each way; the dataset has no uplink trace, so
# ACKs go unconstrained), received by octopussrc and merged by
# octopuspcdec — twice: Octopus queue vs. drop-tail.  octo-metrics scores
# the logs (the sent log's quality is the SSIM table's score of each layer
# for its cell's density and distance from the viewer); octo-pc-score adds
# D1 PSNR per frame against the source frame, and renders a few frames,
# source | received, to PNG.  Prints latency, AoI, SQI-SSIM, D1 PSNR and
# utilisation side by side.
#   BUILD=build demo-pipelines/case3-live.sh
#   SECONDS_PER_RUN=20 PLY_EVERY=20 BITS=9 demo-pipelines/case3-live.sh
# PLY_EVERY: keep every Nth received frame as PLY (all are scored).
# BITS: position quantisation; 9 gives 0.3 mm steps on the bunny, below its
# 0.8 mm point spacing, and about 18 Mbit/s at 20 fps (the trace averages
# 7 Mbit/s, 0.4-14 per second over the first 20 s) — the sender
# overshoots, the queues drop.
# The run is end to end on this machine: a starved CPU (the encoder cannot
# keep 20 fps) shows as latency in both columns.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/demo-pipelines/case2-live-lib.sh"
live_env 3
SCORE=$BUILD/eval/octo-pc-score
CLOUD=${CLOUD:-$ROOT/data/media/bun_zipper.ply}
TABLE=$ROOT/data/pointcloud/ssim-table.csv
DOWN=${DOWN:-$ROOT/data/traces/network/5G-driving-1.down}
UP=${UP:-}
BASE_PORT=${BASE_PORT:-47320}
PLY_EVERY=${PLY_EVERY:-20}
BITS=${BITS:-9}
FPS=20
TURN=36
# The viewer: level with the bunny's centre, 2.5 of its extents in front
# (the paper's 2.5 m viewing distance, in the SSIM table's unit); cells 0
# and 1 face it.
CAMERA=${CAMERA:--0.017,0.110,-0.391}
FRAMES=$((RUN_SECONDS * FPS))

live_need "$SHIM" "$METRICS" "$SCORE" "$BUILD/pointcloud/libgstoctopuspc.so"
mkdir -p "$OUT"

case3_run() {
  queue=$1; rx_port=$2; shim_port=$3; run=$OUT/$1
  rm -rf "$run"
  mkdir -p "$run/frames" "$run/png"
  gst-launch-1.0 -q -e octopussrc port="$rx_port" \
      caps=application/x-octopus-pc-layer \
    ! octopuspcdec received-log="$run/received.csv" \
    ! octopusplyenc ! multifilesink location="$run/frames/%05d.ply" \
    > "$run/rx.log" 2>&1 &
  rx=$!
  live_shim_start "$queue" "$shim_port" "$rx_port" "$run"
  sleep 0.5
  echo "case3-live: $queue queue: sending $(basename "$CLOUD") live at $FPS fps for ${RUN_SECONDS} s ..." >&2
  gst-launch-1.0 -q -e octopusplysrc location="$CLOUD" is-live=true \
      num-frames="$FRAMES" framerate=$FPS/1 degrees-per-second=$TURN \
      colour-from-height=true \
    ! octopuspcenc position-bits="$BITS" "camera-position=<$CAMERA>" \
      ssim-table="$TABLE" sent-log="$run/sent.csv" \
    ! octopussink host=127.0.0.1 port="$shim_port" \
    > "$run/tx.log" 2>&1
  live_stop "$rx"
  live_metrics "$run" "$queue" "$(basename "$CLOUD")-live"
  "$SCORE" --source "$CLOUD" --fps $FPS --degrees-per-second $TURN \
    --colour-from-height --camera="$CAMERA" --table "$TABLE" \
    --frames "$run/frames.csv" --received "$run/frames" \
    --png "$((FRAMES / 4)),$((FRAMES / 2)),$((3 * FRAMES / 4))" \
    --png-dir "$run/png" --out "$run/quality.csv" > "$run/score.log"
  # keep every PLY_EVERY-th file (named by arrival order) for a person
  for f in "$run"/frames/*.ply; do
    [ -e "$f" ] || continue
    n=$(basename "$f" .ply | sed 's/^0*//')
    [ $((${n:-0} % PLY_EVERY)) -eq 0 ] || rm -f "$f"
  done
}

case3_run octopus "$BASE_PORT" $((BASE_PORT + 1))
case3_run droptail $((BASE_PORT + 2)) $((BASE_PORT + 3))
/usr/bin/python3 "$ROOT/eval/summary.py" live "$DOWN" "$OUT/octopus" "$OUT/droptail"
echo "case3-live: received frames as PLY in $OUT/*/frames, renderings (source | received) in $OUT/*/png, per-frame quality in $OUT/*/quality.csv" >&2
