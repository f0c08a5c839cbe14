"""Overdue fines.

Adults pay 25 cents a day after a two-day grace period, children 10 cents, capped at the item's replacement cost.

>>> fine_cents(days_late=5, child=False)
75
>>> fine_cents(days_late=1, child=False)
0
>>> fine_cents(days_late=40, child=True, cap_cents=300)
300
"""

from __future__ import annotations

GRACE_DAYS = 2
ADULT_CENTS = 25
CHILD_CENTS = 10


def fine_cents(days_late: int, child: bool = False, cap_cents: int | None = None) -> int:
    """The fine for an item returned ``days_late`` days after its due date.

    >>> fine_cents(3)
    25
    >>> fine_cents(0, child=True)
    0
    """
    if days_late <= GRACE_DAYS:
        return 0
    rate = CHILD_CENTS if child else ADULT_CENTS
    fine = (days_late - GRACE_DAYS + 1) * rate
    if cap_cents is not None:
        fine = min(fine, cap_cents)
    return fine


def format_cents(cents: int) -> str:
    """Cents as a price on a receipt.

    >>> format_cents(1250)
    '$12.50'
    >>> format_cents(5)
    '$0.05'
    >>> format_cents(-300)
    '-$3.00'
    """
    return f"${cents // 100}.{cents % 100:02d}"


def waive(fines: dict[str, int], member_ids: list[str]):
    """Remove the fines of members whose fines were waived by a librarian."""
    for mid in member_ids:
        fines.pop(mid)
    return sum(fines.values())
