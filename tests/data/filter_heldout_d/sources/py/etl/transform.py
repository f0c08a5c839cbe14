from decimal import Decimal, InvalidOperation


class RowError(ValueError):
    pass


def parse_amount(text):
    try:
        return Decimal(text)
    except InvalidOperation as exc:
        raise RowError(f"amount {text!r} is not a decimal number") from exc


def normalise_row(row):
    return {**row, "amount": parse_amount(row["amount"]), "country": row["country"].upper()}


def normalise(rows, source):
    return [normalise_row(row) for row in rows]
