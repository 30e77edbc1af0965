#!/usr/bin/env python3
"""Network faults N1-N5 of the fault suite: pods, Redis and MariaDB on hosts of their own, faults between them.

The suite makes the hosts itself: one Linux network namespace per host, each joined by a veth pair to a bridge in
a namespace of its own, on 10.77.0.0/24:

    sgnf-a       pod A    10.77.0.11  :8080 traffic, :8081 management
    sgnf-b       pod B    10.77.0.12  :8080, :8081
    sgnf-redis   Redis    10.77.0.21  :6379
    sgnf-mariadb MariaDB  10.77.0.22  :3306
    sgnf-net     the bridge (br0)
    sgnf-root    the root namespace's leg on the bridge, 10.77.0.1: the load (wrk and the suite's own client) and
                 the checks run here, and nothing listens here

redis-server, mariadbd (its own data directory, made with mariadb-install-db) and the two jars run inside their
namespaces (`ip netns exec`). The checks read MariaDB and Redis through their Unix sockets, so no fault ever hides
them. A fault is a set of iptables rules inside the namespace of the host it hits, matched on the peer's address:
DROP for a partition, `-m statistic --mode random` for packet loss, and NFQUEUE to a delaying process of this file
for latency with jitter. (tc netem would do the same, but this kernel is built without it: CONFIG_NET_SCH_NETEM is
not set. The delayer holds each queued packet for a uniform random 160-240 ms, as `netem delay 200ms 40ms` does.)

Everything it made is removed when it ends, however it ends (a normal end, an exception, SIGINT or SIGTERM: the
suite's handlers turn those into an exit through the `finally` below): the processes by PID, the namespaces (their
links, the bridge and their iptables rules go with them), the root namespace's leg and the work directory. A run
that was killed outright leaves them behind; the next run removes whatever carries the `sgnf-` prefix before it
starts, under a lock that keeps two runs from sharing (or removing) one set of hosts.

    python3 src/faults/faults.py --only N1,N2,N3,N4,N5

Run as a script, this file is the delayer: `netns.py delay QUEUE DELAY_MS JITTER_MS` (inside a namespace).
"""

import errno
import fcntl
import glob
import heapq
import http.client
import json
import os
import random
import select
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

FAULTS = ["N1", "N2", "N3", "N4", "N5"]
# Run order: N3 needs pod B with a short near-cache TTL, the others a long one; last, it costs one restart of B.
ORDER = ["N1", "N2", "N4", "N5", "N3"]

PREFIX = "sgnf-"
BRIDGE_NS = PREFIX + "net"
ROOT_LINK = PREFIX + "root"
NET = "10.77.0"
ROOT_IP = f"{NET}.1"
HOSTS = {"a": 11, "b": 12, "redis": 21, "mariadb": 22}
LOCK_PATH = "/run/shortgate-netfaults.lock"
WORK_PREFIX = "shortgate-netfaults-"
DELAY_QUEUE = 7

LONG_TTL = 60      # seconds: B's near-cache TTL (Shortgate's default), longer than any partition here but N3's
SHORT_TTL = 5      # seconds: B's near-cache TTL in N3, the bound on how long B may serve a changed link
UNREADY_AFTER = 5  # seconds: shortgate.health.database-unready-after
DB_CHECK = 2       # seconds: shortgate.health.database-timeout (Shortgate's default), one readiness check's wait
BUFFER = 500       # raw visits a pod may hold (shortgate.visit.buffer-capacity); N4 overflows it on purpose
REDIS_DELAY, REDIS_JITTER = 200, 40  # ms: N1's latency between B and Redis, and its jitter (20%)
# The pods' heap. With the F suite's 256 MB the old generation was 80% full after the first visits (142 of 179 MB:
# Spring and the user-agent analyzer, Yauaa, built at the first visit) and a 0.5 s full collection fell in N1's
# baseline window.
HEAP = "512m"

suite = None  # the fault suite's module (faults.py): its servers, pods, client, load and result table


def ip_of(host):
    return f"{NET}.{HOSTS[host]}"


def ns_of(host):
    return PREFIX + host


def read(path):
    with open(path, errors="replace") as f:
        return f.read()


def sh(*command, timeout=30, check=True):
    done = subprocess.run(list(command), capture_output=True, text=True, timeout=timeout)
    if check and done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)}: {(done.stderr or done.stdout).strip()}")
    return done.stdout


# ------------------------------------------------------------------------------------------------------ the hosts

def available():
    """(True, None) when this machine lets the suite make namespaces, veth pairs and iptables rules; else the
    reason."""
    if os.geteuid() != 0:
        return False, "they need root (network namespaces, veth, iptables)"
    for tool in ("ip", "iptables", "wrk"):
        if shutil.which(tool) is None:
            return False, f"{tool} is not installed"
    probe = f"{PREFIX}probe-{os.getpid()}"
    try:
        sh("ip", "netns", "add", probe)
        try:
            sh("ip", "netns", "exec", probe, "ip", "link", "set", "lo", "up")
            sh("ip", "netns", "exec", probe, "iptables", "-A", "OUTPUT", "-d", "198.51.100.1", "-j", "DROP")
        finally:
            sh("ip", "netns", "del", probe, check=False)
    except (RuntimeError, OSError, subprocess.TimeoutExpired) as e:
        return False, f"this machine does not allow network namespaces ({str(e).splitlines()[0][:160]})"
    return True, None


def our_namespaces():
    names = []
    for line in sh("ip", "netns", "list", check=False).splitlines():
        name = line.split()[0] if line.split() else ""
        if name.startswith(PREFIX):
            names.append(name)
    return names


def remove_namespaces(names):
    """Kills what runs in these namespaces (by PID: only this suite starts anything in `sgnf-` namespaces), then
    deletes them and the root namespace's leg on the bridge."""
    for name in names:
        for pid in sh("ip", "netns", "pids", name, check=False).split():
            try:
                os.kill(int(pid), signal.SIGCONT)
                os.kill(int(pid), signal.SIGKILL)
            except (ProcessLookupError, ValueError):
                pass
    sh("ip", "link", "del", ROOT_LINK, check=False)
    for name in names:
        sh("ip", "netns", "del", name, check=False)
    # The kernel takes down a deleted namespace's links in the background.
    suite.wait_until(lambda: sh("ip", "link", "show", ROOT_LINK, check=False) == "", 10, 0.2)


def clean_leftovers():
    leftovers = our_namespaces()
    dirs = glob.glob(os.path.join(tempfile.gettempdir(), WORK_PREFIX + "*"))
    if leftovers or dirs or sh("ip", "link", "show", ROOT_LINK, check=False):
        suite.log(f"removing what an earlier run left: namespaces {leftovers}, {len(dirs)} work directories")
    remove_namespaces(leftovers)
    for d in dirs:
        shutil.rmtree(d, ignore_errors=True)


