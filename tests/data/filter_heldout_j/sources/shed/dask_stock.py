"""The yearly stock-take on a local dask cluster: one shelf's file is corrupt, one worker dies mid-count."""

import logging
import os

from dask.distributed import Client, LocalCluster


log = logging.getLogger("shed.stocktake")
FORMAT = "%(asctime)s - %(name)s - %(levelname)s - %(message)s"  # dask's own, so the lines read as one log


def count_shelf(shelf: int) -> int:
    logging.basicConfig(level=logging.DEBUG, format=FORMAT)  # in the worker process; once
    log.debug("counting shelf %d on pid %d", shelf, os.getpid())
    if shelf == 77:
        raise ValueError(f"shelf {shelf}: count sheet has 3 columns, expected 4")
    marker = os.environ["SHED_DIED_MARKER"]
    if shelf == 150 and not os.path.exists(marker):
        open(marker, "w").close()
        os._exit(1)  # the worker process is killed mid-task (the OOM killer, in real life)
    items = sum(i * i for i in range(20_000)) % 1000 + shelf
    if items > 470:
        log.warning("shelf %d: %d items is over the shelf's capacity of 470", shelf, items)
    log.info("shelf %d counted: %d items", shelf, items)
    return items


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO, format=FORMAT)
    with LocalCluster(n_workers=2, threads_per_worker=2, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        futures = client.map(count_shelf, range(500))
        totals, failed = 0, []
        for shelf, future in enumerate(futures):
            try:
                totals += future.result()
            except Exception as error:  # noqa: BLE001 - the stock-take reports every failed shelf
                log.error("shelf %d failed: %r", shelf, error)
                failed.append(shelf)
        log.info("stock-take: %d shelves counted, %d items in all, failed: %s", 500 - len(failed), totals, failed)
