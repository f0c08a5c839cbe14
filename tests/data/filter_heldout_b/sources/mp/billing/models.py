from dataclasses import dataclass


@dataclass
class Invoice:
    number: str
    lines: list
    paid: bool = False

    def total(self):
        return sum(l["amount"] for l in self.lines)


def make_invoice(number, lines=None):
    return Invoice(number, lines or [])
