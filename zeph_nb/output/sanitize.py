"""What every tool output goes through first: terminal control codes out, progress bars resolved, blank runs folded."""

from __future__ import annotations

import re

__all__ = ["estimate_tokens", "fold_binary", "sanitize", "tokens_for_chars", "visible", "without_escapes"]

# What must not act on its own where a person reads a command: C0/C1 controls (but newline and tab), DEL, and the
# bidirectional overrides, embeddings, isolates and marks that reorder what is shown (U+202E shows "exe.txt" for
# "txt.exe"), plus characters that show as nothing and so hide a difference: zero-width ones, the soft hyphen, line
# and paragraph separators, and the fillers and selectors Python accepts inside a name (`x` and `x` + U+FE00 are
# two variables that look like one): variation selectors, the grapheme joiner, Hangul and Khmer fillers,
# Mongolian selectors, tag characters.
_INVISIBLE_CHARS = (
    "\x00-\x08\x0b-\x1f\x7f-\x9f\xad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f"
    "\u2028-\u202e\u2060-\u2064\u2066-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb"
    "\U0001d173-\U0001d17a\U000e0000-\U000e007f\U000e0100-\U000e01ef"
)
_INVISIBLE = re.compile(f"[{_INVISIBLE_CHARS}]")
# Three or more line breaks in a row (blank lines in between too): padding that pushes text out of the box.
_LINE_RUN = re.compile(r"(?:[ \t]*\n){3,}")

# CSI sequences (colours, cursor moves), OSC sequences (titles, hyperlinks; ended by BEL or ST), and the
# remaining two-character escapes.
_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")
_BLANK_RUN = re.compile(r"\n(?:[ \t]*\n){2,}")
# What ``str.splitlines`` ends a line at besides \n and \r: vertical tab, form feed, the file, group and record
# separators, NEL and the line and paragraph separators. A terminal moves down a line at VT and FF; left in, they
# made one line of the counts and the put-backs (which split at \n) many lines of a rule that called splitlines,
# and an error between two of them was cut with no note. They are line breaks everywhere now.
_BREAKS = str.maketrans(dict.fromkeys("\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029", "\n"))
_ASCII_BREAKS = ("\x0b", "\x0c", "\x1c", "\x1d", "\x1e")
# Measured on real command output: ~2.8 characters per cl100k token (chars/4 under-counts by about 30%).
CHARS_PER_TOKEN = 2.8


def without_escapes(text: str) -> str:
    """``text`` without ANSI/OSC escapes and nothing else changed: what a shell call's secret scan and overflow
    copy read (a colour code inside a token hid it from the scan, and read_overflow gave it back whole). A lone
    escape left is dropped too: `\x1b\x1b[0m[31m` is a new sequence once the first goes."""
    return _ANSI.sub("", text).replace("\x1b", "") if "\x1b" in text else text


def sanitize(text: str) -> str:
    """Strip ANSI/OSC escapes, keep only the final state of carriage-return progress lines, fold blank runs."""
    text = without_escapes(text)
    if any(c in text for c in _ASCII_BREAKS) or (not text.isascii() and any(c in text for c in "\x85\u2028\u2029")):
        text = text.translate(_BREAKS)
    if "\r" in text:
        text = text.replace("\r\n", "\n")
        text = "\n".join(_last_drawn(line) if "\r" in line else line for line in text.split("\n"))
    # One regex search finds whether there is a run (three `in` tests for likely runs cost three times as much on
    # text full of newlines, and missed runs of lines holding two spaces).
    if _BLANK_RUN.search(text):
        text = _BLANK_RUN.sub("\n\n", text)
    return text


# Bytes that are not text once decoded: controls a terminal does not print, and what undecodable bytes became.
_NOT_TEXT = re.compile("[\x00-\x08\x0e-\x1f\x7f\ufffd]")
_BINARY_SHARE = 0.3  # of a line's characters: text has none of these, random bytes about half
_BINARY_MIN = 8  # a shorter line is text with a stray byte in it, whatever its share


def fold_binary(text: str) -> str:
    """``text`` with each run of lines that are bytes, not text (`cat model.bin`), as one line saying so and how to
    look at them: as characters they were NULs and U+FFFD by the thousand, tokens that say nothing. The text around
    them stays (an error printed beside a blob, the exit code); ``text`` itself when there are none."""
    if "\x00" not in text and "\ufffd" not in text:
        return text
    out: list[str] = []
    run = chars = 0
    short: list[str] = []  # short lines after a binary one: part of the run if another binary line follows
    folded = False
    for line in text.split("\n"):
        if len(line) < _BINARY_MIN:
            if run:
                short.append(line)
                continue
        elif ("\x00" in line or "\ufffd" in line) and len(_NOT_TEXT.findall(line)) >= _BINARY_SHARE * len(line):
            run, chars, folded = run + 1 + len(short), chars + len(line) + sum(map(len, short)), True
            short = []
            continue
        if run:
            out.append(_binary_said(run, chars))
            run = chars = 0
        out += short
        short = []
        out.append(line)
    if run:
        out.append(_binary_said(run, chars))
    out += short
    return "\n".join(out) if folded else text


def _binary_said(lines: int, chars: int) -> str:
    return (f"[binary output: {lines:,} line{'s' if lines != 1 else ''}, {chars:,} characters of control bytes "
            "or bytes not UTF-8, not shown; `file <path>` says what it is, `… | xxd | head` shows them]")  # fmt: skip


def _last_drawn(line: str) -> str:
    """A progress bar redraws its line with \r: what a person finally saw is the last text drawn. A \r that ends
    the line, or ends it twice (a Windows text-mode write of \r\n gives \r\r\n), draws nothing: the text before it
    stays on the screen, and an error that ends so must not read as an empty line. Nor is one drawn over with
    spaces: the last text drawn is what the model reads."""
    for drawn in reversed(line.split("\r")):
        if _SHOWN.search(drawn):  # not spaces, nor a NUL or a zero-width space drawn over it
            return drawn
    return ""


# A character that shows: not a space, a control, nor one of the invisible ones _INVISIBLE writes out.
_SHOWN = re.compile(f"[^\\s{_INVISIBLE_CHARS}]")


def visible(text: str) -> str:
    """``text`` as a person must see it before approving it: every control, bidi and zero-width character written
    out (``<U+202E>``), and a run of empty lines shown as how many there are, so nothing hides the rest."""
    shown = _INVISIBLE.sub(lambda m: f"<U+{ord(m.group(0)):04X}>", text)
    return _LINE_RUN.sub(lambda m: f"\n[{m.group(0).count(chr(10)) - 1} empty lines]\n", shown)


def estimate_tokens(text: str) -> int:
    return tokens_for_chars(len(text))


def tokens_for_chars(chars: int) -> int:
    """``estimate_tokens`` of a text of ``chars`` characters, for callers that sum lengths they already know."""
    return round(chars / CHARS_PER_TOKEN)
