from django.db import models


class House(models.Model):
    name = models.SlugField(unique=True)
    target_temp = models.FloatField(default=22.0)


class Plant(models.Model):
    house = models.ForeignKey(House, on_delete=models.CASCADE, related_name="plants")
    species = models.CharField(max_length=40)
    water_every_days = models.IntegerField(null=True)


class Reading(models.Model):
    house = models.ForeignKey(House, on_delete=models.CASCADE, related_name="readings")
    temp_c = models.FloatField()
    humidity = models.IntegerField()
    taken = models.DateTimeField(auto_now_add=True)
