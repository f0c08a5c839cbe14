"""Prints what `docker compose ps` prints for the pipeline's stack (docker is not on this machine)."""
rows = [
    ("wx-db-1", "postgres:16-alpine", "\"docker-entrypoint.s...\"", "db", "3 days ago", "Up 3 days (healthy)", "0.0.0.0:5432->5432/tcp"),
    ("wx-ingest-1", "ghcr.io/example/wxpipe:0.4.0", "\"python -m wxpipe sc...\"", "ingest", "3 days ago", "Restarting (1) 12 seconds ago", ""),
    ("wx-grafana-1", "grafana/grafana:11.3.0", "\"/run.sh\"", "grafana", "3 days ago", "Up 3 days", "0.0.0.0:3000->3000/tcp"),
    ("wx-mqtt-1", "eclipse-mosquitto:2", "\"/docker-entrypoint...\"", "mqtt", "3 days ago", "Up 3 days", "0.0.0.0:1883->1883/tcp"),
]
head = ("NAME", "IMAGE", "COMMAND", "SERVICE", "CREATED", "STATUS", "PORTS")
widths = [max(len(r[i]) for r in rows + [head]) for i in range(7)]
for r in [head] + rows:
    print("   ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
