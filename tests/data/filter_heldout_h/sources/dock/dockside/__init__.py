"""Docks, bikes and rides of a city bike-share fleet."""
__version__ = "0.4.1"
