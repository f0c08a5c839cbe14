#!/bin/bash
# The camera's photo archive the backup copies, owned by root as the camera's uploader writes it: bash photo_tree.sh DIR
# Some photos were written with the uploader's umask 077 (unreadable to the backup user), and one day's folder too.
set -e
dir=$1
mkdir -p "$dir"
cd "$dir"
for house in north south orchid cactus fern; do
  for day in 21 22 23 24 25 26 27; do
    mkdir -p "$house/2026-11-$day"
    for n in 01 02 03 04 05 06 07 08; do
      head -c $((2000 + 10#$n * 97)) /dev/zero | tr '\0' 'x' > "$house/2026-11-$day/img_$n.jpg"
    done
    touch -d "2026-11-$day 18:00" "$house/2026-11-$day"/*.jpg
  done
done
chmod 600 orchid/2026-11-24/img_03.jpg orchid/2026-11-24/img_04.jpg cactus/2026-11-26/img_07.jpg
chmod 700 fern/2026-11-25
ln -s ../../north/2026-11-21/img_01.jpg cactus/2026-11-21/cover.jpg
ln -s /mnt/camera/latest.jpg fern/latest.jpg