class Network:
    """The bridge, the hosts on it and the faults between them (iptables rules in the hit host's namespace)."""

    def __init__(self):
        self.delayer = None

    def up(self):
        sh("ip", "netns", "add", BRIDGE_NS)
        sh("ip", "-n", BRIDGE_NS, "link", "set", "lo", "up")
        sh("ip", "-n", BRIDGE_NS, "link", "add", "br0", "type", "bridge")
        sh("ip", "-n", BRIDGE_NS, "link", "set", "br0", "up")
        for host in HOSTS:
            ns = ns_of(host)
            sh("ip", "netns", "add", ns)
            sh("ip", "-n", ns, "link", "set", "lo", "up")
            sh("ip", "link", "add", "eth0", "netns", ns, "type", "veth", "peer", "name", f"to-{host}",
               "netns", BRIDGE_NS)
            sh("ip", "-n", ns, "addr", "add", f"{ip_of(host)}/24", "dev", "eth0")
            sh("ip", "-n", ns, "link", "set", "eth0", "up")
            sh("ip", "-n", BRIDGE_NS, "link", "set", f"to-{host}", "master", "br0")
            sh("ip", "-n", BRIDGE_NS, "link", "set", f"to-{host}", "up")
        sh("ip", "link", "add", ROOT_LINK, "type", "veth", "peer", "name", "to-root", "netns", BRIDGE_NS)
        sh("ip", "addr", "add", f"{ROOT_IP}/24", "dev", ROOT_LINK)
        sh("ip", "link", "set", ROOT_LINK, "up")
        sh("ip", "-n", BRIDGE_NS, "link", "set", "to-root", "master", "br0")
        sh("ip", "-n", BRIDGE_NS, "link", "set", "to-root", "up")
        suite.log(f"hosts up on {NET}.0/24: " + ", ".join(f"{h} {ip_of(h)}" for h in HOSTS))

    def down(self):
        self.stop_delayer()
        remove_namespaces([ns_of(h) for h in HOSTS] + [BRIDGE_NS])

    @staticmethod
    def wrapper(host):
        return ["ip", "netns", "exec", ns_of(host)]

    def iptables(self, host, *rule):
        sh(*self.wrapper(host), "iptables", "-w", "5", *rule)

    def partition(self, host, *peers):
        """Drops every packet between `host` and each peer, both ways: the peers' connections go silent, as across
        a cut link, rather than refused."""
        for peer in peers:
            self.iptables(host, "-A", "OUTPUT", "-d", ip_of(peer), "-j", "DROP")
            self.iptables(host, "-A", "INPUT", "-s", ip_of(peer), "-j", "DROP")
        suite.log(f"partitioned {host} from {', '.join(peers)}")

    def lose(self, host, share, port, *peers):
        """Drops a random `share` of the packets that the peers send to `host`'s `port`."""
        for peer in peers:
            self.iptables(host, "-A", "INPUT", "-s", ip_of(peer), "-p", "tcp", "--dport", str(port), "-m",
                          "statistic", "--mode", "random", "--probability", str(share), "-j", "DROP")
        suite.log(f"{share:.0%} of the packets from {', '.join(peers)} to {host}:{port} are dropped")

    def dropped(self, host):
        """Packets the DROP rules of `host` have dropped so far."""
        total = 0
        for line in sh(*self.wrapper(host), "iptables", "-w", "5", "-L", "-n", "-v", "-x").splitlines():
            parts = line.split()
            if len(parts) > 2 and parts[2] == "DROP" and parts[0].isdigit():
                total += int(parts[0])
        return total

    def delay(self, host, peer, port, workdir):
        """Holds each packet `host` sends to the peer's `port` for REDIS_DELAY +- REDIS_JITTER ms (uniform)."""
        self.delayer = suite.start(f"delayer-{host}", [*self.wrapper(host), sys.executable, os.path.abspath(__file__),
                                                       "delay", str(DELAY_QUEUE), str(REDIS_DELAY),
                                                       str(REDIS_JITTER)], workdir)
        log_path = os.path.join(workdir, f"delayer-{host}.log")
        if not suite.wait_until(lambda: "bound" in read(log_path), 10, 0.1):
            raise RuntimeError(f"the delayer did not bind its queue; see {log_path}")
        # --queue-bypass: were the delayer gone, packets would pass rather than be dropped.
        self.iptables(host, "-A", "OUTPUT", "-d", ip_of(peer), "-p", "tcp", "--dport", str(port), "-j", "NFQUEUE",
                      "--queue-num", str(DELAY_QUEUE), "--queue-bypass")
        suite.log(f"{host} -> {peer}:{port} delayed {REDIS_DELAY} ms +- {REDIS_JITTER} ms")

    def stop_delayer(self):
        if self.delayer is not None and self.delayer.poll() is None:
            self.delayer.terminate()  # it lets the packets it holds go, then exits
            try:
                self.delayer.wait(5)
            except subprocess.TimeoutExpired:
                self.delayer.kill()
        self.delayer = None

    def heal(self, *hosts):
        for host in hosts or HOSTS:
            self.iptables(host, "-F")
        if not hosts or self.delayer is not None:
            self.stop_delayer()
        suite.log(f"healed {', '.join(hosts or HOSTS)}")

    def round_trips(self, host, peer, port, count=20):
        """Round trips of a Redis PING from `host` to the peer, in ms, on one connection."""
        snippet = ("import socket,sys,time\n"
                   f"c=socket.create_connection(('{ip_of(peer)}',{port}),timeout=5)\n"
                   "for _ in range(%d):\n"
                   "    t=time.monotonic();c.sendall(b'PING\\r\\n');c.recv(64)\n"
                   "    print((time.monotonic()-t)*1000)\n" % count)
        out = sh(*self.wrapper(host), sys.executable, "-c", snippet, timeout=count * 2 + 10)
        return sorted(float(x) for x in out.split())


# ------------------------------------------------------------------------------------------------------ the delayer
# NFQUEUE over netlink (linux/netfilter/nfnetlink_queue.h), with the standard library only: bind a queue, receive
# each packet's id (metadata only), and give the verdict ACCEPT when its delay has passed. Verdicts may be given in
# any order, so jitter reorders packets, as netem's does.

NETLINK_NETFILTER = 12
NFQ_PACKET, NFQ_VERDICT, NFQ_CONFIG = (3 << 8) | 0, (3 << 8) | 1, (3 << 8) | 2
NLM_F_REQUEST, NLM_F_ACK, NLMSG_ERROR = 1, 4, 2


def _attribute(kind, payload):
    attribute = struct.pack("=HH", 4 + len(payload), kind) + payload
    return attribute + b"\0" * (-len(attribute) % 4)


def _message(kind, queue, attributes, flags=NLM_F_REQUEST, seq=0):
    body = struct.pack("=BBH", socket.AF_UNSPEC, 0, socket.htons(queue)) + b"".join(attributes)
    return struct.pack("=IHHII", 16 + len(body), kind, flags, seq, 0) + body


