#!/usr/bin/env bash
# Shortgate benchmark: measures each scenario with wrk and reports it as a ratio to an nginx `return 302`
# baseline measured the same way in the same run. See src/bench/README.md.
#
#   src/bench/run.sh [-d 30s] [-w 10s] [-r 3] [-c 64] [-t 2] [-n 100000]
#                    [-s hot,sustained,paced,cold-start,redis,overload,db,miss,shorten,visits-off,rules,domains,two-pods,
#                        stats] [--rate 10000]
#                    [--heap]
#
# Needs MariaDB (root, no password) and Redis on loopback; installs wrk and nginx with apt-get when missing.
# Every step is bounded in time; every process it starts is stopped on exit.
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$BENCH_DIR/../.." && pwd)
COMMAND_LINE="src/bench/run.sh${*:+ $*}"

# ---------------------------------------------------------------- options (flags override env)
DURATION=${DURATION:-30s}          # measured wrk run per scenario
WARMUP=${WARMUP:-10s}              # wrk warm-up before each scenario's measured runs (discarded)
SHORTEN_WARMUP=${SHORTEN_WARMUP:-60s} # single creates: the JIT needs about a minute of creates to settle
RULES_WARMUP=${RULES_WARMUP:-30s}   # rules: a fresh JVM, where hot's had served the seeding first (C2 must finish)
RUNS=${RUNS:-3}                    # measured runs per scenario: the report shows the median, with min and max
CONNECTIONS=${CONNECTIONS:-64}
THREADS=${THREADS:-2}
LINKS=${LINKS:-100000}             # links seeded through the batch API
SCENARIOS=${SCENARIOS:-all}        # all = hot,sustained,paced,cold-start,redis,overload,db,miss,shorten,visits-off,rules,domains,two-pods,stats; add heap
PACED_RATE=${PACED_RATE:-}         # paced: offered req/s; default half of nginx's max measured in the same run
PACED_EVIDENCE=${PACED_EVIDENCE:-0} # paced: 1 = sample every thread's CPU during the runs (tail.py)
PACER_BUSY_POLL=${PACER_BUSY_POLL:-0} # paced: 1 = the pacer busy-polls between due times (as before 2026-11-26)
PACED_ZIPF=${PACED_ZIPF:-}         # paced: S = links asked for Zipf-distributed with exponent S (nginx too), as real
                                   # traffic is skewed; empty = every link equally likely, the default figure
PACED_DB_NICE=${PACED_DB_NICE:-}   # paced: N = the local mariadbd at nice N during Shortgate's runs (root): a database
                                   # that does not take the pod's cores, as on its own hosts; empty = left alone
COLD_SECONDS=${COLD_SECONDS:-30}   # cold-start: load from the moment of ready; the last 10 s are the warm throughput
STATS_VISITS=${STATS_VISITS:-10000000}  # stats: visits of the one link, spread over 365 days
STATS_CONNECTIONS=${STATS_CONNECTIONS:-2}  # stats: wrk connections (latency of the API, not its throughput)
RATE=${RATE:-10000}                # sustained: offered load, requests per second (paced, not as fast as possible)
BATCH_CALLS=${BATCH_CALLS:-40}     # shorten-batch: this many batch calls of 1000 links
BATCH_WARMUP_CALLS=${BATCH_WARMUP_CALLS:-40} # shorten-batch: calls made first, not timed (the JIT's batch paths)
STRATEGIES=${STRATEGIES:-hash,sequence,pool} # shorten: the code strategies measured, one app each
HEAP_LINKS=${HEAP_LINKS:-1000000}  # heap: links put in the near cache
HEAP_XMX=${HEAP_XMX:-2g}
FILL_TIMEOUT=${FILL_TIMEOUT:-300}            # seconds allowed to request every seeded link once (hot, visits-off)
HEAP_FILL_TIMEOUT=${HEAP_FILL_TIMEOUT:-900}  # seconds allowed to request every heap link once
JAVA_OPTS=${JAVA_OPTS:-}           # extra JVM flags for the app (all scenarios except heap's -Xmx)
COLD_JAVA=${COLD_JAVA:-}           # cold-start: the java binary of the fresh pod (default: java on the PATH)
COLD_JAVA_OPTS=${COLD_JAVA_OPTS-$JAVA_OPTS} # cold-start: the fresh pod's JVM flags (e.g. -XX:AOTCache=...)
COLD_JAR=${COLD_JAR:-}             # cold-start: the fresh pod's jar (default: JAR)
COLD_AB=${COLD_AB:-}               # cold-start: "label:jar label:jar" pods started in turn instead of the default pair;
                                   # COLD_JAVA_<label>/COLD_JAVA_OPTS_<label> give one label its own java and flags
COLD_ROUNDS=${COLD_ROUNDS:-2}      # cold-start with COLD_AB: rounds of the alternation
COLD_NOWARM=${COLD_NOWARM:-1}      # cold-start with COLD_AB: also start each jar with the warm-up off
COLD_EVIDENCE=${COLD_EVIDENCE:-0}  # cold-start: 1 = thread dumps, scrapes (and a wall profile) in the first 10 s
MARIADB_HOST=${MARIADB_HOST:-127.0.0.1}
MARIADB_PORT=${MARIADB_PORT:-3306}
REDIS_URL=${REDIS_URL:-redis://127.0.0.1:6379}
APP_PORT=${APP_PORT:-18080}
MGMT_PORT=${MGMT_PORT:-18081}
NGINX_PORT=${NGINX_PORT:-18088}
APP2_PORT=${APP2_PORT:-$((APP_PORT + 2))}    # two-pods: the second pod's ports
MGMT2_PORT=${MGMT2_PORT:-$((MGMT_PORT + 2))}
JAR=${JAR:-$ROOT/target/shortgate.jar}
OUT_DIR=${OUT_DIR:-$ROOT/target/bench}
KEEP_DB=${KEEP_DB:-0}
PROFILE=${PROFILE:-0}              # 1: record each app with JFR and print its hottest frames per scenario
ASYNC_PROFILER=${ASYNC_PROFILER:-} # with PROFILE=1: libasyncProfiler.so (tools.profiler:async-profiler): CPU, 1 ms
EVENTS=${EVENTS:-off}              # on: the redirect apps also publish Shlink's events to RabbitMQ and Redis;
                                   # rabbitmq or redis: to that one only
RABBITMQ_URL=${RABBITMQ_URL:-amqp://guest:guest@127.0.0.1:5672} # with EVENTS=on: the broker

usage() {
  cat <<EOF
Usage: src/bench/run.sh [options]
  -d, --duration D      measured run per scenario, wrk syntax (default $DURATION)        env DURATION
  -w, --warmup D        warm-up before each scenario (default $WARMUP)                  env WARMUP
  -r, --runs N          measured runs per scenario; the median is reported (default $RUNS) env RUNS
  -c, --connections N   wrk connections (default $CONNECTIONS)                            env CONNECTIONS
  -t, --threads N       wrk threads (default $THREADS)                                   env THREADS
  -n, --links N         links seeded through the batch API (default $LINKS)             env LINKS
  -s, --scenarios LIST  comma list of hot,sustained,paced,cold-start,redis,overload,db,miss,shorten,visits-off,
                        rules,domains,two-pods,stats,heap
                        or all
                        env SCENARIOS
                        (default all = every scenario except heap)
      --rate N          offered req/s of the paced sustained scenario (default $RATE)  env RATE
      --heap            also run the heap scenario (same as adding heap to --scenarios)
      --heap-links N    links in the near cache for heap (default $HEAP_LINKS)        env HEAP_LINKS
      --batch-calls N   batch calls of 1000 links for shorten-batch (default $BATCH_CALLS) env BATCH_CALLS
      --keep-db         keep the benchmark databases (default: dropped on exit)         env KEEP_DB=1
      --profile         record each scenario's measured runs with JFR (or async-profiler: env ASYNC_PROFILER=
                        path of libasyncProfiler.so); print the hottest frames              env PROFILE=1
  -h, --help
Ports (loopback): APP_PORT=$APP_PORT MGMT_PORT=$MGMT_PORT NGINX_PORT=$NGINX_PORT
  APP2_PORT=$APP2_PORT MGMT2_PORT=$MGMT2_PORT (two-pods' second pod). Output: $OUT_DIR/result.json
EOF
}

while [ $# -gt 0 ]; do
  case "$1" in
    -d|--duration) DURATION=$2; shift 2 ;;
    -w|--warmup) WARMUP=$2; shift 2 ;;
    -r|--runs) RUNS=$2; shift 2 ;;
    -c|--connections) CONNECTIONS=$2; shift 2 ;;
    -t|--threads) THREADS=$2; shift 2 ;;
    -n|--links) LINKS=$2; shift 2 ;;
    -s|--scenarios) SCENARIOS=$2; shift 2 ;;
    --heap) SCENARIOS="$SCENARIOS,heap"; shift ;;
    --rate) RATE=$2; shift 2 ;;
    --heap-links) HEAP_LINKS=$2; shift 2 ;;
    --batch-calls) BATCH_CALLS=$2; shift 2 ;;
    --keep-db) KEEP_DB=1; shift ;;
    --profile) PROFILE=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "unknown option: $1" >&2; usage >&2; exit 2 ;;
  esac
