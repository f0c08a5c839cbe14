"""What every tool output goes through first: terminal control codes out, progress bars resolved, blank runs folded."""

from __future__ import annotations

import re

__all__ = ["estimate_tokens", "sanitize"]

# CSI sequences (colours, cursor moves), OSC sequences (titles, hyperlinks; ended by BEL or ST), and the
# remaining two-character escapes.
_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")
_BLANK_RUN = re.compile(r"\n(?:[ \t]*\n){2,}")
# Measured on real command output: ~2.8 characters per cl100k token (chars/4 under-counts by about 30%).
CHARS_PER_TOKEN = 2.8


def sanitize(text: str) -> str:
    """Strip ANSI/OSC escapes, keep only the final state of carriage-return progress lines, fold blank runs."""
    if "\x1b" in text:
        text = _ANSI.sub("", text)
    if "\r" in text:
        text = text.replace("\r\n", "\n")
        # A progress bar redraws its line with \r; what a person finally saw is the text after the last one.
        text = "\n".join(line.rsplit("\r", 1)[-1] if "\r" in line else line for line in text.split("\n"))
    if "\n\n\n" in text or "\n \n" in text or "\n\t\n" in text:
        text = _BLANK_RUN.sub("\n\n", text)
    return text


def estimate_tokens(text: str) -> int:
    return round(len(text) / CHARS_PER_TOKEN)
