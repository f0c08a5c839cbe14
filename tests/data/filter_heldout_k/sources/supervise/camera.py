"""Uploads a photo of each house every half second, until the camera's buffer runs out."""

import time

frames = 0
buffer = bytearray(4096)
while True:
    frames += 1
    print(f"camera: uploaded frame {frames}")
    del buffer[:1024]
    if not buffer:
        raise BufferError(f"camera buffer exhausted after {frames} frames")
    time.sleep(0.5)
