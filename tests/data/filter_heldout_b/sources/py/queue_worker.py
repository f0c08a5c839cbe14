import sys
import time

time.sleep(120)