def _configure(sock, queue, attributes, seq):
    sock.send(_message(NFQ_CONFIG, queue, attributes, NLM_F_REQUEST | NLM_F_ACK, seq))
    data = sock.recv(65536)
    if struct.unpack_from("=H", data, 4)[0] == NLMSG_ERROR:
        error = struct.unpack_from("=i", data, 16)[0]
        if error:
            raise OSError(-error, os.strerror(-error))


def delay_packets(queue, delay_ms, jitter_ms):
    sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_NETFILTER)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8 << 20)
    sock.bind((0, 0))
    # NFQA_CFG_CMD: bind the queue; NFQA_CFG_PARAMS: copy metadata only; NFQA_CFG_QUEUE_MAXLEN.
    _configure(sock, queue, [_attribute(1, struct.pack("=BBH", 1, 0, socket.htons(socket.AF_INET)))], 1)
    _configure(sock, queue, [_attribute(2, struct.pack("!IB", 0, 1)), _attribute(3, struct.pack("!I", 50000))], 2)
    stopping = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stopping.set())
    signal.signal(signal.SIGINT, lambda *_: stopping.set())
    print("bound", flush=True)
    held = []  # (due, packet id)
    delayed = overruns = 0
    while True:
        now = time.monotonic()
        while held and (held[0][0] <= now or stopping.is_set()):
            _, packet = heapq.heappop(held)
            sock.send(_message(NFQ_VERDICT, queue, [_attribute(2, struct.pack("!II", 1, packet))]))  # NF_ACCEPT
        if stopping.is_set():
            break
        wait = min(0.1, held[0][0] - now) if held else 0.1
        if not select.select([sock], [], [], max(0.0, wait))[0]:
            continue
        try:
            data = sock.recv(1 << 16)
        except OSError as e:
            if e.errno == errno.ENOBUFS:  # the kernel's queue to us overflowed: those packets are lost
                overruns += 1
                continue
            raise
        offset = 0
        while offset + 16 <= len(data):
            length, kind = struct.unpack_from("=IH", data, offset)
            if kind == NFQ_PACKET:
                position = offset + 20
                while position + 4 <= offset + length:
                    size, attribute = struct.unpack_from("=HH", data, position)
                    if attribute & 0x7FFF == 1:  # NFQA_PACKET_HDR: packet id first
                        packet = struct.unpack_from("!I", data, position + 4)[0]
                        due = time.monotonic() + random.uniform(delay_ms - jitter_ms, delay_ms + jitter_ms) / 1000
                        heapq.heappush(held, (due, packet))
                        delayed += 1
                        break
                    position += (size + 3) & ~3
            offset += (length + 3) & ~3 if length else len(data)
    print(f"delayed {delayed} packets, {overruns} receive overruns", flush=True)


# ------------------------------------------------------------------------------------------------------ helpers

def batch_create(pod, prefix, count):
    """Creates `count` links in one batch call on `pod`: their codes, in order."""
    body = {"links": [{"url": f"https://example.com/netfaults/{prefix}/{i}/{random.random()}"} for i in range(count)]}
    status, _, text, _ = suite.request(pod.port, "POST", "/api/v1/links/batch", body, timeout=60, host=pod.host)
    if status != 200:
        raise RuntimeError(f"batch create answered {status}: {text[:300]}")
    results = json.loads(text)["results"]
    codes = [r.get("code") for r in results]
    if None in codes:
        raise RuntimeError(f"batch create failed items: {[r for r in results if not r.get('code')][:3]}")
    return codes


def warm(pod, codes):
    """Asks `pod` for each code once, so its near cache holds them: the visits this made (one per code)."""
    statuses = [suite.request(pod.port, "GET", "/" + code, host=pod.host)[0] for code in codes]
    if set(statuses) != {302}:
        raise RuntimeError(f"warming {pod.name} answered {sorted(set(statuses))}")
    return len(codes)


def sql_list(codes):
    return ",".join(f"'{c}'" for c in codes)


def settled(mariadb, statement, expected, timeout=60):
    """The count `statement` reads, polled until it reaches `expected`, then read again 3 s later: a count that
    went on past `expected` (a visit written twice) shows."""
    suite.wait_until(lambda: mariadb.count(statement) >= expected, timeout, 0.5)
    time.sleep(3)
    return mariadb.count(statement)


def rows_and_counts(mariadb, codes, expected, timeout=60):
    """(raw visit rows, visits in the aggregates) of these codes, each settled at `expected`."""
    in_list = sql_list(codes)
    rows = settled(mariadb, f"SELECT COUNT(*) FROM visit WHERE code IN ({in_list})", expected, timeout)
    total = settled(mariadb, f"SELECT COALESCE(SUM(visits), 0) FROM link_stats WHERE code IN ({in_list})",
                    expected, timeout)
    return rows, total


def scrape(pod):
    """The pod's metrics, scraped again (for up to 30 s) when a scrape fails or times out; a slow scrape is logged,
    since it is a fact about the pod's management port under the fault."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        begin = time.monotonic()
        try:
            text = pod.metrics()
        except (OSError, urllib.error.URLError) as e:
            suite.log(f"scrape of pod {pod.name} failed after {time.monotonic() - begin:.1f} s: {e!r}")
            time.sleep(0.5)
            continue
        if time.monotonic() - begin > 2:
            suite.log(f"scrape of pod {pod.name} took {time.monotonic() - begin:.1f} s")
        return text
    raise RuntimeError(f"pod {pod.name} gave no metrics for 30 s")


def value(pod, name, **labels):
    return pod.metric(name, scrape(pod), **labels) or 0


def restart(pod, **settings):
    """Restarts `pod` (SIGTERM, so it writes what it holds) with these settings changed."""
    if all(pod.settings.get(k) == v for k, v in settings.items()) and pod.process.poll() is None:
        return
    if pod.process.poll() is None:
        pod.process.terminate()
        try:
            pod.process.wait(40)
        except subprocess.TimeoutExpired:
            pod.process.kill()
            pod.process.wait(10)
    pod.settings.update(settings)
    suite.log(f"restarting pod {pod.name} with {settings}")
    pod.start()


def near_ttl(pod, seconds):
    restart(pod, **{"shortgate.redirect.near-cache.ttl": f"{seconds}s"})


class BreakerWatch:
    """Polls the state of a pod's `redis` circuit breaker (every 0.2 s) and keeps each change with its time."""

    STATES = ("closed", "open", "half_open", "forced_open", "disabled", "metrics_only")

    def __init__(self, pod):
        self.pod = pod
        self.changes = []  # (time.time(), state)
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def start(self):
        self.thread.start()
        return self

    def run(self):
        while not self.stopping.is_set():
            try:
                text = self.pod.metrics()
                state = next((s for s in self.STATES if self.pod.metric(
                    "resilience4j_circuitbreaker_state", text, name="redis", state=s) == 1), None)
                if state and (not self.changes or self.changes[-1][1] != state):
                    self.changes.append((time.time(), state))
            except Exception:  # noqa: BLE001 - a scrape that failed is retried at the next tick
                pass
            self.stopping.wait(0.2)

    def stop(self):
        self.stopping.set()
        self.thread.join(5)
        return self

    def between(self, since, until):
        """The changes within [since, until], after the state the breaker was in at `since`."""
        before = [s for t, s in self.changes if t < since]
        during = [(t, s) for t, s in self.changes if since <= t <= until]
        return (before[-1] if before else None), during


