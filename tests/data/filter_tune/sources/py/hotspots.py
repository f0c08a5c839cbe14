import csv
import io
import json
import re
import statistics

WORD = re.compile(r"[a-z]+")


def rows(n):
    out = io.StringIO()
    writer = csv.writer(out)
    for i in range(n):
        writer.writerow([i, f"item {i} costs {i * 3 % 97} euros", i % 13])
    return out.getvalue()


def words(text):
    return [m.group(0) for m in WORD.finditer(text)]


def summarize(data):
    reader = csv.reader(io.StringIO(data))
    values = [int(r[2]) for r in reader]
    return {"mean": statistics.mean(values), "stdev": statistics.stdev(values)}


data = rows(20000)
print(len(words(data)), "words")
print(json.dumps(summarize(data)))
