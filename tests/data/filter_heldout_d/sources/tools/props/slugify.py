import re
import unicodedata


def slugify(text, max_len=40):
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    text = re.sub(r"[^a-zA-Z0-9]+", "-", text).strip("-").lower()
    return text[:max_len]


def chunk(items, size):
    return [items[i:i + size] for i in range(0, len(items) - size + 1, size)]
