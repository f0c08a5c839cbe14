"""The greenhouse controller's scheduler: sensor polls, the cloud sync, the watering check, the log rotation."""

import logging
import random
import sys
import time

from apscheduler.schedulers.background import BackgroundScheduler

logging.basicConfig(level=logging.DEBUG, stream=sys.stdout,
                    format="%(asctime)s %(levelname)s %(name)s %(threadName)s: %(message)s")
log = logging.getLogger("controller")
rng = random.Random(46)
LEVELS = {"north": 40, "south": 35, "east": 55, "west": 20, "orchid": 60}
polls = 0


def poll_sensors():
    global polls
    polls += 1
    house = rng.choice(list(LEVELS))
    LEVELS[house] = max(0, LEVELS[house] - rng.randint(0, 4))
    log.debug("poll %d: %s soil moisture %d%%", polls, house, LEVELS[house])


def sync_to_cloud():
    # the uplink is a 3G stick: an upload takes longer than the interval between syncs
    time.sleep(2.2)
    log.info("synced %d polls", polls)


def water_check():
    for house in ["north", "south", "east", "west", "orchid", "cactus"]:
        if LEVELS[house] < 25:
            log.warning("%s is dry (%d%%): opening valve", house, LEVELS[house])


def rotate_log():
    log.info("rotating controller log")


scheduler = BackgroundScheduler(job_defaults={"max_instances": 1, "misfire_grace_time": 1})
scheduler.add_job(poll_sensors, "interval", seconds=0.3, id="poll_sensors")
scheduler.add_job(sync_to_cloud, "interval", seconds=1, id="sync_to_cloud")
scheduler.add_job(water_check, "interval", seconds=1.5, id="water_check")
scheduler.add_job(rotate_log, "interval", seconds=5, id="rotate_log")
scheduler.start()
time.sleep(14)
scheduler.shutdown()
print(f"controller stopped after {polls} polls")
