#!/usr/bin/env bash
# eval/summary.py on recorded run data (a simulated run scored as a live one
# would be, the shim's counters and octo-svc-quality's scores written out):
# the shown frames' SSIM and PSNR come from their highest layer used, PSNR
# leaves identical pictures out, utilisation is the down link bytes of
# messages the shim delivered whole over the trace's capacity, and the table
# names its metric.
set -euo pipefail
sim=$1 data=$2 summary=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trace=$data/traces/network/Verizon-LTE-short.down
"$sim" --case 2 --scheme octopus --trace "$trace" \
  --video "$data/traces/video/mot17-11-quality.trace" --duration 2 --out "$tmp/run" > /dev/null
# frame 0 was shown at layers 0x7; frame $low, the first shown below
# them, at 0x1 or 0x3 (its top layer: index $top)
grep -q '^0,0.000,3,3,0,1,[0-9.]*,[0-9.]*,0x7,' "$tmp/run/frames.csv"
read -r low mask < <(awk -F, '$6 == 1 && ($9 == "0x1" || $9 == "0x3") {
  print $1, $9; exit }' "$tmp/run/frames.csv")
[ -n "$low" ] || { echo "no frame shown below its top layers"; exit 1; }
top=$([ "$mask" = 0x1 ] && echo 0 || echo 1)
printf '{"users": [{"streams": [{"direction": "down", "stream": 0, "bytes_out": 170000,
  "whole_message_bytes_out": 150000}, {"direction": "up", "bytes_out": 9999999,
  "whole_message_bytes_out": 9999999}]}]}\n' > "$tmp/run/shim.json"
printf 'frame,index,ssim,psnr_db\n0,0,0.5,20.0\n0,2,0.9,30.0\n%s,%s,0.8,inf\n' "$low" "$top" \
  > "$tmp/run/scores.csv"
out=$(/usr/bin/python3 "$summary" live "$trace" "$tmp/run")
echo "$out"
row=$(echo "$out" | sed -n 2p)
read -r -a f <<< "$row"
[ "${f[7]}" = 0.8500 ] || { echo "SSIM ${f[7]}, expected 0.8500"; exit 1; }
[ "${f[8]}" = 30.00 ] || { echo "PSNR ${f[8]}, expected 30.00"; exit 1; }
util=$(/usr/bin/python3 - "$trace" "$tmp/run/frames.csv" <<'PY'
import csv, sys
ms = [int(l) for l in open(sys.argv[1]) if l.strip()]
caps = [float(r["capture_ms"]) for r in csv.DictReader(open(sys.argv[2]))]
end = int(max(caps) + 1000 / 30 - min(caps)) + 500
n = sum(max(0, (end - 1 - t) // ms[-1] - (0 - t + ms[-1] - 1) // ms[-1] + 1) for t in ms)
print(f"{100 * 150000 / (n * 1500):.1f}")
PY
)
[ "${f[9]}" = "$util" ] || { echo "util ${f[9]}, expected $util"; exit 1; }
echo "$out" | grep -q "SSIM (Wang 2004, Gaussian 11x11)"

# multipath: one run over two links, a shim's stats each (the trace named in
# it); utilisation per link is its down bytes out over its trace's capacity,
# and over both the sums
trace_b=$data/traces/network/5G-driving-1.down
printf '{"config": {"down_trace": "%s"}, "users": [{"streams": [
  {"direction": "down", "bytes_out": 120000}, {"direction": "up", "bytes_out": 5}]}]}\n' \
  "$trace" > "$tmp/run/shim-a.json"
printf '{"config": {"down_trace": "%s"}, "users": [{"streams": [
  {"direction": "down", "bytes_out": 30000}]}]}\n' "$trace_b" > "$tmp/run/shim-b.json"
out=$(/usr/bin/python3 "$summary" multipath "$tmp/run")
echo "$out"
expected=$(/usr/bin/python3 - "$trace" "$trace_b" "$tmp/run/frames.csv" <<'PY'
import csv, sys
caps = [float(r["capture_ms"]) for r in csv.DictReader(open(sys.argv[3]))]
end = int(max(caps) + 1000 / 30 - min(caps)) + 500
def capacity(path):
    ms = [int(l) for l in open(path) if l.strip()]
    return 1500 * sum(max(0, (end - 1 - t) // ms[-1] - (0 - t + ms[-1] - 1) // ms[-1] + 1)
                      for t in ms)
a, b = capacity(sys.argv[1]), capacity(sys.argv[2])
print(f"a {100 * 120000 / a:.1f}, b {100 * 30000 / b:.1f} {100 * 150000 / (a + b):.1f}")
PY
)
row=$(echo "$out" | sed -n 2p | tr -s ' ')
case $row in
  *"$expected") ;;
  *) echo "multipath row '$row', expected it to end in '$expected'"; exit 1 ;;
esac
echo "summary: ok"
