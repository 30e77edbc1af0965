#!/usr/bin/env bash
# The image's JVM (JDK 25, pom.xml BP_JVM_VERSION) runs the packaged jar: start it in an empty folder on the
# embedded default, make a link, send visits from three browsers, and read them back from the stats API after the
# counts and the unique-visitor sketches have been written (datasketches-memory refuses JDK 25 unless
# visit/counts/SketchMemory initializes it). The unit and integration tests run on the build's JDK (17); this is
# the check that the JVM the image ships runs the visit pipeline. Needs target/shortgate.jar and a JDK 25:
# JAVA25_HOME, else Temurin 25 where Debian's adoptium package puts it.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
java25=${JAVA25_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java
[ -x "$java25" ] || { echo "[jdk25] no JDK 25 at $java25 (set JAVA25_HOME)"; exit 1; }
"$java25" -version 2>&1 | head -1 | grep -q '"25' || { echo "[jdk25] $java25 is not a JDK 25"; exit 1; }
port=${JDK25_PORT:-19631}; mport=${JDK25_MGMT_PORT:-19632}
key=jdk25-check-admin-key-0123456789
work=$(mktemp -d); pid=""
finish() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; sleep 1; [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null; rm -rf "$work"; }
trap finish EXIT
fail() { echo "[jdk25] FAIL: $*"; tail -40 "$work/app.log" 2>/dev/null; exit 1; }

(cd "$work" && SHORTGATE_ADMIN_KEY=$key exec "$java25" -jar "$root/target/shortgate.jar" --server.port=$port \
  --management.server.port=$mport --shortgate.visit.sketch-flush-interval=1s >"$work/app.log" 2>&1) &
pid=$!
for _ in $(seq 1 240); do
  curl -s -o /dev/null "http://127.0.0.1:$mport/actuator/health" && break
  kill -0 $pid 2>/dev/null || fail "the app exited"
  sleep 0.5
done
st=$(curl -s -o "$work/r.json" -w '%{http_code}' -H "X-Api-Key: $key" -H 'Content-Type: application/json' \
  -d '{"url":"https://example.com/jdk25"}' "http://127.0.0.1:$port/api/v1/links")
[ "$st" = 201 ] || fail "create answered $st: $(cat "$work/r.json")"
code=$(python3 -c "import json;print(json.load(open('$work/r.json'))['code'])")
browsers=("Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36"
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1")
for ua in "${browsers[@]}"; do
  for _ in 1 2; do
    st=$(curl -s -o /dev/null -w '%{http_code}' -A "$ua" "http://127.0.0.1:$port/$code")
    [ "$st" = 302 ] || fail "GET /$code answered $st"
  done
done
for _ in $(seq 1 40); do # counts every second, sketches every second here
  curl -s -o "$work/stats.json" -H "X-Api-Key: $key" "http://127.0.0.1:$port/api/v1/links/$code/stats"
  python3 - "$work/stats.json" <<'PY' && break
import json, sys
s = json.load(open(sys.argv[1]))
sys.exit(0 if s["visits"]["total"] == 6 and s["uniqueVisitors"] == 3 else 1)
PY
  sleep 0.5
done
python3 - "$work/stats.json" <<'PY' || fail "stats after 20 s: $(cat "$work/stats.json")"
import json, sys
s = json.load(open(sys.argv[1]))
sys.exit(0 if s["visits"]["total"] == 6 and s["uniqueVisitors"] == 3 else 1)
PY
! grep -q "ExceptionInInitializerError\|Unsupported JDK Major Version" "$work/app.log" || fail "datasketches-memory refused the JDK"
# The jar's manifest allows native access (Netty's epoll through JNI), so JDK 25 starts it without that warning.
! grep -q "A restricted method" "$work/app.log" ||
  fail "the JVM warned of native access: $(grep -m2 'restricted method\|loadLibrary' "$work/app.log")"
echo "[jdk25] ok: $("$java25" -version 2>&1 | head -1); 6 visits from 3 browsers counted, 3 unique visitors"
