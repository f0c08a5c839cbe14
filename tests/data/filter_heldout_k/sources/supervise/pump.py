"""Drives the pumps' relays; reads which relay is which house from the board's configuration."""

import json

with open("/etc/greenhouse/relays.json") as f:
    relays = json.load(f)
print("relays:", relays)
