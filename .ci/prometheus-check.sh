#!/usr/bin/env bash
# Evaluates every PromQL query of the Grafana dashboard against a real Prometheus that scrapes a running
# Shortgate, and requires each to return a non-empty result.
#
#   .ci/prometheus-check.sh
#
# It installs Debian's `prometheus` package if missing (apt-get), builds the jar if missing, starts the jar and
# Prometheus on loopback only (each in a temp directory, Prometheus scraping every second), drives traffic with
# curl, waits for scrapes, then prints one row per query and exits non-zero if any query came back empty.
# Everything it starts is stopped on exit.
#
# Environment:
#   SPRING_R2DBC_URL, SPRING_R2DBC_USERNAME, SPRING_R2DBC_PASSWORD  run against MySQL/MariaDB (default: embedded H2)
#   SPRING_DATA_REDIS_URL              turn the Redis tier on; without it, queries of Redis-only meters are skipped
#   PROM_PORT                          Prometheus listen port on 127.0.0.1 (default 19090)
#   SHORTGATE_JAR                      the jar to run (default target/shortgate.jar, built if missing)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
DASHBOARD="$ROOT/grafana/dashboards/shortgate.json"
PROM_PORT=${PROM_PORT:-19090}
JAR=${SHORTGATE_JAR:-$ROOT/target/shortgate.jar}
START=$(date +%s)

log() { printf '[prometheus-check %3ss] %s\n' "$(( $(date +%s) - START ))" "$*" >&2; }

