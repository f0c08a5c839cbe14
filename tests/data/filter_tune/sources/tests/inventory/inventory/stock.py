def restock(level, amount):
    if amount < 0:
        raise ValueError(f"negative restock: {amount}")
    return level + amount


def reserve(level, amount):
    return level - amount if amount <= level else level


def price_with_tax(net, rate):
    return round(net * (1 + rate), 2)
