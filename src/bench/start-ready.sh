#!/usr/bin/env bash
# Start to ready, as a new user starts Shortgate: an empty folder, the embedded default (H2, no Redis), ports
# 18090/18091. Prints the seconds from launch until /actuator/health/readiness answers 200 (at most 180 s), then
# stops the process. The rest of the arguments are the java command, e.g.
#   src/bench/start-ready.sh jdk17 java -jar target/shortgate.jar
#   src/bench/start-ready.sh jdk25-aot /usr/lib/jvm/temurin-25-jdk-amd64/bin/java -XX:AOTCache=app.aot -jar app/shortgate.jar
set -uo pipefail
label=$1
shift
dir=$(mktemp -d)
cd "$dir" || exit 1
t0=$(date +%s.%N)
"$@" --server.port=18090 --management.server.port=18091 >app.log 2>&1 &
pid=$!
ready=0
for _ in $(seq 1 1800); do
  if [ "$(curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:18091/actuator/health/readiness)" = 200 ]; then
    ready=1
    break
  fi
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
t1=$(date +%s.%N)
kill "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
cd / && rm -rf "$dir"
if [ "$ready" = 1 ]; then
  printf '%s ready after %.1f s (load average %s)\n' "$label" "$(echo "$t1 - $t0" | bc)" "$(cut -d' ' -f1 /proc/loadavg)"
else
  printf '%s NOT ready (exited or 180 s)\n' "$label"
  exit 1
fi
