#!/usr/bin/env bash
# import-startup.sh JAR LABEL [RUNS] (docs/benchmarks.md, "the import command's start-up"): the import command's cost
# for a 10-row CSV, into an already-migrated MariaDB database (DB, made if absent; migrated by an uncounted run 0) and
# into the embedded H2 default (./data/shortgate under H2_DIR), RUNS times each (3 by default), with Flyway as it is,
# without validate-on-migrate and off, alternating. Wall and CPU time from /usr/bin/time -v; run it under
# flock /work/bench.lock. Drop DB yourself afterwards.
set -uo pipefail
JAR=$1; LABEL=$2; RUNS=${3:-3}; DB=${DB:-import_startup}; H2_DIR=${H2_DIR:-/tmp/import-startup-h2}
OUT=${OUT_DIR:-/tmp/import-startup}/$LABEL; mkdir -p $OUT $H2_DIR
mariadb -uroot -e "CREATE DATABASE IF NOT EXISTS $DB"
export SHORTGATE_ADMIN_KEY=import-startup-key-0123456789
csv() { python3 -c "
import sys
print('longUrl,tags,domain,shortCode,title')
for i in range(10): print(f'https://example.com/st/$1/{i},t|u,,s$1{i},T {i}')" > $OUT/$1.csv; }
one() { # db variant run
  local db=$1 variant=$2 n=$3 id="$1-$2-$3-$RANDOM"; csv "${id//-/}"
  local extra=(--logging.level.org.flywaydb.core.internal.command=INFO --logging.level.org.springframework.boot.StartupInfoLogger=INFO --spring.main.log-startup-info=true)
  [ "$variant" = noflyway ] && extra+=(--spring.flyway.enabled=false)
  [ "$variant" = novalidate ] && extra+=(--spring.flyway.validate-on-migrate=false)
  if [ $db = mariadb ]; then url=(--spring.r2dbc.url=r2dbc:mysql://root@127.0.0.1:3306/$DB); dir=$PWD; else url=(); dir=$H2_DIR; fi
  ( cd $dir && /usr/bin/time -v java -jar $JAR import --from csv --file $OUT/${id//-/}.csv "${url[@]}" "${extra[@]}" ) > $OUT/$id.out 2> $OUT/$id.err
  local wall=$(grep "Elapsed (wall" $OUT/$id.err | awk '{print $NF}') u=$(grep "User time" $OUT/$id.err | awk '{print $NF}') s=$(grep "System time" $OUT/$id.err | awk '{print $NF}')
  local fly=$(grep -o "Successfully validated.*\|Schema .* is up to date.*\|execution time [0-9:.]*s" $OUT/$id.out $OUT/$id.err | tr '\n' ' ' | cut -c1-200)
  local started=$(grep -o "Started .* in [0-9.]* seconds" $OUT/$id.out $OUT/$id.err | head -1 | sed 's/.*Started//')
  echo "$(date -u +%T) $LABEL $db $variant run$n wall=$wall user=$u sys=$s load=$(cut -d' ' -f1 /proc/loadavg) started:$started | $(grep -h '^Import ' $OUT/$id.out | cut -c1-80) | $fly"
}
one mariadb flyway 0; one h2 flyway 0  # run0: migrates the empty databases, not counted
for n in $(seq 1 $RUNS); do for db in mariadb h2; do for v in flyway novalidate noflyway; do one $db $v $n; done; done; done