done

ALL="hot,sustained,paced,cold-start,redis,overload,db,miss,shorten,visits-off,rules,domains,two-pods,stats"
SCENARIOS=${SCENARIOS//all/$ALL}
SCENARIOS=${SCENARIOS//,,/,}
SCENARIOS=${SCENARIOS#,}
for s in ${SCENARIOS//,/ }; do
  case ",$ALL,heap," in *",$s,"*) ;; *) echo "unknown scenario: $s" >&2; exit 2 ;; esac
done
want() { case ",$SCENARIOS," in *",$1,"*) return 0 ;; *) return 1 ;; esac; }

log() { printf '%s %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

# seconds in a wrk duration (30, 30s, 2m, 1h)
seconds_of() {
  local d=$1
  case "$d" in
    *ms) echo 1 ;;
    *s) echo "${d%s}" ;;
    *m) echo $(( ${d%m} * 60 )) ;;
    *h) echo $(( ${d%h} * 3600 )) ;;
    *) echo "$d" ;;
  esac
}

# ---------------------------------------------------------------- state and cleanup
RUN_ID=$(date +%Y%m%d%H%M%S)_$$
RUN_DIR="$OUT_DIR/run-$RUN_ID"
mkdir -p "$RUN_DIR"
REDIS_PREFIX="bench:$RUN_ID:"
DATABASES=()
APP_PID=""
POD2_PID=""
APP_ARGS=""
NGINX_PID=""
WRK_PID=""
HOG_PID=""
SAMPLER_PID=""
DB_NICE_BEFORE="" # the nice mariadbd had before PACED_DB_NICE changed it (db_nice), put back by cleanup
NGINX_DIR=""
CLK_TCK=$(getconf CLK_TCK)
export SHORTGATE_ADMIN_KEY=${SHORTGATE_ADMIN_KEY:-bench-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')}

stop_pid() { # pid, seconds to wait after SIGTERM before SIGKILL
  local pid=$1 wait=${2:-30} i
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < wait * 10; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$pid" 2>/dev/null; then log "pid $pid ignored SIGTERM; killing"; kill -KILL "$pid" 2>/dev/null || true; fi
  wait "$pid" 2>/dev/null || true
}

redis_cli() { redis-cli -u "$REDIS_URL" "$@"; }

cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  [ -n "$WRK_PID" ] && kill -TERM "$WRK_PID" 2>/dev/null || true
  [ -n "$HOG_PID" ] && kill -TERM "$HOG_PID" 2>/dev/null || true
  [ -n "$SAMPLER_PID" ] && kill -TERM "$SAMPLER_PID" 2>/dev/null || true
  [ -n "$DB_NICE_BEFORE" ] && { db_nice "$DB_NICE_BEFORE" || true; }
  stop_pid "$APP_PID" 40
  stop_pid "$POD2_PID" 40
  stop_pid "$NGINX_PID" 10
  if [ "$KEEP_DB" != 1 ]; then
    for db in "${DATABASES[@]}"; do
      mariadb -h"$MARIADB_HOST" -P"$MARIADB_PORT" -uroot -e "DROP DATABASE IF EXISTS \`$db\`" 2>/dev/null || true
    done
  fi
  if command -v redis-cli >/dev/null; then
    timeout 60 bash -c "redis-cli -u '$REDIS_URL' --scan --pattern '${REDIS_PREFIX}*' \
      | xargs -r -n 1000 redis-cli -u '$REDIS_URL' unlink >/dev/null" 2>/dev/null || true
  fi
  [ -n "$NGINX_DIR" ] && rm -rf "$NGINX_DIR"
  [ $rc -ne 0 ] && log "failed (exit $rc); logs in $RUN_DIR"
  exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---------------------------------------------------------------- prerequisites
install_packages() {
  log "installing $* with apt-get"
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo=sudo
  timeout 300 $sudo apt-get update -qq || true
  DEBIAN_FRONTEND=noninteractive timeout 600 $sudo apt-get install -y -qq "$@" >/dev/null
}
install_missing() {
  local missing=()
  command -v wrk >/dev/null || missing+=(wrk)
  command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || missing+=(nginx)
  [ ${#missing[@]} -eq 0 ] || install_packages "${missing[@]}"
}
install_missing
NGINX_BIN=$(command -v nginx || echo /usr/sbin/nginx)
for tool in java jcmd curl python3 mariadb redis-cli; do
  command -v "$tool" >/dev/null || die "$tool is required"
done
mariadb -h"$MARIADB_HOST" -P"$MARIADB_PORT" -uroot -e 'SELECT 1' >/dev/null || die "MariaDB is not reachable as root on $MARIADB_HOST:$MARIADB_PORT"
redis_cli ping >/dev/null || die "Redis is not reachable at $REDIS_URL"
# The shorten scenarios grow the link table past 500,000 rows (about 300 MB with its indexes); with MariaDB's default
# 128 MB buffer pool their inserts then wait on disk reads of random index pages, which measures the disk, not us.
POOL_MB=$(mariadb -h"$MARIADB_HOST" -P"$MARIADB_PORT" -uroot -N -B -e 'SELECT @@innodb_buffer_pool_size DIV 1048576')
if [ "${POOL_MB:-0}" -lt 1024 ]; then
  log "WARNING: MariaDB's innodb_buffer_pool_size is ${POOL_MB} MB; give it 1 GB or more for the shorten scenarios" \
    "(SET GLOBAL innodb_buffer_pool_size = 2147483648)"
fi

if [ ! -f "$JAR" ]; then
  log "building $JAR"
  (cd "$ROOT" && timeout 900 ./mvnw -B -q -DskipTests package) || die "build failed"
fi

port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
for p in "$APP_PORT" "$MGMT_PORT" "$NGINX_PORT" "$APP2_PORT" "$MGMT2_PORT"; do
  port_busy "$p" && die "port $p on 127.0.0.1 is in use; set APP_PORT / MGMT_PORT / NGINX_PORT / APP2_PORT / MGMT2_PORT"
done

# ---------------------------------------------------------------- measuring
# CPU ticks (utime + stime, all threads) summed over the given pids
cpu_ticks() {
  local pid sum=0 t
  for pid in "$@"; do
    t=$(sed 's/^.*) //' "/proc/$pid/stat" | awk '{print $12 + $13}')
    sum=$((sum + t))
  done
  echo "$sum"
}

scrape() { # file; empty when there is no app (nginx)
  if [ -n "$APP_PID" ]; then
    curl -sf --max-time 10 "http://127.0.0.1:$MGMT_PORT/actuator/prometheus" >"$1" || : >"$1"
  else
    : >"$1"
  fi
}

# run_wrk out-file duration script url [extra wrk args...]; bounded by timeout
run_wrk() {
  local out=$1 dur=$2 script=$3 url=$4
  shift 4
  local limit=$(( $(seconds_of "$dur") + 30 ))
  timeout -s INT -k 10 "$limit" wrk -t"$THREADS" -c"$CONNECTIONS" -d"$dur" --timeout 10s --latency \
    -s "$BENCH_DIR/$script" "$@" "$url" >"$out" 2>&1 &
  WRK_PID=$!
  wait "$WRK_PID" || true
  WRK_PID=""
  grep -q '^BENCH_JSON ' "$out" || { cat "$out" >&2; die "wrk produced no result ($out)"; }
}

# measure name script url pids... : warm-up, then RUNS measured runs, each with CPU ticks and scrapes around it;
# bench.py combines them into the scenario's result (the median run, with min and max)
measure() {
  local name=$1 script=$2 url=$3
  shift 3
  local pids=("$@") run runs=()
  if [ "$(seconds_of "$WARMUP")" -gt 0 ]; then
    log "$name: warm-up $WARMUP"
    run_wrk "$RUN_DIR/$name.warmup.txt" "$WARMUP" "$script" "$url"
  fi
  local profiling=""
  if [ "$PROFILE" = 1 ] && [ "$name" != nginx ] && [ -n "$APP_PID" ]; then # the measured runs only, not startup
    if [ -n "$ASYNC_PROFILER" ]; then
      profiling="$RUN_DIR/profile-$name.collapsed"
      jcmd "$APP_PID" JVMTI.agent_load "$ASYNC_PROFILER" "\"start,event=cpu,interval=1ms\"" >/dev/null # quoted: jcmd splits on =
    else
      profiling="$RUN_DIR/profile-$name.jfr"
      jcmd "$APP_PID" JFR.start name=bench settings=profile filename="$profiling" >/dev/null
    fi
  fi
  for ((run = 1; run <= RUNS; run++)); do
    local tag="$name.run$run" before after
    scrape "$RUN_DIR/$tag.prom-before.txt"
    before=$(cpu_ticks "${pids[@]}")
    log "$name: run $run of $RUNS, $DURATION, $CONNECTIONS connections, $THREADS threads"
    run_wrk "$RUN_DIR/$tag.wrk.txt" "$DURATION" "$script" "$url"
    after=$(cpu_ticks "${pids[@]}")
    scrape "$RUN_DIR/$tag.prom-after.txt"
    python3 "$BENCH_DIR/bench.py" record --name "$name" --wrk "$RUN_DIR/$tag.wrk.txt" \
      --ticks-before "$before" --ticks-after "$after" --clk-tck "$CLK_TCK" --pids "${pids[*]}" \
      --prom-before "$RUN_DIR/$tag.prom-before.txt" --prom-after "$RUN_DIR/$tag.prom-after.txt" \
      --extra "target=$([ "$name" = nginx ] && echo "nginx" || echo "shortgate $APP_ARGS")" \
      --out "$RUN_DIR/$tag.json"
    runs+=("$RUN_DIR/$tag.json")
  done
  if [ -n "$profiling" ] && [ -n "$ASYNC_PROFILER" ]; then
    jcmd "$APP_PID" JVMTI.agent_load "$ASYNC_PROFILER" "\"stop,collapsed,file=$profiling\"" >/dev/null
    python3 "$BENCH_DIR/collapsed.py" "$profiling" >"$RUN_DIR/profile-$name.txt" 2>&1 || true
    log "$name: profile in $RUN_DIR/profile-$name.txt"
  elif [ -n "$profiling" ]; then
    jcmd "$APP_PID" JFR.stop name=bench >/dev/null
    python3 "$BENCH_DIR/bench.py" jfr --file "$profiling" >"$RUN_DIR/profile-$name.txt" 2>&1 || true
    log "$name: profile in $RUN_DIR/profile-$name.txt"
  fi
  python3 "$BENCH_DIR/bench.py" combine --out "$RUN_DIR/scenario-$name.json" "${runs[@]}"
  python3 - "$RUN_DIR/scenario-$name.json" <<'EOF' >&2
import json, sys
r = json.load(open(sys.argv[1]))
print(f"         {r['scenario']}: median {r['rps']:,.0f} req/s ({r['rps_min']:,.0f}-{r['rps_max']:,.0f}), "
      f"p50 {r['latency_us']['p50']/1000:.2f} ms, p99 {r['latency_us']['p99']/1000:.2f} ms, "
      f"{r['server_cpu_us_per_req']} µs CPU/req, errors {r['errors']}")
EOF
}

# ---------------------------------------------------------------- nginx baseline
start_nginx() {
  NGINX_DIR=$(mktemp -d /tmp/shortgate-bench-nginx.XXXXXX)
  mkdir -p "$NGINX_DIR/tmp" "$NGINX_DIR/logs"
  sed "s/__PORT__/$NGINX_PORT/" "$BENCH_DIR/nginx-baseline.conf" >"$NGINX_DIR/nginx.conf"
  "$NGINX_BIN" -p "$NGINX_DIR" -c "$NGINX_DIR/nginx.conf" -e stderr >"$RUN_DIR/nginx.log" 2>&1 &
  NGINX_PID=$!
  local i
  for ((i = 0; i < 100; i++)); do
    curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$NGINX_PORT/x" && return 0
    kill -0 "$NGINX_PID" 2>/dev/null || break
    sleep 0.1
  done
  cat "$RUN_DIR/nginx.log" >&2
  die "nginx did not start"
}

nginx_pids() { echo "$NGINX_PID" $(pgrep -P "$NGINX_PID" || true); }

# start_lb port...: nginx as the load balancer (round robin, keep-alive) in front of the pods on these ports
start_lb() {
  NGINX_DIR=$(mktemp -d /tmp/shortgate-bench-nginx.XXXXXX)
  mkdir -p "$NGINX_DIR/tmp" "$NGINX_DIR/logs"
  local servers="" p
  for p in "$@"; do servers="$servers server 127.0.0.1:$p;"; done
  sed -e "s/__PORT__/$NGINX_PORT/" -e "s/__SERVERS__/$servers/" "$BENCH_DIR/nginx-two-pods.conf" >"$NGINX_DIR/nginx.conf"
  "$NGINX_BIN" -p "$NGINX_DIR" -c "$NGINX_DIR/nginx.conf" -e stderr >"$RUN_DIR/nginx-lb.log" 2>&1 &
  NGINX_PID=$!
  local i
  for ((i = 0; i < 100; i++)); do
    curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$NGINX_PORT/healthcheck-probe" && return 0
    kill -0 "$NGINX_PID" 2>/dev/null || break
    sleep 0.1
  done
  cat "$RUN_DIR/nginx-lb.log" >&2
  die "nginx (load balancer) did not start"
}

stop_nginx() {
  stop_pid "$NGINX_PID" 10
  NGINX_PID=""
  rm -rf "$NGINX_DIR"
  NGINX_DIR=""
}

# ---------------------------------------------------------------- the app
DB_URL_BASE="r2dbc:mysql://root@$MARIADB_HOST:$MARIADB_PORT"

new_database() { # name; sets DB_NAME (not echoed: the list of databases to drop must survive)
  DB_NAME="shortgate_bench_${1}_$RUN_ID"
  mariadb -h"$MARIADB_HOST" -P"$MARIADB_PORT" -uroot -e "CREATE DATABASE \`$DB_NAME\`"
  DATABASES+=("$DB_NAME")
}

# launch_app name database [--name=value ...]; starts the app and returns at once (APP_PID)
launch_app() {
  local name=$1 db=$2
  shift 2
  local log_file="$RUN_DIR/app-$name.log"
  log "starting app ($name): $*"
  APP_ARGS="$*"
  # shellcheck disable=SC2086
  ${LAUNCH_JAVA:-java} ${LAUNCH_JAVA_OPTS-$JAVA_OPTS} -jar "${LAUNCH_JAR:-$JAR}" \
    --server.address=127.0.0.1 --server.port="$APP_PORT" \
    --management.server.address=127.0.0.1 --management.server.port="$MGMT_PORT" \
    --spring.r2dbc.url="$DB_URL_BASE/$db" \
    --shortgate.redirect.redis.key-prefix="$REDIS_PREFIX" \
    --logging.level.root=WARN --logging.level.dev.shortgate=INFO \
    `# one client and one key drive all the load: measure throughput, not the rate limits` \
    --shortgate.security.rate-limit.api-capacity=1000000000 --shortgate.security.rate-limit.api-refill=1000000000 \
    --shortgate.security.rate-limit.not-found-capacity=1000000000 \
    --shortgate.security.rate-limit.not-found-refill=1000000000 \
    "$@" >"$log_file" 2>&1 &
  APP_PID=$!
}

# start_app name database [--name=value ...]; waits until ready (bounded)
start_app() {
  local name=$1
  launch_app "$@"
  local i
  for ((i = 0; i < 1800; i++)); do
    if curl -sf -o /dev/null --max-time 2 "http://127.0.0.1:$MGMT_PORT/actuator/health/readiness" \
       && curl -s -o /dev/null --max-time 2 "http://127.0.0.1:$APP_PORT/healthcheck-probe"; then
      log "app ($name) ready, pid $APP_PID"
      return 0
    fi
    kill -0 "$APP_PID" 2>/dev/null || break
    sleep 0.1
  done
  tail -50 "$RUN_DIR/app-$name.log" >&2
  die "app ($name) did not become ready within 180s"
}

stop_app() {
  [ -n "$APP_PID" ] || return 0
  log "stopping app (pid $APP_PID)"
  stop_pid "$APP_PID" 40
  APP_PID=""
}

# common app settings per configuration
NEAR_HOT_SIZE=$(( LINKS * 2 > 100000 ? LINKS * 2 : 100000 ))
APP_HOT=(--spring.data.redis.url="$REDIS_URL"
         --shortgate.redirect.near-cache.max-size="$NEAR_HOT_SIZE" --shortgate.redirect.near-cache.ttl=1h)
# EVENTS=on: every visit also becomes Shlink's events on RabbitMQ and Redis pub/sub (issue 27's A/B)
case "$EVENTS" in
  on) APP_HOT+=(--shortgate.events.rabbitmq.enabled=true --shortgate.events.redis.enabled=true
                --spring.rabbitmq.addresses="$RABBITMQ_URL") ;;
  rabbitmq) APP_HOT+=(--shortgate.events.rabbitmq.enabled=true --spring.rabbitmq.addresses="$RABBITMQ_URL") ;;
  redis) APP_HOT+=(--shortgate.events.redis.enabled=true) ;;
  off) ;;
  *) echo "EVENTS must be on, off, rabbitmq or redis" >&2; exit 2 ;;
