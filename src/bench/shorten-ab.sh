#!/usr/bin/env bash
# Part of the create measurements of issue 12 (docs/performance.md, "Creates in groups"): one app on a fresh MariaDB
# database, as a quicker A/B of two builds than run.sh. AP=1 profiles the measured runs with async-profiler
# (ASYNC_PROFILER=path of libasyncProfiler.so, from tools.profiler:async-profiler on Maven Central) into
# /tmp/<prefix>-LABEL/ap.collapsed.
# shorten-ab.sh JAR LABEL [extra app args...]: one app on a fresh MariaDB database (+ Redis unless REDIS=0),
# WARM s of single creates, then RUNS x MEAS s measured; prints creates/s and CPU per create (app, mariadb).
# env: WARM=60 MEAS=20 RUNS=3 C=64 REDIS=1 JFR=0 SCRIPT=shorten.lua APP_PORT=18180 MGMT_PORT=18181
set -euo pipefail
JAR=$1; LABEL=$2; shift 2
WARM=${WARM:-60}; MEAS=${MEAS:-20}; RUNS=${RUNS:-3}; C=${C:-64}; REDIS=${REDIS:-1}; JFR=${JFR:-0}
SCRIPT=${SCRIPT:-shorten.lua}; BENCH=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
DB=sab_$(date +%s)_$$; PORT=${APP_PORT:-18180}; MGMT=${MGMT_PORT:-18181}; OUT=/tmp/sab-$LABEL; mkdir -p $OUT
export SHORTGATE_ADMIN_KEY=abkey-0123456789abcdef0123
mariadb -uroot -e "CREATE DATABASE $DB"
REDIS_ARGS=(); [ "$REDIS" = 1 ] && REDIS_ARGS=(--spring.data.redis.url=redis://127.0.0.1:6379 --shortgate.redirect.redis.key-prefix=sab:$DB:)
java ${JAVA_OPTS:-} -jar $JAR --server.address=127.0.0.1 --server.port=$PORT --management.server.address=127.0.0.1 \
  --management.server.port=$MGMT --spring.r2dbc.url=r2dbc:mysql://root@127.0.0.1:3306/$DB \
  --logging.level.root=WARN --shortgate.security.rate-limit.api-capacity=1000000000 \
  --shortgate.security.rate-limit.api-refill=1000000000 "${REDIS_ARGS[@]}" "$@" >$OUT/app.log 2>&1 &
APP=$!
trap 'kill $APP 2>/dev/null; wait $APP 2>/dev/null; mariadb -uroot -e "DROP DATABASE IF EXISTS $DB"' EXIT
for i in $(seq 1 600); do curl -sf -o /dev/null http://127.0.0.1:$MGMT/actuator/health/readiness && break; sleep 0.2; done
# the server on 3306, not another mariadbd a test may have started (those come and go)
MDB=$(ss -ltnpH 'sport = :3306' | grep -o 'pid=[0-9]*' | head -1 | cut -d= -f2)
ticks() { sed 's/^.*) //' /proc/$1/stat | awk '{print $12+$13}'; }
RUN_TAG=w$$ timeout $((WARM+20)) wrk -t2 -c$C -d${WARM}s -s $BENCH/$SCRIPT http://127.0.0.1:$PORT/ >$OUT/warm.txt 2>&1 || true
[ "$JFR" = 1 ] && jcmd $APP JFR.start name=ab settings=profile filename=$OUT/prof.jfr >/dev/null
[ "${AP:-0}" = 1 ] && jcmd $APP JVMTI.agent_load $ASYNC_PROFILER "\"start,event=cpu,interval=1ms\"" >/dev/null
for r in $(seq 1 $RUNS); do
  a0=$(ticks $APP); m0=$(ticks $MDB)
  RUN_TAG=r$r$$ timeout $((MEAS+20)) wrk -t2 -c$C -d${MEAS}s --latency -s $BENCH/$SCRIPT http://127.0.0.1:$PORT/ >$OUT/run$r.txt 2>&1 || true
  a1=$(ticks $APP); m1=$(ticks $MDB)
  rps=$(awk '/Requests\/sec/ {print $2}' $OUT/run$r.txt); n=$(awk '/requests in/ {print $1}' $OUT/run$r.txt)
  non=$(awk '/Non-2xx/ {print $NF}' $OUT/run$r.txt); p99=$(awk '$1=="99%" {print $2}' $OUT/run$r.txt)
  echo "$LABEL run$r: ${rps}/s p99 $p99 non2xx ${non:-0} app $(( (a1-a0)*10000/n )) us/create mariadb $(( (m1-m0)*10000/n )) us/create"
done
[ "${AP:-0}" = 1 ] && jcmd $APP JVMTI.agent_load $ASYNC_PROFILER "\"stop,collapsed,file=$OUT/ap.collapsed\"" >/dev/null
if [ "$JFR" = 1 ]; then jcmd $APP JFR.stop name=ab >/dev/null; python3 $BENCH/bench.py jfr --file $OUT/prof.jfr > $OUT/prof.txt 2>&1 || true; fi
