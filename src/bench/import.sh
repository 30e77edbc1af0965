#!/usr/bin/env bash
# Import and export speed (issue 27; docs/benchmarks.md, "Imports and exports"): generates a ROWS-row CSV in Shlink's
# import columns, imports it with the import command into a fresh MariaDB database (with Redis, as in production),
# then serves that database and streams the export as CSV and as JSON lines. Prints links/s for each, and the heap
# after each GC of the import (from the GC log), which must stay flat while rows go by.
# import.sh [JAR]   (ROWS=1000000 by default; HEAP=-Xmx512m; ports APP_PORT/MGMT_PORT, 20210/20211 by default;
# EXPORTS=n rounds of exports, 2 by default)
set -euo pipefail
JAR=${1:-target/shortgate.jar}
ROWS=${ROWS:-1000000}; HEAP=${HEAP:--Xmx512m}
DB=bimp_$(date +%s)_$$; PORT=${APP_PORT:-20210}; MGMT=${MGMT_PORT:-20211}; OUT=/tmp/bench-import-$$; mkdir -p $OUT
DBURL=r2dbc:mysql://root@127.0.0.1:3306/$DB
REDIS=(--spring.data.redis.url=redis://127.0.0.1:6379 --shortgate.redirect.redis.key-prefix=bimp:$DB:)
export SHORTGATE_ADMIN_KEY=import-bench-key-0123456789
mariadb -uroot -e "CREATE DATABASE $DB"
APP=
cleanup() {
  if [ -n "$APP" ]; then kill $APP 2>/dev/null || true; wait $APP 2>/dev/null || true; fi
  mariadb -uroot -e "DROP DATABASE IF EXISTS $DB"
  redis-cli --scan --pattern "bimp:$DB:*" | xargs -r -n 1000 redis-cli del >/dev/null
  [ "${KEEP:-0}" = 1 ] || rm -rf $OUT
}
trap cleanup EXIT

python3 - "$ROWS" > $OUT/links.csv <<'PY'
import sys
rows = int(sys.argv[1])
out = sys.stdout
out.write("longUrl,tags,domain,shortCode,title\n")
for i in range(rows):
    out.write(f"https://example.com/bench/{i}?ref=import,bench|t{i % 50},,imp{i:07d},Bench link {i}\n")
PY
echo "CSV: $ROWS rows, $(du -h $OUT/links.csv | cut -f1)"

start=$(date +%s.%N)
java $HEAP -Xlog:gc:file=$OUT/gc.log -jar "$JAR" import --from csv --file $OUT/links.csv \
  --spring.r2dbc.url=$DBURL "${REDIS[@]}" >$OUT/import.out 2>$OUT/import.err || true
end=$(date +%s.%N)
grep "^Import " $OUT/import.out || { tail -20 $OUT/import.out $OUT/import.err; exit 1; }
python3 - "$ROWS" "$start" "$end" $OUT/gc.log <<'PY'
import re, sys
rows, start, end, log = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
text = open(log).read()
after = [int(m.group(1)) for m in re.finditer(r"Pause Young.*?->(\d+)M\(", text)]
remark = [int(m.group(1)) for m in re.finditer(r"Pause Remark \d+M->(\d+)M\(", text)]
print(f"import: {rows / (end - start):.0f} links/s over the whole command ({end - start:.1f} s, JVM start included)")
def quarters(values):
    q = max(1, len(values) // 4)
    return [f"{min(values[i:i + q])}-{max(values[i:i + q])}" for i in range(0, len(values), q)][:4]
if after:
    print(f"heap after young GCs (MB, min-max per quarter of the run, {len(after)} GCs): {quarters(after)}")
if remark:
    print(f"heap after each concurrent mark's remark (MB, in order): {remark}")
PY

java $HEAP -jar "$JAR" --server.address=127.0.0.1 --server.port=$PORT --management.server.address=127.0.0.1 \
  --management.server.port=$MGMT --spring.r2dbc.url=$DBURL "${REDIS[@]}" --logging.level.root=WARN >$OUT/app.log 2>&1 &
APP=$!
for i in $(seq 1 600); do curl -sf -o /dev/null http://127.0.0.1:$MGMT/actuator/health/readiness && break; sleep 0.2; done
# Each format EXPORTS times (2 by default), alternating: the first request pays the JVM's warm-up (JIT) whichever
# format it is, so the first round is labelled cold and only later rounds compare the formats.
for round in $(seq 1 ${EXPORTS:-2}); do for format in csv jsonl; do
  curl -sf -H "X-Api-Key: $SHORTGATE_ADMIN_KEY" -o $OUT/export.$format \
    -w "%{time_total}\n" "http://127.0.0.1:$PORT/api/v1/links/export?format=$format" > $OUT/time.$format
  lines=$(wc -l < $OUT/export.$format)
  label=$([ "$round" = 1 ] && [ "$format" = csv ] && echo "round $round, cold JVM" || echo "round $round")
  python3 -c "import sys; t=float(open('$OUT/time.$format').read()); n=$lines - (1 if '$format'=='csv' else 0); print(f'export $format ($label): {n} links in {t:.2f} s = {n/t:.0f} links/s')"
done; done
