import sys
import time

def bar(desc, n, total, elapsed, postfix):
    frac = n / total
    width = 10
    full = int(frac * width)
    rest = int((frac * width - full) * 8)
    partial = " \u258f\u258e\u258d\u258c\u258b\u258a\u2589"[rest] if full < width else ""
    blocks = ("\u2588" * full + partial).ljust(width)
    rate = n / elapsed if elapsed else 0.0
    remaining = (total - n) / rate if rate else 0.0
    fmt = lambda s: f"{int(s) // 60:02d}:{int(s) % 60:02d}"
    return (f"{desc}: {frac * 100:3.0f}%|{blocks}| {n}/{total} [{fmt(elapsed)}<{fmt(remaining)}, "
            f"{rate:5.2f}it/s, {postfix}]")

print("Loading dataset: 12000 train / 2000 val images", flush=True)
print("Model: resnet18 (11.2M params), optimizer=AdamW lr=0.001", flush=True)
best = 0.0
for epoch in range(1, 4):
    total = 94
    loss = 1.2 / epoch
    for n in range(total + 1):
        loss = loss * 0.995
        sys.stderr.write("\r" + bar(f"Epoch {epoch}/3", n, total, n * 0.104 + 0.001, f"loss={loss:.3f}"))
        sys.stderr.flush()
    sys.stderr.write("\n")
    sys.stderr.flush()
    acc = 0.71 + 0.07 * epoch
    best = max(best, acc)
    print(f"epoch {epoch}: train_loss={loss:.4f} val_loss={loss * 1.1:.4f} val_acc={acc:.4f}", flush=True)
print("saved checkpoint to checkpoints/resnet18-best.pt", flush=True)
print(f"Training finished: best val_acc={best:.4f} (epoch 3)", flush=True)
