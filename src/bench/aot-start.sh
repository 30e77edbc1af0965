#!/usr/bin/env bash
# aot-start.sh: start to ready and to full speed, JDK 17 (jar) against JDK 25 with an AOT cache (extracted jar),
# alternating; docs/performance.md ("Scale without a stumble"). Needs pacer (gcc -O2 -o /tmp/scale/pacer pacer.c).
# Uses ports 18080/18081, a fresh MariaDB database per start, no Redis. Work files in /tmp/scale/aot.
set -u
JAR=${JAR:-/tmp/scale-after2.jar}; J17=/usr/lib/jvm/java-17-openjdk-amd64/bin/java; J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
BENCH=$(cd "$(dirname "$0")" && pwd); W=/tmp/scale/aot; mkdir -p $W; cd $W
export SHORTGATE_ADMIN_KEY=aot-key-0123456789abcdef
ARGS="--server.address=127.0.0.1 --server.port=18080 --management.server.address=127.0.0.1 --management.server.port=18081 --logging.level.root=WARN"
if [ ! -f $W/x/shortgate.aot ]; then
  rm -rf x; $J25 -Djarmode=tools -jar $JAR extract --destination x >/dev/null
  # training run: start, some traffic, stop
  mariadb -uroot -e "DROP DATABASE IF EXISTS aot_train; CREATE DATABASE aot_train"
  $J25 -XX:AOTCacheOutput=$W/x/shortgate.aot -jar x/$(basename $JAR) $ARGS --spring.r2dbc.url=r2dbc:mysql://root@127.0.0.1:3306/aot_train > train.log 2>&1 &
  P=$!
  for i in $(seq 1 1200); do curl -sf -o /dev/null http://127.0.0.1:18081/actuator/health/readiness && break; sleep 0.1; done
  for i in $(seq 1 50); do curl -s -o /dev/null -X POST http://127.0.0.1:18080/api/v1/links -H "X-Api-Key: $SHORTGATE_ADMIN_KEY" -H 'Content-Type: application/json' -d "{\"url\":\"https://example.com/t$i\"}"; done
  wrk -t1 -c8 -d5s http://127.0.0.1:18080/nope >/dev/null
  kill $P; wait $P
  ls -la $W/x/shortgate.aot
fi
one() { # label java [flags]
  local label=$1 java=$2; shift 2
  local db=aot_${label}_$RANDOM
  mariadb -uroot -e "DROP DATABASE IF EXISTS $db; CREATE DATABASE $db"
  local t0=$(date +%s.%N)
  $java "$@" $ARGS --spring.r2dbc.url=r2dbc:mysql://root@127.0.0.1:3306/$db > run-$label.log 2>&1 &
  local P=$!
  for i in $(seq 1 3000); do curl -sf -o /dev/null --max-time 1 http://127.0.0.1:18081/actuator/health/readiness && break; sleep 0.05; done
  local t1=$(date +%s.%N)
  # full speed: closed loop on one created code, per-second answers; seconds until 80% of the last 5 s
  local code=$(curl -s -X POST http://127.0.0.1:18080/api/v1/links -H "X-Api-Key: $SHORTGATE_ADMIN_KEY" -H 'Content-Type: application/json' -d '{"url":"https://example.com/aot"}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["code"])')
  echo $code > code.txt
  /tmp/scale/pacer -p 18080 -c 32 -d 20 -f code.txt -o raw-$label.bin > pacer-$label.txt
  python3 "$BENCH/bench.py" cold-start --raw raw-$label.bin --name $label --ready-after $(python3 -c "print(round($t1-$t0,2))") --warm-seconds 5 --out cs-$label.json | head -1
  kill $P; wait $P 2>/dev/null
  mariadb -uroot -e "DROP DATABASE IF EXISTS $db"
}
for r in 1 2; do
  one jdk17 $J17 -jar $JAR
  one jdk25aot $J25 -XX:AOTCache=$W/x/shortgate.aot -jar $W/x/$(basename $JAR)
done
