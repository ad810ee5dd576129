#!/usr/bin/env bash
# A simulated run re-scored from its sent/received logs by octo-metrics (the
# tool real runs use) gives byte-identical per-frame results and the same
# metrics: the simulator and the real pipeline share one implementation.
set -euo pipefail
sim=$1 metrics=$2 data=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run() {
  local c=$1 trace=$2 video=$3
  "$sim" --case "$c" --scheme octopus --trace "$data/traces/network/$trace.down" \
    --video "$data/traces/video/$video.trace" --duration 20 --out "$tmp/$c"
  "$metrics" --case "$c" --sent "$tmp/$c/sent.csv" --received "$tmp/$c/received.csv" \
    --end-ns 20000000000 --scheme octopus --trace "$trace" --video "${video%-*}" \
    --out "$tmp/$c/re"
  cmp "$tmp/$c/frames.csv" "$tmp/$c/re/frames.csv"
  for key in median_aoi_ms p99_aoi_ms p50_latency_ms p99_latency_ms sqi_ssim; do
    a=$(grep -o "\"$key\": [^,]*" "$tmp/$c/summary.json")
    b=$(grep -o "\"$key\": [^,]*" "$tmp/$c/re/summary.json")
    [ "$a" = "$b" ] || { echo "case $c: $a != $b"; exit 1; }
  done
  echo "case $c: identical"
}
run 1 Verizon-LTE-short mot17-10-temp
run 2 TMobile-LTE-short mot17-11-quality
run 3 5G-static-1 dance

# Logs from two clocks (a message arriving before its capture) are refused
# with the file, the line and the reason.
printf 'frame,index,capture_ns,keyframe,temporal_layer,level,quality\n0,0,1000000000,1,0,0,0.9\n' > "$tmp/sent.csv"
printf 'frame,index,arrival_ns\n0,0,500\n' > "$tmp/received.csv"
if "$metrics" --case 1 --sent "$tmp/sent.csv" --received "$tmp/received.csv" \
    --out "$tmp/clock" 2> "$tmp/err"; then
  echo "octo-metrics accepted an arrival before its capture"; exit 1
fi
grep -q "received.csv:2: frame 0 arrived at 500 ns, before its capture" "$tmp/err" \
  || { cat "$tmp/err"; exit 1; }
echo "two clocks: refused"
