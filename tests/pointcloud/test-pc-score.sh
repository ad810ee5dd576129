#!/usr/bin/env bash
# octo-pc-score on a real run without a network: three live frames of the
# bunny through octopuspcenc -> octopuspcdec -> octopusplyenc, scored by
# octo-metrics and octo-pc-score.  Everything arrived: full table score,
# every point back, D1 PSNR far above the coding noise of a lossy layer set.
# Then frame 1 loses its last 10 messages in the received log: octo-metrics'
# summed increments and octo-pc-score's exact table score must agree, below 1.
set -euo pipefail
metrics=$1 score=$2 root=$3
cloud=$root/data/media/bun_zipper.ply
table=$root/data/pointcloud/ssim-table.csv
camera=-0.017,0.110,-0.391
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/rx"

gst-launch-1.0 -q octopusplysrc location="$cloud" is-live=true num-frames=3 \
    framerate=20/1 degrees-per-second=36 colour-from-height=true \
  ! octopuspcenc "camera-position=<$camera>" ssim-table="$table" \
    sent-log="$tmp/sent.csv" \
  ! octopuspcdec received-log="$tmp/received.csv" \
  ! octopusplyenc ! multifilesink location="$tmp/rx/%05d.ply"

scored() {
  "$metrics" --case 3 --sent "$tmp/sent.csv" --received "$1" --out "$tmp/m" \
    --scheme test --trace none --rtt-ms 60 --video bunny > /dev/null
  "$score" --source "$cloud" --fps 20 --degrees-per-second 36 \
    --colour-from-height --camera="$camera" --table "$table" \
    --frames "$tmp/m/frames.csv" --received "$tmp/rx" --out "$tmp/q.csv" \
    > /dev/null
}
fail() { echo "FAIL: $*"; cat "$tmp/q.csv"; exit 1; }

scored "$tmp/received.csv"
[ "$(sed 1d "$tmp/q.csv" | wc -l)" -eq 3 ] || fail "expected 3 frames"
# frame,shown,layers_used,view_ssim,metrics_quality,cell_layers,points,d1
awk -F, 'NR > 1 && !($2 == 1 && $3 == "0xfffff" && $4 == 1 && $5 == 1 &&
    $6 == "5 5 5 5" && $7 == 35947 && $8 > 60) { bad = 1 } END { exit bad }' \
  "$tmp/q.csv" || fail "a whole frame does not score as whole"

awk -F, 'NR == 1 || $1 != 1 || $2 < 10' "$tmp/received.csv" > "$tmp/partial.csv"
scored "$tmp/partial.csv"
awk -F, 'NR > 1 && $1 == 1 && !($3 == "0x3ff" && $4 < 0.99 && $4 > 0 &&
    ($4 - $5) ^ 2 < 1e-10) { bad = 1 } END { exit bad }' "$tmp/q.csv" ||
  fail "frame 1 with 10 of 20 layers"
echo "ok: whole frames score 1 with D1 > 60 dB; frame 1 with 10 layers:" \
  "$(awk -F, '$1 == 1 { print $4 }' "$tmp/q.csv")"