def wrk(pod, codes, seconds, rate, workdir, connections=4):
    """A paced wrk run from the root namespace: `rate` GETs a second over `connections` keep-alive connections
    (each waits between its requests), cycling over the codes. Returns its counts and latency percentiles (ms)."""
    script = os.path.join(workdir, "wrk-codes.lua")
    with open(script, "w") as f:
        f.write("local codes = {" + ",".join(f'"{c}"' for c in codes) + "}\n")
        f.write(WRK_SCRIPT.replace("DELAY", str(int(connections * 1000 / rate))))
    out = sh("wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--timeout", "5s", "-s", script,
             f"http://{pod.host}:{pod.port}", timeout=seconds + 30)
    line = next(line for line in out.splitlines() if line.startswith("SGNF "))
    fields = dict(part.split("=", 1) for part in line.split()[1:])
    statuses = dict((int(k), int(v)) for k, v in (s.split(":") for s in fields["statuses"].split(",") if s))
    return {"requests": int(fields["requests"]), "errors": int(fields["errors"]), "statuses": statuses,
            **{k: int(fields[k]) / 1000 for k in ("p50", "p90", "p99", "max")}}


WRK_SCRIPT = """
local threads = {}
function setup(thread) table.insert(threads, thread) end
function init(args) statuses = {}; n = 0 end
function request() n = n + 1; return wrk.format("GET", "/" .. codes[(n % #codes) + 1]) end
function delay() return DELAY end
function response(status, headers, body) statuses[status] = (statuses[status] or 0) + 1 end
function done(summary, latency, requests)
  local total = {}
  for _, t in ipairs(threads) do
    for k, v in pairs(t:get("statuses")) do total[k] = (total[k] or 0) + v end
  end
  local parts = {}
  for k, v in pairs(total) do table.insert(parts, k .. ":" .. v) end
  local e = summary.errors
  io.write(string.format("SGNF requests=%d errors=%d p50=%d p90=%d p99=%d max=%d statuses=%s\\n", summary.requests,
    e.connect + e.read + e.write + e.timeout, latency:percentile(50), latency:percentile(90), latency:percentile(99),
    latency.max, table.concat(parts, ",")))
end
"""


def ms(seconds):
    return f"{seconds * 1000:.0f} ms"


def statuses_of(load):
    counts = {}
    for _, _, _, status, _, _ in load.answers:
        counts[status] = counts.get(status, 0) + 1
    return ", ".join(f"{k}x{v}" for k, v in sorted(counts.items())) or "none"


# ------------------------------------------------------------------------------------------------------ faults

def n1_redis_latency(ctx):
    """200 ms +- 40 ms between pod B and Redis (B's packets to Redis wait in the delayer)."""
    a, b, redis, net = ctx.a, ctx.b, ctx.redis, ctx.net
    window, rate, per_window = 20, 10, 230  # s; look-ups a second of each lower tier; codes each window may use
    # Cached codes: a set per window, each loaded into B's near cache just before its window, so that none expires
    # (TTL 60 s) within it however long the warm-up takes.
    cached, cached_before, cached_during = (suite.create_links(a, f"n1-cached-{i}", 20) for i in range(3))
    warm(b, cached)
    # In Redis (the create wrote them there) and never asked of B: B's look-up is a Redis hit. Each is asked once.
    redis_tier = batch_create(a, "n1-redis", 4 * per_window)
    warm_up, before_redis, during_redis, after_redis = (redis_tier[i * per_window:(i + 1) * per_window]
                                                        for i in range(4))
    # In neither cache: B asks Redis (a miss), then MariaDB.
    db_tier = batch_create(a, "n1-db", 2 * per_window)
    redis.cli("DEL", *[f"sg:link:{c}" for c in db_tier])
    held = int(redis.cli("EXISTS", *[f"sg:link:{c}" for c in redis_tier]))
    if held != len(redis_tier):
        raise RuntimeError(f"only {held} of {len(redis_tier)} links are in Redis")
    tiers = ("near", "redis", "db")
    calls = ("successful", "failed", "ignored")

    def counters():
        text = scrape(b)
        found = {t: b.metric("shortgate_redirect_seconds_count", text, tier=t) or 0 for t in tiers}
        found.update({k: b.metric("resilience4j_circuitbreaker_calls_seconds_count", text, name="redis", kind=k) or 0
                      for k in calls})
        found["refused"] = b.metric("resilience4j_circuitbreaker_not_permitted_calls_total", text, name="redis") or 0
        return found

    def lower_tiers(redis_codes, db_codes, seconds):
        loads = [suite.Load([b], codes, rate=rate, threads=2, limit=seconds).start()
                 for codes in (redis_codes, db_codes) if codes]
        return loads + [None] * (2 - len(loads))

    # Warm-up (JIT, connections): 5 s windows until one has a p99 below 50 ms, for at most 40 s. Then the
    # baseline: cached codes through wrk, each lower tier through the suite's client, one look-up per code.
    warm_loads = lower_tiers(warm_up, db_tier[per_window:], 40)
    deadline = time.monotonic() + 40
    while wrk(b, cached, 5, 100, ctx.workdir)["p99"] >= 50 and time.monotonic() < deadline:
        pass
    for load in warm_loads:
        load.stop()
    watch = BreakerWatch(b).start()
    warm(b, cached_before)
    on_redis, on_db = lower_tiers(before_redis, db_tier[:per_window], window)
    baseline = wrk(b, cached_before, window, 100, ctx.workdir)
    on_redis.stop()
    on_db.stop()
    # The fault.
    warm(b, cached_during)
    net.delay("b", "redis", 6379, ctx.workdir)
    round_trips = net.round_trips("b", "redis", 6379)
    time.sleep(1)
    began = time.time()
    before = counters()
    slow_redis, _ = lower_tiers(during_redis, None, window)
    during = wrk(b, cached_during, window, 100, ctx.workdir)
    slow_redis.stop()
    after = counters()
    ended = time.time()
    net.heal("b")
    # The breaker leaves `open` only on a call: look-ups go on (fresh codes) until it is closed again.
    recovery, _ = lower_tiers(after_redis, None, 20)
    closed = suite.wait_until(lambda: b.metric("resilience4j_circuitbreaker_state", name="redis",
                                               state="closed") == 1, 20, 0.2)
    closed_after = time.time() - ended
    recovery.stop()
    watch.stop()
    initial, changes = watch.between(began, ended)

    def spread(load):
        values = sorted(sec for *_, sec, _ in load.answers)
        return f"p50 {ms(values[len(values) // 2])}, p99 {ms(suite.p99(values))}" if values else "no answers"

    db_p99 = suite.p99(sorted(sec for *_, sec, _ in on_db.answers))
    redis_slow = suite.p99(sorted(sec for *_, sec, _ in slow_redis.answers))
    split = ", ".join(f"{t} {after[t] - before[t]:.0f}" for t in tiers)
    judged = ", ".join(f"{k} {after[k] - before[k]:.0f}" for k in (*calls, "refused"))
    suite.log(f"N1: B answered from {split}; breaker calls {judged}")
    suite.record("N1", f"B->Redis +{REDIS_DELAY} ms +-{REDIS_JITTER} ms: p99 of cached codes unchanged (+10% +10 ms "
                 "client jitter)", f"{baseline['p99']:.1f} ms before, {during['p99']:.1f} ms during "
                 f"({during['requests']} requests, {during['statuses']}, {during['errors']} errors); PING round trip "
                 f"B->Redis p50 {round_trips[len(round_trips) // 2]:.0f} ms",
                 during["p99"] <= baseline["p99"] * 1.1 + 10 and set(during["statuses"]) == {302}
                 and during["errors"] == 0)
    suite.record("N1", f"redis tier (codes not in B's near cache): p99 <= {REDIS_DELAY} ms + the DB's p99",
                 f"{spread(slow_redis)} over {len(slow_redis.answers)} look-ups ({statuses_of(slow_redis)}); before "
                 f"the fault: redis tier {spread(on_redis)}, DB tier {spread(on_db)} -> bound "
                 f"{ms(REDIS_DELAY / 1000 + db_p99)}; B answered from: {split}",
                 redis_slow <= REDIS_DELAY / 1000 + db_p99
                 and statuses_of(slow_redis) == f"302x{len(slow_redis.answers)}")
    sequence = " -> ".join([initial or "?"] + [f"{s} at {t - began:.1f} s" for t, s in changes])
    # Flapping: letting traffic through to Redis again (closed) and cutting it off again (open), within the fault.
    # An open breaker's half-open probes every 5 s that fail are its design, not a flap.
    states = [initial] + [s for _, s in changes]
    flaps = sum(1 for i in range(1, len(states) - 1) if states[i] == "closed" and "open" in states[:i]
                and "open" in states[i + 1:])
    suite.record("N1", "breaker 'redis' on B does not flap (never closes and opens again during the fault)",
                 f"{len(changes)} transitions in {ended - began:.0f} s: {sequence}; {flaps} close-and-reopen; "
                 f"calls {judged}; closed " + (f"{closed_after:.1f} s after the heal" if closed
                                               else "NOT again within 20 s of the heal"), flaps == 0)


