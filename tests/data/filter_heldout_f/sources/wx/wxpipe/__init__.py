"""Weather-station pipeline: ingest logger exports, clean them, report, and poll stations on a schedule."""
__version__ = "0.4.0"
