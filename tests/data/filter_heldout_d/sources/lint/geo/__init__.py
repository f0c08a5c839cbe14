from geo.distance import haversine
from geo.route import Route
import os, sys
