"""Prints `docker ps -a` / `docker images` tables the way the docker CLI lays them out (no daemon here)."""
import random
import sys

rng = random.Random(4)


def table(header, rows):
    widths = [max(len(str(r[i])) for r in [header] + rows) for i in range(len(header))]
    for r in [header] + rows:
        print("   ".join(str(c).ljust(w) for c, w in zip(r, widths)).rstrip())


if sys.argv[1:] == ["ps", "-a"]:
    images = [("postgres:16", "docker-entrypoint.s\u2026", "5432/tcp"), ("redis:7-alpine", "docker-entrypoint.s\u2026", "6379/tcp"),
              ("notes-api:dev", "\"uvicorn api.main:a\u2026\"", "0.0.0.0:8080->8080/tcp"), ("nginx:1.27", "\"/docker-entrypoint.\u2026\"", "0.0.0.0:80->80/tcp"),
              ("grafana/grafana:11.3.0", "\"/run.sh\"", "0.0.0.0:3000->3000/tcp"), ("prom/prometheus:v2.55.1", "\"/bin/prometheus --c\u2026\"", "9090/tcp"),
              ("notes-worker:dev", "\"python -m worker\"", ""), ("minio/minio:latest", "\"/usr/bin/docker-ent\u2026\"", "9000-9001/tcp")]
    rows = []
    for i in range(26):
        image, cmd, ports = images[i % len(images)]
        if i < 8:
            status = f"Up {rng.randint(2, 50)} hours"
        elif i in (9, 14):
            status = f"Exited (137) {rng.randint(2, 9)} days ago"
        elif i == 11:
            status = "Restarting (1) 12 seconds ago"
        else:
            status = f"Exited (0) {rng.randint(2, 30)} days ago"
            ports = ""
        created = f"{rng.randint(2, 30)} days ago" if i >= 8 else "2 days ago"
        name = f"notes-{image.split(':')[0].split('/')[-1]}-{i // len(images) + 1}"
        rows.append((f"{rng.getrandbits(48):012x}", image, cmd, created, status, ports, name))
    table(("CONTAINER ID", "IMAGE", "COMMAND", "CREATED", "STATUS", "PORTS", "NAMES"), rows)
elif sys.argv[1:] == ["images"]:
    rows = []
    repos = ["notes-api", "notes-worker", "postgres", "redis", "nginx", "grafana/grafana", "prom/prometheus",
             "minio/minio", "python", "node", "rust", "<none>", "<none>", "<none>", "busybox", "alpine"]
    for i, repo in enumerate(repos * 2):
        tag = "<none>" if repo == "<none>" else rng.choice(["dev", "latest", "16", "7-alpine", "3.11-slim", "20-bookworm", f"1.{i}"])
        size = f"{rng.uniform(5, 1600):.1f}MB" if i % 5 else f"{rng.uniform(1.0, 2.4):.2f}GB"
        rows.append((repo, tag, f"{rng.getrandbits(48):012x}", f"{rng.randint(1, 11)} weeks ago", size))
    table(("REPOSITORY", "TAG", "IMAGE ID", "CREATED", "SIZE"), rows)
