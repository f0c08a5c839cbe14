import sys, random
rng = random.Random(5)
loss = 2.3
for epoch in range(1, 4):
    for step in range(0, 101, 4):
        loss *= 0.995
        bar = "#" * (step // 10)
        sys.stdout.write(f"\rEpoch {epoch}/3: {step:3d}%|{bar:<10}| {step * 4}/400 [00:{step // 10:02d}<00:10, 41.2it/s, loss={loss:.4f}]")
        sys.stdout.flush()
    sys.stdout.write("\n")
    print(f"epoch {epoch}: train_loss={loss:.4f} val_loss={loss * 1.1:.4f} val_acc={0.7 + epoch * 0.05:.3f}")
print("saved checkpoint to runs/exp3/model.pt")
