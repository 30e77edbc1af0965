#!/usr/bin/env bash
# A throw-away 3-node MariaDB Galera cluster on loopback, with haproxy in front, for the Galera integration tests.
#
#   .ci/galera.sh start       # (re)starts the cluster; the LAST line on stdout is haproxy's R2DBC URL
#   .ci/galera.sh stop        # stops haproxy and the nodes this script started (by PID), removes their directory
#   .ci/galera.sh url         # haproxy's R2DBC URL again (round-robin over the Synced nodes)
#   .ci/galera.sh pinned-url K   # the R2DBC URL of haproxy listener K (1 or 2): node K first, the others as backups
#   .ci/galera.sh node-url N  # the direct R2DBC URL of node N (1..3)
#   .ci/galera.sh status      # per node: wsrep_cluster_size, wsrep_local_state_comment, wsrep_ready; haproxy's view
#   .ci/galera.sh kill N      # kill -9 node N
#   .ci/galera.sh restart N   # start node N again (stopping it first if it runs) and wait until it is Synced: it
#                             # rejoins by IST when the donors' gcache still holds what it missed
#   .ci/galera.sh sql N STATEMENT   # run STATEMENT on node N as root (over its socket), tab-separated, no header
#
# Ports (all in 19500-19599, from GALERA_BASE_PORT, default 19500):
#   haproxy   base      round-robin over the three nodes            (19500)
#             base+1    node 1, nodes 2 and 3 as backups            (19501)
#             base+2    node 2, nodes 1 and 3 as backups            (19502)
#             base+3    haproxy's admin socket (show stat, ...)     (19503)
#   node N    SQL base+10+N (19511-19513); Galera group communication base+11+10N (19521/19531/19541),
#             IST that port+1 (19522/19532/19542), rsync SST that port+2 (19523/19533/19543).
# Everything lives under GALERA_DIR (default /tmp/shortgate-galera): node N's config, data, socket and error log in
# nodeN/, haproxy's config and log at the top. A stop leaves nothing behind. `status` exits 3 when a node or haproxy
# is down.
#
# Needs root (the nodes run as user mysql), mariadb-server, galera-4, rsync and haproxy. A killed node leaves haproxy
# within about 2 s (two failed checks a second apart); `restart N` returns once haproxy has it UP again.
#
# haproxy decides a node is fit by reading wsrep_ready (ON) and wsrep_local_state (4 = Synced) with an external
# check (a tiny script that asks the node over SQL), every second, two failures to go down, two passes to come up.
# That keeps the decision in the database's own words with no daemon beside each node (an agent-check or the
# clustercheck HTTP service would need one), at the cost of haproxy's `insecure-fork-wanted`, harmless here.
set -euo pipefail

