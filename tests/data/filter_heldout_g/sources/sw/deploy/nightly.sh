#!/usr/bin/env bash
# Nightly job: sync, then the overdue report, then mail it.
set -e

if [ -z "$SHELFWISE_ENV" ]; then
    echo "SHELFWISE_ENV not set" >&2
    exit 2
fi

for branch in ${SHELFWISE_BRANCHES//,/ }; do
    if [ "$branch" == "harbourside" ] then
        echo "harbourside exports are converted first"
    fi
    echo "syncing $branch"
done

case "$1" in
    --dry-run) echo "dry run";;
    *) python -m shelfwise.sync
esac
