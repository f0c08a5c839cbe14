import os
import tomllib
from pathlib import Path

for candidate in (Path.cwd() / "settings.toml", Path.home() / ".config" / "shipper" / "settings.toml",
                  Path("/etc/shipper/settings.toml")):
    if candidate.exists():
        break
with open(os.environ.get("SHIPPER_SETTINGS", "/etc/shipper/settings.toml"), "rb") as fh:
    print(tomllib.load(fh))
