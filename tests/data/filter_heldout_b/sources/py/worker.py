import json


def load_config(path):
    with open(path) as fh:
        return json.load(fh)


def main():
    try:
        cfg = load_config("config/settings.json")
    except FileNotFoundError as exc:
        raise RuntimeError("cannot start worker: configuration missing") from exc
    print(cfg)


if __name__ == "__main__":
    print("worker starting (pid file: /tmp/worker.pid)")
    main()
