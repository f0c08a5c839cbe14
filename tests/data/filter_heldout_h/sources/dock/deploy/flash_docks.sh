#!/bin/sh
# Push a firmware image to every dock listed in docks.txt.
IMAGE=$1
[ -z $IMAGE ] && { echo "usage: $0 image"; exit 1; }
for ip in `cat docks.txt`; do
  echo "flashing $ip"
  tftp $ip -c put $IMAGE || echo failed: $ip
done
read -p "reboot all docks? " answer
if [ $answer == "y" ]; then
  echo rebooting
fi
