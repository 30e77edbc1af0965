#!/usr/bin/env bash
# scrape-series.sh JAR LABEL: the jar on MariaDB and Redis (ports 18080/18081), the series of its Prometheus scrape
# at rest and after mixed traffic (creates, redirects, unknown codes, API reads, 429s); docs/performance.md, issue 28.
set -u
JAR=$1; LABEL=$2
DB=scale_series_$LABEL
mariadb -uroot -e "DROP DATABASE IF EXISTS $DB; CREATE DATABASE $DB"
export SHORTGATE_ADMIN_KEY=scale-key-123456789012345
java -jar $JAR --server.address=127.0.0.1 --server.port=18080 --management.server.address=127.0.0.1 --management.server.port=18081 \
  --spring.r2dbc.url=r2dbc:mysql://root@127.0.0.1:3306/$DB --spring.data.redis.url=redis://127.0.0.1:6379 \
  --shortgate.redirect.redis.key-prefix=scale$LABEL: --logging.level.root=WARN > ${OUT:-/tmp}/app-$LABEL.log 2>&1 &
PID=$!
for i in $(seq 1 600); do curl -sf -o /dev/null http://127.0.0.1:18081/actuator/health/readiness && break; sleep 0.5; done
sleep 3
curl -s http://127.0.0.1:18081/actuator/prometheus > ${OUT:-/tmp}/prom-$LABEL-rest.txt
echo "$LABEL at rest: $(grep -vc '^#' ${OUT:-/tmp}/prom-$LABEL-rest.txt)"
# load: creates, found, not found, gone-ish, api
CODES=()
for i in $(seq 1 20); do
  c=$(curl -s -X POST http://127.0.0.1:18080/api/v1/links -H "X-Api-Key: $SHORTGATE_ADMIN_KEY" -H 'Content-Type: application/json' -d "{\"url\":\"https://example.com/$LABEL/$i\"}" | python3 -c 'import json,sys; print(json.load(sys.stdin)["code"])')
  CODES+=($c)
done
for r in 1 2 3; do for c in "${CODES[@]}"; do curl -s -o /dev/null http://127.0.0.1:18080/$c; done; done
for i in $(seq 1 50); do curl -s -o /dev/null http://127.0.0.1:18080/nope$i; curl -s -o /dev/null http://127.0.0.1:18080/api/v1/links/${CODES[0]} -H "X-Api-Key: $SHORTGATE_ADMIN_KEY"; done
curl -s -o /dev/null http://127.0.0.1:18080/api/v1/links -H "X-Api-Key: bad"
printf 'wrk.method="GET"\nrequest=function() return wrk.format(nil, "/%s") end\n' "${CODES[1]}" > ${OUT:-/tmp}/one.lua
wrk -t2 -c32 -d10s -s ${OUT:-/tmp}/one.lua http://127.0.0.1:18080/ | grep Requests/sec
wrk -t2 -c32 -d5s http://127.0.0.1:18080/zzzzzzz | grep Requests/sec
sleep 2
curl -s http://127.0.0.1:18081/actuator/prometheus > ${OUT:-/tmp}/prom-$LABEL-load.txt
echo "$LABEL after load: $(grep -vc '^#' ${OUT:-/tmp}/prom-$LABEL-load.txt)"
kill $PID; wait $PID
mariadb -uroot -e "DROP DATABASE IF EXISTS $DB"
redis-cli --scan --pattern "scale$LABEL:*" | xargs -r redis-cli unlink >/dev/null
