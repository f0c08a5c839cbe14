"""Loans by genre and branch, and the share returned late."""

import numpy as np
import pandas as pd

loans = pd.read_csv("data/loans.csv", parse_dates=["out", "due", "returned"])
loans["late"] = loans["returned"] > loans["due"]
by_genre = loans.pivot_table(index="genre", columns="branch", values="loan_id", aggfunc="count")
print(by_genre.iloc[:, :6])
weights = np.array([0.5, 0.3, 0.2])
scores = by_genre.values @ weights
print(scores)
