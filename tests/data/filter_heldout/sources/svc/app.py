import random, sys, time
rng = random.Random(11)
t0 = 1764000000
for i in range(1400):
    ts = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(t0 + i)) + f",{rng.randrange(1000):03d}"
    kind = rng.random()
    if kind < 0.55:
        print(f"{ts} INFO  [worker-{rng.randrange(8)}] processed batch {i} rows={rng.randrange(900, 1100)} in {rng.randrange(5, 90)}ms")
    elif kind < 0.85:
        print(f"{ts} DEBUG [pool] connection {rng.randrange(16)} returned to pool (idle={rng.randrange(16)})")
    else:
        print(f"{ts} INFO  [http] GET /api/v2/orders/{rng.randrange(10**6)} 200 {rng.randrange(2, 40)}ms")
    if i == 700:
        print(f"{ts} ERROR [worker-3] batch {i} failed")
        print("Traceback (most recent call last):")
        print('  File "/srv/app/pipeline.py", line 88, in run_batch')
        print("    rows = transform(chunk)")
        print('  File "/srv/app/transform.py", line 41, in transform')
        print("    return [normalize(r) for r in rows]")
        print('  File "/srv/app/transform.py", line 29, in normalize')
        print("    amount = Decimal(row['amount'])")
        print("decimal.InvalidOperation: [<class 'decimal.ConversionSyntax'>]")
print("shutting down: 1399 batches, 1 failed")
sys.exit(1)