WORK=$(mktemp -d /tmp/shortgate-promcheck.XXXXXX)
APP_PID=""
PROM_PID=""
SHOW_LOGS=true
# SIGTERM, then SIGKILL if the process is still there after 30s (a JVM still starting up can take that long).
stop() {
  local pid=$1
  [[ -n "$pid" ]] && kill "$pid" 2>/dev/null || return 0
  for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
  kill -9 "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
}
cleanup() {
  local status=$?
  set +e
  stop "$PROM_PID"
  stop "$APP_PID"
  if [[ $status -ne 0 && $SHOW_LOGS == true && -f "$WORK/app.log" ]]; then
    echo "--- last lines of the app log" >&2; tail -n 30 "$WORK/app.log" >&2 || true
    echo "--- last lines of the Prometheus log" >&2; tail -n 15 "$WORK/prometheus.log" >&2 || true
  fi
  rm -rf "$WORK"
  exit $status
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Waits until "$@" succeeds, up to $1 seconds.
await() {
  local seconds=$1; shift
  local deadline=$(( $(date +%s) + seconds ))
  until "$@" >/dev/null 2>&1; do
    (( $(date +%s) < deadline )) || return 1
    sleep 0.5
  done
}

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'; }

# --- tools
if ! command -v prometheus >/dev/null 2>&1; then
  log "installing prometheus with apt-get"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq --no-install-recommends prometheus >/dev/null
  # The package may start its own service; this script uses its own instance on PROM_PORT only.
fi
command -v python3 >/dev/null || { echo "python3 is required" >&2; exit 2; }
if [[ ! -f "$JAR" ]]; then
  log "building $JAR"
  (cd "$ROOT" && ./mvnw -B -q -DskipTests package)
fi

# --- the app, on loopback, from an empty working directory (embedded data goes under $WORK/data)
APP_PORT=$(free_port)
MGMT_PORT=$(free_port)
ARGS=(--server.address=127.0.0.1 --server.port="$APP_PORT"
      --management.server.address=127.0.0.1 --management.server.port="$MGMT_PORT"
      # the pool strategy, so the code pool panel has data; small marks keep the filler light
      --shortgate.codegen.strategy=pool --shortgate.codegen.pool.low-water=200 --shortgate.codegen.pool.high-water=1000)
REDIS=false
export SHORTGATE_ADMIN_KEY="promcheck-$$-$RANDOM$RANDOM"
API=(-H 'Content-Type: application/json' -H "X-Api-Key: $SHORTGATE_ADMIN_KEY")
if [[ -n "${SPRING_DATA_REDIS_URL:-}" ]]; then
  REDIS=true
  ARGS+=(--shortgate.redirect.redis.key-prefix="sgcheck:$$:" --spring.data.redis.timeout=5s)
fi
log "starting the app (traffic :$APP_PORT, management :$MGMT_PORT, redis=$REDIS)"
# A small heap, so young GCs (and with them jvm_gc_pause) happen during this short run.
(cd "$WORK" && exec java -Xmx512m -jar "$JAR" "${ARGS[@]}" >"$WORK/app.log" 2>&1) &
APP_PID=$!
await 180 curl -sf -m 2 "http://127.0.0.1:$MGMT_PORT/actuator/health/readiness" \
  || { log "the app did not become ready"; exit 1; }

# --- Prometheus, on loopback, scraping the app every second
cat >"$WORK/prometheus.yml" <<YAML
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: shortgate
    metrics_path: /actuator/prometheus
    static_configs:
      - targets: ["127.0.0.1:$MGMT_PORT"]
YAML
log "starting Prometheus on 127.0.0.1:$PROM_PORT"
prometheus --config.file="$WORK/prometheus.yml" --storage.tsdb.path="$WORK/tsdb" \
  --storage.tsdb.retention.time=1h --web.listen-address="127.0.0.1:$PROM_PORT" --log.level=warn \
  >"$WORK/prometheus.log" 2>&1 &
PROM_PID=$!
PROM="http://127.0.0.1:$PROM_PORT"
await 60 curl -sf -m 2 "$PROM/-/ready" || { log "Prometheus did not become ready"; exit 1; }

# --- traffic, spread over several scrapes so rate() sees increases
log "driving traffic"
CODES=()
for i in $(seq 1 20); do
  body=$(curl -sf -m 5 -XPOST "http://127.0.0.1:$APP_PORT/api/v1/links" "${API[@]}" \
    -d "{\"url\":\"https://example.com/promcheck/$i\"}")
  CODES+=("$(sed -E 's/.*"code":"([^"]+)".*/\1/' <<<"$body")")
done
curl -sf -m 5 -o /dev/null -XPOST "http://127.0.0.1:$APP_PORT/api/v1/links" "${API[@]}" \
  -d "{\"url\":\"https://example.com/promcheck/alias\",\"alias\":\"pc$$\"}"
CODES+=("pc$$")
for round in $(seq 1 8); do
  for code in "${CODES[@]}"; do curl -s -m 5 -o /dev/null "http://127.0.0.1:$APP_PORT/$code"; done
  for i in $(seq 1 5); do curl -s -m 5 -o /dev/null "http://127.0.0.1:$APP_PORT/unknown$round$i"; done
  curl -s -m 5 -o /dev/null "http://127.0.0.1:$APP_PORT/not.a.code"
  curl -s -m 5 -o /dev/null -XPOST "http://127.0.0.1:$APP_PORT/api/v1/links" "${API[@]}" \
    -d "{\"url\":\"https://example.com/promcheck/round/$round\"}"
  sleep 1
done
# Enough scrapes for [1m] rates: wait until Prometheus holds at least 10 samples of the app.
scraped() {
  curl -sf -m 2 --get "$PROM/api/v1/query" \
    --data-urlencode 'query=count_over_time(up{job="shortgate"}[1m]) >= 10 and max_over_time(up{job="shortgate"}[1m]) == 1' \
    | grep -q '"result":\[{'
}
await 60 scraped || { log "Prometheus did not scrape the app"; exit 1; }

# --- every dashboard query through the HTTP API
log "evaluating the dashboard's queries"
SHOW_LOGS=false
status=0
python3 - "$DASHBOARD" "$PROM" "$REDIS" <<'PY' || status=$?
import json, re, sys, urllib.parse, urllib.request

dashboard, prom, redis = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3] == "true"
VARIABLES = {"__rate_interval": "1m", "__interval": "15s", "__range": "5m", "instance": ".*"}

def substitute(expr):
    return re.sub(r"\$\{?(\w+)\}?", lambda m: VARIABLES.get(m.group(1), m.group(0)), expr)

def queries():
    def walk(panels):
        for panel in panels:
            for target in panel.get("targets", []):
                yield panel["title"] + " [" + target["refId"] + "]", target["expr"]
            yield from walk(panel.get("panels", []))
    yield from walk(dashboard["panels"])
    for variable in dashboard["templating"]["list"]:
        if variable["type"] == "query":
            query = variable["query"]["query"] if isinstance(variable["query"], dict) else variable["query"]
            inner = re.fullmatch(r"label_values\((.*),\s*\w+\)", query)
            yield "variable $" + variable["name"], inner.group(1) if inner else query

def redis_only(expr):
    return re.search(r"\b(resilience4j_circuitbreaker_\w+|shortgate_redis_\w+)", expr) is not None

failures, rows = 0, []
for where, expr in queries():
    if redis_only(expr) and not redis:
        rows.append((where, "SKIP", "-", "Redis tier off (set SPRING_DATA_REDIS_URL)"))
        continue
    url = prom + "/api/v1/query?" + urllib.parse.urlencode({"query": substitute(expr)})
    try:
        answer = json.load(urllib.request.urlopen(url, timeout=10))
        count = len(answer["data"]["result"]) if answer["status"] == "success" else 0
        error = answer.get("error", "")
    except Exception as e:  # an HTTP 400 carries PromQL parse errors
        count, error = 0, getattr(e, "read", lambda: str(e).encode())().decode()[:120]
    ok = count > 0
    failures += not ok
    rows.append((where, "ok" if ok else "EMPTY", str(count), error or ("" if ok else substitute(expr)[:100])))

width = max(len(r[0]) for r in rows)
print(f"{'panel [query]':<{width}}  result  series  note")
for where, status, count, note in rows:
    print(f"{where:<{width}}  {status:<6}  {count:>6}  {note}")
print(f"{len(rows)} queries: {sum(r[1] == 'ok' for r in rows)} ok, {failures} empty, "
      f"{sum(r[1] == 'SKIP' for r in rows)} skipped")
sys.exit(1 if failures else 0)
PY
log "done in $(( $(date +%s) - START ))s"
exit $status
