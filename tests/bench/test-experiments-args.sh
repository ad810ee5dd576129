#!/usr/bin/env bash
# The experiment harness as a user meets it: argument mistakes get a one-line
# reason and exit status 2 (argparse's), never a traceback; videos are found
# by the label runs carry (the shipped clip's at its 25 fps); a trace path
# with '"' and '\' in it gives a summary that parses and names the path.
set -euo pipefail
experiments=$1 sim=$2 data=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fails() {
  local want=$1; shift
  set +e
  "$experiments" --sim "$sim" --out "$tmp/x" --no-report "$@" > "$tmp/out" 2>&1
  local status=$?
  set -e
  if [ "$status" -eq 0 ] || grep -q Traceback "$tmp/out" || ! grep -q -- "$want" "$tmp/out"; then
    echo "FAIL: $* (status $status):"; cat "$tmp/out"; exit 1
  fi
  echo "ok: $* -> $(tail -n 1 "$tmp/out")"
}
fails "no case study 7" --cases 7
fails "expected whole numbers" --cases x
fails "no such trace: nowhere" --traces nowhere
fails "unknown scheme" --schemes nosuch
fails "outside 0..1023" --slack-ms 2000

weird="$tmp/we\"ird\\ name.down"
cp "$data/traces/network/Verizon-LTE-short.down" "$weird"
"$experiments" --sim "$sim" --out "$tmp/run" --no-report --cases 2 \
  --schemes octopus --traces "$weird" --videos mot17-10 --duration 3 -j 1 \
  2> "$tmp/err"
/usr/bin/python3 - "$tmp/run/summary.json" <<'PY'
import json, sys
records = json.load(open(sys.argv[1]))
assert len(records) == 1, records
r = records[0]
assert r["trace"] == 'we"ird\\ name', r["trace"]
assert r["video"] == "mot17-10", r["video"]
print("ok: summary parses, trace", r["trace"], "video", r["video"])
PY

# The shipped clip's own trace (eval/clip-video-trace.py) runs by its label:
# 25 fps, so the simulated frames are 40 ms apart.
"$experiments" --sim "$sim" --out "$tmp/clip" --no-report --cases 2 \
  --schemes octopus --traces Verizon-LTE-short --videos bbb-360p --duration 3 -j 1 \
  2> "$tmp/err"
/usr/bin/python3 - "$tmp/clip" <<'PY'
import csv, glob, json, sys
r = json.load(open(sys.argv[1] + "/summary.json"))[0]
assert r["video"] == "bbb-360p", r["video"]
frames = list(csv.DictReader(open(glob.glob(sys.argv[1] + "/runs/*/frames.csv")[0])))
assert float(frames[1]["capture_ms"]) - float(frames[0]["capture_ms"]) == 40.0, frames[:2]
assert len(frames) == 75, len(frames)
print("ok: --videos bbb-360p runs the clip's trace at 25 fps,", len(frames), "frames in 3 s")
PY
