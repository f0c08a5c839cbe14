import argparse
import random

parser = argparse.ArgumentParser()
parser.add_argument("--max-pages", type=int, default=100)
args = parser.parse_args()
rng = random.Random(9)
ok = missing = broken = 0
print(f"crawling https://docs.example.org/ (max {args.max_pages} pages, 8 connections)")
for n in range(1, args.max_pages + 1):
    section = rng.choice(["guide", "api", "reference", "blog", "changelog"])
    url = f"https://docs.example.org/{section}/page-{rng.randint(1, 4000)}.html"
    status = 404 if n in (211, 577, 902) else 500 if n == 740 else 200
    size = rng.randint(4, 180)
    print(f"[{n:4d}/{args.max_pages}] GET {url} -> {status} ({size} KB, {rng.randint(20, 900)} ms)")
    if status == 200:
        ok += 1
    elif status == 404:
        missing += 1
        print(f"  broken link: {url} (linked from https://docs.example.org/guide/page-{rng.randint(1, 400)}.html)")
    else:
        broken += 1
        print(f"  server error on {url}: 500 Internal Server Error")
print(f"crawl finished: {ok} ok, {missing} not found, {broken} server errors")
