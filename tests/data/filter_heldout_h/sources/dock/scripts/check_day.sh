#!/bin/sh
# Check one day's ride export: every ride has both docks, and count the long ones.
f=$1
bad=$(awk -F, 'NR > 1 && ($3 == "" || $4 == "") {n++} END {print n+0}' "$f")
long=$(awk -F, 'NR > 1 && $5 > 60 {n++} END {print n+0}' "$f")
rides=$(($(wc -l < "$f") - 1))
if [ "$bad" -gt 0 ]; then
  echo "$f: $bad rides without a dock" >&2
  exit 255
fi
echo "$f: $rides rides, $long over an hour"
