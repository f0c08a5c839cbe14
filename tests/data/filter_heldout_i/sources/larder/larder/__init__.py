"""larder: a community food bank's stock service."""
