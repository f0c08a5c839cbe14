import time

from tqdm import tqdm

print("training tiny-mlp on 6400 samples, 3 epochs", flush=True)
for epoch in range(1, 4):
    bar = tqdm(range(120), desc=f"epoch {epoch}", mininterval=0, miniters=1, ascii=False, ncols=90)
    loss = 1.0 / epoch
    for step in bar:
        loss *= 0.997
        bar.set_postfix(loss=f"{loss:.4f}")
        time.sleep(0.001)
    bar.close()
    tqdm.write(f"epoch {epoch}: loss={loss:.4f} val_acc={0.80 + epoch * 0.04:.3f}")
print("best model saved to runs/tiny-mlp/best.pt", flush=True)
