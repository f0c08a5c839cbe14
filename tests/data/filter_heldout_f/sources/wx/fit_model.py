"""Fit a tiny temperature-forecast model (numpy SGD) with tqdm progress, as the notebook's training cell does."""
import math
import sys
import time

import numpy as np
from tqdm import tqdm

rng = np.random.default_rng(7)
X = rng.normal(size=(4096, 6))
true_w = np.array([0.8, -0.3, 0.1, 0.0, 0.5, -0.2])
y = X @ true_w + rng.normal(scale=0.3, size=4096)
w = np.zeros(6)
lr = 0.05
print(f"training on {len(X)} samples, 6 features, lr={lr}", flush=True)
for epoch in range(1, 5):
    losses = []
    bar = tqdm(range(0, 4096, 64), desc=f"epoch {epoch}/4", unit="batch", mininterval=0.05, file=sys.stderr, ncols=90)
    for start in bar:
        xb, yb = X[start:start + 64], y[start:start + 64]
        grad = 2 * xb.T @ (xb @ w - yb) / len(xb)
        w -= lr * grad
        losses.append(float(np.mean((xb @ w - yb) ** 2)))
        bar.set_postfix(loss=f"{losses[-1]:.4f}")
        time.sleep(0.006)
    val = float(np.mean((X[:512] @ w - y[:512]) ** 2))
    print(f"epoch {epoch}: train_loss={np.mean(losses):.4f} val_loss={val:.4f}", flush=True)
    if epoch == 3:
        lr *= 40
        print(f"lr schedule: lr -> {lr}", flush=True)
print("weights:", np.round(w, 3).tolist(), flush=True)
if not math.isfinite(val) or val > 1:
    print(f"WARNING: validation loss {val:.3g} diverged after the lr step; keeping epoch 3 checkpoint", file=sys.stderr)
