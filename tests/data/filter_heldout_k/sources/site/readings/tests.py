import logging

from django.test import TestCase

from readings.models import House, Plant, Reading

log = logging.getLogger("readings.tests")


class HouseViewTests(TestCase):
    @classmethod
    def setUpTestData(cls):
        cls.north = House.objects.create(name="north", target_temp=22)
        cls.seedling = House.objects.create(name="seedling", target_temp=24)
        for n, days in enumerate([2, 3, None, 7]):
            Plant.objects.create(house=cls.north, species=f"basil-{n}", water_every_days=days)
        for temp in (20.5, 21.0, 23.5):
            Reading.objects.create(house=cls.north, temp_c=temp, humidity=55)
        log.debug("fixtures: %d houses, %d plants", House.objects.count(), Plant.objects.count())

    def test_index_lists_houses(self):
        response = self.client.get("/")
        self.assertEqual([h["name"] for h in response.json()["houses"]], ["north", "seedling"])

    def test_house_shows_latest_temperature(self):
        response = self.client.get("/houses/north/")
        self.assertEqual(response.json()["temp_c"], 23.5)

    def test_unknown_house_is_404(self):
        self.assertEqual(self.client.get("/houses/palm/").status_code, 404)

    def test_average_of_north(self):
        self.assertAlmostEqual(self.client.get("/houses/north/average/").json()["average"], 21.667, places=2)

    def test_average_without_readings_is_none(self):
        response = self.client.get("/houses/seedling/average/")
        self.assertEqual(response.json()["average"], None)

    def test_plant_next_watering(self):
        plant = Plant.objects.get(species="basil-1")
        self.assertEqual(self.client.get(f"/plants/{plant.id}/").json()["next_watering_in_days"], 2)

    def test_plant_without_interval(self):
        plant = Plant.objects.get(species="basil-2")
        self.assertEqual(self.client.get(f"/plants/{plant.id}/").json()["next_watering_in_days"], None)

    def test_water_stores_reading(self):
        response = self.client.post("/houses/north/water/", {"temp_c": 19.0}, content_type="application/json")
        self.assertEqual(response.status_code, 201)
        self.assertEqual(Reading.objects.filter(house=self.north).count(), 4)

    def test_water_requires_post(self):
        self.assertEqual(self.client.get("/houses/north/water/").status_code, 404)

    def test_water_without_temperature(self):
        response = self.client.post("/houses/north/water/", {"humidity": 40}, content_type="application/json")
        self.assertEqual(response.status_code, 400)


class ModelTests(TestCase):
    def test_house_default_target(self):
        self.assertEqual(House.objects.create(name="fern").target_temp, 22.0)

    def test_house_names_unique(self):
        House.objects.create(name="east")
        House.objects.create(name="east")

    def test_plants_deleted_with_house(self):
        house = House.objects.create(name="west")
        Plant.objects.create(house=house, species="mint", water_every_days=1)
        house.delete()
        self.assertEqual(Plant.objects.count(), 0)

    def test_reading_timestamp(self):
        house = House.objects.create(name="cactus")
        reading = Reading.objects.create(house=house, temp_c=30.1, humidity=20)
        self.assertIsNotNone(reading.taken)
