import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True
    dependencies = []
    operations = [
        migrations.CreateModel(
            name="House",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("name", models.SlugField(unique=True)),
                ("target_temp", models.FloatField(default=22.0)),
            ],
        ),
        migrations.CreateModel(
            name="Plant",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("species", models.CharField(max_length=40)),
                ("water_every_days", models.IntegerField(null=True)),
                ("house", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="plants",
                                            to="readings.house")),
            ],
        ),
        migrations.CreateModel(
            name="Reading",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("temp_c", models.FloatField()),
                ("humidity", models.IntegerField()),
                ("taken", models.DateTimeField(auto_now_add=True)),
                ("house", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="readings",
                                            to="readings.house")),
            ],
        ),
    ]
