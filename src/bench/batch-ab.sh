#!/usr/bin/env bash
# Part of the create measurements of issue 12 (docs/performance.md, "Creates in groups"): one app on a fresh MariaDB
# database, as a quicker A/B of two builds than run.sh. AP=1 profiles the measured runs with async-profiler
# (ASYNC_PROFILER=path of libasyncProfiler.so, from tools.profiler:async-profiler on Maven Central) into
# /tmp/<prefix>-LABEL/ap.collapsed.
# batch-ab.sh JAR LABEL [app args]: fresh DB, warm with WARMN links in batches, then RUNS x N links (2 parallel callers)
set -euo pipefail
JAR=$1; LABEL=$2; shift 2
N=${N:-20000}; WARMN=${WARMN:-40000}; RUNS=${RUNS:-3}; BENCH=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
DB=bab_$(date +%s)_$$; PORT=18180; MGMT=18181; OUT=/tmp/bab-$LABEL; mkdir -p $OUT
export SHORTGATE_ADMIN_KEY=abkey-0123456789abcdef0123
mariadb -uroot -e "CREATE DATABASE $DB"
java ${JAVA_OPTS:-} -jar $JAR --server.address=127.0.0.1 --server.port=$PORT --management.server.address=127.0.0.1 \
  --management.server.port=$MGMT --spring.r2dbc.url=r2dbc:mysql://root@127.0.0.1:3306/$DB \
  --logging.level.root=WARN --shortgate.security.rate-limit.api-capacity=1000000000 \
  --shortgate.security.rate-limit.api-refill=1000000000 --spring.data.redis.url=redis://127.0.0.1:6379 \
  --shortgate.redirect.redis.key-prefix=bab:$DB: "$@" >$OUT/app.log 2>&1 &
APP=$!
trap 'kill $APP 2>/dev/null; wait $APP 2>/dev/null; mariadb -uroot -e "DROP DATABASE IF EXISTS $DB"' EXIT
for i in $(seq 1 600); do curl -sf -o /dev/null http://127.0.0.1:$MGMT/actuator/health/readiness && break; sleep 0.2; done
MDB=$(pgrep -x mariadbd | head -1)
ticks() { sed 's/^.*) //' /proc/$1/stat | awk '{print $12+$13}'; }
python3 $BENCH/bench.py seed --port $PORT --count $WARMN --concurrency 2 --tag w$$ >/dev/null
[ "${AP:-0}" = 1 ] && jcmd $APP JVMTI.agent_load $ASYNC_PROFILER "\"start,event=cpu,interval=1ms\"" >/dev/null
for r in $(seq 1 $RUNS); do
  a0=$(ticks $APP); m0=$(ticks $MDB)
  res=$(python3 $BENCH/bench.py seed --port $PORT --count $N --concurrency 2 --tag r$r$$)
  a1=$(ticks $APP); m1=$(ticks $MDB)
  lps=$(echo "$res" | python3 -c 'import json,sys; print(round(json.load(sys.stdin)["links_per_s"]))')
  echo "$LABEL run$r: $lps links/s app $(( (a1-a0)*10000/N )) us/link mariadb $(( (m1-m0)*10000/N )) us/link"
done
[ "${AP:-0}" = 1 ] && jcmd $APP JVMTI.agent_load $ASYNC_PROFILER "\"stop,collapsed,file=$OUT/ap.collapsed\"" >/dev/null
true
