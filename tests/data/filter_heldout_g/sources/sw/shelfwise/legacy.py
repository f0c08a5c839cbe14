"""The old desk client's helpers, kept while branches migrate."""

from __future__ import annotations

import warnings

from shelfwise.fines import fine_cents


def old_fine(days: int) -> float:
    warnings.warn("old_fine() returns dollars as float; use shelfwise.fines.fine_cents", DeprecationWarning, stacklevel=2)
    return fine_cents(days) / 100


def card_number(member_id: int) -> str:
    warnings.warn("card numbers are issued by the county system since 2025", UserWarning, stacklevel=2)
    return f"LIB{member_id:07d}"
