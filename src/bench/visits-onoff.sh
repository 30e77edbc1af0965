#!/usr/bin/env bash
# Redirect throughput with visit recording on and off, on one machine in one session.
# Needs: wrk, curl, a built jar (./mvnw -DskipTests package) and MariaDB; run from the project root:
#   DB_URL=r2dbc:mysql://root@127.0.0.1:3306 src/bench/visits-onoff.sh
# Each mode gets a fresh database, a 10 s warm-up and a measured run (DURATION, default 20s) of GET /{code}
# against one link, with CONNECTIONS (default 64) keep-alive connections. Prints requests/s, visits written,
# visits dropped, and the ratio on/off.
set -eu
db_url=${DB_URL:-r2dbc:mysql://root@127.0.0.1:3306}
duration=${DURATION:-20s}; connections=${CONNECTIONS:-64}
port=${PORT:-38080}; mport=${MGMT_PORT:-38081}
jar=target/shortgate.jar
metric() { curl -s "http://127.0.0.1:$mport/actuator/prometheus" | awk -v m="$1" '$1 ~ "^"m {s+=$2} END {printf "%d", s}'; }

run() {
  local mode=$1 name="sgbench_$1_$$"
  mysql -h127.0.0.1 -uroot -e "CREATE DATABASE $name"
  java -jar "$jar" --server.port=$port --management.server.port=$mport --spring.r2dbc.url="$db_url/$name" \
    --shortgate.visit.enabled="$2" --logging.level.root=WARN >"/tmp/sgbench-$mode.log" 2>&1 &
  local pid=$!
  for _ in $(seq 1 240); do curl -sf -o /dev/null "http://127.0.0.1:$mport/actuator/health" && break; sleep 0.5; done
  local code
  code=$(curl -s -H 'Content-Type: application/json' -d '{"url":"https://example.com/bench"}' \
    "http://127.0.0.1:$port/api/v1/links" | python3 -c 'import json,sys;print(json.load(sys.stdin)["code"])')
  # Visits on: wait until the first visit is written, so the user-agent parser (built once, in the background,
  # for seconds) is ready before anything is measured.
  if [ "$2" = true ]; then
    curl -s -o /dev/null "http://127.0.0.1:$port/$code"
    for _ in $(seq 1 240); do [ "$(metric shortgate_visits_written_total)" -gt 0 ] && break; sleep 0.5; done
  fi
  wrk -t2 -c"$connections" -d10s -H 'User-Agent: Mozilla/5.0 (X11; Linux x86_64) Firefox/126.0' \
    "http://127.0.0.1:$port/$code" >/dev/null
  local w0; w0=$(metric shortgate_visits_written_total)
  local out; out=$(wrk -t2 -c"$connections" -d"$duration" -H 'User-Agent: Mozilla/5.0 (X11; Linux x86_64) Firefox/126.0' \
    "http://127.0.0.1:$port/$code")
  sleep 2
  local w1 dropped rps
  w1=$(metric shortgate_visits_written_total); dropped=$(metric shortgate_visits_dropped_total)
  rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
  echo "$mode: requests/s=$rps written_during_run=$((w1 - w0)) dropped_total=$dropped"
  echo "$out" | grep -E "Latency|requests in" | sed "s/^/  $mode /"
  kill "$pid"; wait "$pid" || true
  mysql -h127.0.0.1 -uroot -e "DROP DATABASE $name" 2>/dev/null || true
  eval "rps_$mode=$rps"
}

run off false
run on true
python3 -c "print('ratio on/off = %.3f' % ($rps_on / $rps_off))"
