import re

POSTCODE = {"DE": re.compile(r"^\d{5}$"), "NL": re.compile(r"^\d{4} ?[A-Z]{2}$"), "AT": re.compile(r"^\d{4}$")}


def parse_address(text):
    lines = [part.strip() for part in text.strip().splitlines()]
    name, street, city_line, country = lines
    postcode, city = city_line.split(" ", 1)
    if not POSTCODE[country].match(postcode):
        raise ValueError(f"bad postcode {postcode!r} for {country}")
    return {"name": name, "street": street, "postcode": postcode, "city": city, "country": country}


def label(address):
    a = parse_address(address)
    return f"{a['name'].upper()}\n{a['street']}\n{a['postcode']} {a['city'].upper()}\n{a['country']}"