base=${GALERA_BASE_PORT:-19500}
dir=${GALERA_DIR:-/tmp/shortgate-galera}
case "$dir" in /*/*) ;; *) echo "GALERA_DIR must be an absolute path below a directory: $dir" >&2; exit 2 ;; esac
provider=${GALERA_PROVIDER:-}
extra_provider_options=${GALERA_PROVIDER_OPTIONS:-}
database=shortgate_test
user=shortgate
password=shortgate
nodes=(1 2 3)

log() { printf '[galera] %s\n' "$*" >&2; }
die() { log "$*"; exit 1; }

sql_port() { echo $((base + 10 + $1)); }
gcomm_port() { echo $((base + 11 + 10 * $1)); }
node_dir() { echo "$dir/node$1"; }
socket() { echo "$dir/node$1/mysqld.sock"; }

url() { echo "r2dbc:mysql://$user:$password@127.0.0.1:$1/$database"; }

check_node_arg() {
  case "${1:-}" in 1 | 2 | 3) ;; *) echo "usage: $0 $2 1|2|3" >&2; exit 2 ;; esac
}

find_provider() {
  [ -n "$provider" ] && { echo "$provider"; return; }
  for f in /usr/lib/galera/libgalera_smm.so /usr/lib/libgalera_smm.so /usr/lib64/galera-4/libgalera_smm.so \
    /usr/lib/galera-4/libgalera_smm.so; do
    [ -e "$f" ] && { echo "$f"; return; }
  done
  die "libgalera_smm.so not found (apt-get install galera-4, or set GALERA_PROVIDER)"
}

# A PID from a PID file, only if that process is still the program we started (a recycled PID is left alone).
live_pid() {
  local file=$1 name=$2 pid
  pid=$(cat "$file" 2>/dev/null) || return 1
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q "$name" || return 1
  echo "$pid"
}

node_pid() { live_pid "$(node_dir "$1")/mysqld.pid" mariadbd; }
haproxy_pid() { live_pid "$dir/haproxy.pid" haproxy; }

sql() {
  local n=$1
  shift
  mariadb --no-defaults -uroot --socket="$(socket "$n")" --connect-timeout=2 -N -B -e "$*"
}

wsrep_status() {
  sql "$1" "SHOW GLOBAL STATUS WHERE Variable_name IN
    ('wsrep_cluster_size','wsrep_local_state_comment','wsrep_ready','wsrep_local_state','wsrep_cluster_status')" \
    2>/dev/null
}

status_value() { awk -v k="$2" '$1 == k { print $2 }' <<<"$1"; }

write_config() {
  local n=$1 d gp peers=() lib
  d=$(node_dir "$n")
  gp=$(gcomm_port "$n")
  lib=$(find_provider)
  for m in "${nodes[@]}"; do peers+=("127.0.0.1:$(gcomm_port "$m")"); done
  local IFS=,
  mkdir -p "$d/data"
  chown -R mysql:mysql "$d"
  cat >"$d/my.cnf" <<EOF
[mysqld]
# Not root: the joiner's rsync daemon would drop to nobody and could not write the data directory.
user=mysql
datadir=$d/data
socket=$d/mysqld.sock
pid-file=$d/mysqld.pid
log-error=$d/mysqld.err
port=$(sql_port "$n")
bind-address=127.0.0.1
skip-name-resolve
character-set-server=utf8mb4
collation-server=utf8mb4_general_ci
performance_schema=OFF
max_connections=500
innodb_buffer_pool_size=64M
innodb_log_file_size=32M
# Galera's durability is the other nodes' copy: no fsync per commit (three nodes share this machine's disk).
innodb_flush_log_at_trx_commit=2
# Required by Galera.
binlog_format=ROW
default_storage_engine=InnoDB
innodb_autoinc_lock_mode=2
wsrep_on=ON
wsrep_provider=$lib
wsrep_cluster_name=shortgate
wsrep_cluster_address=gcomm://${peers[*]}
wsrep_node_name=node$n
wsrep_node_address=127.0.0.1
wsrep_node_incoming_address=127.0.0.1:$(sql_port "$n")
wsrep_provider_options='base_host=127.0.0.1;base_port=$gp;ist.recv_addr=127.0.0.1:$((gp + 1));gcache.size=128M${extra_provider_options:+;$extra_provider_options}'
wsrep_sst_method=rsync
wsrep_sst_receive_address=127.0.0.1:$((gp + 2))
EOF
}

# Starts node N's mariadbd in the background, detached from this shell.
launch() {
  local n=$1
  shift
  local d
  d=$(node_dir "$n")
  rm -f "$d/mysqld.pid"
  setsid mariadbd --defaults-file="$d/my.cnf" "$@" </dev/null >>"$d/stdout.log" 2>&1 &
  for _ in $(seq 1 100); do
    [ -s "$d/mysqld.pid" ] && return 0
    kill -0 $! 2>/dev/null || break
    sleep 0.1
  done
  [ -s "$d/mysqld.pid" ] || { tail -20 "$d/mysqld.err" "$d/stdout.log" >&2 || true; die "node $n did not start"; }
}

# Waits until node N answers, is Synced, ready, and sees a primary component of at least $2 nodes.
wait_synced() {
  local n=$1 size=${2:-1} timeout=${3:-240} st=""
  for _ in $(seq 1 $((timeout * 2))); do
    if ! node_pid "$n" >/dev/null; then
      tail -30 "$(node_dir "$n")/mysqld.err" >&2 || true
      die "node $n exited while joining"
    fi
    st=$(wsrep_status "$n") || st=""
    if [ "$(status_value "$st" wsrep_local_state_comment)" = Synced ] \
      && [ "$(status_value "$st" wsrep_ready)" = ON ] \
      && [ "$(status_value "$st" wsrep_cluster_status)" = Primary ] \
      && [ "$(status_value "$st" wsrep_cluster_size)" -ge "$size" ] 2>/dev/null; then
      return 0
    fi
    sleep 0.5
  done
  tail -30 "$(node_dir "$n")/mysqld.err" >&2 || true
  die "node $n is not Synced after ${timeout}s: $(tr '\n' ' ' <<<"$st")"
}

# The position InnoDB holds, so a node that was killed rejoins by IST instead of a full SST (what the packaged
# galera_recovery does before systemd starts mariadbd).
recovered_position() {
  local n=$1 d pos
  d=$(node_dir "$n")
  mariadbd --defaults-file="$d/my.cnf" --wsrep-recover --log-error="$d/recover.err" >/dev/null 2>&1 || true
  pos=$(sed -n 's/.*WSREP: Recovered position: *\([0-9a-f-]*:-\{0,1\}[0-9]*\).*/\1/p' "$d/recover.err" | tail -1)
  rm -f "$d/recover.err"
  echo "$pos"
}

