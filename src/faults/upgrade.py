#!/usr/bin/env python3
"""Rolling upgrade U1 of the fault suite (issue 26): a database made by the build before short domains, upgraded in
place by the current build while a pod of the old build serves it.

The old build is the commit just before short domains came in (UPGRADE_FROM, the parent of the commit that added
V90__domains.sql). Its jar is built once from `git archive` of that commit (offline Maven on ~/.m2, online if that
does not resolve; no tests) and kept in target/upgrade-from/<commit>/shortgate.jar, so a second run starts at once.

U1, on a mariadbd and a redis-server of its own (loopback ports base+60 and base+61):

1. pod OLD (the old jar) makes the database: Flyway up to the old build's last version, then links (single creates,
   aliases, one batch) and visits on every code, so there are raw visit rows and aggregates (per-day counters,
   dimensions, unique-visitor sketches);
2. a paced load of GETs on the existing codes starts against OLD, each answer recorded;
3. pod NEW (the current jar) starts on the same database and Redis: its Flyway applies the new versions while OLD
   serves; once NEW is ready it joins the load;
4. OLD gets SIGTERM and drains (a refused connection after its drain sends the request to NEW, as a load balancer
   that took OLD out would); the load runs on against NEW alone, then stops.

Then it checks on NEW: every existing code with its URL, the stats and raw visits made before the upgrade (and the
load's visits, counted by both pods), a domain added after the upgrade serving its own code (the same alias as an
old link on the default domain, to another URL), and the Flyway history. One table row per criterion, as F1-F12.

    python3 src/faults/faults.py --only U1 [--upgrade-from COMMIT] [--keep]
"""

import datetime
import http.client
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import zipfile

FAULTS = ["U1"]
# The last commit of main before short domains (eb04b3c "Add short domains as data with an admin API" is its child):
# its database is the one issue 26 says must upgrade in place. Flyway's versions there end at V60.
UPGRADE_FROM = "830de5c9ad2686ce858cc096af42ca622d612e66"

RATE = 60           # GETs a second of the load, over every pod in the rotation
THREADS = 4
UNKNOWN_RATE = 4    # GETs a second of codes that do not exist (orphan visits), besides RATE
BOTH_SECONDS = 10   # seconds the load runs on OLD and NEW together once NEW is ready
AFTER_SECONDS = 5   # seconds the load runs on NEW alone after OLD has exited
DOMAIN = "u1.example"
USER_AGENTS = [
    "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148",
    "curl/8.5.0",
]
# The parts of a link's stats answer that must read the same before and after the upgrade.
STATS_FIELDS = ["visits", "totalVisits", "uniqueVisitors", "perDay", "topCountries", "topBrowsers",
                "topOperatingSystems", "topDeviceClasses", "topReferrerHosts"]
MIGRATED = re.compile(r"Successfully applied (\d+) migrations? to schema \S+, now at version v?(\S+) "
                      r"\(execution time (\d+):(\d+)\.(\d+)s\)")

suite = None  # the fault suite's module (faults.py): its servers, pods, client and result table


# ------------------------------------------------------------------------------------------------------ the old jar

