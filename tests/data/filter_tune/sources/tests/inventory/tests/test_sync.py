import time

from inventory.sync import sync


def test_sync_all():
    assert sync([f"sku-{i:04d}" for i in range(150)]) == 150


def test_sync_slow():
    time.sleep(0.05)
    assert sync(["sku-slow"]) == 1