esac
NEAR_OFF=(--shortgate.redirect.near-cache.max-size=1 --shortgate.redirect.near-cache.ttl=1ms
          --shortgate.redirect.near-cache.negative-ttl=1ms)
APP_URL="http://127.0.0.1:$APP_PORT/"

# wait (at most $1 seconds) until the app holds no buffered visits, so one scenario's backlog is not the next one's
# wait (at most $1 seconds) until the app holds no raw visit row and no count not yet written, so a scenario after a
# saturating one measures its own load, not the database catching up on the counts the other left behind
wait_visits_drained() {
  local limit=$1 i held="" pending="" scrape
  for ((i = 0; i < limit * 2; i++)); do
    scrape=$(curl -s --max-time 2 "http://127.0.0.1:$MGMT_PORT/actuator/prometheus")
    held=$(awk '/^shortgate_visits_buffered[ {]/ {print int($NF)}' <<<"$scrape" | head -1)
    pending=$(awk '/^shortgate_visits_counts_pending[ {]/ {print int($NF)}' <<<"$scrape" | head -1)
    [ "${held:-1}" = 0 ] && [ "${pending:-0}" = 0 ] && return 0
    sleep 0.5
  done
  log "WARNING: $held visits still buffered and the counts of ${pending:-0} not written after ${limit}s"
}

