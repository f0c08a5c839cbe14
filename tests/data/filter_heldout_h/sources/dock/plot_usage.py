"""Hourly dock usage chart for the operations meeting."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

hours = np.arange(24)
rng = np.random.default_rng(2)
usage = {f"S{i:02d}": rng.poisson(6 + 5 * np.sin(hours / 24 * 2 * np.pi), 24) for i in range(1, 5)}

fig, axes = plt.subplots(2, 2, figsize=(8, 5), sharex=True)
for ax, (sid, counts) in zip(axes.flat, usage.items()):
    ax.bar(hours, counts, label=sid)
    ax.set_title(f"{sid} \u2014 rides started per hour \U0001F6B2")
    ax.set_yscale("log")
    ax.plot(hours, counts - counts.max(), color="k")
axes[0, 0].legend(loc="upper center")
fig.tight_layout()
plt.show()
fig.savefig("usage.png")
print("wrote usage.png")
