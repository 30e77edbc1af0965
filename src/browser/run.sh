#!/usr/bin/env bash
# Browser test with the real client: Shlink's own admin UI (@shlinkio/shlink-web-component, the UI that
# shlink-web-client wraps) in headless Chromium, driven by Playwright against the packaged jar on H2.
# Needs target/shortgate.jar (run after ./mvnw verify). Screenshots land in target/browser/.
# Everything it starts is stopped by PID on exit; every wait is bounded; a failed step exits non-zero.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD

APP_PORT=${BROWSER_APP_PORT:-19601}
MGMT_PORT=${BROWSER_MGMT_PORT:-19602}
UI_PORT=${BROWSER_UI_PORT:-19603}
ADMIN_KEY=browser-test-admin-key-0123456789
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}

log() { printf '[browser] %s\n' "$*"; }

pids=()
work=$(mktemp -d)
cleanup() {
  local rc=$?
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    kill -9 "$pid" 2>/dev/null || true
  done
  if [ "$rc" != 0 ] && [ -f "$work/app.log" ]; then
    log "app log tail:"; tail -n 60 "$work/app.log" || true
  fi
  rm -rf "$work"
  exit "$rc"
}
trap cleanup EXIT

[ -f target/shortgate.jar ] || { log "target/shortgate.jar is missing: run ./mvnw package first"; exit 1; }

if [ ! -x "$CHROMIUM" ]; then
  log "installing chromium"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium
fi

# The host app: install from the committed lock (cache under target/), then a Vite build into target/browser-app.
# Not `npm ci`: the registry reached here serves only this platform's builds of tailwind's and esbuild's optional
# native packages, so the lock cannot list the others and `npm ci` refuses it as out of sync; `npm install
# --no-save` installs the same pinned versions from the lock and leaves it untouched.
log "building the UI host (npm install from the lock, vite build)"
[ "${BROWSER_REUSE_BUILD:-}" = 1 ] && [ -f target/browser-app/index.html ] || (cd src/browser/app \
  && nice -n 10 npm install --no-save --no-audit --no-fund --cache "$root/target/npm-cache" --prefer-offline \
  && nice -n 10 npx vite build --logLevel warn)

# The app: packaged jar, H2 in a temp dir, its own ports, the UI's origin allowed for CORS.
log "starting shortgate on 127.0.0.1:$APP_PORT"
(cd "$work" && exec env SHORTGATE_ADMIN_KEY="$ADMIN_KEY" nice -n 10 java -jar "$root/target/shortgate.jar" \
  --server.address=127.0.0.1 --server.port="$APP_PORT" \
  --management.server.address=127.0.0.1 --management.server.port="$MGMT_PORT" \
  --shortgate.base-url="http://127.0.0.1:$APP_PORT" \
  --shortgate.shlink.cors-allowed-origins="http://127.0.0.1:$UI_PORT" >"$work/app.log" 2>&1) &
pids+=($!)

# The built app, served by Vite's preview server (it falls back to index.html for the UI's client-side routes).
log "serving the UI on 127.0.0.1:$UI_PORT"
# Vite's own script, not npx: npx would run it as a child, which killing npx's PID leaves running.
(cd src/browser/app && exec nice -n 10 node node_modules/vite/bin/vite.js preview --host 127.0.0.1 --port "$UI_PORT" --strictPort \
  >"$work/ui.log" 2>&1) &
pids+=($!)

wait_for() { # url, seconds
  for _ in $(seq 1 "$2"); do curl -fsS -o /dev/null "$1" 2>/dev/null && return 0; sleep 1; done
  log "$1 did not answer within $2 s"; return 1
}
wait_for "http://127.0.0.1:$APP_PORT/rest/health" 120
wait_for "http://127.0.0.1:$UI_PORT/" 60

mkdir -p target/browser
log "driving Chromium"
SERVER="http://127.0.0.1:$APP_PORT" API_KEY="$ADMIN_KEY" UI="http://127.0.0.1:$UI_PORT" CHROMIUM="$CHROMIUM" \
  SHOTS="$root/target/browser" timeout 300 nice -n 10 node src/browser/app/drive.mjs
log "all steps passed; screenshots in target/browser/"
