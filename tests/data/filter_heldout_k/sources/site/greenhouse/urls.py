from django.urls import path

from readings import views

urlpatterns = [
    path("", views.index),
    path("houses/<slug:name>/", views.house),
    path("houses/<slug:name>/water/", views.water),
    path("houses/<slug:name>/average/", views.average),
    path("plants/<int:pk>/", views.plant),
]