def n2_mariadb_loss(ctx):
    """5% of the packets the pods send to MariaDB are dropped."""
    a, b, mariadb, net = ctx.a, ctx.b, ctx.mariadb, ctx.net
    codes = suite.create_links(a, "n2", 20)
    warmed = warm(a, codes) + warm(b, codes)
    retries = "shortgate_visits_write_retries_total"
    retries_before = sum(value(p, retries) for p in (a, b))
    dropped_before = sum(value(p, "shortgate_visits_dropped_total") for p in (a, b))
    load = suite.Load([a, b], codes, limit=60).start()
    time.sleep(3)
    net.lose("mariadb", 0.05, 3306, "a", "b")
    time.sleep(25)
    lost_packets = net.dropped("mariadb")
    net.heal("mariadb")
    time.sleep(2)
    load.stop()
    found = load.count(302) + warmed
    rows, total = rows_and_counts(mariadb, codes, found, 90)
    retried = sum(value(p, retries) for p in (a, b)) - retries_before
    dropped = sum(value(p, "shortgate_visits_dropped_total") for p in (a, b)) - dropped_before
    suite.record("N2", "5% packet loss to MariaDB: 0 5xx for cached codes", f"{suite.fivexx(load)} 5xx, "
                 f"{len(load.errors)} errors of {len(load.answers)} ({statuses_of(load)}); {lost_packets} packets "
                 "to MariaDB dropped", suite.fivexx(load) == 0 and not load.errors)
    suite.record("N2", "visits all written: raw rows = aggregates = 302s", f"{rows} rows, {total} counted / {found} "
                 f"302s (warm-up included); {retried:.0f} write retries, {dropped:.0f} dropped",
                 rows == found and total == found)


