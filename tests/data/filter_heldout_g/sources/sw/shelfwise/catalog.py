"""ISBN checks for the catalogue."""

from __future__ import annotations


def isbn10_ok(isbn: str) -> bool:
    digits = isbn.replace("-", "")
    if len(digits) != 10 or not digits[:9].isdigit():
        return False
    total = sum((10 - i) * int(ch) for i, ch in enumerate(digits[:9]))
    check = digits[9]
    if not check.isdigit():
        return False
    return (total + int(check)) % 11 == 0


def isbn13_ok(isbn: str) -> bool:
    digits = isbn.replace("-", "")
    if len(digits) != 13 or not digits.isdigit():
        return False
    total = sum(int(ch) * (1 if i % 2 == 0 else 3) for i, ch in enumerate(digits))
    return total % 10 == 0


def to_isbn13(isbn10: str) -> str:
    core = "978" + isbn10.replace("-", "")[:9]
    total = sum(int(ch) * (1 if i % 2 == 0 else 3) for i, ch in enumerate(core))
    return core + str((10 - total % 10) % 10)


def shelf_mark(genre: str, author: str) -> str:
    return f"{genre[:3].upper()} {author.split()[-1][:3].upper()}"
