#!/bin/bash
# The tablets' session cache for 12 s: each poll a new connection (a counter, the rota hash, a list of scans), a
# benchmark run alongside, one tablet with an old password, one that sends a command to the wrong key type.
port=$1
cli() { redis-cli -p "$port" "$@" > /dev/null 2>&1; }
for _ in $(seq 1 50); do redis-cli -p "$port" ping > /dev/null 2>&1 && break; sleep 0.2; done
redis-benchmark -p "$port" -c 6 -n 20000 -q -t set,get,lpush,incr > bench.txt 2>&1 &
for n in $(seq 1 110); do
  cli incr "poll:tablet-$(( n % 6 ))"
  cli hset rota:week48 "shift-$(( n % 14 ))" "volunteer-$(( n % 9 ))"
  [ $(( n % 10 )) = 0 ] && cli lpush scans "sku-$n"
  [ $(( n % 23 )) = 0 ] && cli -a old-tablet-pass ping
  [ $(( n % 37 )) = 0 ] && cli lpush rota:week48 oops
  sleep 0.1
done
wait
cat bench.txt
redis-cli -p "$port" shutdown nosave
