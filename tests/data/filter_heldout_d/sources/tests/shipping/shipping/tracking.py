import json
from pathlib import Path


class Carrier:
    def __init__(self, config_path):
        self.config = json.loads(Path(config_path).read_text())

    def url(self, code):
        return self.config["url"].format(code=code)
