python - "$1" <<'EOF'
import sys
import urllib.request
from urllib.error import HTTPError

port = sys.argv[1]
for i in range(1400):
    path = "/api/boom" if i == 702 else "/favicon.ico" if i % 250 == 3 else f"/api/items/{i % 97}"
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{port}{path}").read()
    except (HTTPError, OSError):
        pass
EOF
