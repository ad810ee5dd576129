#!/usr/bin/env bash
# Runs the meson test suites of one or more build dirs and closes with one
# "N passed, N failed" line over all of them.  Exit status: non-zero if any
# test failed.
set -uo pipefail

passed=0 failed=0 status=0
for dir in "$@"; do
  log=$(mktemp)
  echo "== meson test -C $dir"
  meson test -C "$dir" --print-errorlogs --num-processes 2 2>&1 | tee "$log"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  ok=$(awk '/^Ok:/ {print $2}' "$log")
  fail=$(awk '/^(Fail|Timeout|Unexpected Pass):/ {n += $NF} END {print n + 0}' "$log")
  passed=$((passed + ${ok:-0}))
  failed=$((failed + fail))
  rm -f "$log"
done
[ "$status" -eq 0 ] || [ "$failed" -gt 0 ] || failed=1
echo "tests: $passed passed, $failed failed"
exit "$status"
