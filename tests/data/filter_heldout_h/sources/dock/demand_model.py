"""Will a dock run empty in the next hour? A first model on last month's snapshots."""

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_score

rng = np.random.default_rng(5)
n = 4000
hour = rng.integers(0, 24, n)
bikes = rng.integers(0, 25, n)
temp = rng.normal(14, 6, n)
rain = rng.random(n) < 0.2
X = np.column_stack([hour * 100.0, bikes, temp * 1000.0, rain])
y = (bikes < 4) & ((hour > 6) & (hour < 10)) | (rng.random(n) < 0.05)

model = LogisticRegression(max_iter=25)
scores = cross_val_score(model, X, y, cv=5)
print("cv accuracy:", scores.round(3))
model.fit(X, y)
print("coefficients:", model.coef_.round(4))
