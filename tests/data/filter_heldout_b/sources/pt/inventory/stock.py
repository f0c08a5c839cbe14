class OutOfStock(Exception):
    pass


class Stock:
    def __init__(self):
        self.levels = {}

    def add(self, sku, qty):
        self.levels[sku] = self.levels.get(sku, 0) + qty

    def take(self, sku, qty):
        have = self.levels.get(sku, 0)
        if qty > have:
            raise OutOfStock(f"{sku}: want {qty}, have {have}")
        self.levels[sku] = have - qty

    def value(self, prices):
        return sum(prices[s] * q for s, q in self.levels.items())
