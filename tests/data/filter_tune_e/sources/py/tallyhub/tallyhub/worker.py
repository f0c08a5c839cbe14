"""The mail worker: renders each queued invoice to PDF and mails it, logging as it goes."""
import argparse
import logging
import random
import sys
import time

rng = random.Random(2026)
clock = [1795942800.0]  # 2026-11-26 09:00:00 UTC


def fake_time() -> float:
    clock[0] += rng.uniform(0.05, 0.6)
    return clock[0]


class FontNotFound(OSError):
    pass


def render_pdf(number: str, template: str) -> int:
    if template == "reminder-v2":
        raise FontNotFound(f"font 'Inter-Bold.ttf' not found for template {template!r}")
    return rng.randint(18_000, 64_000)


def send(number: str, to: str, attempt: int) -> None:
    if to.endswith("@mx-down.example") and attempt < 4:
        raise ConnectionRefusedError(111, "Connection refused")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--invoices", type=int, default=100)
    args = parser.parse_args()
    logging.Formatter.converter = time.gmtime
    time.time = fake_time
    logging.basicConfig(stream=sys.stderr, level=logging.INFO,
                        format="%(asctime)s [%(levelname)s] %(name)s: %(message)s")
    log = logging.getLogger("tallyhub.worker")
    mail = logging.getLogger("tallyhub.smtp")
    log.info("worker started: queue=invoices-outbound batch=%d smtp=smtp.internal:587", args.invoices)
    sent = failed = 0
    for i in range(args.invoices):
        number = f"INV-2026-{1000 + i:05d}"
        to = "billing@mx-down.example" if i == 301 else f"ap{i % 97}@customer{i % 41}.example"
        template = "reminder-v2" if i == 217 else "invoice-v3"
        try:
            size = render_pdf(number, template)
        except FontNotFound:
            log.exception("render failed for %s", number)
            failed += 1
            continue
        for attempt in range(1, 4):
            try:
                send(number, to, attempt)
            except ConnectionRefusedError as exc:
                mail.warning("send %s to %s failed (attempt %d/3): %s", number, to, attempt, exc)
                continue
            log.info("sent %s to %s (%d bytes)", number, to, size)
            sent += 1
            break
        else:
            mail.error("giving up on %s after 3 attempts; left in queue invoices-outbound.dead", number)
            failed += 1
        if i and i % 120 == 0:
            mail.warning("smtp.internal:587 slow: %.1fs for last batch of 120 (threshold 30s)", rng.uniform(31, 48))
    log.info("worker finished: %d sent, %d failed, %d in dead-letter queue", sent, failed, 1)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