start_node() {
  local n=$1 pos
  pos=$(recovered_position "$n")
  if [ -n "$pos" ] && [ "${pos##*:}" != -1 ]; then
    log "node $n: starting from recovered position $pos"
    launch "$n" --wsrep-start-position="$pos"
  else
    log "node $n: starting with no recoverable position (it needs a full SST)"
    launch "$n"
  fi
}

haproxy_config() {
  local servers="" n
  for n in "${nodes[@]}"; do
    servers+="  server node$n 127.0.0.1:$(sql_port "$n") check"$'\n'
  done
  pinned() {
    local first=$1 m
    # Back on its node as soon as that node is fit again, so two pods stay on two nodes after a rejoin.
    echo "  server node$first 127.0.0.1:$(sql_port "$first") track galera/node$first on-marked-up shutdown-backup-sessions"
    for m in "${nodes[@]}"; do
      [ "$m" = "$first" ] && continue
      echo "  server node$m 127.0.0.1:$(sql_port "$m") backup track galera/node$m"
    done
  }
  cat <<EOF
global
  external-check
  insecure-fork-wanted
  stats socket ipv4@127.0.0.1:$((base + 3)) level admin
  log stderr format raw local0 info

defaults
  mode tcp
  log global
  option tcplog
  option dontlog-normal
  timeout connect 2s
  # Pools keep idle connections for a long time; haproxy must not cut them (a Kubernetes Service does not).
  timeout client 1h
  timeout server 1h
  timeout check 3s

backend galera
  balance roundrobin
  option external-check
  external-check path "/usr/bin:/bin"
  external-check command $dir/check-node.sh
  default-server inter 1s fall 2 rise 2 on-marked-down shutdown-sessions
$servers
frontend all
  bind 127.0.0.1:$base
  default_backend galera

listen pin1
  bind 127.0.0.1:$((base + 1))
  default-server on-marked-down shutdown-sessions
$(pinned 1)

listen pin2
  bind 127.0.0.1:$((base + 2))
  default-server on-marked-down shutdown-sessions
$(pinned 2)
EOF
}

# haproxy calls it with <proxy addr> <proxy port> <server addr> <server port>; exit 0 means fit for traffic.
check_script() {
  cat <<EOF
#!/bin/sh
out=\$(timeout 2 mariadb --defaults-file=$dir/check.cnf -h "\$3" -P "\$4" -N -B -e \\
  "SHOW GLOBAL STATUS WHERE Variable_name IN ('wsrep_ready','wsrep_local_state')" 2>/dev/null) || exit 1
printf '%s\n' "\$out" | grep -q '^wsrep_ready	ON\$' || exit 1
printf '%s\n' "\$out" | grep -q '^wsrep_local_state	4\$' || exit 1
exit 0
EOF
}

