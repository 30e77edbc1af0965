#!/usr/bin/env bash
# How often the aggregate upserts of two writers on two Galera nodes conflict: each writer runs the count flush's
# shape (one transaction: upsert the same hot link_stats rows, record its flush in visit_flush) on a node of its own,
# N times, with a pause of PAUSE seconds on average (0.5 to 1.5 times PAUSE, so the writers do not run in step)
# between two of its transactions. A pod flushes once per counts-flush-interval (1 s by default); PAUSE 0 (back to
# back) bounds the rate from above. Prints, per writer, how many transactions failed with
# error 1213 (a certification failure or a brute-force abort), which Shortgate runs again (docs/adr/0021-galera.md).
#
#   .ci/galera-conflicts.sh [N] [ROWS] [PAUSE]    # defaults: 2000 transactions, 4 hot rows, no pause
#
# Needs the cluster of .ci/galera.sh start (same GALERA_DIR); makes and drops the database sgit_conflicts.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-2000}
rows=${2:-4}
pause=${3:-0}
db=sgit_conflicts
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

.ci/galera.sh sql 1 "DROP DATABASE IF EXISTS $db; CREATE DATABASE $db;
  CREATE TABLE $db.link_stats (code VARCHAR(64) NOT NULL, stat_date DATE NOT NULL, visits BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (code, stat_date)) ENGINE=InnoDB;
  CREATE TABLE $db.visit_flush (writer INT NOT NULL, seq BIGINT NOT NULL, PRIMARY KEY (writer, seq)) ENGINE=InnoDB;"

values=""
for r in $(seq 1 "$rows"); do values+="${values:+,}('code$r', '2026-11-26', 1)"; done
for w in 1 2; do
  {
    echo "USE $db;"
    for i in $(seq 1 "$n"); do
      echo "BEGIN; INSERT INTO link_stats (code, stat_date, visits) VALUES $values ON DUPLICATE KEY UPDATE visits = visits + VALUES(visits); INSERT INTO visit_flush VALUES ($w, $i); COMMIT;"
      [ "$pause" = 0 ] || echo "DO SLEEP($pause * (0.5 + RAND()));"
    done
  } >"$dir/writer$w.sql"
done

start=$(date +%s.%N)
for w in 1 2; do
  # Writer 1 on node 1, writer 2 on node 2; --force goes on past a failed statement.
  mariadb --no-defaults -uroot --socket="${GALERA_DIR:-/tmp/shortgate-galera}/node$w/mysqld.sock" --force -N -B \
    <"$dir/writer$w.sql" >/dev/null 2>"$dir/writer$w.err" &
done
wait
end=$(date +%s.%N)

# A transaction aborted at a statement fails that statement (and its COMMIT then commits nothing, or only what ran
# after the abort); one aborted at COMMIT fails the COMMIT: each error 1213 is one transaction lost.
for w in 1 2; do
  conflicts=$(grep -c 'ERROR 1213' "$dir/writer$w.err" || true)
  printf 'writer %s (node %s): %s transactions, %s lost a conflict (%s%%)\n' "$w" "$w" "$n" "$conflicts" \
    "$(awk -v c="$conflicts" -v n="$n" 'BEGIN { printf "%.1f", 100 * c / n }')"
done
awk -v s="$start" -v e="$end" -v n="$n" 'BEGIN { printf "%.1f s, %.0f transactions/s per writer\n", e - s, n / (e - s) }'
.ci/galera.sh sql 1 "DROP DATABASE $db"
