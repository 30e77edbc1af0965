#!/usr/bin/env bash
# A throw-away Redis Cluster on loopback for the cluster integration tests: 3 masters + 3 replicas.
#
#   .ci/redis-cluster.sh start   # prints the seed nodes (host:port,...) on stdout when the cluster is ready
#   .ci/redis-cluster.sh stop    # stops the nodes this script started (by PID) and removes their directory
#   .ci/redis-cluster.sh nodes   # the seed nodes again
#
# Ports come from REDIS_CLUSTER_BASE_PORT (default 19401): base .. base+5. The nodes keep no data on disk
# (no RDB, no AOF) and live in a directory of their own, so a stop leaves nothing behind. The tests kill one
# master themselves (by the PID its INFO reports) and wait for its replica to take over.
set -euo pipefail

base=${REDIS_CLUSTER_BASE_PORT:-19401}
dir=${REDIS_CLUSTER_DIR:-/tmp/shortgate-redis-cluster-$base}
ports=()
for i in 0 1 2 3 4 5; do ports+=($((base + i))); done

log() { printf '[redis-cluster] %s\n' "$*" >&2; }

nodes() {
  local IFS=,
  local list=()
  for p in "${ports[@]}"; do list+=("127.0.0.1:$p"); done
  echo "${list[*]}"
}

stop() {
  # Read every PID before waiting: a node that stops removes its PID file, perhaps between a test and a read.
  local pids=() pid
  for p in "${ports[@]}"; do
    pid=$(cat "$dir/$p/redis.pid" 2>/dev/null) || continue
    pids+=("$pid")
    kill "$pid" 2>/dev/null || true
  done
  for pid in "${pids[@]}"; do
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  done
  rm -rf "$dir"
}

start() {
  command -v redis-server >/dev/null || { log "redis-server is not installed"; exit 1; }
  stop
  mkdir -p "$dir"
  for p in "${ports[@]}"; do
    mkdir -p "$dir/$p"
    # A short node timeout so a killed master's replica is promoted within a few seconds.
    redis-server --port "$p" --bind 127.0.0.1 --cluster-enabled yes \
      --cluster-config-file "$dir/$p/nodes.conf" --cluster-node-timeout 2000 \
      --save "" --appendonly no --dir "$dir/$p" --daemonize yes \
      --pidfile "$dir/$p/redis.pid" --logfile "$dir/$p/redis.log"
  done
  for p in "${ports[@]}"; do
    for _ in $(seq 1 50); do redis-cli -p "$p" ping >/dev/null 2>&1 && break; sleep 0.1; done
    redis-cli -p "$p" ping >/dev/null || { log "node $p did not start"; exit 1; }
  done
  local hosts=()
  for p in "${ports[@]}"; do hosts+=("127.0.0.1:$p"); done
  redis-cli --cluster create "${hosts[@]}" --cluster-replicas 1 --cluster-yes >"$dir/create.log" 2>&1 \
    || { cat "$dir/create.log" >&2; exit 1; }
  for _ in $(seq 1 100); do
    ok=1
    for p in "${ports[@]}"; do
      redis-cli -p "$p" cluster info 2>/dev/null | grep -q 'cluster_state:ok' || ok=0
    done
    [ "$ok" = 1 ] && break
    sleep 0.2
  done
  [ "$ok" = 1 ] || { log "the cluster did not reach cluster_state:ok"; exit 1; }
  # Every replica must be attached before a test kills a master, or there is no one to take over.
  for _ in $(seq 1 100); do
    replicas=$(redis-cli -p "$base" cluster nodes | grep -c ' slave ' || true)
    [ "$replicas" = 3 ] && break
    sleep 0.2
  done
  [ "$replicas" = 3 ] || { log "only $replicas replicas joined"; exit 1; }
  log "cluster up on $(nodes)"
  nodes
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  nodes) nodes ;;
  *) echo "usage: $0 start|stop|nodes" >&2; exit 2 ;;
esac
