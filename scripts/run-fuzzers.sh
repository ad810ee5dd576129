#!/usr/bin/env bash
# Runs every libFuzzer target of a -Dfuzzing=true build for N seconds on a
# copy of its seed corpus, with libFuzzer's 64 MB allocation limit (the
# reliability goal: no input makes an element allocate more), goes on past
# a target that fails, prints a table of target, seconds, executions and
# result, and exits non-zero if any target failed.
set -uo pipefail
build=$1 seconds=${2:-60}
root=$(cd "$(dirname "$0")/.." && pwd)
malloc_limit_mb=${FUZZ_MALLOC_LIMIT_MB:-64}
rows=() failed=0
# Target fuzz-NAME (tests/fuzz/fuzz-NAME.c) has its seeds in
# tests/fuzz/corpus/NAME.
for exe in $(find "$build/tests/fuzz" -type f -name 'fuzz-*' -perm -u+x | sort); do
  name=$(basename "$exe")
  target=${name#fuzz-}
  seeds=$root/tests/fuzz/corpus/$target
  work=$build/corpus/$target
  log=$build/$name.log
  mkdir -p "$work"
  cp -n "$seeds"/* "$work"/ 2>/dev/null || true
  echo "== $name for ${seconds}s (seeds: ${seeds#$root/})"
  status=0
  # artifacts (crash-*, oom-*, leak-*) land in the build directory
  "$exe" -max_total_time="$seconds" -malloc_limit_mb="$malloc_limit_mb" \
    -print_final_stats=1 -artifact_prefix="$build/$name-" "$work" \
    > "$log" 2>&1 || status=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  result=ok
  if [ "$status" -ne 0 ]; then
    failed=1
    result="FAILED ($(grep -m1 -oE 'ERROR: [^(]*|SUMMARY: [^ ]+: [a-z-]+' \
      "$log" || echo "exit $status")): see $log"
  elif grep -q 'runtime error:' "$log"; then
    # UBSan in recover mode reports without stopping
    failed=1
    result="FAILED (UBSan: $(grep -m1 -o 'runtime error: .*' "$log")): see $log"
  fi
  rows+=("$(printf '%-22s %8s %12s  %s' "$target" "$seconds" "${runs:-?}" \
    "$result")")
done
printf '\n%-22s %8s %12s  %s\n' target seconds executions result
printf '%s\n' "${rows[@]}"
exit "$failed"
