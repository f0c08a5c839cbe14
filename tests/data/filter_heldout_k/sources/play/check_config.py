"""Checks the controller's configuration before it is started: every house's sensor.ini and the pump schedule."""

import configparser
import pathlib
import sys

base = pathlib.Path(sys.argv[1])
schedule = dict(line.split(": ", 1) for line in (base / "pump-schedule.yml").read_text().splitlines())
for ini in sorted((base / "houses").glob("*/sensor.ini")):
    config = configparser.ConfigParser()
    config.read(ini)
    house = config["sensor"]["house"]
    print(f"{house}: interval {config['sensor']['interval_s']}s, pump at {schedule[house]}")
    if float(config["sensor"]["target_temp"]) > 25:
        raise SystemExit(f"{ini}: target_temp {config['sensor']['target_temp']} is above the heater's limit (25)")
print("configuration ok")
