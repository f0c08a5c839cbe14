"""Overdue items per branch, with the member's home branch, for the Monday meeting."""

import pandas as pd

loans = pd.read_csv("data/loans.csv", parse_dates=["out", "due"])
members = pd.read_csv("data/members.csv")

open_loans = loans[loans["returned"].isna()]
overdue = open_loans[open_loans["due"] < "2026-11-26"]
print(f"{len(overdue)} overdue loans")
joined = overdue.merge(members, on="member_id", how="left", suffixes=("", "_home"))
table = joined.groupby(["branch", "branch_home"]).size().unstack(fill_value=0)
print(table)
