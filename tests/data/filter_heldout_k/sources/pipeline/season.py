"""The nightly report pipeline: each house's raw sensor dump is cleaned, each day gets a report, the week a summary.

python -m luigi --module season WeekSummary --week-start 2026-11-23 --local-scheduler --workers 2
"""

import csv
import datetime
import json
import logging
import statistics

import luigi

log = logging.getLogger("luigi-interface.season")
HOUSES = ["north", "south", "east", "west", "orchid", "seedling", "cactus", "fern"]


class RawDump(luigi.ExternalTask):
    house = luigi.Parameter()
    day = luigi.DateParameter()

    def output(self):
        return luigi.LocalTarget(f"raw/{self.house}-{self.day:%Y-%m-%d}.csv")


class CleanReadings(luigi.Task):
    house = luigi.Parameter()
    day = luigi.DateParameter()

    def output(self):
        return luigi.LocalTarget(f"clean/{self.house}-{self.day:%Y-%m-%d}.json")

    def run(self):
        rows = []
        with open(f"raw/{self.house}-{self.day:%Y-%m-%d}.csv") as raw:
            for row in csv.DictReader(raw):
                rows.append({"hour": int(row["hour"]), "temp_c": float(row["temp_c"]),
                             "humidity": int(row["humidity"])})
        with self.output().open("w") as out:
            json.dump(rows, out)


class DailyReport(luigi.Task):
    day = luigi.DateParameter()

    def requires(self):
        return [CleanReadings(house=house, day=self.day) for house in HOUSES]

    def output(self):
        return luigi.LocalTarget(f"reports/{self.day:%Y-%m-%d}.json")

    def run(self):
        report = {}
        for house, target in zip(HOUSES, self.input()):
            with target.open() as f:
                rows = json.load(f)
            report[house] = {"mean_temp": statistics.mean(r["temp_c"] for r in rows),
                             "max_temp": max(r["temp_c"] for r in rows)}
        with self.output().open("w") as out:
            json.dump(report, out)


class WeekSummary(luigi.Task):
    week_start = luigi.DateParameter()

    def requires(self):
        return [DailyReport(day=self.week_start + datetime.timedelta(days=n)) for n in range(4)]

    def output(self):
        return luigi.LocalTarget(f"reports/week-{self.week_start:%Y-%m-%d}.json")

    def run(self):
        with self.output().open("w") as out:
            json.dump([t.path for t in self.input()], out)
