#!/bin/bash
# The label printer's morning: registers labels (one with a date it cannot read), prints some (a few for SKUs that
# were never registered), looks some up.
port=$1
api() { curl -s -o /dev/null -w "%{http_code}\n" "$@"; }
for _ in $(seq 1 60); do curl -s -o /dev/null "http://127.0.0.1:$port/health" && break; sleep 0.3; done
codes=$(
  for sku in $(seq 1000 1030); do
    date=2026-12-$(( (sku % 28) + 1 ))
    [ "$sku" = 1017 ] && date=31/12/2026
    api -H 'Content-Type: application/json' -d "{\"sku\": $sku, \"name\": \"item $sku\", \"bestBefore\": \"$date\"}" "http://127.0.0.1:$port/labels"
  done
  for n in $(seq 1 60); do
    sku=$(( 1000 + (n * 7) % 36 ))
    api -X POST "http://127.0.0.1:$port/print/$sku"
    api "http://127.0.0.1:$port/labels/$sku"
  done
)
echo "$codes" | sort | uniq -c
