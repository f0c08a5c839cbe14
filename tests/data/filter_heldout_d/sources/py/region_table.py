import numpy as np
import pandas as pd

rng = np.random.default_rng(42)
n = 300
df = pd.DataFrame({
    "store_id": np.arange(1001, 1001 + n),
    "region": rng.choice(["north", "south", "east", "west", "central"], n),
    "opened": pd.date_range("2015-01-01", periods=n, freq="11D").date,
    "revenue_eur": rng.normal(182_000, 41_000, n).round(2),
    "margin": rng.uniform(0.04, 0.31, n).round(3),
    "staff": rng.integers(4, 40, n),
})
df.loc[[57, 211], "revenue_eur"] = np.nan
print(df.to_string())
print()
print(df.describe().round(2).to_string())
