#!/usr/bin/env bash
# Runs every libFuzzer target of a -Dfuzzing=true build for N seconds on a
# copy of its seed corpus and prints each one's executions; fails on a crash.
set -euo pipefail
build=$1 seconds=${2:-60}
root=$(cd "$(dirname "$0")/.." && pwd)
# Seeds: next to the target's source (tests/PART/fuzz/corpus/NAME), else
# tests/fuzz/PART/corpus/NAME for fuzz-PART-NAME, else tests/fuzz/corpus/NAME.
for exe in $(find "$build/tests" -type f -name 'fuzz-*' -perm -u+x | sort); do
  name=$(basename "$exe")
  target=${name#fuzz-}
  part=${target%%-*}
  here=$root/$(dirname "${exe#$build/}")/corpus/$target
  if [ -d "$here" ]; then
    seeds=$here
  elif [ -d "$root/tests/fuzz/$part/corpus/${target#*-}" ] && [ "$part" != "$target" ]; then
    seeds=$root/tests/fuzz/$part/corpus/${target#*-}
  else
    seeds=$root/tests/fuzz/corpus/$target
  fi
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
