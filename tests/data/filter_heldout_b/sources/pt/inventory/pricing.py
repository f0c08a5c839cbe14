def discount(price, percent):
    return round(price * (1 - percent / 100), 2)


def vat(price, rate=0.19):
    return round(price * rate, 2)


def parse_price(text):
    return float(text.replace("EUR", "").strip())