def old_jar(root, commit):
    """The old build's jar, from the cache or built now: (path, seconds spent building, 0 when cached)."""
    def resolve():
        return subprocess.run(["git", "rev-parse", "--verify", "--quiet", f"{commit}^{{commit}}"], cwd=root,
                              capture_output=True, text=True).stdout.strip()

    full = resolve()
    if not full:
        # a shallow clone: fetch that one commit from where the clone came from (a full commit id is asked for)
        suite.log(f"U1: commit {commit} is not in this clone; fetching it from origin")
        subprocess.run(["git", "fetch", "--quiet", "--depth=1", "origin", commit], cwd=root, timeout=300)
        full = resolve()
    if not full:
        raise RuntimeError(f"commit {commit} is not in this clone and origin did not give it (fetch its history)")
    cache = os.path.join(root, "target", "upgrade-from", full)
    jar = os.path.join(cache, "shortgate.jar")
    if os.path.isfile(jar):
        suite.log(f"U1: old jar of {full[:10]} from the cache {jar}")
        return jar, 0.0
    begin = time.monotonic()
    source = tempfile.mkdtemp(prefix="shortgate-upgrade-src-")
    try:
        archive = subprocess.Popen(["git", "archive", full], cwd=root, stdout=subprocess.PIPE)
        subprocess.run(["tar", "-x", "-C", source], stdin=archive.stdout, check=True, timeout=120)
        archive.stdout.close()
        if archive.wait(60) != 0:
            raise RuntimeError(f"git archive {full} failed")
        build = ["./mvnw", "-B", "-q", "-Dmaven.test.skip=true", "-Djacoco.skip=true", "package"]
        with open(os.path.join(source, "build.log"), "w") as out:
            suite.log(f"U1: building the old jar of {full[:10]} (offline)")
            done = subprocess.run(build[:1] + ["-o"] + build[1:], cwd=source, stdout=out, stderr=subprocess.STDOUT,
                                  timeout=900)
            if done.returncode != 0:
                suite.log("U1: the offline build did not resolve; building online")
                done = subprocess.run(build, cwd=source, stdout=out, stderr=subprocess.STDOUT, timeout=900)
        if done.returncode != 0:
            with open(os.path.join(source, "build.log"), errors="replace") as f:
                tail = f.read()[-2000:]
            raise RuntimeError(f"the old build of {full[:10]} failed:\n{tail}")
        os.makedirs(cache, exist_ok=True)
        shutil.copyfile(os.path.join(source, "target", "shortgate.jar"), jar + ".part")
        os.replace(jar + ".part", jar)
    finally:
        shutil.rmtree(source, ignore_errors=True)
    seconds = time.monotonic() - begin
    suite.log(f"U1: built the old jar of {full[:10]} in {seconds:.0f} s: {jar}")
    return jar, seconds


def migrations(jar):
    """Flyway versions a jar carries, as strings ("90", "4")."""
    with zipfile.ZipFile(jar) as z:
        names = [os.path.basename(n) for n in z.namelist() if "/db/migration/" in n and n.endswith(".sql")]
    return {m.group(1) for m in (re.match(r"V([0-9._]+)__", n) for n in names) if m}


# ------------------------------------------------------------------------------------------------------ HTTP

def call(pod, method, path, body=None, host=None, timeout=10):
    """One request on a new connection, as the admin: (status, headers with lower-case names, body text)."""
    connection = http.client.HTTPConnection(pod.host, pod.port, timeout=timeout)
    headers = {"X-Api-Key": suite.ADMIN_KEY}
    if host:
        headers["Host"] = host
    data = None
    if body is not None:
        data = json.dumps(body)
        headers["Content-Type"] = "application/json"
    try:
        connection.request(method, path, body=data, headers=headers)
        response = connection.getresponse()
        text = response.read().decode(errors="replace")
        return response.status, {k.lower(): v for k, v in response.getheaders()}, text
    finally:
        connection.close()


def created(answer, what):
    status, _, text = answer
    if status not in (200, 201):
        raise RuntimeError(f"{what} answered {status}: {text}")
    return json.loads(text)


