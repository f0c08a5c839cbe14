"""Twelve seconds of the greenhouse on its broker: six sensors, the dashboard, the pump controller and the camera.

python house.py PORT CAMERA_PASSWORD
"""

import random
import sys
import threading
import time

import paho.mqtt.client as mqtt

PORT = int(sys.argv[1])
HOUSES = ["north", "south", "east", "west", "orchid", "cactus"]
V2 = mqtt.CallbackAPIVersion.VERSION2
received = []


def client(client_id, user, password, keepalive=60):
    c = mqtt.Client(V2, client_id=client_id)
    c.username_pw_set(user, password)
    c.connect("127.0.0.1", PORT, keepalive=keepalive)
    return c


def on_message(c, userdata, msg):
    received.append(msg.topic)


dashboard = client("dashboard", "dashboard", "dash-2024")
dashboard.on_message = on_message
dashboard.subscribe("greenhouse/#", qos=1)
dashboard.loop_start()


def on_alarm(c, userdata, msg):
    house = msg.topic.split("/")[1]
    # the controller reports its state on the status topic it used before the ACL was tightened
    c.publish("greenhouse/status/pump", f"{house}:on", qos=1)
    c.publish(f"greenhouse/{house}/pump/state", "on", qos=1)


pump = client("pump-controller", "pump", "pump-2024")
pump.on_message = on_alarm
pump.subscribe("greenhouse/+/alarm", qos=1)
pump.loop_start()


def sensor(house, seconds):
    rng = random.Random(house)
    c = client(f"sensor-{house}", "sensor", "sens-2024", keepalive=3 if house == "cactus" else 60)
    c.loop_start()
    c.publish(f"greenhouse/{house}/online", "1", qos=1)
    end = time.time() + seconds
    n = 0
    while time.time() < end:
        n += 1
        temp = round(18 + rng.random() * 14, 1)
        c.publish(f"greenhouse/{house}/temp", str(temp), qos=0)
        if n % 4 == 0:
            c.publish(f"greenhouse/{house}/humidity", str(rng.randint(35, 95)), qos=0)
        if temp > 31.5:
            c.publish(f"greenhouse/{house}/alarm", f"too hot: {temp}", qos=1)
        time.sleep(0.15)
    c.loop_stop()
    c.disconnect()


def cactus_sensor():
    """The cactus house's sensor reads its probe over a serial line; the read blocks when the probe is unplugged,
    and the client is driven by hand (no network thread), so nothing answers the broker while it blocks."""
    c = mqtt.Client(V2, client_id="sensor-cactus")
    c.username_pw_set("sensor", "sens-2024")
    c.will_set("greenhouse/cactus/online", "0", qos=1)
    c.connect("127.0.0.1", PORT, keepalive=3)
    for n in range(6):
        c.publish("greenhouse/cactus/temp", str(24.0 + n / 10), qos=0)
        c.loop(timeout=0.5)
    time.sleep(9)  # the probe read that never returns in time
    rc = c.loop(timeout=0.5)
    print(f"sensor-cactus: loop after the probe read returned {rc}")


def camera():
    """The camera still has the password from before the broker's passwords were rotated."""
    for attempt in range(3):
        c = mqtt.Client(V2, client_id="greenhouse-cam")
        c.username_pw_set("camera", sys.argv[2])
        c.connect("127.0.0.1", PORT, keepalive=30)
        c.loop(timeout=1.0)
        c.loop(timeout=1.0)
        print(f"camera attempt {attempt + 1}: connected={c.is_connected()}")
        time.sleep(2)


threads = [threading.Thread(target=sensor, args=(house, 14)) for house in HOUSES if house != "cactus"]
threads += [threading.Thread(target=cactus_sensor), threading.Thread(target=camera)]
for t in threads:
    t.start()
for t in threads:
    t.join()
time.sleep(1)
pump.loop_stop()
pump.disconnect()
dashboard.loop_stop()
dashboard.disconnect()
print(f"dashboard received {len(received)} messages; alarms seen: {sum(t.endswith('/alarm') for t in received)}; "
      f"pump states seen: {sum(t.endswith('/pump/state') for t in received)}")
