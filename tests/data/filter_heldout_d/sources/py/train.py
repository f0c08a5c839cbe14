"""A small training loop with real tqdm bars (epochs outer, batches inner) and per-epoch metrics."""
import math
import random
import time
import warnings

from tqdm import tqdm

rng = random.Random(4)
epochs, batches = 6, 120
best, patience = math.inf, 0
print("model: TinyCNN(params=1.2M)  device: cpu  train=15,360 val=3,840  batch_size=128")
warnings.warn("DataLoader num_workers=0: loading runs in the main process and may be slow", UserWarning)
for epoch in tqdm(range(1, epochs + 1), desc="epochs", position=0):
    loss = 2.3 / epoch + rng.uniform(0, 0.05)
    bar = tqdm(range(batches), desc=f"epoch {epoch}", position=1, leave=False, mininterval=0.05)
    for step in bar:
        time.sleep(0.004)
        if step % 20 == 0:
            bar.set_postfix(loss=f"{loss + rng.uniform(-0.1, 0.1):.4f}", lr=f"{3e-4 * 0.9 ** epoch:.2e}")
    val = 2.1 / epoch + (0.35 if epoch >= 5 else 0) + rng.uniform(0, 0.03)
    acc = min(0.97, 0.42 + 0.11 * epoch - (0.06 if epoch >= 5 else 0))
    tqdm.write(f"epoch {epoch}: train_loss={loss:.4f} val_loss={val:.4f} val_acc={acc:.3f}")
    if val < best:
        best, patience = val, 0
        tqdm.write(f"  saved checkpoint checkpoints/epoch{epoch:02d}.pt (val_loss improved)")
    else:
        patience += 1
        if patience >= 2:
            tqdm.write(f"early stopping at epoch {epoch}: val_loss did not improve for 2 epochs (best {best:.4f})")
            break
print(f"done. best val_loss={best:.4f}")
