"""Load test of the greenhouse API before the open day: the dashboards, the phones and the watering buttons."""

import random

from locust import HttpUser, between, task

HOUSES = ["north", "south", "east", "west", "orchid", "seedling", "cactus", "fern", "palm"]


class Dashboard(HttpUser):
    wait_time = between(0.2, 0.6)

    @task(10)
    def readings(self):
        house = random.choice(HOUSES)
        self.client.get(f"/api/readings/{house}", name=f"/api/readings/{house}")

    @task(3)
    def hottest(self):
        houses = random.sample(HOUSES[:8], 3)
        temps = {}
        for house in houses:
            with self.client.get(f"/api/readings/{house}", name="/api/readings/[hottest]", catch_response=True) as r:
                temps[house] = r.json()["temp"]  # the API calls it temp_c since v2

    @task(2)
    def water(self):
        with self.client.post("/api/water", json={"house": random.choice(HOUSES), "litres": random.choice([2, 5, 30])},
                              catch_response=True) as r:
            if r.status_code == 422:
                r.failure(f"watering refused: {r.json()['error']}")

    @task(1)
    def report(self):
        self.client.get("/api/report")

    @task(1)
    def slow_report(self):
        self.client.get("/api/slow-report", timeout=2)

    @task(1)
    def plant_page(self):
        house = random.choice(HOUSES[:8])
        self.client.get(f"/houses/{house}/{house}-{random.randint(1, 20):02d}", name="/houses/[house]/[plant]")
