import json
import unittest
from pathlib import Path

STATIONS = json.loads((Path(__file__).parent.parent / "data" / "stations.json").read_text())


class StationsTest(unittest.TestCase):
    def test_ids_unique(self):
        ids = [s["id"] for s in STATIONS]
        self.assertEqual(len(ids), len(set(ids)))

    def test_five_stations(self):
        self.assertEqual(len(STATIONS), 5)

    def test_coordinates_in_region(self):
        for s in STATIONS:
            self.assertTrue(52 < s["lat"] < 55, s["id"])

    def test_all_active(self):
        inactive = [s["id"] for s in STATIONS if not s["active"]]
        self.assertEqual(inactive, [])

    def test_sensor_models(self):
        models = {sensor["model"] for s in STATIONS for sensor in s["sensors"]}
        self.assertEqual(models, {"TH-220", "WS-9", "BP-3"})

    def test_calibration_dates(self):
        for s in STATIONS:
            for sensor in s["sensors"]:
                self.assertLessEqual(sensor["calibrated"], "2026-12-31")

    def test_elevation_non_negative(self):
        self.assertTrue(all(s["elevation_m"] >= 0 for s in STATIONS))

    def test_names(self):
        self.assertIn("Kestrel Point", [s["name"] for s in STATIONS])


if __name__ == "__main__":
    unittest.main()