# wait (at most $1 seconds) until the app has published its hot codes to Redis, as a pod that has served a while has
wait_hot_codes() {
  local limit=$1 i
  for ((i = 0; i < limit * 2; i++)); do
    [ -n "$(redis_cli --scan --pattern "${REDIS_PREFIX}hot:*" | head -1)" ] && return 0
    sleep 0.5
  done
  log "WARNING: no hot codes published after ${limit}s"
}

# request every seeded code once, so the near cache holds them all; bounded by $2 seconds
fill_cache() {
  local codes=$1 limit=$2 out=$3
  local done_file="$RUN_DIR/fill.done"
  : >"$done_file"
  DONE_FILE="$done_file" CODES="$codes" WRK_THREADS="$THREADS" timeout -s INT -k 10 $((limit + 30)) \
    wrk -t"$THREADS" -c"$CONNECTIONS" -d"${limit}s" --timeout 10s -s "$BENCH_DIR/sequential-codes.lua" \
    "$APP_URL" >"$out" 2>&1 &
  WRK_PID=$!
  # each wrk thread stops after its share; wrk itself stops at SIGINT (or at -d)
  while kill -0 "$WRK_PID" 2>/dev/null; do
    if [ "$(wc -l <"$done_file")" -ge "$THREADS" ]; then kill -INT "$WRK_PID" 2>/dev/null || true; break; fi
    sleep 0.5
  done
  wait "$WRK_PID" || true
  WRK_PID=""
  log "fill: $(grep -h "^BENCH_JSON" "$out" | cut -c12-) threads(id answered non-302): $(tr "\n" ";" <"$done_file")"
  if [ "$(wc -l <"$done_file")" -lt "$THREADS" ]; then
    log "WARNING: not every code was answered within ${limit}s; the cache is not fully warm"
    if [ -n "$APP_PID" ]; then # evidence for a stall: the app's threads right now
      timeout 60 jcmd "$APP_PID" Thread.print >"$out.threads.txt" 2>&1 || true
      log "thread dump of the app in $out.threads.txt"
    fi
  fi
}

# ---------------------------------------------------------------- open-loop load (paced, cold-start)
PACER="$RUN_DIR/pacer"
if want paced || want cold-start; then
  command -v gcc >/dev/null || install_packages gcc libc6-dev
  gcc -O2 -o "$PACER" "$BENCH_DIR/pacer.c" -lm || die "could not build pacer"
fi

# db_nice N: every thread of the local mariadbd at nice N (the threads it starts later inherit it); the first call
# keeps the nice it had, which cleanup puts back
db_nice() {
  local pid t
  pid=$(pgrep -x mariadbd | head -1) || { log "PACED_DB_NICE: no local mariadbd"; return 1; }
  [ -n "$DB_NICE_BEFORE" ] || DB_NICE_BEFORE=$(ps -o ni= -p "$pid" | tr -d ' ')
  for t in /proc/"$pid"/task/*; do renice -n "$1" -p "${t##*/}" >/dev/null 2>&1 || true; done
}
if want paced && [ -n "$PACED_DB_NICE" ]; then
  [ "$(id -u)" = 0 ] || die "PACED_DB_NICE needs root (renice of mariadbd)"
  pgrep -x mariadbd >/dev/null || die "PACED_DB_NICE: no local mariadbd"
fi

# paced_runs name port rate [pid...]: a WARMUP run at the rate (discarded), then RUNS runs of DURATION at a fixed offered rate,
# latency from each request's due time; each run's records (due time, latency, status) in <name>.run<i>.raw. With
# PACED_EVIDENCE=1 the on-CPU time of every thread of the pids, MariaDB, Redis and the pacer is sampled every 25 ms
# during each run into <name>.run<i>.threads (tail.py sample; read it with tail.py analyze)
paced_runs() {
  local name=$1 port=$2 rate=$3 run
  shift 3
  local flags=()
  [ "$PACER_BUSY_POLL" = 1 ] && flags=(-b)
  [ -n "$PACED_ZIPF" ] && flags+=(-z "$PACED_ZIPF")
  if [ "$(seconds_of "$WARMUP")" -gt 0 ]; then
    log "$name: warm-up, $rate req/s offered (open loop), $WARMUP"
    timeout -k 10 $(( $(seconds_of "$WARMUP") + 60 )) "$PACER" -p "$port" -c "$CONNECTIONS" "${flags[@]}" \
      -d "$(seconds_of "$WARMUP")" -r "$rate" -f "$CODES_FILE" >"$RUN_DIR/$name.warmup.pacer.txt" \
      || die "pacer failed ($name warm-up)"
  fi
  for ((run = 1; run <= RUNS; run++)); do
    log "$name: run $run of $RUNS, $rate req/s offered (open loop), $DURATION, $CONNECTIONS connections;$(uptime | sed 's/.*,  *load/ load/')"
    if [ "$PACED_EVIDENCE" = 1 ]; then
      python3 "$BENCH_DIR/tail.py" sample --out "$RUN_DIR/$name.run$run.threads" --name mariadbd --name redis-server \
        --name pacer "$@" &
      SAMPLER_PID=$!
    fi
    timeout -k 10 $(( $(seconds_of "$DURATION") + 60 )) "$PACER" -p "$port" -c "$CONNECTIONS" "${flags[@]}" \
      -d "$(seconds_of "$DURATION")" -r "$rate" -f "$CODES_FILE" -o "$RUN_DIR/$name.run$run.raw" \
      >"$RUN_DIR/$name.run$run.pacer.txt" || die "pacer failed ($name)"
    if [ -n "$SAMPLER_PID" ]; then kill "$SAMPLER_PID" 2>/dev/null; wait "$SAMPLER_PID" 2>/dev/null; SAMPLER_PID=""; fi
    log "         $(cut -c13- "$RUN_DIR/$name.run$run.pacer.txt")"
  done
}

