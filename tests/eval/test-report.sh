#!/usr/bin/env bash
# The simulated report links every run: each record's row points at its
# folder and frames.csv, and every link resolves.
set -euo pipefail
experiments=$1 sim=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$experiments" --sim "$sim" --out "$tmp/run" --cases 2 --schemes octopus,gcc \
  --traces Verizon-LTE-short --videos mot17-10 --duration 3 -j 1 > "$tmp/out" 2>&1
/usr/bin/python3 - "$tmp/run" <<'PY'
import json, os, re, sys
out = sys.argv[1]
page = open(os.path.join(out, "index.html")).read()
records = json.load(open(os.path.join(out, "summary.json")))
links = re.findall(r'<a href="(runs/[^"]+)">', page)
csvs = [l for l in links if l.endswith("/frames.csv")]
assert len(csvs) == len(records) == 2, (links, len(records))
for link in links:
    assert os.path.exists(os.path.join(out, link)), link
assert os.path.exists(os.path.join(out, "case2-latency-quality.png"))
print("ok:", len(records), "runs linked:", ", ".join(csvs))
PY
