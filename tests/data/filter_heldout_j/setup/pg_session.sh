#!/bin/bash
# PostgreSQL with every statement logged and autovacuum logging everything it does, while pgbench runs a short
# load, two psql sessions deadlock over two members' rows, and a third runs the month's report with a typo.
# $1: the data directory (made by initdb), $2: the port. The server's log is shown after what the clients printed.
data=$1 port=$2
log=$data/server.log
runuser -u postgres -- pg_ctl -D "$data" -l "$log" -w -o "-p $port -k /tmp -c listen_addresses= \
  -c log_statement=all -c log_autovacuum_min_duration=0 -c autovacuum_naptime=1 -c log_checkpoints=on \
  -c log_lock_waits=on -c deadlock_timeout=200ms -c log_line_prefix='%m [%p] %q%u@%d ' \
  -c autovacuum_vacuum_threshold=20 -c autovacuum_analyze_threshold=20" start > /dev/null
psql() { runuser -u postgres -- psql -h /tmp -p "$port" -X -q "$@"; }
psql -c "CREATE DATABASE shed"
runuser -u postgres -- pgbench -h /tmp -p "$port" -i -s 1 -q shed 2>&1 | tail -n 2
runuser -u postgres -- pgbench -h /tmp -p "$port" -c 2 -t 60 shed 2>&1 | grep -E "^(number of|tps|latency)"
psql -d shed -c "CREATE TABLE members (id int PRIMARY KEY, credit int)" \
  -c "INSERT INTO members SELECT g, 10 FROM generate_series(1, 200) g"
# The deadlock: each session moves credit between the same two members in the opposite order.
psql -d shed -c "BEGIN" -c "UPDATE members SET credit = credit - 1 WHERE id = 1" -c "SELECT pg_sleep(1)" \
  -c "UPDATE members SET credit = credit + 1 WHERE id = 2" -c "COMMIT" &
sleep 0.3
psql -d shed -c "BEGIN" -c "UPDATE members SET credit = credit - 1 WHERE id = 2" -c "SELECT pg_sleep(1)" \
  -c "UPDATE members SET credit = credit + 1 WHERE id = 1" -c "COMMIT" &
wait
psql -d shed -c "UPDATE members SET credit = credit + 5 WHERE id % 3 = 0" \
  -c "DELETE FROM members WHERE id > 150" \
  -c "SELECT count(*) AS members, sum(credit) AS credit FROM members" \
  -c "SELECT member, sum(credit) FROM members GROUP BY member"
sleep 3  # autovacuum's naptime: let it visit the changed tables
runuser -u postgres -- pg_ctl -D "$data" -m fast -w stop > /dev/null
echo "---- server log ----"
cat "$log"
