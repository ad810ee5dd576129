#!/usr/bin/env bash
# Runs every libFuzzer target of a -Dfuzzing=true build for N seconds on a
# copy of its seed corpus and prints each one's executions; fails on a crash.
set -euo pipefail
build=$1 seconds=${2:-60}
root=$(cd "$(dirname "$0")/.." && pwd)
# Target fuzz-NAME (tests/fuzz/fuzz-NAME.c) has its seeds in
# tests/fuzz/corpus/NAME.
for exe in $(find "$build/tests/fuzz" -type f -name 'fuzz-*' -perm -u+x | sort); do
  name=$(basename "$exe")
  target=${name#fuzz-}
  seeds=$root/tests/fuzz/corpus/$target
  work=$build/corpus/$target
  mkdir -p "$work"
  cp -n "$seeds"/* "$work"/ 2>/dev/null || true
  echo "== $name for ${seconds}s (seeds: ${seeds#$root/})"
  status=0
  "$exe" -max_total_time="$seconds" -print_final_stats=1 "$work" \
    > "$build/$name.log" 2>&1 || status=$?
  grep -E 'stat::number_of_executed_units|Done|ERROR|SUMMARY' "$build/$name.log" || true
  [ "$status" -eq 0 ] || { echo "$name failed: see $build/$name.log" >&2; exit 1; }
done
