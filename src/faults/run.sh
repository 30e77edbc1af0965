#!/usr/bin/env bash
# Shortgate fault suite (issue 11): starts its own mariadbd and redis-server (throw-away data, loopback ports
# 19100-19199 by default), two Shortgate jars on them, injects faults F1-F12 under a low paced load and prints a
# table fault / criterion / measured / result. Then the network faults N1-N5 (issue 29, src/faults/netns.py): the
# same kind of servers and jars, each on a host of its own (a network namespace), with latency, loss and partitions
# between them; skipped in one line where the machine does not allow namespaces (CI_REQUIRE_NETNS=true fails then).
# Last the rolling upgrade U1 (issue 26, src/faults/upgrade.py): a database of the build before short domains
# upgraded in place by this jar while the old build serves it; the old jar is built from git (the pinned commit must
# be in this clone) and cached under target/upgrade-from/. Exits non-zero if any criterion fails. See
# docs/resilience.md.
#
#   src/faults/run.sh [--only F1,F3,N2,U1] [--base-port 19100] [--upgrade-from COMMIT] [--keep]
#
# Needs the packaged jar (target/shortgate.jar; built here when missing), mariadbd, mariadb-install-db,
# redis-server, redis-cli, java and python3; the network faults also need root, iproute2, iptables and wrk. Every
# process it starts is stopped by PID on exit, and every namespace it made is deleted.
set -euo pipefail
cd "$(dirname "$0")/../.."

if [ ! -f target/shortgate.jar ]; then
  echo "[faults] target/shortgate.jar missing; packaging it"
  ./mvnw -B -q -DskipTests package
fi
for tool in mariadbd mariadb-install-db mariadb redis-server redis-cli java python3; do
  command -v "$tool" >/dev/null 2>&1 || { echo "[faults] $tool is not installed" >&2; exit 2; }
done

# The suite stops what it starts itself (atexit, SIGTERM and SIGINT handlers); this trap covers the interpreter
# being killed outright.
python3 src/faults/faults.py "$@" &
suite=$!
trap 'kill -TERM "$suite" 2>/dev/null || true; wait "$suite" 2>/dev/null || true' INT TERM
wait "$suite"
