import warnings


def parse_date(text):
    warnings.warn("parse_date() is deprecated, use datetime.fromisoformat()", DeprecationWarning, stacklevel=2)
    return text


rows = []
for i in range(240):
    rows.append(parse_date(f"2026-11-{i % 28 + 1:02d}"))
    if i % 60 == 0:
        print(f"loaded {i + 1} rows")
print(f"loaded {len(rows)} rows into staging.orders")
