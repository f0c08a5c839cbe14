"""The nightly sync: pull each branch's circulation export, post loans to the county catalogue, log everything."""

from __future__ import annotations

import argparse
import logging
import random
import sys
from datetime import datetime, timedelta

BRANCHES = ["central", "eastgate", "harbourside", "millbrook", "northfield", "oakridge", "riverside", "southbank",
            "westend", "willowdale", "brookhaven", "kingsmere"]

log = logging.getLogger("shelfwise.sync")


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 11, 25, 1, 0, 0)

    def tick(self, rng: random.Random) -> None:
        self.now += timedelta(milliseconds=rng.randint(40, 900))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="shelfwise.sync")
    parser.add_argument("--batches", type=int, default=60)
    parser.add_argument("--log", default="logs/sync.log")
    parser.add_argument("--echo", action="store_true", help="also log to stderr")
    args = parser.parse_args(argv)
    clock = Clock()

    class ClockFormatter(logging.Formatter):
        def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:  # noqa: N802
            return clock.now.strftime("%Y-%m-%d %H:%M:%S") + f",{clock.now.microsecond // 1000:03d}"

    fmt = ClockFormatter("%(asctime)s %(levelname)-5s %(message)s")
    handlers: list[logging.Handler] = [logging.FileHandler(args.log, mode="w")]
    if args.echo:
        handlers.append(logging.StreamHandler())
    for handler in handlers:
        handler.setFormatter(fmt)
    logging.basicConfig(level=logging.INFO, handlers=handlers)
    rng = random.Random(2026)
    posted = skipped = 0
    log.info("sync start: %d branches, batch size 50, catalogue api v3", len(BRANCHES))
    for batch in range(1, args.batches + 1):
        branch = BRANCHES[batch % len(BRANCHES)]
        clock.tick(rng)
        log.info("b%04d %-11s fetch export page %d", batch, branch, batch // len(BRANCHES) + 1)
        for _ in range(rng.randint(10, 14)):
            clock.tick(rng)
            loan = rng.randint(100000, 999999)
            log.info("b%04d %-11s loan %d -> 201 (%d ms)", batch, branch, loan, rng.randint(18, 95))
            posted += 1
        if batch == 47:
            clock.tick(rng)
            log.warning("b%04d %-11s loan 552210 -> 409 (barcode 31842009917 already on loan at eastgate)", batch, branch)
            for attempt in range(1, 4):
                clock.tick(rng)
                log.info("b%04d %-11s loan 552210 retry %d/3", batch, branch, attempt)
            clock.tick(rng)
            log.error("b%04d %-11s gave up on loan 552210 after 3 retries: ConflictError('barcode 31842009917 checked out twice')", batch, branch)
            skipped += 1
        clock.tick(rng)
        log.info("b%04d %-11s done", batch, branch)
    clock.tick(rng)
    log.info("sync finished: %d loans posted, %d skipped, %d batches", posted, skipped, args.batches)
    print(f"sync finished: {posted} loans posted, {skipped} skipped (see {args.log})", file=sys.stderr)
    return 1 if skipped else 0


if __name__ == "__main__":
    raise SystemExit(main())