def n3_partition_redis(ctx):
    """Pod B cut off from Redis while pod A changes a link."""
    a, b, redis, net = ctx.a, ctx.b, ctx.redis, ctx.net
    near_ttl(b, SHORT_TTL)
    code = suite.create_links(a, "n3", 1)[0]
    old = f"https://example.com/netfaults/n3/old/{random.random()}"
    new = f"https://example.com/netfaults/n3/new/{random.random()}"
    status = suite.request(a.port, "PATCH", "/api/v1/links/" + code, {"url": old}, host=a.host,
                           content_type="application/merge-patch+json")[0]
    if status != 200 or not suite.wait_until(lambda: location(b, code) == old, 10, 0.2):
        raise RuntimeError(f"could not set the link's first target (PATCH {status})")
    if not suite.wait_until(lambda: redis_numsub(redis) == 2, 30, 0.5):
        raise RuntimeError("the pods are not both subscribed to the invalidation channel")
    subscriber = b_subscriber(redis)
    log_start = len(b.log_text())
    probe = Prober(b, code).start()
    time.sleep(1)
    net.partition("b", "redis")
    parted = time.time()
    time.sleep(1)
    status = suite.request(a.port, "PATCH", "/api/v1/links/" + code, {"url": new}, host=a.host,
                           content_type="application/merge-patch+json")[0]
    patched = time.time()
    suite.wait_until(lambda: probe.last_location() == new, SHORT_TTL + 5, 0.1)
    time.sleep(max(0.0, patched + SHORT_TTL + 3 - time.time()))  # B keeps serving the new target
    stuck = unsent(net, subscriber[0])  # the invalidation Redis could not deliver to B's subscription
    healed_at = time.time()
    net.heal("b")
    line = "Invalidation channel subscribed again; clearing the near cache"
    resubscribed = suite.wait_until(lambda: line in b.log_text()[log_start:], 30, 0.5)
    waited = time.time() - healed_at
    delivered = suite.wait_until(lambda: unsent(net, subscriber[0]) == 0, 1, 0.1)
    time.sleep(1)
    probe.stop()
    old_after = [t for t, s, loc in probe.answers if loc == old and t >= patched]
    stale = (max(old_after) - patched) if old_after else 0.0
    errors = [(s, loc) for t, s, loc in probe.answers if s != 302]
    first_new = min((t for t, s, loc in probe.answers if loc == new), default=None)
    suite.record("N3", f"B cut off from Redis, A changes the link: B serves the old target at most the near-cache TTL "
                 f"({SHORT_TTL} s), never an error", f"PATCH {status}; old target served until {stale:.2f} s after "
                 f"the PATCH, new from {(first_new - patched) if first_new else float('nan'):.2f} s; "
                 f"{len(probe.answers)} answers, {len(errors)} not 302", status == 200 and stale <= SHORT_TTL
                 and first_new is not None and not errors)
    after = b_subscriber(redis)
    if resubscribed:
        measured = f"logged {waited:.1f} s after the heal; subscriber {subscriber[0]} -> {after[0]}"
    else:
        measured = (f"no such line in {waited:.0f} s after the heal; B's subscriber connection before "
                    f"{subscriber[0]} (age {subscriber[1]} s), after {after[0]} (age {after[1]} s), subscribers "
                    f"{redis_numsub(redis)}; during the partition Redis held {stuck} unsent bytes for it, "
                    f"{'all sent (TCP retransmission) by now' if delivered else 'still unsent'}")
    suite.record("N3", "healed: B's invalidation channel resubscribes and clears its near cache (log line)",
                 measured, bool(resubscribed))

    # A longer partition: Redis gives up on the invalidation it cannot deliver and closes B's subscription. Redis's
    # host retransmits 3 times here (net.ipv4.tcp_retries2, about 3 s) instead of 15 (about 15 minutes): what a
    # partition of a quarter of an hour does, in seconds. (Redis's own tcp-keepalive, 300 s, closes an idle one.)
    sh(*net.wrapper("redis"), "sysctl", "-q", "-w", "net.ipv4.tcp_retries2=3")
    try:
        log_start = len(b.log_text())
        net.partition("b", "redis")
        parted = time.time()
        status = suite.request(a.port, "PATCH", "/api/v1/links/" + code, {"url": old}, host=a.host,
                               content_type="application/merge-patch+json")[0]
        dropped = suite.wait_until(lambda: redis_numsub(redis) == 1, 30, 0.5)
        dropped_after = time.time() - parted
        net.heal("b")
        healed_at = time.time()
        resubscribed = suite.wait_until(lambda: line in b.log_text()[log_start:] and redis_numsub(redis) == 2, 30, 0.5)
        waited = time.time() - healed_at
        held = subscriber[0] and sh(*net.wrapper("b"), "ss", "-Htn", "state", "established", "sport", "=",
                                    ":" + subscriber[0].rsplit(":", 1)[1], check=False).strip()
    finally:
        sh(*net.wrapper("redis"), "sysctl", "-q", "-w", "net.ipv4.tcp_retries2=15")
    if not dropped:
        measured = f"PATCH {status}; Redis kept B's subscription for 30 s: nothing to judge"
    elif resubscribed:
        measured = (f"PATCH {status}; Redis dropped B's subscription {dropped_after:.0f} s in; B resubscribed "
                    f"{waited:.1f} s after the heal")
    else:
        measured = (f"PATCH {status}; Redis dropped B's subscription {dropped_after:.0f} s into the partition; "
                    f"{waited:.0f} s after the heal: no log line, subscribers {redis_numsub(redis)}, B's side of the "
                    f"old connection {'still ESTABLISHED' if held else 'closed'}: B hears no invalidations")
    suite.record("N3", "long partition (Redis drops B's subscription): B resubscribes once healed", measured,
                 bool(dropped) and bool(resubscribed))


def location(pod, code):
    status, headers, _, _ = suite.request(pod.port, "GET", "/" + code, host=pod.host)
    return {k.lower(): v for k, v in headers.items()}.get("location") if status == 302 else None


def unsent(net, address):
    """Bytes Redis has written to the connection from `address` that B has not acknowledged (its Send-Q)."""
    if not address:
        return None
    host, port = address.rsplit(":", 1)
    out = sh(*net.wrapper("redis"), "ss", "-Htn", "state", "established", "dst", f"{host}:{port}", check=False)
    fields = out.split()
    return int(fields[1]) if len(fields) >= 2 else None


def redis_numsub(redis):
    parts = redis.cli("PUBSUB", "NUMSUB", "sg:invalidate").split()
    return int(parts[-1]) if parts else 0


def b_subscriber(redis):
    """(address, age in s) of pod B's connection subscribed to invalidations, as Redis sees it."""
    for line in redis.cli("CLIENT", "LIST", "TYPE", "pubsub").splitlines():
        fields = dict(f.split("=", 1) for f in line.split() if "=" in f)
        if fields.get("addr", "").startswith(ip_of("b") + ":"):
            return fields["addr"], int(fields.get("age", -1))
    return None, None


class Prober:
    """One GET of a code every 50 ms on a keep-alive connection: (time, status, Location) of each answer; a request
    that got no answer is kept with its error as the status."""

    def __init__(self, pod, code):
        self.pod, self.code = pod, code
        self.answers = []
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def start(self):
        self.thread.start()
        return self

    def run(self):
        connection = None
        while not self.stopping.is_set():
            try:
                if connection is None:
                    connection = http.client.HTTPConnection(self.pod.host, self.pod.port, timeout=10)
                connection.request("GET", "/" + self.code)
                response = connection.getresponse()
                response.read()
                self.answers.append((time.time(), response.status, response.getheader("Location")))
            except Exception as e:  # noqa: BLE001 - kept as a failed answer
                self.answers.append((time.time(), repr(e), None))
                connection = None
            self.stopping.wait(0.05)

    def last_location(self):
        return self.answers[-1][2] if self.answers else None

    def stop(self):
        self.stopping.set()
        self.thread.join(15)


