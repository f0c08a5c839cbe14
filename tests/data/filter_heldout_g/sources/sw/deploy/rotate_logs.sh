#!/usr/bin/env bash
# Rotate the sync logs: keep seven, compress the rest.
set -euo pipefail

LOG_DIR=${SHELFWISE_LOG_DIR:-logs}
KEEP=7

cd "$LOG_DIR"
count=$(ls -1 sync*.log | wc -l)
echo "found $count logs in $LOG_DIR"
for f in $(ls -1t sync*.log | tail -n +$((KEEP + 1))); do
    gzip -9 "$f"
done
echo "archiving to $ARCHIVE_DIR"
mv ./*.gz "$ARCHIVE_DIR"/
