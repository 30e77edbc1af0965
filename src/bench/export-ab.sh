#!/usr/bin/env bash
# Export speed, A/B on one database (issue 27; docs/benchmarks.md, "Imports and exports"): generates a ROWS-row CSV in
# Shlink's import columns plus redirect rules on every tenth link, imports it with jar A's import command into a fresh
# MariaDB database, then serves that database from both jars at once and alternates ROUNDS exports of each format
# between them (A, B, B, A, ...: each jar gets as many first places as second), checking that both give the same bytes.
# Prints each request's links/s and, per format, the median ratio B/A.
# export-ab.sh A.jar B.jar   (ROWS=200000, ROUNDS=5, HEAP=-Xmx512m; ports APP_PORT..APP_PORT+3, 20220 by default)
set -euo pipefail
A=$1; B=$2
ROWS=${ROWS:-200000}; ROUNDS=${ROUNDS:-5}; HEAP=${HEAP:--Xmx512m}; BASE=${APP_PORT:-20220}
DB=bexp_$(date +%s)_$$; OUT=/tmp/bench-export-$$; mkdir -p $OUT
DBURL=r2dbc:mysql://root@127.0.0.1:3306/$DB
REDIS=(--spring.data.redis.url=redis://127.0.0.1:6379 --shortgate.redirect.redis.key-prefix=bexp:$DB:)
export SHORTGATE_ADMIN_KEY=export-bench-key-0123456789
mariadb -uroot -e "CREATE DATABASE $DB"
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill $pid 2>/dev/null || true; wait $pid 2>/dev/null || true; done
  mariadb -uroot -e "DROP DATABASE IF EXISTS $DB"
  redis-cli --scan --pattern "bexp:$DB:*" | xargs -r -n 1000 redis-cli del >/dev/null
  [ "${KEEP:-0}" = 1 ] || rm -rf $OUT
}
trap cleanup EXIT

python3 - "$ROWS" > $OUT/links.csv <<'PY'
import sys
rows = int(sys.argv[1])
out = sys.stdout
out.write("longUrl,tags,domain,shortCode,title,createdAt,maxVisits,rules\n")
rule = '"{""rules"":[{""url"":""https://example.com/droid"",""conditions"":[{""type"":""device"",""matchValue"":""android""}]}]}"'
for i in range(rows):
    rules = rule if i % 10 == 0 else ""
    out.write(f"https://example.com/bench/{i}?ref=export,bench|t{i % 50},,exp{i:07d},\"Bench, link {i}\","
              f"2026-01-{1 + i % 28:02d}T10:00:00Z,{i % 7 or ''},{rules}\n")
PY
java $HEAP -jar "$A" import --from csv --file $OUT/links.csv --spring.r2dbc.url=$DBURL "${REDIS[@]}" \
  >$OUT/import.out 2>$OUT/import.err || true
grep "^Import " $OUT/import.out || { tail -20 $OUT/import.out $OUT/import.err; exit 1; }

n=0
for jar in "$A" "$B"; do
  java $HEAP -jar "$jar" --server.address=127.0.0.1 --server.port=$((BASE + n)) --management.server.address=127.0.0.1 \
    --management.server.port=$((BASE + n + 1)) --spring.r2dbc.url=$DBURL "${REDIS[@]}" --logging.level.root=WARN \
    >$OUT/app$n.log 2>&1 &
  PIDS+=($!); n=$((n + 2))
done
for port in $((BASE + 1)) $((BASE + 3)); do
  for i in $(seq 1 600); do curl -sf -o /dev/null http://127.0.0.1:$port/actuator/health/readiness && break; sleep 0.2; done
done
export_once() { # name port format round
  curl -sf -H "X-Api-Key: $SHORTGATE_ADMIN_KEY" -o $OUT/export.$1.$3 -w "%{time_total}" \
    "http://127.0.0.1:$2/api/v1/links/export?format=$3" > $OUT/t
  echo "$1 $3 $4 $(cat $OUT/t)" >> $OUT/times
}
for round in $(seq 1 $ROUNDS); do
  for format in csv jsonl; do
    if [ $((round % 2)) = 1 ]; then order="A B"; else order="B A"; fi
    for name in $order; do
      if [ $name = A ]; then export_once A $BASE $format $round; else export_once B $((BASE + 2)) $format $round; fi
    done
    cmp -s $OUT/export.A.$format $OUT/export.B.$format && same=same || same=DIFFERENT
    echo "round $round $format: A and B bytes $same ($(wc -c < $OUT/export.A.$format) bytes)"
  done
done
python3 - "$ROWS" $OUT/times <<'PY'
import statistics, sys
rows = int(sys.argv[1]); times = {}
for line in open(sys.argv[2]):
    name, fmt, rnd, t = line.split(); times.setdefault((fmt, int(rnd)), {})[name] = float(t)
for fmt in ("csv", "jsonl"):
    rounds = sorted(r for f, r in times if f == fmt)
    for r in rounds:
        a, b = times[(fmt, r)]["A"], times[(fmt, r)]["B"]
        print(f"{fmt} round {r}: A {rows / a:,.0f} links/s ({a:.2f} s), B {rows / b:,.0f} links/s ({b:.2f} s), B/A speed {a / b:.2f}")
    warm = [times[(fmt, r)]["A"] / times[(fmt, r)]["B"] for r in rounds[1:]] or [0]
    print(f"{fmt}: median B/A speed over the warm rounds (2..{rounds[-1]}): {statistics.median(warm):.2f}; "
          f"median warm A {rows / statistics.median(times[(fmt, r)]['A'] for r in rounds[1:]):,.0f} links/s, "
          f"B {rows / statistics.median(times[(fmt, r)]['B'] for r in rounds[1:]):,.0f} links/s")
PY
