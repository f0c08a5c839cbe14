"""Lines a filter must never drop: failures of authentication and permission, advisories, panics, weak crypto.

After a filter runs, any such line of the original output that the filtered text lost is put back under a
``[security-relevant lines kept]`` heading, so no rule — ours or a user's — can hide them from the model.
"""

from __future__ import annotations

import re

from zeph_nb.security.secrets import ascii_lower, keyword_spans

__all__ = ["KEYWORDS", "SECURITY_LINE", "preserve_security_lines"]

SECURITY_LINE = re.compile(
    "|".join(
        [
            r"\bpanic(ked)?\b",
            r"(?i:\bauthenticat\w* (failed|failure|error)|\bunauthori[sz]ed\b|\bforbidden\b|\baccess denied\b)",
            r"(?i:\b(HTTP/\d(\.\d)? |status:? |code:? )?40[13]\b.*(unauthori[sz]ed|forbidden))",
            r"\b(401|403) (Unauthorized|Forbidden)\b",
            r"(?i:\bpermission denied\b)",
            r"\bRUSTSEC-\d{4}-\d{4}\b|\bCVE-\d{4}-\d{4,}\b|\bGHSA(-[23456789cfghjmpqrvwx]{4}){3}\b|\bPYSEC-\d{4}-\d+\b",
            r"(?i:\bvulnerabilit(y|ies) (detected|found)\b|\b\d+ (high|critical|moderate) severity vulnerabilit)",
            r"(?i:\b(weak|insecure|deprecated) (cipher|hash|crypto\w*|algorithm|key)\b|\b(md5|sha1|des|rc4) is (weak|insecure|broken))",
            r"(?i:\bcertificate (verify failed|has expired|is not trusted)\b|\bSSL(Error| handshake failed))",
        ]
    )
)

# SECURITY_LINE lowered, its case-insensitive groups made plain: on a lowered ASCII line it matches wherever
# SECURITY_LINE does (and a little more), 4x as fast. It turns away the candidates that only hold a keyword (76,000
# `warning: item N is deprecated` lines took 1 s), and SECURITY_LINE decides the rest. (No escape or class in the
# pattern has upper case for lowering to change; a test holds the two to each other.)
MAYBE_SECURITY_LINE = re.compile(SECURITY_LINE.pattern.replace("(?i:", "(?:").lower())

# Every SECURITY_LINE alternative contains one of these (lowercased). Python's re cannot skip quickly through
# a text for a large case-insensitive alternation (~2 MB/s); str.find can, so the regex only sees candidates.
KEYWORDS = (
    "panic", "authenticat", "unauthori", "forbidden", "access denied", "permission denied", "rustsec-", "cve-",
    "ghsa-", "pysec-", "vulnerabilit", "weak ", "insecure ", "deprecated ", " is weak", " is insecure",
    " is broken", "certificate ", "ssl",
)  # fmt: skip


def _candidate_lines(text: str, spans: list[tuple[int, int]] | None) -> list[str]:
    if spans is None:
        lowered = ascii_lower(text)  # offsets in it must be offsets in text (str.lower() lengthens İ)
        spans = keyword_spans(text, lowered, KEYWORDS, merge=False)
    return [text[start:end].rstrip("\r") for start, end in spans]


def preserve_security_lines(
    original: str, filtered: str, spans: list[tuple[int, int]] | None = None
) -> tuple[str, int]:
    """``filtered`` plus every security-relevant line of ``original`` it no longer contains; and how many.
    ``spans`` are the lines of ``original`` holding a ``KEYWORDS`` word, when the caller has found them already."""
    if filtered is original:
        return filtered, 0
    present: set[str] | None = None
    missing: list[str] = []
    for line in _candidate_lines(original, spans):
        if line.isascii() and not MAYBE_SECURITY_LINE.search(line.lower()):
            continue
        if not SECURITY_LINE.search(line):
            continue
        if present is None:
            present = set(filtered.splitlines())
        if line not in present:
            missing.append(line)
            present.add(line)
    if not missing:
        return filtered, 0
    return filtered.rstrip("\n") + "\n[security-relevant lines kept]\n" + "\n".join(missing), len(missing)
