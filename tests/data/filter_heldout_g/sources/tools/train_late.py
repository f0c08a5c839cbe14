"""Train the 'will this loan come back late' model: logistic regression by hand, tqdm per epoch."""

import math
import random

from tqdm import tqdm, trange

rng = random.Random(9)
rows = [(rng.random(), rng.random(), rng.random()) for _ in range(3000)]
labels = [1 if a * 1.5 + b - c > 0.8 else 0 for a, b, c in rows]
w = [0.0, 0.0, 0.0]
bias = 0.0
lr = 0.5
best = math.inf
patience = 0
for epoch in trange(1, 31, desc="epochs", ncols=90, mininterval=0):
    loss = 0.0
    for (a, b, c), y in zip(rows, labels):
        z = w[0] * a + w[1] * b + w[2] * c + bias
        p = 1 / (1 + math.exp(-z))
        loss -= y * math.log(p + 1e-12) + (1 - y) * math.log(1 - p + 1e-12)
        g = p - y
        w = [w[0] - lr * g * a / 50, w[1] - lr * g * b / 50, w[2] - lr * g * c / 50]
        bias -= lr * g / 50
    loss /= len(rows)
    tqdm.write(f"epoch {epoch:2d} loss {loss:.4f} w={[round(x, 3) for x in w]}")
    if loss < best - 1e-3:
        best, patience = loss, 0
    else:
        patience += 1
        if patience == 3:
            tqdm.write(f"early stop at epoch {epoch}: loss has not improved for 3 epochs (best {best:.4f})")
            break
acc = sum((w[0] * a + w[1] * b + w[2] * c + bias > 0) == bool(y) for (a, b, c), y in zip(rows, labels)) / len(rows)
print(f"train accuracy {acc:.3f}")
