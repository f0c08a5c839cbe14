#!/bin/bash
# Nightly: rebalance plan, export, and clean old exports.
cd $DOCKSIDE_HOME
source venv/bin/activate

DAY=`date +%F`
OUT=exports/rides-$DAY.csv
python -m dockside.export > $OUT
if [ $? != 0 ]; then
  echo "export failed" >&2
fi

for f in $(ls exports/*.csv); do
  age=$(( ($(date +%s) - $(stat -c %Y $f)) / 86400 ))
  if [ $age -gt 30 ]; then rm $f; fi
done

python -m dockside.fleet data/stations.json | while read line; do
  moves=$((moves + 1))
done
echo "planned $moves van trips"