haproxy_states() {
  # One line per backend server: <proxy> <server> <UP|DOWN|...> [(backup)]
  {
    exec 3<>"/dev/tcp/127.0.0.1/$((base + 3))" || return 1
    echo "show stat" >&3
    cat <&3
    exec 3<&-
  } 2>/dev/null | awk -F, '$2 ~ /^node[0-9]$/ { print $1, $2, $18 ($21 == 1 ? " (backup)" : "") }'
}

start_haproxy() {
  command -v haproxy >/dev/null || die "haproxy is not installed"
  check_script >"$dir/check-node.sh"
  chmod 755 "$dir/check-node.sh"
  printf '[client]\nuser=sg_check\npassword=sg_check\nconnect-timeout=2\n' >"$dir/check.cnf"
  haproxy_config >"$dir/haproxy.cfg"
  haproxy -c -q -f "$dir/haproxy.cfg" || die "haproxy rejected $dir/haproxy.cfg"
  # In the foreground (-db) haproxy logs to stderr and writes no PID file: setsid execs it, so $! is its PID.
  setsid haproxy -db -f "$dir/haproxy.cfg" </dev/null >>"$dir/haproxy.log" 2>&1 &
  echo $! >"$dir/haproxy.pid"
  wait_haproxy_up "${nodes[@]}"
}

# Waits until haproxy's round-robin backend has every given node UP.
wait_haproxy_up() {
  local n up=0
  for _ in $(seq 1 60); do
    up=1
    for n in "$@"; do
      haproxy_states | grep -q "^galera node$n UP" || up=0
    done
    [ "$up" = 1 ] && return 0
    sleep 0.5
  done
  haproxy_states >&2 || true
  die "haproxy does not see node(s) $* UP"
}

