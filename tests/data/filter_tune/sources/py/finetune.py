import math
import random

rng = random.Random(2)
print("***** Running training *****")
print("  Num examples = 24000")
print("  Num Epochs = 3")
print("  Instantaneous batch size per device = 16")
print("  Total optimization steps = 4500")
lr = 5e-05
for step in range(10, 4501, 10):
    loss = 2.3 * math.exp(-step / 1800) + rng.random() * 0.05
    print({"loss": round(loss, 4), "grad_norm": round(rng.uniform(0.5, 3.0), 4), "learning_rate": lr * (1 - step / 4500), "epoch": round(step / 1500, 2)})
    if step % 1500 == 0:
        print({"eval_loss": round(loss * 1.08, 4), "eval_accuracy": round(0.7 + step / 30000, 4), "eval_runtime": 41.2, "epoch": step // 1500})
print({"train_runtime": 2841.9, "train_samples_per_second": 25.33, "train_loss": 0.5711, "epoch": 3.0})
print("Saving model checkpoint to out/checkpoint-4500")