def n4_partition_both(ctx):
    """Pod B cut off from MariaDB and Redis both."""
    b, mariadb, net = ctx.b, ctx.mariadb, ctx.net
    near_ttl(b, LONG_TTL)
    cached = suite.create_links(ctx.a, "n4-cached", 20)
    warmed = warm(b, cached)
    uncached = suite.create_links(ctx.a, "n4-uncached", 30)  # never asked of B
    dropped_metric = "shortgate_visits_dropped_total"
    dropped_before = value(b, dropped_metric, reason="buffer_full")
    others_before = sum(value(b, dropped_metric, reason=r) for r in ("write_failed", "shutdown"))
    # 50 visits a second: the 500-visit buffer is full 10 s into the partition.
    load = suite.Load([b], cached, rate=50, threads=2, limit=90).start()
    time.sleep(3)
    net.partition("b", "mariadb", "redis")
    parted = time.time()
    readiness = []  # (seconds into the partition, status)
    peak = [0.0]
    stopping = threading.Event()

    def watch_readiness():
        while not stopping.is_set():
            try:
                status = b.ready()
            except Exception as e:  # noqa: BLE001
                status = repr(e)
            readiness.append((time.time() - parted, status))
            stopping.wait(0.5)

    def watch_buffer():
        while not stopping.is_set():
            try:
                peak[0] = max(peak[0], b.metric("shortgate_visits_buffered") or 0)
            except Exception:  # noqa: BLE001
                pass
            stopping.wait(0.25)

    watchers = [threading.Thread(target=w, daemon=True) for w in (watch_readiness, watch_buffer)]
    for w in watchers:
        w.start()
    answers = []
    sent = {}  # id of an answer -> seconds into the partition its request was sent
    deadlines_before = value(b, "shortgate_lookups_deadline_exceeded_total")

    def ask(code):
        began = time.time() - parted
        try:
            answer = suite.request(b.port, "GET", "/" + code, timeout=15, host=b.host)
        except Exception as e:  # noqa: BLE001
            answer = (repr(e), {}, "", 15)
        sent[id(answer)] = began
        answers.append(answer)

    for start_at, chunk in ((2, uncached[:10]), (8, uncached[10:20]), (14, uncached[20:])):
        time.sleep(max(0.0, parted + start_at - time.time()))
        askers = [threading.Thread(target=ask, args=(c,), daemon=True) for c in chunk]
        for t in askers:
            t.start()
        for t in askers:
            t.join(20)
    time.sleep(max(0.0, parted + 18 - time.time()))
    partition_seconds = time.time() - parted
    net.heal("b")
    healed_at = time.time()
    back = suite.wait_until(lambda: b.ready() == 200, 30, 0.5)
    back_seconds = time.time() - healed_at
    time.sleep(2)
    stopping.set()
    for w in watchers:
        w.join(10)
    load.stop()
    found = load.count(302) + warmed
    dropped = value(b, dropped_metric, reason="buffer_full") - dropped_before
    others = sum(value(b, dropped_metric, reason=r) for r in ("write_failed", "shutdown")) - others_before
    in_list = sql_list(cached)
    rows = settled(mariadb, f"SELECT COUNT(*) FROM visit WHERE code IN ({in_list})", found - int(dropped), 90)
    total = settled(mariadb, f"SELECT COALESCE(SUM(visits), 0) FROM link_stats WHERE code IN ({in_list})", found)
    unready_at = next((t for t, s in readiness if s != 200), None)
    statuses = sorted({str(s) for s, _, _, _ in answers})
    with_retry_after = all({k.lower(): v for k, v in h.items()}.get("retry-after") for s, h, _, _ in answers
                           if s == 503)
    slowest_answer = max(answers, key=lambda answer: answer[3])
    slowest = slowest_answer[3]
    deadlines = value(b, "shortgate_lookups_deadline_exceeded_total") - deadlines_before
    pause = max((float(line.rsplit(" ", 1)[1]) for line in scrape(b).splitlines()
                 if line.startswith("jvm_gc_pause_seconds_max{")), default=0.0)
    suite.record("N4", "B cut off from MariaDB and Redis: cached codes keep answering 302",
                 f"{statuses_of(load)}, {len(load.errors)} errors, over a partition of {partition_seconds:.0f} s",
                 load.count(302) == len(load.answers) and not load.errors)
    suite.record("N4", "uncached codes: 503 + Retry-After, never 404", f"statuses {statuses} over {len(answers)} "
                 f"look-ups, Retry-After on all: {with_retry_after}; slowest {slowest:.2f} s (sent "
                 f"{sent[id(slowest_answer)]:.1f} s into the partition; load deadlines exceeded {deadlines:.0f}, "
                 f"longest GC pause {pause:.2f} s)",
                 statuses == ["503"] and with_retry_after)
    if unready_at is None:
        seen = f"never unready in {partition_seconds:.0f} s"
    else:
        seen = f"first unready answer {unready_at:.1f} s into the partition"
    seen += f"; ready again {back_seconds:.1f} s after the heal" if back else "; NOT ready again within 30 s"
    suite.record("N4", f"readiness goes down after database-unready-after ({UNREADY_AFTER} s; a check waits up to "
                 f"{DB_CHECK} s), back after the heal", seen, unready_at is not None
                 and UNREADY_AFTER <= unready_at <= UNREADY_AFTER + DB_CHECK + 1.5 and bool(back))
    suite.record("N4", f"visits buffered to capacity ({BUFFER}); overflow counted exactly (rows + dropped = 302s)",
                 f"peak buffered {peak[0]:.0f}; {rows} rows + {dropped:.0f} dropped = {rows + dropped:.0f} / {found} "
                 f"302s; other drops {others:.0f}; aggregates {total}", peak[0] == BUFFER and dropped > 0
                 and rows + dropped == found and others == 0 and total == found)


