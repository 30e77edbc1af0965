#!/usr/bin/env bash
# Hot with events on or off (issue 27's A/B), one run.sh invocation on a RabbitMQ vhost emptied first, with the
# broker's CPU over the run. Alternate on and off, same jar, several rounds; compare × nginx and µs CPU/req.
#
#   src/bench/events-ab.sh LABEL JAR on|off|rabbitmq|redis WARMUP [JVM flags...]
#   e.g. PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH src/bench/events-ab.sh j25-on target/shortgate.jar on 60s
#
# Output in $OUT_ROOT/LABEL (default /tmp/shortgate-events-ab). Needs rabbitmqctl (RabbitMQ on 127.0.0.1:5672).
set -euo pipefail
[ $# -ge 4 ] || { sed -n 2,8p "$0"; exit 2; }
label=$1 jar=$(realpath "$2") events=$3 warmup=$4
shift 4
out=${OUT_ROOT:-/tmp/shortgate-events-ab}/$label
mkdir -p "$out"
vhost=shortgate-events-ab
rabbitmqctl -q delete_vhost "$vhost" >/dev/null 2>&1 || true
rabbitmqctl -q add_vhost "$vhost" >/dev/null
rabbitmqctl -q set_permissions -p "$vhost" guest '.*' '.*' '.*' >/dev/null
broker_cpu() { awk '{print $14 + $15}' "/proc/$(pgrep -f beam.smp | head -1)/stat"; }
before=$(broker_cpu)
cd "$(dirname "$0")/../.."
JAR=$jar OUT_DIR=$out EVENTS=$events RABBITMQ_URL="amqp://guest:guest@127.0.0.1:5672/$vhost" JAVA_OPTS="$*" \
  src/bench/run.sh -s hot -d 8s -w "$warmup" -n 10000 -r 3 >"$out/run.txt" 2>&1
after=$(broker_cpu)
echo "broker CPU over the run: $(((after - before) / $(getconf CLK_TCK))) s" >>"$out/run.txt"
grep -E '^\| (scenario|nginx|hot)|broker CPU' "$out/run.txt"
