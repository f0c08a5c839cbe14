"""Run every benchmark: `python -m bench` (or `make bench`)."""

from __future__ import annotations

from bench import grep_bench

if __name__ == "__main__":
    grep_bench.main()
