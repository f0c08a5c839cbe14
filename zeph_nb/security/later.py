"""One thread for clean-up that need not hold up a call (removing a command's private /tmp). Work handed over runs
in order, soon after; the thread is joined at exit (concurrent.futures), so a normal exit leaves nothing undone. A
crash can: each caller says why that is harmless for what it hands over."""

from __future__ import annotations

import concurrent.futures
import threading
from collections.abc import Callable
from typing import Any

__all__ = ["later"]

_worker: concurrent.futures.ThreadPoolExecutor | None = None
_lock = threading.Lock()


def later(fn: Callable[..., Any], *args: Any) -> None:
    """Run ``fn(*args)`` on the clean-up thread; at once, here, when the interpreter is shutting down."""
    global _worker
    with _lock:
        if _worker is None:
            _worker = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="zeph-later")
        try:
            _worker.submit(fn, *args)
            return
        except RuntimeError:  # shutting down: the thread takes no more work
            pass
    fn(*args)
