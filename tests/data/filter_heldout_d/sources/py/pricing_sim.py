import random
import re
from dataclasses import dataclass
from fractions import Fraction

rng = random.Random(1)
SKU = re.compile(r"^[A-Z]{3}-\d{4}$")


@dataclass
class Line:
    sku: str
    qty: int
    unit: Fraction


def discount(line):
    if line.qty >= 10:
        return line.unit * Fraction(9, 10)
    return line.unit


def valid(line):
    return bool(SKU.match(line.sku))


def price(lines):
    total = Fraction(0)
    for line in lines:
        if valid(line):
            total += discount(line) * line.qty
    return total


def basket(n):
    return [Line(f"{rng.choice(['ABC', 'XYZ', 'QRS'])}-{rng.randint(1000, 9999)}", rng.randint(1, 20),
                 Fraction(rng.randint(100, 9999), 100)) for _ in range(n)]


totals = [price(basket(40)) for _ in range(1500)]
print(f"priced {len(totals)} baskets, mean {float(sum(totals) / len(totals)):.2f}")