# cold_evidence name: over the first 10 s after ready, an async-profiler wall-clock profile (with ASYNC_PROFILER),
# thread dumps at 1, 3 and 6 s and metric scrapes at 0, 2, 5 and 10 s, into RUN_DIR/<name>.*
cold_evidence() {
  local name=$1 at
  [ -n "$ASYNC_PROFILER" ] && jcmd "$APP_PID" JVMTI.agent_load "$ASYNC_PROFILER" \
    "\"start,event=wall,interval=5ms,threads\"" >/dev/null 2>&1
  for at in 0 1 2 3 5 6 10; do
    case $at in 1 | 3 | 6) timeout 20 jcmd "$APP_PID" Thread.print >"$RUN_DIR/$name.threads-${at}s.txt" 2>&1 ;; esac
    case $at in 0 | 2 | 5 | 10) scrape "$RUN_DIR/$name.prom-${at}s.txt" ;; esac
    sleep 1
  done
  if [ -n "$ASYNC_PROFILER" ]; then
    jcmd "$APP_PID" JVMTI.agent_load "$ASYNC_PROFILER" "\"stop,collapsed,file=$RUN_DIR/$name.wall.collapsed\"" >/dev/null 2>&1
    python3 "$BENCH_DIR/collapsed.py" "$RUN_DIR/$name.wall.collapsed" >"$RUN_DIR/$name.wall.txt" 2>&1 || true
  fi
}

# cold_start name [--name=value ...]: a fresh pod on the seeded database and Redis; the moment its readiness answers
# UP it gets the hot load (closed loop, CONNECTIONS connections over every link) for COLD_SECONDS
cold_start() {
  local name=$1 i started ready_after
  shift
  started=$(date +%s.%N)
  LAUNCH_JAVA="$COLD_JAVA" LAUNCH_JAVA_OPTS="${COLD_JAVA_OPTS-$JAVA_OPTS}" LAUNCH_JAR="$COLD_JAR" \
    launch_app "$name" "$DB" "${APP_HOT[@]}" "$@"
  for ((i = 0; i < 3600; i++)); do
    curl -sf -o /dev/null --max-time 1 "http://127.0.0.1:$MGMT_PORT/actuator/health/readiness" && break
    kill -0 "$APP_PID" 2>/dev/null || { tail -50 "$RUN_DIR/app-$name.log" >&2; die "app ($name) died"; }
    sleep 0.05
  done
  ready_after=$(python3 -c "import sys; print(round($(date +%s.%N) - $started, 2))")
  log "$name: ready after ${ready_after}s; hot load for ${COLD_SECONDS}s;$(uptime | sed 's/.*,  *load/ load/')"
  local evidence=""
  if [ "$COLD_EVIDENCE" = 1 ]; then # what the pod does in its first seconds: profile, thread dumps, scrapes
    cold_evidence "$name" &
    evidence=$!
  fi
  timeout -k 10 $((COLD_SECONDS + 60)) "$PACER" -p "$APP_PORT" -c "$CONNECTIONS" -d "$COLD_SECONDS" \
    -f "$CODES_FILE" -o "$RUN_DIR/$name.raw" >"$RUN_DIR/$name.pacer.txt" || die "pacer failed ($name)"
  [ -n "$evidence" ] && wait "$evidence"
  curl -s --max-time 5 "http://127.0.0.1:$MGMT_PORT/actuator/health/readiness" >"$RUN_DIR/$name.readiness.json" || true
  python3 "$BENCH_DIR/bench.py" cold-start --raw "$RUN_DIR/$name.raw" --name "$name" --ready-after "$ready_after" \
    --out "$RUN_DIR/$name.json" >&2
  stop_app
}

# ---------------------------------------------------------------- run
META_START=$(date -u +%Y-%m-%dT%H:%M:%SZ)
log "run $RUN_ID: scenarios $SCENARIOS; duration $DURATION, warm-up $WARMUP, $CONNECTIONS connections, $THREADS threads, $LINKS links"
log "output in $RUN_DIR"

REDIRECT_SCENARIOS=0
for s in hot sustained paced cold-start redis overload db miss shorten visits-off rules domains two-pods; do
  want "$s" && REDIRECT_SCENARIOS=1
done
CODES_FILE="$RUN_DIR/codes.txt"
export CODES="$CODES_FILE"

