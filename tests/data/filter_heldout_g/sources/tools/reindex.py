"""Rebuild the catalogue search index: normalise titles, compute trigrams, and score duplicates."""

import random
import time

from tqdm import tqdm

rng = random.Random(4)
records = [f"record-{i:05d}" for i in range(4800)]
index = {}
bad = 0
for rec in tqdm(records, desc="normalise", mininterval=0, miniters=60, ncols=90):
    if rec == "record-04411":
        tqdm.write("WARNING record-04411: MARC leader says 'a' but field 245 is empty; record skipped")
        bad += 1
        continue
    index[rec] = rec.upper()
    time.sleep(0.0002)
for rec in tqdm(list(index), desc="trigrams ", mininterval=0, miniters=60, ncols=90):
    index[rec] = {index[rec][i:i + 3] for i in range(len(index[rec]) - 2)}
    time.sleep(0.0001)
pairs = 0
for _ in tqdm(range(40), desc="dedupe   ", unit="block", mininterval=0, ncols=90):
    pairs += rng.randint(0, 3)
    time.sleep(0.01)
print(f"indexed {len(index)} records, {bad} skipped, {pairs} probable duplicate pairs")
