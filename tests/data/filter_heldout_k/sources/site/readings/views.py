import json
import logging

from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404

from readings.models import House, Plant, Reading

log = logging.getLogger("readings.views")


def index(request):
    houses = list(House.objects.order_by("name").values("name", "target_temp"))
    return JsonResponse({"houses": houses})


def house(request, name):
    house = get_object_or_404(House, name=name)
    latest = house.readings.order_by("-taken").first()
    plants = [{"id": p.id, "species": p.species} for p in house.plants.all()]
    log.debug("house %s: %d plants, latest reading %s", name, len(plants), latest and latest.id)
    return JsonResponse({"house": name, "plants": plants, "temp_c": latest and latest.temp_c})


def plant(request, pk):
    plant = get_object_or_404(Plant, pk=pk)
    # the next watering is due every N days; plants added by the import have none
    next_in = 7 // plant.water_every_days
    return JsonResponse({"id": pk, "species": plant.species, "next_watering_in_days": next_in})


def average(request, name):
    house = get_object_or_404(House, name=name)
    temps = [r.temp_c for r in house.readings.all()]
    return JsonResponse({"house": name, "average": sum(temps) / len(temps)})


def water(request, name):
    if request.method != "POST":
        raise Http404("water is POST only")
    house = get_object_or_404(House, name=name)
    body = json.loads(request.body or b"{}")
    reading = Reading.objects.create(house=house, temp_c=body["temp_c"], humidity=body.get("humidity", 50))
    log.info("reading %s stored for %s", reading.id, name)
    return JsonResponse({"stored": reading.id}, status=201)