def n5_creates_across_heal(ctx):
    """Creates on both pods while pod A is cut off from MariaDB and Redis, and healed with creates in flight."""
    a, b, mariadb, net = ctx.a, ctx.b, ctx.mariadb, ctx.net
    run = f"{random.random():.8f}"
    shared = [f"https://example.com/netfaults/n5/{run}/shared/{i}" for i in range(10)]
    creates = []  # (began, ended, pod, url, status, code)
    lock = threading.Lock()
    stopping = threading.Event()

    def creator(index):
        n = 0
        pod = (a, b)[index % 2]  # A's creates stall in the partition; B's go on, some of the same URLs
        while not stopping.is_set():
            url = shared[(index + n) % len(shared)] if n % 3 == 0 else \
                f"https://example.com/netfaults/n5/{run}/{index}/{n}"
            n += 1
            began = time.time()
            try:
                status, _, text, _ = suite.request(pod.port, "POST", "/api/v1/links", {"url": url}, timeout=30,
                                                   host=pod.host)
                code = json.loads(text).get("code") if status in (200, 201) else None
            except Exception as e:  # noqa: BLE001
                status, code = repr(e), None
            with lock:
                creates.append((began, time.time(), pod.name, url, status, code))
            stopping.wait(0.05)

    workers = [threading.Thread(target=creator, args=(i,), daemon=True) for i in range(6)]
    for w in workers:
        w.start()
    time.sleep(3)
    net.partition("a", "mariadb", "redis")
    time.sleep(4)
    healed_at = time.time()
    net.heal("a")
    time.sleep(8)
    stopping.set()
    for w in workers:
        w.join(40)
    in_flight = [c for c in creates if c[2] == "a" and c[0] < healed_at < c[1]]  # sent to A, answered after
    answered = [(url, code) for _, _, _, url, status, code in creates if status in (200, 201)]
    codes_by_url, urls_by_code = {}, {}
    for url, code in answered:
        codes_by_url.setdefault(url, set()).add(code)
        urls_by_code.setdefault(code, set()).add(url)
    split_urls = [u for u, c in codes_by_url.items() if len(c) > 1]
    shared_codes = [u for u, c in urls_by_code.items() if len(c) > 1]
    like = f"'https://example.com/netfaults/n5/{run}/%'"
    twice_code = mariadb.count(f"SELECT COUNT(*) FROM (SELECT code FROM link_all WHERE long_url LIKE {like} "
                               "GROUP BY code HAVING COUNT(*) > 1) d")
    twice_url = mariadb.count(f"SELECT COUNT(*) FROM (SELECT long_url FROM link_all WHERE long_url LIKE {like} "
                              "GROUP BY long_url HAVING COUNT(*) > 1) d")
    stored = {}
    rows = mariadb.sql(f"SELECT code, long_url FROM link_all WHERE long_url LIKE {like}", "shortgate")
    for line in rows.splitlines():
        code, url = line.split("\t", 1)
        stored[code] = url
    missing = [(u, c) for u, c in set(answered) if stored.get(c) != u]
    counts = {}
    for c in creates:
        counts[str(c[4])] = counts.get(str(c[4]), 0) + 1
    failed = [c for c in creates if c[4] not in (200, 201)]
    failed_stored = sum(1 for c in failed if c[3] in stored.values())
    suite.record("N5", "A cut off from MariaDB and Redis for 4 s, healed with creates in flight: no duplicate codes",
                 f"{len(creates)} creates ({', '.join(f'{k}x{v}' for k, v in sorted(counts.items()))}), "
                 f"{len(in_flight)} on A in flight at the heal; SQL: {twice_code} codes and {twice_url} URLs stored "
                 "twice; "
                 f"answers: {len(split_urls)} URLs with 2 codes, {len(shared_codes)} codes with 2 URLs",
                 len(in_flight) > 0 and twice_code == 0 and twice_url == 0 and not split_urls and not shared_codes)
    suite.record("N5", "every create answered 201/200 exists in the database", f"{len(set(answered)) - len(missing)}"
                 f"/{len(set(answered))} (URL, code) answers stored; of {len(failed)} creates not answered 2xx, "
                 f"{failed_stored} URLs stored anyway", not missing)


FUNCTIONS = {"N1": n1_redis_latency, "N2": n2_mariadb_loss, "N3": n3_partition_redis, "N4": n4_partition_both,
             "N5": n5_creates_across_heal}


# ------------------------------------------------------------------------------------------------------ the run

class Context:
    pass


def start_hosts(ctx, jar):
    workdir = ctx.workdir
    ctx.net.up()
    ctx.mariadb = suite.MariaDb(workdir, 3306, host=ip_of("mariadb"), wrapper=Network.wrapper("mariadb"),
                                options=["--skip-name-resolve"])
    ctx.mariadb.init()
    ctx.mariadb.start()
    ctx.mariadb.sql("CREATE DATABASE shortgate CHARACTER SET utf8mb4; "
                    f"CREATE USER 'sg'@'{NET}.%' IDENTIFIED BY 'sg'; "
                    f"GRANT ALL PRIVILEGES ON shortgate.* TO 'sg'@'{NET}.%';")
    ctx.redis = suite.Redis(workdir, 6379, host=ip_of("redis"), wrapper=Network.wrapper("redis"),
                            options=["--protected-mode", "no"])  # it answers the pods' network, not loopback only
    ctx.redis.start()
    settings = {"shortgate.redirect.near-cache.ttl": f"{LONG_TTL}s",
                "shortgate.health.database-unready-after": f"{UNREADY_AFTER}s",
                "shortgate.visit.buffer-capacity": BUFFER}
    ctx.a = suite.Pod("a", jar, workdir, 8080, 8081, ctx.mariadb, ctx.redis, host=ip_of("a"),
                      wrapper=Network.wrapper("a"), settings=settings, heap=HEAP)
    ctx.b = suite.Pod("b", jar, workdir, 8080, 8081, ctx.mariadb, ctx.redis, host=ip_of("b"),
                      wrapper=Network.wrapper("b"), settings=settings, heap=HEAP)
    ctx.a.start()
    ctx.b.start()
    # Warm-up: the first visits build the user-agent analyzer and the JIT compiles the paths, with pauses of up to
    # 0.4 s (copying collections) in the first seconds; no fault should measure those.
    codes = suite.create_links(ctx.a, "warm", 10) + suite.create_links(ctx.b, "warm", 10)
    load = suite.Load([ctx.a, ctx.b], codes).start()
    time.sleep(15)
    load.stop()


def recover(ctx):
    """After a fault that stopped half-way: lifts every fault and restarts what is down, so the next starts clean."""
    ctx.net.heal()
    for server in (ctx.mariadb, ctx.redis):
        if server.process.poll() is not None:
            server.start()
    for pod in (ctx.a, ctx.b):
        if pod.process.poll() is not None:
            pod.start()


def run(suite_module, names, args):
    """Runs the named network faults; False (after one line saying why) when this machine cannot make the hosts."""
    global suite
    suite = suite_module
    ok, reason = available()
    if not ok:
        print(f"[faults] network faults {', '.join(names)} skipped: {reason}", flush=True)
        return False
    lock = open(LOCK_PATH, "w")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        lock.close()
        suite.record("N", "network harness starts", f"another run holds {LOCK_PATH}", False)
        return True
    clean_leftovers()
    ctx = Context()
    ctx.workdir = tempfile.mkdtemp(prefix=WORK_PREFIX)
    ctx.net = Network()
    suite.log(f"network faults: work directory {ctx.workdir}")
    try:
        start_hosts(ctx, args.jar)
        for name in [n for n in ORDER if n in names]:
            suite.log(f"--- {name}")
            begin = time.monotonic()
            try:
                FUNCTIONS[name](ctx)
            except Exception as e:  # noqa: BLE001 - a fault that breaks the harness is a failed row, not a crash
                suite.record(name, "fault ran to the end", repr(e), False)
                recover(ctx)
            suite.log(f"{name} took {time.monotonic() - begin:.0f} s")
    except Exception as e:  # noqa: BLE001 - the hosts could not be made: a failed row, then the clean-up
        suite.record("N", "network harness starts", repr(e), False)
    finally:
        # A second signal must not cut the clean-up short.
        handlers = {s: signal.signal(s, signal.SIG_IGN) for s in (signal.SIGTERM, signal.SIGINT)}
        try:
            suite.stop_all()
            ctx.net.down()
            if args.keep:
                suite.log(f"kept {ctx.workdir} (until the next run)")
            else:
                shutil.rmtree(ctx.workdir, ignore_errors=True)
        finally:
            for s, handler in handlers.items():
                signal.signal(s, handler)
            lock.close()
    return True


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "delay":
        delay_packets(int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]))
    else:
        sys.exit(f"usage: {sys.argv[0]} delay QUEUE DELAY_MS JITTER_MS (run the faults with faults.py)")
