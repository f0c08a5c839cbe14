import numpy as np
import pandas as pd

rng = np.random.default_rng(7)
n = 240
df = pd.DataFrame({
    "date": pd.date_range("2026-07-01", periods=n, freq="D"),
    "store": rng.choice(["berlin", "hamburg", "munich", "cologne"], n),
    "visitors": rng.integers(80, 1400, n),
    "orders": rng.integers(5, 160, n),
    "revenue_eur": rng.normal(4200, 900, n).round(2),
})
df["conversion"] = (df["orders"] / df["visitors"]).round(4)
print(df)
print()
print(df.groupby("store")[["visitors", "orders", "revenue_eur"]].sum())
