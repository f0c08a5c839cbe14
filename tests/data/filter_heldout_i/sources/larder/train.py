"""Weekly demand forecast: a small numpy MLP trained on two years of synthetic weekly demand per item, with the
learning rate the last volunteer left in the config (too high for the last phase)."""

import logging
import sys
import time
from pathlib import Path

import numpy as np

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s", stream=sys.stdout)
log = logging.getLogger("forecast.train")
data_log = logging.getLogger("forecast.data")
rng = np.random.default_rng(46)

weeks, items = 104, 60
x = rng.normal(size=(weeks * items, 8))
x[:, 7] *= 1000  # the household count, unscaled
true_w = rng.normal(size=8)
y = x @ true_w * 0.001 + rng.normal(scale=0.1, size=weeks * items)
data_log.info("loaded %d rows x %d features (%d items, %d weeks)", *x.shape, items, weeks)
missing = int(np.isnan(x).sum())
data_log.warning("feature 'households' is not scaled (std=%.1f)", x[:, 7].std())
split = int(len(x) * 0.8)
xt, yt, xv, yv = x[:split], y[:split], x[split:], y[split:]

w1 = rng.normal(scale=0.1, size=(8, 16))
w2 = rng.normal(scale=0.1, size=(16, 1))
lr = 1e-4
ckpt = Path("checkpoints")
ckpt.mkdir(exist_ok=True)
best = float("inf")
step = 0
clipped = 0
for epoch in range(1, 9):
    if epoch == 5:
        lr = 0.8
        log.warning("lr schedule: epoch %d raises lr to %.3g (config 'phase2_lr')", epoch, lr)
    for batch in range(0, split, 128):
        step += 1
        xb, yb = xt[batch:batch + 128], yt[batch:batch + 128, None]
        h = np.tanh(xb @ w1)
        pred = h @ w2
        err = pred - yb
        loss = float((err ** 2).mean())
        g2 = h.T @ err / len(xb)
        g1 = xb.T @ ((err @ w2.T) * (1 - h ** 2)) / len(xb)
        gnorm = float(np.sqrt((g1 ** 2).sum() + (g2 ** 2).sum()))
        if gnorm > 50:
            clipped += 1
            if clipped % 5 == 1:
                log.warning("step %d: grad norm %.1f > 50, clipping (%d clipped so far)", step, gnorm, clipped)
            g1 = g1 * 50 / gnorm  # (g2 is not clipped)
        w1 -= lr * g1
        w2 -= lr * g2
        if True:
            print(f"epoch {epoch} step {step:4d} | loss {loss:.4f} | grad {gnorm:8.3f} | lr {lr:.1e} | {time.perf_counter() % 1 * 9 + 30:.1f} ms/step")
        if not np.isfinite(loss):
            log.error("step %d: loss is %s", step, loss)
    val = float(((np.tanh(xv @ w1) @ w2 - yv[:, None]) ** 2).mean())
    log.info("epoch %d done: val_loss=%.4f", epoch, val)
    if val < best:
        best = val
        np.savez(ckpt / f"epoch{epoch}.npz", w1=w1, w2=w2)
        log.info("checkpoint saved: checkpoints/epoch%d.npz (val_loss=%.4f)", epoch, val)
    else:
        log.info("val_loss did not improve from %.4f", best)
log.info("training finished: %d steps, best val_loss=%.4f", step, best)
