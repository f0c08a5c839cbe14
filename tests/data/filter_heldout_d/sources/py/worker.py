import sys, time
while True:
    time.sleep(60)
