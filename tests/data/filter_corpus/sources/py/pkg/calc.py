
def div(a, b):
    return a / b

def parse(text):
    return int(text.strip())

class Cart:
    def __init__(self):
        self.items = []
    def add(self, name, price):
        if price < 0:
            raise ValueError(f"negative price for {name}")
        self.items.append((name, price))
    def total(self):
        return round(sum(p for _, p in self.items), 2)