if [ "$REDIRECT_SCENARIOS" = 1 ]; then
  new_database main
  DB=$DB_NAME
  # hot configuration: Redis on, near cache big enough for every link, visits on
  start_app hot "$DB" "${APP_HOT[@]}"
  log "seeding $LINKS links through the batch API"
  timeout 1800 python3 "$BENCH_DIR/bench.py" seed --port "$APP_PORT" --count "$LINKS" --concurrency 4 \
    --tag "$RUN_ID" --out "$CODES_FILE" --progress >"$RUN_DIR/seed.json" || die "seeding failed"
  log "seeded: $(cat "$RUN_DIR/seed.json")"

  # the baseline, measured the same way (same wrk script and codes) while the app sits idle
  start_nginx
  measure nginx random-codes.lua "http://127.0.0.1:$NGINX_PORT/" $(nginx_pids)
  if want paced; then
    NGINX_MAX=$(python3 -c 'import json,sys; print(round(json.load(open(sys.argv[1]))["rps"]))' "$RUN_DIR/scenario-nginx.json")
    PACED_RATE=${PACED_RATE:-$((NGINX_MAX / 2))}
    paced_runs paced-nginx "$NGINX_PORT" "$PACED_RATE" $(nginx_pids)
  fi
  stop_pid "$NGINX_PID" 10
  NGINX_PID=""

  if want hot || want sustained || want paced || want cold-start; then # cold-start: the hot app serves them
    fill_cache "$CODES_FILE" "$FILL_TIMEOUT" "$RUN_DIR/hot.fill.txt"
  fi
  if want hot; then
    measure hot random-codes.lua "$APP_URL" "$APP_PID"
  fi
  if want rules; then
    # the rules scenario's traffic (agents, languages, queries) on links without rules: what the mix costs alone
    measure hot-mix rules.lua "$APP_URL" "$APP_PID"
  fi
  if want sustained; then
    # the hot path at a steady offered load: are visits written as fast as they come (dropped 0)?
    wait_visits_drained 180
    PACE_MS=$(( CONNECTIONS * 1000 / RATE > 0 ? CONNECTIONS * 1000 / RATE : 1 )) \
      measure sustained random-codes-paced.lua "$APP_URL" "$APP_PID"
    wait_visits_drained 180
  fi
  if want paced; then
    # the hot path at half nginx's max, visits on: the tail users feel at a steady load
    wait_visits_drained 180
    if [ -n "$PACED_DB_NICE" ]; then
      db_nice "$PACED_DB_NICE" || die "PACED_DB_NICE: could not renice mariadbd"
      log "paced: mariadbd at nice $PACED_DB_NICE during the runs (PACED_DB_NICE)"
    fi
    paced_runs paced "$APP_PORT" "$PACED_RATE" "$APP_PID"
    if [ -n "$PACED_DB_NICE" ]; then db_nice "$DB_NICE_BEFORE" || die "PACED_DB_NICE: could not renice mariadbd back"; fi
    python3 "$BENCH_DIR/bench.py" paced --app "$RUN_DIR"/paced.run*.pacer.txt \
      --nginx "$RUN_DIR"/paced-nginx.run*.pacer.txt --rate "$PACED_RATE" --nginx-max "$NGINX_MAX" \
      --connections "$CONNECTIONS" --out "$RUN_DIR/paced.json" >&2
    wait_visits_drained 180
  fi
  if want miss; then
    measure miss random-miss.lua "$APP_URL" "$APP_PID"
  fi
  # every redirect this app answered must be counted once it has shut down (SIGTERM flushes the counts)
  FOUND=$(curl -s --max-time 10 "http://127.0.0.1:$MGMT_PORT/actuator/prometheus" \
    | awk '/^shortgate_redirect_seconds_count\{/ && /outcome="found"/ {s += $NF} END {printf "%d", s}')
  stop_app
  AGGREGATE=$(mariadb -h"$MARIADB_HOST" -P"$MARIADB_PORT" -uroot -N -B "$DB" -e 'SELECT COALESCE(SUM(visits), 0) FROM link_stats')
  RAW_ROWS=$(mariadb -h"$MARIADB_HOST" -P"$MARIADB_PORT" -uroot -N -B "$DB" -e 'SELECT COUNT(*) FROM visit')
  printf '{"redirects_found": %s, "aggregate_total": %s, "raw_rows": %s}\n' "$FOUND" "$AGGREGATE" "$RAW_ROWS" \
    >"$RUN_DIR/visits-after-shutdown.json"
  log "after shutdown: redirects answered $FOUND, link_stats total $AGGREGATE, raw visit rows $RAW_ROWS"

  if want cold-start; then
    # every seeded link is in Redis and the hot app has published its hottest codes there; a fresh pod with the
    # warm-up (the default), then one without it, for comparison
    wait_hot_codes 45
    if [ -z "$COLD_AB" ]; then
      cold_start cold-start
      cold_start cold-start-nowarm --shortgate.warmup.enabled=false
    else # an A/B of jars on the same seeded state: label:jar pairs, alternating, COLD_ROUNDS rounds
      for ((round = 1; round <= COLD_ROUNDS; round++)); do
        for pair in $COLD_AB; do
          label=${pair%%:*}
          java_var="COLD_JAVA_$label" opts_var="COLD_JAVA_OPTS_$label" # e.g. COLD_JAVA_jdk25=…/bin/java
          entry_java=${!java_var-$COLD_JAVA}
          entry_opts=${!opts_var-$COLD_JAVA_OPTS}
          COLD_JAVA=$entry_java COLD_JAVA_OPTS=$entry_opts COLD_JAR=${pair#*:} cold_start "cold-start-$label-r$round"
          [ "$COLD_NOWARM" = 1 ] && COLD_JAVA=$entry_java COLD_JAVA_OPTS=$entry_opts COLD_JAR=${pair#*:} \
            cold_start "cold-start-nowarm-$label-r$round" --shortgate.warmup.enabled=false
        done
      done
    fi
  fi

  if want shorten; then
    # creates under each code strategy, one app each on the seeded database (Redis on), printed side by side
    for strategy in ${STRATEGIES//,/ }; do
      start_app "shorten-$strategy" "$DB" "${APP_HOT[@]}" --shortgate.codegen.strategy="$strategy"
      WARMUP="$SHORTEN_WARMUP" RUN_TAG="$RUN_ID-single-$strategy" \
        measure "shorten-$strategy" shorten.lua "$APP_URL" "$APP_PID"
      # batch creates: BATCH_CALLS calls of 1000 new links, 2 at a time
      if [ "$BATCH_WARMUP_CALLS" -gt 0 ]; then
        log "shorten-batch-$strategy: warm-up, $BATCH_WARMUP_CALLS batch calls of 1000 links (not timed)"
        timeout 1800 python3 "$BENCH_DIR/bench.py" seed --port "$APP_PORT" --count $(( BATCH_WARMUP_CALLS * 1000 )) \
          --concurrency 2 --tag "$RUN_ID-batch-warmup-$strategy" >/dev/null || die "batch warm-up failed"
      fi
      log "shorten-batch-$strategy: $BATCH_CALLS batch calls of 1000 links, 2 in parallel"
      scrape "$RUN_DIR/shorten-batch-$strategy.prom-before.txt"
      before=$(cpu_ticks "$APP_PID")
      timeout 1800 python3 "$BENCH_DIR/bench.py" seed --port "$APP_PORT" --count $(( BATCH_CALLS * 1000 )) \
        --concurrency 2 --tag "$RUN_ID-batch-$strategy" >"$RUN_DIR/shorten-batch-$strategy.seed.json" \
        || die "batch creates failed"
      after=$(cpu_ticks "$APP_PID")
      scrape "$RUN_DIR/shorten-batch-$strategy.prom-after.txt"
      python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); print(json.dumps({"requests": s["links"],
"duration_s": s["seconds"], "rps": s["links_per_s"], "latency_us": None, "errors": {}}))' \
        "$RUN_DIR/shorten-batch-$strategy.seed.json" >"$RUN_DIR/shorten-batch-$strategy.result.json"
      python3 "$BENCH_DIR/bench.py" record --name "shorten-batch-$strategy" \
        --json-in "$RUN_DIR/shorten-batch-$strategy.result.json" \
        --ticks-before "$before" --ticks-after "$after" --clk-tck "$CLK_TCK" --pids "$APP_PID" \
        --prom-before "$RUN_DIR/shorten-batch-$strategy.prom-before.txt" \
        --prom-after "$RUN_DIR/shorten-batch-$strategy.prom-after.txt" \
        --extra batches="$BATCH_CALLS" --extra batch_size=1000 --out "$RUN_DIR/scenario-shorten-batch-$strategy.json"
      log "         shorten-batch-$strategy: $(cat "$RUN_DIR/shorten-batch-$strategy.seed.json")"
      stop_app
    done
  fi

  if want visits-off; then
    # (visits are on by default; a property given twice on the command line would bind as "true,false")
    start_app visits-off "$DB" "${APP_HOT[@]}" --shortgate.visit.enabled=false
    fill_cache "$CODES_FILE" "$FILL_TIMEOUT" "$RUN_DIR/visits-off.fill.txt"
    measure visits-off random-codes.lua "$APP_URL" "$APP_PID"
    stop_app
  fi
  if want rules; then
    # as hot, with five redirect rules on every link: device android, language fr, query utm_source=newsletter,
    # country DE (no GeoIP database here: looked up, never matches) and a 50/50 split for everyone after 2020. Written
    # straight into link_rules (the API would take minutes for 100,000 links); the app gets its own Redis key prefix,
    # so every copy it caches is read from the database with the rules (rules.lua sends a mix of agents/languages)
    RULES_JSON='{"rules":[
{"url":"https://example.com/bench/android","conditions":[{"type":"device","matchKey":null,"matchValue":"android"}],"variants":[]},
{"url":"https://example.com/bench/fr","conditions":[{"type":"language","matchKey":null,"matchValue":"fr"}],"variants":[]},
{"url":"https://example.com/bench/news","conditions":[{"type":"query-param","matchKey":"utm_source","matchValue":"newsletter"}],"variants":[]},
{"url":"https://example.com/bench/de","conditions":[{"type":"geolocation-country-code","matchKey":null,"matchValue":"DE"}],"variants":[]},
{"url":"https://example.com/bench/a","conditions":[{"type":"after-date","matchKey":null,"matchValue":"2020-01-01T00:00:00Z"}],
 "variants":[{"url":"https://example.com/bench/a","weight":1},{"url":"https://example.com/bench/b","weight":1}]}],"variants":[]}'
    RULES_JSON=$(tr -d '\n' <<<"$RULES_JSON")
    mariadb -h"$MARIADB_HOST" -P"$MARIADB_PORT" -uroot "$DB" -e "DELETE FROM link_rules;
      INSERT INTO link_rules (code, rules_json, updated_at) SELECT code, '$RULES_JSON', NOW(3) FROM link" \
      || die "rules: writing the rules failed"
    SAVED_PREFIX=$REDIS_PREFIX
    REDIS_PREFIX="${REDIS_PREFIX}rules:"
    start_app rules "$DB" "${APP_HOT[@]}"
    fill_cache "$CODES_FILE" "$FILL_TIMEOUT" "$RUN_DIR/rules.fill.txt"
    # the hot app's JIT had the seeding and the nginx run to compile the HTTP stack; this one starts cold
    WARMUP="$(( $(seconds_of "$WARMUP") > $(seconds_of "$RULES_WARMUP") ? $(seconds_of "$WARMUP") : $(seconds_of "$RULES_WARMUP") ))s" \
      measure rules rules.lua "$APP_URL" "$APP_PID"
    stop_app
    REDIS_PREFIX=$SAVED_PREFIX
  fi
  if want domains; then
    # as hot, on three domains: every link copied onto two more (b.bench and c.bench, each copy under its own key
    # <domain id>~<code>, same URL), and the traffic spread over the three hosts by the Host header ("localhost" is
    # the default domain, the host of the default base URL). The near cache holds all three copies of every link.
    mariadb -h"$MARIADB_HOST" -P"$MARIADB_PORT" -uroot "$DB" -e "
      INSERT INTO domains (host, created_at) VALUES ('b.bench', NOW(3)), ('c.bench', NOW(3));
      CREATE TEMPORARY TABLE bench_b AS SELECT * FROM link WHERE code NOT LIKE '%~%';
      UPDATE bench_b SET create_key = NULL;
      CREATE TEMPORARY TABLE bench_c AS SELECT * FROM bench_b;
      UPDATE bench_b SET code = CONCAT((SELECT id FROM domains WHERE host = 'b.bench'), '~', code);
      UPDATE bench_c SET code = CONCAT((SELECT id FROM domains WHERE host = 'c.bench'), '~', code);
      INSERT INTO link SELECT * FROM bench_b;
      INSERT INTO link SELECT * FROM bench_c;" || die "domains: copying the links failed"
    DOMAIN_CODES="$RUN_DIR/domain-codes.txt"
    awk '{ print "localhost " $0; print "b.bench " $0; print "c.bench " $0 }' "$CODES_FILE" >"$DOMAIN_CODES"
    SAVED_PREFIX=$REDIS_PREFIX
    REDIS_PREFIX="${REDIS_PREFIX}domains:"
    # (APP_HOT's near-cache size given again would bind as "N,3N": the settings are spelt out instead)
    start_app domains "$DB" --spring.data.redis.url="$REDIS_URL" --shortgate.redirect.near-cache.ttl=1h \
      --shortgate.redirect.near-cache.max-size=$((NEAR_HOT_SIZE * 3))
    CODES="$DOMAIN_CODES" fill_cache "$DOMAIN_CODES" "$((FILL_TIMEOUT * 3))" "$RUN_DIR/domains.fill.txt"
    CODES="$DOMAIN_CODES" measure domains domains.lua "$APP_URL" "$APP_PID"
    stop_app
    REDIS_PREFIX=$SAVED_PREFIX
    mariadb -h"$MARIADB_HOST" -P"$MARIADB_PORT" -uroot "$DB" -e "DELETE FROM link WHERE code LIKE '%~%';
      DELETE FROM domains;" || die "domains: removing the copies failed"
  fi
  if want redis; then
    # near cache effectively off (one entry, 1 ms); every link is in Redis, written through when it was created
    start_app redis "$DB" --spring.data.redis.url="$REDIS_URL" --shortgate.visit.enabled=true "${NEAR_OFF[@]}"
    measure redis random-codes.lua "$APP_URL" "$APP_PID"
    stop_app
  fi
  if want overload; then
    # as redis, with a CPU hog spinning on one core for the whole scenario: the pod's own overload must not read
    # as a Redis fault (the breaker stays closed) nor collapse throughput
    start_app overload "$DB" --spring.data.redis.url="$REDIS_URL" --shortgate.visit.enabled=true "${NEAR_OFF[@]}"
    HOG_SECONDS=$(( $(seconds_of "$WARMUP") + RUNS * ($(seconds_of "$DURATION") + 15) + 30 ))
    command -v stress-ng >/dev/null || install_packages stress-ng
    stress-ng --cpu 1 --cpu-load 100 --timeout "${HOG_SECONDS}s" >"$RUN_DIR/overload.stress-ng.txt" 2>&1 &
    HOG_PID=$!
    measure overload random-codes.lua "$APP_URL" "$APP_PID"
    stop_pid "$HOG_PID" 10
    HOG_PID=""
    stop_app
  fi
  if want db; then
    # no Redis URL (tier off) and the near cache effectively off: every request queries MariaDB
    start_app db "$DB" --shortgate.visit.enabled=true "${NEAR_OFF[@]}"
    measure db random-codes.lua "$APP_URL" "$APP_PID"
    stop_app
  fi
  if want two-pods; then
    # the hot scenario through nginx (round robin, keep-alive): to one pod, then to two on the same machine. Both
    # pods share MariaDB and Redis; CPU/req counts the pods' CPU (not nginx's). On 2 cores two pods cannot double
    # the throughput; what must hold is that the CPU per request does not grow with the second pod.
    LB_URL="http://127.0.0.1:$NGINX_PORT/"
    start_app two-pods-a "$DB" "${APP_HOT[@]}"
    POD1_PID=$APP_PID
    start_lb "$APP_PORT"
    # each pod's near cache is filled straight, twice (a pass on a busy machine can leave codes answered 503), so
    # both measurements start from pods holding every link
    fill_cache "$CODES_FILE" "$FILL_TIMEOUT" "$RUN_DIR/two-pods-a.fill1.txt"
    fill_cache "$CODES_FILE" "$FILL_TIMEOUT" "$RUN_DIR/two-pods-a.fill2.txt"
    measure two-pods-1 random-codes.lua "$LB_URL" "$POD1_PID"
    stop_nginx
    # the second pod on its own ports (start_app and the scrapes read APP_PORT / MGMT_PORT)
    SAVED_PORTS=("$APP_PORT" "$MGMT_PORT")
    APP_PORT=$APP2_PORT MGMT_PORT=$MGMT2_PORT start_app two-pods-b "$DB" "${APP_HOT[@]}"
    POD2_PID=$APP_PID
    APP_PID=$POD1_PID
    start_lb "${SAVED_PORTS[0]}" "$APP2_PORT"
    APP_URL="http://127.0.0.1:$APP2_PORT/" fill_cache "$CODES_FILE" "$FILL_TIMEOUT" "$RUN_DIR/two-pods-b.fill1.txt"
    APP_URL="http://127.0.0.1:$APP2_PORT/" fill_cache "$CODES_FILE" "$FILL_TIMEOUT" "$RUN_DIR/two-pods-b.fill2.txt"
    # the second pod's JVM is younger: a longer warm-up, so its JIT work is not counted as per-request CPU
    WARMUP="$(( 2 * $(seconds_of "$WARMUP") ))s" measure two-pods-2 random-codes.lua "$LB_URL" "$POD1_PID" "$POD2_PID"
    stop_nginx
    stop_pid "$POD2_PID" 40
    POD2_PID=""
    stop_app
  fi
