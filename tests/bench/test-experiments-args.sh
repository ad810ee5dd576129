#!/usr/bin/env bash
# The experiment harness as a user meets it: argument mistakes get a one-line
# reason and exit status 2 (argparse's), never a traceback; videos are found
# by the label runs carry; a trace path with '"' and '\' in it gives a
# summary that parses and names the path.
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
