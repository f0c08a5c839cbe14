"""The gate chain: what passing every gate costs a call, against running the same tool directly.

Baseline in the same run: the executor alone (no policy, no audit row, no output pipeline). The chain's extra
cost is dominated by the durable audit row (one fdatasync per call); the policy decision itself is measured
separately for a compound bash line, where the parser does most of the work.
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from zeph_nb.config import Settings
from zeph_nb.gates import build_chain
from zeph_nb.tools.base import ToolCall
from zeph_nb.tools.builtin import builtin_executor

N = 400
RULES = """
[gates.permissions]
bash = [
  {pattern = "cargo *", action = "allow"},
  {pattern = "cd *", action = "allow"},
  {pattern = "rm *", action = "deny"},
]
read = [{pattern = "**/.env", action = "deny"}, {pattern = "*", action = "allow"}]
"""


def _median_us(samples: list[float]) -> float:
    return statistics.median(samples) * 1e6


async def _time(run: object, call: ToolCall) -> float:
    start = time.perf_counter()
    await run(call)  # type: ignore[operator]
    return time.perf_counter() - start


async def _measure() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp) / "work"
        work.mkdir()
        (work / "notes.txt").write_text("hello\n" * 100)
        settings = Settings.from_toml(RULES + "\n[gates.cache]\nenabled = false\n").model_copy(
            update={"home": Path(tmp) / "home"}
        )
        direct = builtin_executor(settings, workdir=work)
        chain = build_chain(settings, workdir=work)
        # bash: a sandboxed `true`, allowed without asking; the executor alone parses and scopes it itself, through
        # the chain it is prepared once by the gates and the executor reuses that (fewer rounds: each is a bwrap).
        for tool, params, rounds in (("time", {}, N), ("read", {"path": "notes.txt"}, N),
                                     ("bash", {"command": "cd . && true"}, N // 8)):  # fmt: skip
            call = ToolCall(tool, params)
            bare = [await _time(direct.execute, call) for _ in range(rounds)]
            gated = [await _time(chain.execute, call) for _ in range(rounds)]
            b, g = _median_us(bare), _median_us(gated)
            print(f"{tool:6} direct p50 {b:8.1f} us   through the chain p50 {g:8.1f} us   ({g / b:.1f}x)")
        session = chain.session
        allowed = "cd crate && cargo test --all -- --nocapture; cargo fmt --check"
        asked = allowed + " | tee log.txt"  # tee matches no rule: the decision reads the grants from the store

        def decide(line: str) -> float:
            start = time.perf_counter()
            session.permissions.decide(session.prepare(ToolCall("bash", {"command": line})), wants_confirmation=False)
            return time.perf_counter() - start

        def parse(line: str) -> float:
            start = time.perf_counter()
            session.classifier.analyze(line)
            return time.perf_counter() - start

        a = _median_us([decide(allowed) for _ in range(N)])
        p = _median_us([parse(allowed) for _ in range(N)])
        k = _median_us([decide(asked) for _ in range(N // 10)])
        print(f"policy decision, 3-command line allowed by rules: p50 {a:.0f} us, of which parsing {p:.0f} us")
        print(f"policy decision that asks (reads grants from the store): p50 {k / 1000:.1f} ms ({k / a:.0f}x)")
        chain.store.close()


def main() -> None:
    print("== gate chain ==")
    asyncio.run(_measure())


if __name__ == "__main__":
    main()