class RollingLoad:
    """A paced GET load over the pods in the rotation, each answer recorded as (time, pod, code, status, location).

    Each thread keeps a keep-alive connection per pod. A pod that refuses a new connection (it drained and stopped
    listening) leaves the rotation and the request goes to the next pod, as a load balancer that took it out would.
    A GET that finds its reused connection closed before any answer (reset, broken pipe) is sent once more on a new
    connection, as an ingress does for an idempotent request; it is counted apart. Any other failure is an error."""

    def __init__(self, codes, unknown, rate=RATE, threads=THREADS, unknown_rate=UNKNOWN_RATE, limit=600):
        self.codes, self.unknown, self.rate, self.threads, self.limit = codes, unknown, rate, threads, limit
        self.unknown_rate = unknown_rate
        self.rotation = []
        self.answers = []
        self.errors = []
        self.retried = []  # GETs sent again after a reused connection was found closed
        self.refused = {}
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.workers = []

    def add(self, pod):
        with self.lock:
            self.rotation = self.rotation + [pod]
            self.refused.setdefault(pod.name, 0)

    def start(self):
        for i in range(self.threads):
            worker = threading.Thread(target=self.run, args=(i, self.codes, self.threads, self.threads / self.rate),
                                      daemon=True)
            worker.start()
            self.workers.append(worker)
        # One more thread asks for codes that do not exist: orphan visits, written by both builds as it migrates.
        worker = threading.Thread(target=self.run, args=(0, self.unknown, 1, 1 / self.unknown_rate), daemon=True)
        worker.start()
        self.workers.append(worker)
        return self

    def run(self, index, codes, stride, period):
        connections = {}
        next_at = time.monotonic()
        deadline = next_at + self.limit
        n = index
        while not self.stopping.is_set() and time.monotonic() < deadline:
            next_at += period
            pause = next_at - time.monotonic()
            if pause > 0:
                time.sleep(pause)
            code = codes[n % len(codes)]
            n += stride
            retried = False
            for attempt in range(3):
                rotation = self.rotation
                if not rotation:
                    break
                pod = rotation[(n // stride + attempt) % len(rotation)]
                connection = connections.get(pod.name)
                reused = connection is not None
                if not reused:
                    connection = http.client.HTTPConnection(pod.host, pod.port, timeout=10)
                    try:
                        connection.connect()
                    except OSError:
                        with self.lock:
                            self.refused[pod.name] += 1
                            self.rotation = [p for p in self.rotation if p is not pod]
                        continue
                    connections[pod.name] = connection
                try:
                    connection.request("GET", "/" + code, headers={"User-Agent": USER_AGENTS[n % len(USER_AGENTS)]})
                    response = connection.getresponse()
                    response.read()
                    with self.lock:
                        self.answers.append((time.time(), pod.name, code, response.status,
                                             response.getheader("Location")))
                    if response.getheader("Connection", "").lower() == "close":
                        connection.close()
                        connections.pop(pod.name, None)
                except (OSError, http.client.HTTPException) as e:
                    connection.close()
                    connections.pop(pod.name, None)
                    # A keep-alive connection the server closed as idle just as this request went out: no answer
                    # began, and a GET is sent again on a new connection (RFC 9112 9.3.1), as an ingress does.
                    # The visit counts show whether the server had taken it after all.
                    if reused and not retried and isinstance(e, (ConnectionResetError, BrokenPipeError)):
                        retried = True
                        with self.lock:
                            self.retried.append((time.time(), pod.name, code, repr(e)))
                        continue
                    with self.lock:
                        self.errors.append((time.time(), pod.name, code, repr(e)))
                break
        for connection in connections.values():
            connection.close()

    def stop(self):
        self.stopping.set()
        for worker in self.workers:
            worker.join(15)
        return self

    def count(self, pod=None, since=None, until=None, status=None, codes=None):
        return sum(1 for t, p, c, s, _ in self.answers if (pod is None or p == pod) and (status is None or s == status)
                   and (since is None or t >= since) and (until is None or t <= until)
                   and (codes is None or c in codes))


# ------------------------------------------------------------------------------------------------------ U1

def stats(pod, code):
    status, _, text = call(pod, "GET", f"/api/v1/links/{code}/stats")
    if status != 200:
        raise RuntimeError(f"stats of {code} on {pod.name} answered {status}: {text}")
    return json.loads(text)


def raw_visits(pod, code):
    """The raw visits the API lists for a code (every page)."""
    total, cursor = 0, None
    for _ in range(100):
        path = f"/api/v1/links/{code}/visits?limit=100" + (f"&cursor={cursor}" if cursor else "")
        status, _, text = call(pod, "GET", path)
        if status != 200:
            raise RuntimeError(f"visits of {code} on {pod.name} answered {status}: {text}")
        page = json.loads(text)
        total += len(page.get("visits", []))
        cursor = page.get("nextCursor")
        if not cursor:
            break
    return total


def seed(old):
    """Links on the old pod: single creates, aliases and one batch. Returns {code: url} and the kinds' counts."""
    links = {}
    for i in range(20):
        url = f"https://example.com/u1/single/{i}"
        links[created(call(old, "POST", "/api/v1/links", {"url": url}), "create")["code"]] = url
    for i in range(4):
        url = f"https://example.com/u1/alias/{i}"
        links[created(call(old, "POST", "/api/v1/links", {"url": url, "alias": f"u1-alias-{i}"}), "alias")["code"]] \
            = url
    batch = [{"url": f"https://example.com/u1/batch/{i}"} for i in range(16)]
    answer = created(call(old, "POST", "/api/v1/links/batch", {"links": batch}), "batch")
    for item in answer["results"]:
        if item.get("status") not in (200, 201):
            raise RuntimeError(f"batch item answered {item}")
        links[item["code"]] = item["url"]
    return links, {"single": 20, "alias": 4, "batch": 16}


def visit(pod, codes, times):
    """`times[code]` GETs of each code on `pod`, with varied user agents; returns the 302s answered."""
    found = 0
    for code in codes:
        for i in range(times[code]):
            connection = http.client.HTTPConnection(pod.host, pod.port, timeout=10)
            try:
                connection.request("GET", "/" + code, headers={"User-Agent": USER_AGENTS[i % len(USER_AGENTS)]})
                response = connection.getresponse()
                response.read()
                found += response.status == 302
            finally:
                connection.close()
    return found


def orphan_total(pod):
    status, _, text = call(pod, "GET", "/api/v1/visits/orphan?limit=1")
    if status != 200:
        raise RuntimeError(f"orphan visits on {pod.name} answered {status}: {text}")
    return json.loads(text)["totals"]["total"]


def migration_from_log(pod):
    """(migrations applied, version now, seconds, first migration's start, end) from Flyway's log lines, or None;
    the start and end are epoch seconds from the lines' timestamps (None where a line has none)."""
    text = pod.log_text()
    match = MIGRATED.search(text)
    if not match:
        return None
    count, version, minutes, seconds, fraction = match.groups()
    return (int(count), version, int(minutes) * 60 + int(seconds) + float("0." + fraction),
            logged_at(text, "Migrating schema"), logged_at(text, "Successfully applied"))


def logged_at(text, words):
    """When the first log line holding `words` was written (Spring Boot's ISO timestamp), or None."""
    line = next((line for line in text.splitlines() if words in line), "")
    match = re.match(r"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d))", line)
    return datetime.datetime.fromisoformat(match.group(1).replace("Z", "+00:00")).timestamp() if match else None


def u1_rolling_upgrade(ctx):
    mariadb, old, new = ctx.mariadb, ctx.old, ctx.new
    old.start()
    links, kinds = seed(old)
    codes = sorted(links)
    quiet = codes[-10:]        # visited before the upgrade only: their stats must read the same after it
    loaded = codes[:-10]       # visited before and under the load
    times = {code: 1 + i % 4 for i, code in enumerate(codes)}
    before_visits = visit(old, codes, times)
    if before_visits != sum(times.values()):
        raise RuntimeError(f"the old pod answered {before_visits} 302s of {sum(times.values())} GETs")
    # Raw rows and counters of every visit in the database before the upgrade starts.
    rows = suite.wait_until(lambda: mariadb.count("SELECT COUNT(*) FROM visit") >= before_visits, 30, 0.5)
    counted = suite.wait_until(
        lambda: mariadb.count("SELECT COALESCE(SUM(visits), 0) FROM link_stats") >= before_visits, 30, 0.5)
    sketched = suite.wait_until(lambda: mariadb.count("SELECT COUNT(DISTINCT code) FROM visit_sketch") >= len(codes),
                                30, 0.5)
    if not rows or not counted or not sketched:
        raise RuntimeError("the old pod's visits did not reach the database in 30 s")
    # Orphan visits: GETs of codes that do not exist, and of the base URL.
    unknown = [f"u1-none-{i}" for i in range(5)]
    orphan_statuses = [call(old, "GET", path)[0] for path in ["/" + c for c in unknown] + ["/", "/"]]
    if set(orphan_statuses) != {404}:
        raise RuntimeError(f"the old pod answered {orphan_statuses} for codes that do not exist and for /")
    old_orphans = suite.wait_until(lambda: (lambda n: n if n >= len(orphan_statuses) else None)(orphan_total(old)),
                                   30, 0.5)
    if not old_orphans:
        raise RuntimeError("the old pod's orphan visits were not counted in 30 s")
    old_stats = {code: stats(old, code) for code in codes}
    old_raw = {code: raw_visits(old, code) for code in quiet}
    tables = {t: mariadb.count(f"SELECT COUNT(*) FROM {t}") for t in ("link", "visit", "link_stats",
                                                                         "visit_dim_stats", "visit_sketch",
                                                                         "orphan_visit")}
    suite.log(f"U1: the old database holds {tables}")
    versions_before = set(mariadb.sql("SELECT version FROM flyway_schema_history WHERE version IS NOT NULL",
                                      "shortgate").split())

    load = RollingLoad(loaded, unknown)
    load.add(old)
    load.start()
    time.sleep(3)
    new_started = time.time()
    new.start()                                     # Flyway migrates here, while OLD serves the load
    new_ready = time.time()
    suite.log(f"U1: new pod ready at {clock(new_ready)}; it joins the load")
    load.add(new)
    # A rolling update leaves old pods taking API calls on the migrated database for a while.
    late_url = "https://example.com/u1/created-on-old-after-the-migration"
    late = created(call(old, "POST", "/api/v1/links", {"url": late_url}), "a create on the old pod after the migration")
    links[late["code"]] = late_url
    time.sleep(BOTH_SECONDS)
    term = time.monotonic()
    suite.log(f"U1: SIGTERM to the old pod at {clock(time.time())}")
    os.kill(old.process.pid, signal.SIGTERM)
    try:
        old_exit = old.process.wait(60)
    except subprocess.TimeoutExpired:
        old_exit = None
    old_seconds = time.monotonic() - term
    suite.log(f"U1: the old pod exited ({old_exit}) at {clock(time.time())}")
    time.sleep(AFTER_SECONDS)
    load.stop()

    # --- the answers under the load
    answers = [a for a in load.answers if a[2] in links]
    non_302 = [a for a in answers if a[3] != 302]
    wrong = [a for a in answers if a[3] == 302 and a[4] != links[a[2]]]
    statuses = {}
    for a in non_302:
        statuses[a[3]] = statuses.get(a[3], 0) + 1
    for t, pod, code, status, _ in non_302[:10]:
        suite.log(f"U1: {pod} answered {status} for {code} at {clock(t)}")
    for t, pod, code, error in load.errors[:10]:
        suite.log(f"U1: a GET of {code} on {pod} failed at {clock(t)}: {error}")
    for t, pod, code, error in load.retried[:10]:
        suite.log(f"U1: a GET of {code} found its connection to {pod} closed at {clock(t)} and went again: {error}")
    during = load.count(pod="old", since=new_started, until=new_ready, codes=links)
    migrated = migration_from_log(new)
    window = ""
    if migrated and migrated[3] and migrated[4]:
        # The old pod's answers while Flyway changed the schema (by the log's clock, to the millisecond).
        in_migration = load.count(pod="old", since=migrated[3], until=migrated[4], codes=links)
        in_migration_302 = load.count(pod="old", since=migrated[3], until=migrated[4], codes=links, status=302)
        after = load.count(pod="old", since=migrated[4], codes=links)
        after_302 = load.count(pod="old", since=migrated[4], codes=links, status=302)
        window = (f", {in_migration_302}/{in_migration} of them 302 within the {migrated[4] - migrated[3]:.3f} s "
                  f"from the first 'Migrating schema' line to 'Successfully applied', and {after_302}/{after} 302 "
                  "on the migrated schema after it")
    suite.record("U1", "0 non-302 answers for existing codes on either pod, old build to new (0 cut requests)",
                 f"{len(answers)} GETs (old {load.count(pod='old', codes=links)}, new "
                 f"{load.count(pod='new', codes=links)}): "
                 f"{len(non_302)} non-302{' ' + str(statuses) if statuses else ''}, {len(wrong)} wrong Location, "
                 f"{len(load.errors)} errors; {load.refused.get('old', 0)} refused connects to old after its drain, "
                 f"{len(load.retried)} sent again after an idle keep-alive close",
                 answers and not non_302 and not wrong and not load.errors
                 and load.count(pod="new", codes=links) > 0)
    new_versions = migrations(new.jar) - migrations(old.jar)
    suite.record("U1", "the new pod migrates the database while the old one serves",
                 (f"Flyway applied {migrated[0]} migrations (now v{migrated[1]}) in {migrated[2]:.3f} s (new pod's "
                  f"log); new pod ready {new_ready - new_started:.0f} s after its start; old pod answered {during} "
                  f"GETs meanwhile{window}" if migrated else "no 'Successfully applied' line in the new pod's log"),
                 migrated is not None and migrated[0] == len(new_versions) and during > 0
                 and load.count(pod="old", since=new_started, until=new_ready, status=302, codes=links) == during)
    history = mariadb.sql("SELECT version, success FROM flyway_schema_history WHERE version IS NOT NULL",
                          "shortgate")
    applied = dict(line.split("\t") for line in history.splitlines())
    missing = sorted(v for v in new_versions if applied.get(v) != "1")
    suite.record("U1", "Flyway history has the new versions, all successful",
                 f"{len(versions_before)} versions before, {len(applied)} after; new "
                 f"{', '.join('V' + v for v in sorted(new_versions, key=version_key))}: "
                 + (f"missing or failed {missing}" if missing else "all applied"),
                 new_versions and not missing and all(s == "1" for s in applied.values()))
    suite.record("U1", "the old pod drains and exits on SIGTERM under the load",
                 f"exit code {old_exit} after {old_seconds:.1f} s", old_exit is not None
                 and old_seconds < suite.DRAIN_GRACE)

    # --- visits made before the upgrade, read through the new pod (both pods stopped or flushed: counts are exact)
    loaded_302 = {}
    for _, _, code, status, _ in answers:
        loaded_302[code] = loaded_302.get(code, 0) + (status == 302)

    def totals_match():
        return all(stats(new, c)["visits"]["total"] == old_stats[c]["visits"]["total"] + loaded_302.get(c, 0)
                   for c in loaded)

    totals_ok = suite.wait_until(totals_match, 20, 1)
    new_totals = sum(stats(new, c)["visits"]["total"] for c in loaded)
    expected_totals = sum(old_stats[c]["visits"]["total"] + loaded_302.get(c, 0) for c in loaded)
    differences = {}
    for c in quiet:
        now = stats(new, c)
        changed = [f for f in STATS_FIELDS if f in old_stats[c] and now.get(f) != old_stats[c][f]]
        if changed:
            differences[c] = {f: (old_stats[c][f], now.get(f)) for f in changed}
    same = [c for c in quiet if c not in differences]
    if differences:
        suite.log(f"U1: stats that changed across the upgrade (before, after): {json.dumps(differences)[:3000]}")
    new_raw = {code: raw_visits(new, code) for code in quiet}
    suite.record("U1", "visit counts, aggregates and raw visits made before the upgrade read the same on the new pod",
                 f"{len(same)}/{len(quiet)} untouched codes' stats identical (totals, per day, unique visitors, "
                 f"top lists), raw visits listed {sum(new_raw.values())}/{sum(old_raw.values())}; loaded codes' "
                 f"totals {new_totals} = {expected_totals} before + 302s under the load",
                 len(same) == len(quiet) and new_raw == old_raw and bool(totals_ok))
    orphan_answers = [a for a in load.answers if a[2] in unknown]
    orphan_404 = sum(1 for a in orphan_answers if a[3] == 404)
    expected_orphans = old_orphans + orphan_404
    orphans_ok = suite.wait_until(lambda: orphan_total(new) == expected_orphans
                                  and mariadb.count("SELECT COUNT(*) FROM orphan_visit") == expected_orphans, 20, 1)
    suite.record("U1", "orphan visits made before and during the upgrade (both builds writing) counted by the new pod",
                 f"{old_orphans} before; under the load {len(orphan_answers)} GETs of unknown codes (old "
                 f"{sum(1 for a in orphan_answers if a[1] == 'old')}, new "
                 f"{sum(1 for a in orphan_answers if a[1] == 'new')}), {orphan_404} answered 404; new pod's total "
                 f"{orphan_total(new)}, raw rows {mariadb.count('SELECT COUNT(*) FROM orphan_visit')}, expected "
                 f"{expected_orphans}", bool(orphans_ok) and orphan_404 == len(orphan_answers) > 0)

    # --- every existing code, then a domain added after the upgrade
    served = []
    for code, url in sorted(links.items()):
        status, headers, _ = call(new, "GET", "/" + code)
        if status == 302 and headers.get("location") == url:
            served.append(code)
    suite.record("U1", "the new pod serves every existing code with its URL",
                 f"{len(served)}/{len(links)} 302 to their URL ({kinds['single']} single, {kinds['alias']} aliases, "
                 f"{kinds['batch']} from a batch, made by the old build; 1 made on the old pod after the migration)",
                 len(served) == len(links))
    domain_status = call(new, "POST", "/api/v1/domains", {"domain": DOMAIN})[0]
    alias = "u1-alias-0"
    other_url = f"https://example.com/u1/{DOMAIN}/alias"
    alias_status = call(new, "POST", "/api/v1/links", {"url": other_url, "alias": alias, "domain": DOMAIN})[0]
    generated = created(call(new, "POST", "/api/v1/links", {"url": f"https://example.com/u1/{DOMAIN}/generated",
                                                            "domain": DOMAIN}), "create on the new domain")
    on_domain = suite.wait_until(
        lambda: call(new, "GET", "/" + alias, host=DOMAIN)[1].get("location") == other_url
        and call(new, "GET", "/" + generated["code"], host=DOMAIN)[1].get("location") == generated["url"], 15, 0.5)
    default_kept = call(new, "GET", "/" + alias)[1].get("location") == links[alias]
    suite.record("U1", f"a domain added after the upgrade serves its own codes ({DOMAIN})",
                 f"domain {domain_status}, alias '{alias}' on it {alias_status}, generated code "
                 f"{generated['code']}; served on {DOMAIN}: {bool(on_domain)}; the default domain's '{alias}' "
                 f"still goes to its old URL: {default_kept}",
                 domain_status == 201 and alias_status == 201 and bool(on_domain) and default_kept)


def clock(t):
    return time.strftime("%H:%M:%S", time.localtime(t)) + f"{t % 1:.3f}"[1:]


def version_key(version):
    return [int(p) for p in re.split(r"[._]", version) if p.isdigit()]


# ------------------------------------------------------------------------------------------------------ the run

class Context:
    pass


def run(suite_module, names, args):
    """Runs U1: builds (or takes from the cache) the old jar, then its own servers and the two pods."""
    global suite
    suite = suite_module
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    begin = time.monotonic()
    try:
        jar, built = old_jar(root, args.upgrade_from)
    except Exception as e:  # noqa: BLE001 - no old jar: a failed row, not a crash
        suite.record("U1", "the old build's jar is there", repr(e), False)
        return
    ctx = Context()
    ctx.workdir = tempfile.mkdtemp(prefix="shortgate-upgrade-")
    suite.log(f"U1: work directory {ctx.workdir}")
    base = args.base_port
    try:
        ctx.mariadb = suite.MariaDb(ctx.workdir, base + 60)
        ctx.mariadb.init()
        ctx.mariadb.start()
        ctx.mariadb.sql("CREATE DATABASE shortgate CHARACTER SET utf8mb4; "
                        "CREATE USER 'sg'@'127.0.0.1' IDENTIFIED BY 'sg'; "
                        "GRANT ALL PRIVILEGES ON shortgate.* TO 'sg'@'127.0.0.1';")
        ctx.redis = suite.Redis(ctx.workdir, base + 61)
        ctx.redis.start()
        # One base URL for both builds, as one Deployment's pods have: its host is the default domain.
        settings = {"shortgate.base-url": "http://sho.rt", "shortgate.visit.sketch-flush-interval": "2s"}
        ctx.old = suite.Pod("old", jar, ctx.workdir, base + 70, base + 71, ctx.mariadb, ctx.redis,
                            settings=settings)
        # The new pod runs at a lower CPU priority: its JVM's start (a CPU burst of tens of seconds on two cores)
        # must not starve the old pod, as in a cluster, where each pod has a CPU request of its own.
        ctx.new = suite.Pod("new", args.jar, ctx.workdir, base + 80, base + 81, ctx.mariadb, ctx.redis,
                            wrapper=["nice", "-n", "10"], settings=settings)
        suite.log("--- U1")
        try:
            u1_rolling_upgrade(ctx)
        except Exception as e:  # noqa: BLE001 - a fault that breaks the harness is a failed row, not a crash
            suite.record("U1", "upgrade ran to the end", repr(e), False)
        suite.log(f"U1 took {time.monotonic() - begin:.0f} s ({built:.0f} s of it building the old jar)")
    finally:
        suite.stop_all()
        if args.keep:
            suite.log(f"kept {ctx.workdir}")
        else:
            shutil.rmtree(ctx.workdir, ignore_errors=True)