stop() {
  local pids=() pid n f
  pid=$(haproxy_pid) && { kill "$pid" 2>/dev/null || true; pids+=("$pid"); }
  for n in "${nodes[@]}"; do
    pid=$(node_pid "$n") && { kill "$pid" 2>/dev/null || true; pids+=("$pid"); }
  done
  # The rsync daemon of an SST that was under way when its node stopped.
  for f in "$dir"/node*/data/rsync_sst.pid; do
    pid=$(live_pid "$f" rsync) && { kill "$pid" 2>/dev/null || true; pids+=("$pid"); }
  done
  for pid in "${pids[@]}"; do
    for _ in $(seq 1 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  done
  rm -rf "$dir"
}

start() {
  for tool in mariadbd mariadb mariadb-install-db rsync; do
    command -v "$tool" >/dev/null || die "$tool is not installed"
  done
  find_provider >/dev/null
  stop
  mkdir -p "$dir"
  for n in "${nodes[@]}"; do write_config "$n"; done

  # Node 1 gets the system tables and bootstraps the cluster; nodes 2 and 3 start empty and take an rsync SST.
  log "bootstrapping node 1"
  mariadb-install-db --defaults-file="$(node_dir 1)/my.cnf" --wsrep-on=OFF --auth-root-authentication-method=normal \
    --skip-test-db >"$dir/install-db.log" 2>&1 || { cat "$dir/install-db.log" >&2; die "mariadb-install-db failed"; }
  launch 1 --wsrep-new-cluster
  wait_synced 1 1
  sql 1 "
    CREATE DATABASE IF NOT EXISTS $database CHARACTER SET utf8mb4;
    CREATE USER IF NOT EXISTS '$user'@'127.0.0.1' IDENTIFIED BY '$password';
    CREATE USER IF NOT EXISTS '$user'@'localhost' IDENTIFIED BY '$password';
    GRANT ALL PRIVILEGES ON \`shortgate\\_test\`.* TO '$user'@'127.0.0.1', '$user'@'localhost';
    GRANT ALL PRIVILEGES ON \`sgit\\_%\`.* TO '$user'@'127.0.0.1', '$user'@'localhost';
    CREATE USER IF NOT EXISTS 'sg_check'@'127.0.0.1' IDENTIFIED BY 'sg_check';
    FLUSH PRIVILEGES;"

  # One joiner at a time: an rsync donor is blocked while it sends.
  for n in 2 3; do
    log "node $n joins (SST from a donor)"
    launch "$n"
    wait_synced "$n" "$n"
  done
  for n in "${nodes[@]}"; do wait_synced "$n" 3; done

  start_haproxy
  log "cluster up: nodes on $(sql_port 1)-$(sql_port 3), haproxy on 127.0.0.1:$base (pinned: $((base + 1)), $((base + 2)))"
  url "$base"
}

kill_node() {
  local n=$1 pid
  pid=$(node_pid "$n") || { log "node $n is not running"; return 0; }
  kill -9 "$pid"
  for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
  log "node $n (pid $pid) killed"
}

restart_node() {
  local n=$1 pid d others=0 m
  d=$(node_dir "$n")
  [ -f "$d/my.cnf" ] || die "no cluster under $dir (run start first)"
  if pid=$(node_pid "$n"); then
    kill "$pid"
    for _ in $(seq 1 600); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  fi
  for m in "${nodes[@]}"; do
    [ "$m" != "$n" ] && node_pid "$m" >/dev/null && others=$((others + 1))
  done
  [ "$others" -gt 0 ] || die "no other node runs: node $n has nothing to join (restart the cluster with start)"
  local mark
  mark=$(wc -l <"$d/mysqld.err" 2>/dev/null || echo 0)
  start_node "$n"
  wait_synced "$n" $((others + 1))
  local how="an unknown transfer"
  if tail -n +$((mark + 1)) "$d/mysqld.err" | grep -q 'IST received\|Receiving IST'; then
    how=IST
  elif tail -n +$((mark + 1)) "$d/mysqld.err" | grep -qi 'SST.*complete\|SST received'; then
    how="a full SST"
  fi
  haproxy_pid >/dev/null && wait_haproxy_up "$n"
  log "node $n rejoined by $how and is Synced"
}

status() {
  local n pid st rc=0
  for n in "${nodes[@]}"; do
    if ! pid=$(node_pid "$n"); then
      printf 'node %s  port %s  down\n' "$n" "$(sql_port "$n")"
      rc=3
    elif ! st=$(wsrep_status "$n"); then
      printf 'node %s  port %s  pid %-7s not answering\n' "$n" "$(sql_port "$n")" "$pid"
      rc=3
    else
      printf 'node %s  port %s  pid %-7s wsrep_cluster_size=%s wsrep_local_state_comment=%s wsrep_ready=%s\n' \
        "$n" "$(sql_port "$n")" "$pid" "$(status_value "$st" wsrep_cluster_size)" \
        "$(status_value "$st" wsrep_local_state_comment)" "$(status_value "$st" wsrep_ready)"
    fi
  done
  if haproxy_pid >/dev/null; then
    haproxy_states | awk -v b="$base" '
      { key = $1; line[key] = line[key] " " $2 "=" $3 ($4 != "" ? $4 : "") }
      END {
        printf "haproxy 127.0.0.1:%d (galera, round-robin):%s\n", b, line["galera"]
        printf "haproxy 127.0.0.1:%d (pin1):%s\n", b + 1, line["pin1"]
        printf "haproxy 127.0.0.1:%d (pin2):%s\n", b + 2, line["pin2"]
      }'
  else
    echo "haproxy down"
    rc=3
  fi
  return $rc
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  url) url "$base" ;;
  pinned-url)
    case "${2:-}" in 1 | 2) url $((base + $2)) ;; *) echo "usage: $0 pinned-url 1|2" >&2; exit 2 ;; esac ;;
  node-url) check_node_arg "${2:-}" node-url; url "$(sql_port "$2")" ;;
  status) status ;;
  kill) check_node_arg "${2:-}" kill; kill_node "$2" ;;
  restart) check_node_arg "${2:-}" restart; restart_node "$2" ;;
  sql) check_node_arg "${2:-}" sql; n=$2; shift 2; sql "$n" "$*" ;;
  *) echo "usage: $0 start|stop|status|url|pinned-url K|node-url N|kill N|restart N|sql N STATEMENT" >&2; exit 2 ;;
esac