fi

# ---------------------------------------------------------------- stats API over a long history
if want stats; then
  new_database stats
  SDB=$DB_NAME
  start_app stats "$SDB"
  STATS_CODE=$(curl -sf --max-time 10 -X POST "http://127.0.0.1:$APP_PORT/api/v1/links" \
    -H "X-Api-Key: $SHORTGATE_ADMIN_KEY" -H 'Content-Type: application/json' -d '{"url":"https://example.com/bench-stats"}' \
    | python3 -c 'import json, sys; print(json.load(sys.stdin)["code"])') || die "stats: could not create the link"
  STATS_END=$(date -u +%F)
  PER_DAY=$(( STATS_VISITS / 365 ))
  log "stats: seeding $STATS_VISITS visits over 365 days into the aggregates of $STATS_CODE"
  # straight into the tables the stats API reads: 365 day rows, Zipf-shaped labels per dimension (60 countries,
  # 20 browsers, 12 OSes, 8 device classes, 100 referrer hosts a day) and two pods' sketches of each day
  timeout 600 mariadb -h"$MARIADB_HOST" -P"$MARIADB_PORT" -uroot "$SDB" -e "
    INSERT INTO link_stats (code, stat_date, visits, bot_visits)
    SELECT '$STATS_CODE', DATE_SUB('$STATS_END', INTERVAL d.seq DAY), $PER_DAY, $PER_DAY DIV 10 FROM seq_0_to_364 d;
    INSERT INTO visit_dim_stats (code, stat_date, dim, label, visits, bot_visits)
    SELECT '$STATS_CODE', DATE_SUB('$STATS_END', INTERVAL d.seq DAY), x.dim, x.label, x.v, x.v DIV 10
    FROM seq_0_to_364 d CROSS JOIN (
      SELECT 1 AS dim, CONCAT(CHAR(65 + l.seq DIV 26), CHAR(65 + l.seq MOD 26)) AS label,
             FLOOR($PER_DAY / (l.seq + 1) / 4.68) AS v FROM seq_0_to_59 l
      UNION ALL SELECT 2, CONCAT('Browser ', l.seq), FLOOR($PER_DAY / (l.seq + 1) / 3.60) FROM seq_0_to_19 l
      UNION ALL SELECT 3, CONCAT('OS ', l.seq), FLOOR($PER_DAY / (l.seq + 1) / 3.10) FROM seq_0_to_11 l
      UNION ALL SELECT 4, CONCAT('Device ', l.seq), FLOOR($PER_DAY / (l.seq + 1) / 2.72) FROM seq_0_to_7 l
      UNION ALL SELECT 5, CONCAT('site', l.seq, '.example'), FLOOR($PER_DAY / (l.seq + 1) / 5.19) FROM seq_0_to_99 l
    ) x;
    INSERT INTO visit_dim_month (code, stat_month, dim, label, visits, bot_visits)
    SELECT code, DATE_FORMAT(stat_date, '%Y-%m-01'), dim, label, SUM(visits), SUM(bot_visits)
    FROM visit_dim_stats WHERE code = '$STATS_CODE' GROUP BY code, DATE_FORMAT(stat_date, '%Y-%m-01'), dim, label;" \
    || die "stats: seeding the aggregates failed"
  mkdir -p "$RUN_DIR/lib"
  unzip -q -o -j "$JAR" 'BOOT-INF/lib/datasketches-*' -d "$RUN_DIR/lib"
  timeout 300 java -cp "$RUN_DIR/lib/*" "$BENCH_DIR/StatsSketches.java" "$STATS_CODE" "$STATS_END" 365 20000 2 \
    >"$RUN_DIR/stats-sketches.sql" || die "stats: making the sketches failed"
  timeout 300 mariadb -h"$MARIADB_HOST" -P"$MARIADB_PORT" -uroot "$SDB" <"$RUN_DIR/stats-sketches.sql" \
    || die "stats: seeding the sketches failed"
  curl -sf --max-time 30 -H "X-Api-Key: $SHORTGATE_ADMIN_KEY" \
    "http://127.0.0.1:$APP_PORT/api/v1/links/$STATS_CODE/stats?from=$(date -u -d "$STATS_END -364 days" +%F)&to=$STATS_END&bots=true" \
    | python3 -c 'import json, sys; s = json.load(sys.stdin); print("visits", s["visits"], "uniqueVisitors", s["uniqueVisitors"], "topBrowsers[0]", s["topBrowsers"][0])' \
    >"$RUN_DIR/stats-check.txt" || die "stats: the stats API did not answer"
  TOP_BROWSER=$(mariadb -h"$MARIADB_HOST" -P"$MARIADB_PORT" -uroot -N -B "$SDB" -e "SELECT SUM(visits)
    FROM visit_dim_stats WHERE code = '$STATS_CODE' AND dim = 2 AND label = 'Browser 0'")
  log "stats: 365 days answer $(cat "$RUN_DIR/stats-check.txt") (seeded $(( PER_DAY * 365 )) visits, 3,660,000 visitors, Browser 0 $TOP_BROWSER by day rows)"
  for days in 30 365; do
    STATS_PATH="/api/v1/links/$STATS_CODE/stats?from=$(date -u -d "$STATS_END -$(( days - 1 )) days" +%F)&to=$STATS_END" \
      CONNECTIONS=$STATS_CONNECTIONS measure "stats-${days}d" stats.lua "$APP_URL" "$APP_PID"
  done
  stop_app
fi

# ---------------------------------------------------------------- heap per cached link
cache_size() {
  curl -sf --max-time 10 "http://127.0.0.1:$MGMT_PORT/actuator/prometheus" \
    | awk '/^cache_size\{/ && /cache="links"/ {s += $NF} END {printf "%d\n", s}'
}

if want heap; then
  new_database heap
  HDB=$DB_NAME
  # no Redis (a million keys would land in the shared Redis) and no visits, so only the near cache grows
  JAVA_OPTS="$JAVA_OPTS -Xmx$HEAP_XMX" start_app heap "$HDB" --shortgate.visit.enabled=false \
    --shortgate.redirect.near-cache.max-size=$(( HEAP_LINKS + HEAP_LINKS / 10 )) \
    --shortgate.redirect.near-cache.ttl=6h --shortgate.redirect.near-cache.negative-ttl=1ms
  HEAP_PID=$APP_PID
  # the app has migrated the schema; insert the links straight into MariaDB (the batch API would take minutes)
  log "heap: inserting $HEAP_LINKS links into MariaDB"
  timeout 900 mariadb -h"$MARIADB_HOST" -P"$MARIADB_PORT" -uroot "$HDB" -e "
    INSERT INTO link (code, long_url, long_url_hash, created_at)
    SELECT c.code, c.url, UNHEX(SHA2(c.url, 256)), NOW(3)
    FROM (SELECT CONCAT('h', LPAD(CONV(seq, 10, 36), 6, '0')) AS code,
                 CONCAT('https://example.com/articles/', seq, '/a-typical-slug-for-a-link?utm_source=bench') AS url
          FROM seq_1_to_$HEAP_LINKS) c" || die "heap: insert failed"
  HEAP_CODES="$RUN_DIR/heap-codes.txt"
  mariadb -h"$MARIADB_HOST" -P"$MARIADB_PORT" -uroot -N -B "$HDB" -e 'SELECT code FROM link' >"$HEAP_CODES"
  AVG_URL=$(mariadb -h"$MARIADB_HOST" -P"$MARIADB_PORT" -uroot -N -B "$HDB" \
    -e 'SELECT ROUND(AVG(CHAR_LENGTH(long_url)), 1) FROM link')
  # exercise the whole request path (JIT, pools, buffers) without caching anything: unknown codes, 1 ms negative TTL
  log "heap: warming the request path with unknown codes"
  run_wrk "$RUN_DIR/heap.warmup.txt" 10s random-miss.lua "$APP_URL"
  sleep 1
  CACHED_BEFORE=$(cache_size)
  # GC.class_histogram runs a full GC first, so its total is the live heap
  timeout 300 jcmd "$HEAP_PID" GC.class_histogram >"$RUN_DIR/heap-histo-before.txt"
  log "heap: requesting each of $HEAP_LINKS codes once (bounded by ${HEAP_FILL_TIMEOUT}s)"
  FILL_START=$(date +%s)
  fill_cache "$HEAP_CODES" "$HEAP_FILL_TIMEOUT" "$RUN_DIR/heap.fill.txt"
  FILL_SECONDS=$(( $(date +%s) - FILL_START ))
  CACHED_AFTER=$(cache_size)
  timeout 300 jcmd "$HEAP_PID" GC.class_histogram >"$RUN_DIR/heap-histo-after.txt"
  python3 "$BENCH_DIR/bench.py" heap --before "$RUN_DIR/heap-histo-before.txt" --after "$RUN_DIR/heap-histo-after.txt" \
    --cached-before "$CACHED_BEFORE" --cached-after "$CACHED_AFTER" --links "$HEAP_LINKS" --avg-url "$AVG_URL" \
    --code-chars 7 --xmx "$HEAP_XMX" --fill-seconds "$FILL_SECONDS" --out "$RUN_DIR/heap.json" >&2
  stop_app
fi

# ---------------------------------------------------------------- report
META=$(python3 "$BENCH_DIR/bench.py" meta --command "$COMMAND_LINE" --date "$META_START" --run-dir "$RUN_DIR" \
  --option duration="$DURATION" --option warmup="$WARMUP" --option runs="$RUNS" --option connections="$CONNECTIONS" \
  --option threads="$THREADS" --option links="$LINKS" --option scenarios="$SCENARIOS" \
  --option batch_calls="$BATCH_CALLS" --option heap_links="$HEAP_LINKS" --option heap_xmx="$HEAP_XMX" \
  --option java_opts="$JAVA_OPTS" --option near_cache_hot_max_size="$NEAR_HOT_SIZE" \
  --option paced_db_nice="$PACED_DB_NICE" --option paced_zipf="$PACED_ZIPF")
python3 "$BENCH_DIR/bench.py" report --dir "$RUN_DIR" --out "$OUT_DIR/result.json" --meta "$META"
cp "$OUT_DIR/result.json" "$RUN_DIR/result.json"
