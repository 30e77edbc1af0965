#!/usr/bin/env python3
"""Helpers for src/bench/run.sh (standard library only).

  seed    create links through POST /api/v1/links/batch (batches of up to 1000, a few in parallel)
  record  turn one wrk run (BENCH_JSON line), CPU ticks and two Prometheus scrapes into a run's JSON file
  combine turn a scenario's measured runs into its result: the median run, with min and max
  heap    turn two `jcmd GC.class_histogram` outputs into bytes per cached link
  jfr     the hottest frames of a JFR recording's CPU samples (self and inclusive), and CPU by library
  report  print the table (Markdown) and write result.json
"""
import argparse
import concurrent.futures
import glob
import http.client
import json
import os
import re
import statistics
import struct
import sys
import threading
import time

SCENARIO_ORDER = ["nginx", "hot", "sustained", "visits-off", "hot-mix", "rules", "domains", "redis", "overload", "db", "miss", "shorten",
                  "shorten-batch", "shorten-hash", "shorten-sequence", "shorten-pool", "shorten-batch-hash",
                  "shorten-batch-sequence", "shorten-batch-pool", "two-pods-1", "two-pods-2", "stats-30d",
                  "stats-365d"]
TIERS = ("near", "redis", "guard", "db", "none")
STATS_P99_GOAL_MS = 50
STATS_CONNECTIONS_NOTE = ""


# ---------------------------------------------------------------- seed

def seed(args):
    host, port = args.host, args.port
    headers = {"Content-Type": "application/json"}
    if os.environ.get("SHORTGATE_ADMIN_KEY"):
        headers["X-Api-Key"] = os.environ["SHORTGATE_ADMIN_KEY"]
    batches = [(start, min(args.batch, args.count - start)) for start in range(0, args.count, args.batch)]
    local = threading.local()
    codes = [None] * args.count

    def conn():
        if getattr(local, "c", None) is None:
            local.c = http.client.HTTPConnection(host, port, timeout=args.timeout)
        return local.c

    def one(batch):
        start, size = batch
        urls = [args.url_format.format(tag=args.tag, i=start + k) for k in range(size)]
        body = json.dumps({"links": [{"url": u} for u in urls]})
        for attempt in range(5):
            try:
                c = conn()
                c.request("POST", "/api/v1/links/batch", body=body, headers=headers)
                r = c.getresponse()
                data = r.read()
                if r.status == 503 and attempt < 4:  # a backend hiccup; creates are idempotent (find-if-exists)
                    time.sleep(1)
                    continue
                if r.status != 200 and r.status != 207 and r.status != 201:
                    raise RuntimeError(f"batch at {start}: HTTP {r.status}: {data[:300]!r}")
                results = json.loads(data)["results"]
                bad = [x for x in results if x.get("status") not in (200, 201)]
                if bad:
                    raise RuntimeError(f"batch at {start}: {len(bad)} items failed, first: {bad[0]}")
                for k, x in enumerate(results):
                    codes[start + k] = x["code"]
                return size
            except (OSError, http.client.HTTPException) as e:
                local.c = None
                if attempt == 4:
                    raise RuntimeError(f"batch at {start}: {e}") from e
                time.sleep(0.5)

    began = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(args.concurrency) as pool:
        done = 0
        for n in pool.map(one, batches):
            done += n
            if args.progress and done % (args.batch * 20) == 0:
                print(f"  seeded {done}/{args.count}", file=sys.stderr, flush=True)
    seconds = time.monotonic() - began
    if args.out:
        with open(args.out, "w") as f:
            f.write("\n".join(codes) + "\n")
    print(json.dumps({"links": args.count, "batches": len(batches), "seconds": round(seconds, 3),
                      "links_per_s": round(args.count / seconds, 1)}))


# ---------------------------------------------------------------- prometheus

SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?\s+(\S+)')


def scrape(path):
    """{(name, labels): value} from a Prometheus text file; empty when the file is missing."""
    out = {}
    if not path or not os.path.exists(path):
        return out
    with open(path) as f:
        for line in f:
            if line.startswith("#"):
                continue
            m = SAMPLE.match(line)
            if m:
                try:
                    out[(m.group(1), m.group(2) or "")] = float(m.group(3))
                except ValueError:
                    pass
    return out


def total(samples, metric, **labels):
    """Sum of every sample of this metric whose labels include the given ones; None when there is none."""
    found, s = False, 0.0
    for (n, lab), v in samples.items():
        if n != metric:
            continue
        if all(f'{k}="{val}"' in lab for k, val in labels.items()):
            found, s = True, s + v
    return s if found else None


def delta(before, after, metric, **labels):
    a = total(after, metric, **labels)
    if a is None:
        return None
    return a - (total(before, metric, **labels) or 0.0)


# ---------------------------------------------------------------- record

def record(args):
    wrk = None
    if args.wrk:
        with open(args.wrk) as f:
            for line in f:
                if line.startswith("BENCH_JSON "):
                    wrk = json.loads(line[len("BENCH_JSON "):])
    if args.json_in:
        with open(args.json_in) as f:
            wrk = json.loads(f.read())
    if wrk is None:
        sys.exit(f"record {args.name}: no BENCH_JSON line in {args.wrk}")
    # Throughput and CPU per request count only the answers the scenario asked for: a 503 answered fast while
    # shedding (or any other 4xx/5xx) is not a redirect served. In the miss scenario the 404s are the answers.
    failed = 0 if args.name == "miss" else (wrk.get("errors") or {}).get("status", 0)
    requests = wrk["requests"] - failed
    cpu_s = (args.ticks_after - args.ticks_before) / args.clk_tck
    result = {
        "scenario": args.name,
        "requests": requests,
        "responses": wrk["requests"],
        "duration_s": wrk["duration_s"],
        "rps": round(requests / wrk["duration_s"], 1) if failed else wrk["rps"],
        "latency_us": wrk.get("latency_us"),
        "errors": wrk.get("errors"),
        "server_cpu_s": round(cpu_s, 3),
        "server_cpu_us_per_req": round(cpu_s * 1e6 / requests, 3) if requests else None,
        "server_pids": args.pids,
    }
    before, after = scrape(args.prom_before), scrape(args.prom_after)
    if after:
        lookups = {}
        for tier in ("redis", "db"):
            for res in ("hit", "miss", "error"):
                d = delta(before, after, "shortgate_lookups_total", tier=tier, result=res)
                if d is not None:
                    lookups[f"{tier}_{res}"] = int(d)
        result["lookups"] = lookups
        db = sum(v for k, v in lookups.items() if k.startswith("db_"))
        redis = sum(v for k, v in lookups.items() if k.startswith("redis_"))
        result["reached_db"] = db
        result["reached_db_ratio"] = round(db / requests, 4) if requests else None
        result["reached_redis_ratio"] = round(redis / requests, 4) if requests else None
        visits = {}
        for key, metric in (("written", "shortgate_visits_written_total"),
                            ("dropped", "shortgate_visits_dropped_total"),
                            ("counted", "shortgate_visits_counted_total"),
                            ("counts_written", "shortgate_visits_counts_written_total")):
            d = delta(before, after, metric)
            if d is not None:
                visits[key] = int(d)
        if visits:
            result["visits"] = visits
        answered = {}
        for tier in TIERS:
            d = delta(before, after, "shortgate_redirect_seconds_count", tier=tier)
            if d:
                answered[tier] = int(d)
        if answered:
            # where the redirects were answered from (requests that joined a lookup count under its tier)
            result["tier_share"] = {t: round(n / sum(answered.values()), 4) for t, n in answered.items()}
        made = delta(before, after, "shortgate_links_creations_total", kind="generated")
        if made is not None and requests:
            # single creates: the share of requests that made a link (201) rather than found one (200)
            result["created_ratio"] = round(made / requests, 4)
        groups = delta(before, after, "shortgate_links_create_group_size_creates_count")
        grouped = delta(before, after, "shortgate_links_create_group_size_creates_sum")
        if groups and grouped is not None:
            result["create_group_mean"] = round(grouped / groups, 1)
        fast = delta(before, after, "shortgate_redirect_fast_total")
        if fast is not None and requests:
            result["fast_path_share"] = round(fast / requests, 4)
        closed = total(after, "resilience4j_circuitbreaker_state", name="redis", state="closed")
        if closed is not None:
            result["breaker_closed_at_end"] = closed == 1.0
            refused = delta(before, after, "resilience4j_circuitbreaker_not_permitted_calls_total", name="redis")
            result["breaker_refused_calls"] = int(refused or 0)
        size = total(after, "cache_size", cache="links")
        if size is not None:
            result["near_cache_size"] = int(size)
        gc = delta(before, after, "jvm_gc_pause_seconds_sum")
        if gc is not None:
            result["gc_pause_s"] = round(gc, 3)
    for kv in args.extra or []:
        k, _, v = kv.partition("=")
        try:
            result[k] = json.loads(v)
        except ValueError:
            result[k] = v
    with open(args.out, "w") as f:
        json.dump(result, f, indent=2)


# ---------------------------------------------------------------- combine

def combine(args):
    """The median run (by req/s) stands for the scenario; req/s, CPU per request and latency are the medians."""
    runs = []
    for path in args.runs:
        with open(path) as f:
            runs.append(json.load(f))
    runs.sort(key=lambda r: r["rps"])
    result = dict(runs[len(runs) // 2])

    def median(values):
        values = sorted(v for v in values if v is not None)
        if not values:
            return None
        mid = len(values) // 2
        return values[mid] if len(values) % 2 else (values[mid - 1] + values[mid]) / 2

    result["runs"] = len(runs)
    result["rps"] = round(median([r["rps"] for r in runs]), 1)
    result["rps_min"], result["rps_max"] = runs[0]["rps"], runs[-1]["rps"]
    result["server_cpu_us_per_req"] = median([r.get("server_cpu_us_per_req") for r in runs])
    if all(r.get("latency_us") for r in runs):
        result["latency_us"] = {k: median([r["latency_us"][k] for r in runs]) for k in runs[0]["latency_us"]}
    result["per_run"] = [{"rps": r["rps"], "server_cpu_us_per_req": r.get("server_cpu_us_per_req"),
                          "p99_us": (r.get("latency_us") or {}).get("p99"), "errors": r.get("errors")}
                         for r in runs]
    with open(args.out, "w") as f:
        json.dump(result, f, indent=2)


# ---------------------------------------------------------------- heap

HISTO_ROW = re.compile(r'^\s*\d+:\s+(\d+)\s+(\d+)\s+(\S+)')
HISTO_TOTAL = re.compile(r'^Total\s+(\d+)\s+(\d+)')


def histogram(path):
    classes, total_bytes = {}, None
    with open(path) as f:
        for line in f:
            m = HISTO_ROW.match(line)
            if m:
                classes[m.group(3)] = (int(m.group(1)), int(m.group(2)))
                continue
            m = HISTO_TOTAL.match(line)
            if m:
                total_bytes = int(m.group(2))
    if total_bytes is None:
        sys.exit(f"heap: no Total line in {path}")
    return classes, total_bytes


def heap(args):
    before_classes, before = histogram(args.before)
    after_classes, after = histogram(args.after)
    links = args.cached_after - args.cached_before
    growth = after - before
    top = []
    for name, (inst, size) in after_classes.items():
        b_inst, b_size = before_classes.get(name, (0, 0))
        if size - b_size > 0:
            top.append((size - b_size, inst - b_inst, name))
    top.sort(reverse=True)
    result = {
        "links_requested": args.links,
        "cached_links": links,
        "live_heap_empty_bytes": before,
        "live_heap_full_bytes": after,
        "live_heap_growth_bytes": growth,
        "bytes_per_cached_link": round(growth / links, 1) if links > 0 else None,
        "avg_url_chars": args.avg_url,
        "code_chars": args.code_chars,
        "xmx": args.xmx,
        "fill_seconds": args.fill_seconds,
        "top_growth": [{"class": n, "bytes": b, "instances": i, "bytes_per_link": round(b / links, 1) if links else None}
                       for b, i, n in top[:10]],
    }
    with open(args.out, "w") as f:
        json.dump(result, f, indent=2)
    print(f"heap: {links} links cached, live heap {before / 2**20:.1f} MiB -> {after / 2**20:.1f} MiB, "
          f"{result['bytes_per_cached_link']} bytes per cached link (URL ~{args.avg_url} chars)")
    for t in result["top_growth"]:
        print(f"  {t['bytes_per_link']:>8} B/link  {t['instances']:>9} x {t['class']}")


# ---------------------------------------------------------------- jfr

LIBRARIES = [("dev.shortgate.", "shortgate"), ("io.netty.", "netty"), ("reactor.netty.", "reactor-netty"),
             ("reactor.", "reactor-core"), ("org.springframework.", "spring"), ("io.lettuce.", "lettuce"),
             ("io.asyncer.", "r2dbc-mysql"), ("io.r2dbc.", "r2dbc"), ("com.github.benmanes.caffeine.", "caffeine"),
             ("io.micrometer.", "micrometer"), ("tools.jackson.", "jackson"), ("com.fasterxml.", "jackson"),
             ("nl.basjes.", "yauaa"), ("io.github.resilience4j.", "resilience4j"), ("java.", "jdk"),
             ("jdk.", "jdk"), ("sun.", "jdk")]


def library(frame):
    for prefix, name in LIBRARIES:
        if frame.startswith(prefix):
            return name
    return "other"


def jfr(args):
    """CPU samples of a recording: hottest frames by own time and by inclusive time, and own time by library."""
    import collections
    import subprocess
    out = subprocess.run(["jfr", "print", "--json", "--stack-depth", "64", "--events", "jdk.ExecutionSample",
                          args.file], capture_output=True, text=True, check=True).stdout
    events = json.loads(out)["recording"]["events"]
    own, inclusive, libs = collections.Counter(), collections.Counter(), collections.Counter()
    for e in events:
        frames = [f"{f['method']['type']['name']}.{f['method']['name']}".replace("/", ".")
                  for f in e["values"]["stackTrace"]["frames"]]
        if not frames:
            continue
        own[frames[0]] += 1
        libs[library(frames[0])] += 1
        for f in set(frames):
            if "$$Lambda" not in f:
                inclusive[f] += 1
    n = sum(own.values()) or 1
    print(f"{n} CPU samples in {args.file}")
    print("\nOwn time by library:")
    for lib, c in libs.most_common():
        print(f"  {c / n:6.1%}  {lib}")
    print(f"\nTop {args.top} frames by own time:")
    for f, c in own.most_common(args.top):
        print(f"  {c / n:6.1%}  {f}")
    print(f"\nTop {args.top} frames by inclusive time (shortgate, spring, lettuce, r2dbc, reactor-netty):")
    shown = 0
    for f, c in inclusive.most_common():
        if library(f) in ("shortgate", "spring", "lettuce", "r2dbc-mysql", "r2dbc", "reactor-netty", "micrometer"):
            print(f"  {c / n:6.1%}  {f}")
            shown += 1
            if shown >= args.top:
                break


# ---------------------------------------------------------------- report

def pacer_result(path):
    """The BENCH_PACER line of a pacer run."""
    with open(path) as f:
        for line in f:
            if line.startswith("BENCH_PACER "):
                return json.loads(line[len("BENCH_PACER "):])
    raise SystemExit(f"no BENCH_PACER line in {path}")


def paced(args):
    """Shortgate and nginx at the same fixed offered rate (open loop): the median of each percentile over the runs."""
    def summary(paths):
        runs = [pacer_result(p) for p in paths]
        pick = lambda k: round(statistics.median(r[k] for r in runs) / 1000, 3)
        return {"p50_ms": pick("p50_us"), "p99_ms": pick("p99_us"), "p999_ms": pick("p999_us"),
                "max_ms": round(max(r["max_us"] for r in runs) / 1000, 3),
                "errors": sum(r["errors"] for r in runs), "status_5xx": sum(r["status_5xx"] for r in runs),
                "runs": [{k: r[k] for k in ("p50_us", "p99_us", "p999_us", "max_us", "rps")} for r in runs]}
    app, nginx = summary(args.app), summary(args.nginx)
    out = {"scenario": "paced", "rate": args.rate, "nginx_max_rps": args.nginx_max, "connections": args.connections,
           "p50_ms": app["p50_ms"], "p99_ms": app["p99_ms"], "p999_ms": app["p999_ms"], "max_ms": app["max_ms"],
           "nginx_p50_ms": nginx["p50_ms"], "nginx_p99_ms": nginx["p99_ms"], "nginx_p999_ms": nginx["p999_ms"],
           "errors": app["errors"], "status_5xx": app["status_5xx"], "app_runs": app["runs"], "nginx_runs": nginx["runs"]}
    out["p99_vs_nginx"] = round(out["p99_ms"] / out["nginx_p99_ms"], 2) if out["nginx_p99_ms"] else None
    out["goal_met"] = bool(out["p99_vs_nginx"] is not None and out["p99_vs_nginx"] <= 2 and out["p999_ms"] <= 10)
    with open(args.out, "w") as f:
        json.dump(out, f, indent=2)
    print(json.dumps({k: out[k] for k in ("rate", "p50_ms", "p99_ms", "p999_ms", "nginx_p50_ms", "nginx_p99_ms",
                                          "nginx_p999_ms", "p99_vs_nginx", "goal_met")}))


def cold_start(args):
    """Per second after ready: answers, p99 and 5xx; seconds until 80% of the warm throughput (the last seconds')."""
    recs = []
    with open(args.raw, "rb") as f:
        data = f.read()
    for i in range(0, len(data) - 11, 12):
        due, lat, status = struct.unpack_from("<III", data, i)
        recs.append((due + lat, lat, status))
    seconds = {}
    for done_us, lat, status in recs:
        seconds.setdefault(done_us // 1_000_000, []).append((lat, status))
    last = max(seconds) if seconds else -1
    per_second = []
    for s in range(0, last + 1):
        rows = sorted(lat for lat, _ in seconds.get(s, []))
        per_second.append({"second": s + 1, "answered": len(rows),
                           "status_5xx": sum(1 for _, st in seconds.get(s, []) if st >= 500),
                           "errors": sum(1 for _, st in seconds.get(s, []) if st == 0),
                           "p99_ms": round(rows[int((len(rows) - 1) * 0.99)] / 1000, 2) if rows else None})
    full = [p["answered"] for p in per_second[:-1]]  # the last second is partial
    warm = statistics.median(full[-args.warm_seconds:]) if full else 0
    to80 = next((p["second"] for p in per_second if warm and p["answered"] >= 0.8 * warm), None)
    out = {"scenario": args.name, "ready_after_s": args.ready_after, "warm_rps": warm,
           "errors_5xx": sum(p["status_5xx"] for p in per_second),
           "connection_errors": sum(p["errors"] for p in per_second),
           "seconds_to_80pct": to80, "per_second": per_second}
    out["goal_met"] = bool(out["errors_5xx"] == 0 and to80 is not None and to80 <= 5)
    with open(args.out, "w") as f:
        json.dump(out, f, indent=2)
    print(json.dumps({k: out[k] for k in ("scenario", "ready_after_s", "warm_rps", "errors_5xx", "seconds_to_80pct",
                                          "goal_met")}))
    print("  per second (answered, p99 ms, 5xx): " + ", ".join(
        f"{p['second']}s {p['answered']} {p['p99_ms']} {p['status_5xx']}" for p in per_second[:12]))


def fmt(v, spec="{:,.0f}"):
    return "-" if v is None else spec.format(v)


def report(args):
    rows = {}
    for path in glob.glob(os.path.join(args.dir, "scenario-*.json")):
        with open(path) as f:
            r = json.load(f)
        rows[r["scenario"]] = r
    nginx = rows.get("nginx")
    hot = rows.get("hot")
    ordered = [rows[n] for n in SCENARIO_ORDER if n in rows] + \
              [r for n, r in sorted(rows.items()) if n not in SCENARIO_ORDER]
    redis_quiet = rows.get("redis")
    for r in ordered:
        if nginx and r is not nginx and r.get("rps") and nginx.get("rps"):
            r["throughput_vs_nginx"] = round(r["rps"] / nginx["rps"], 4)
            if r.get("server_cpu_us_per_req") and nginx.get("server_cpu_us_per_req"):
                r["cpu_per_req_vs_nginx"] = round(r["server_cpu_us_per_req"] / nginx["server_cpu_us_per_req"], 3)
        # the machine-readable summary every scenario carries
        r["ratio"] = 1.0 if r is nginx else r.get("throughput_vs_nginx")
        r["cpu_ratio"] = 1.0 if r is nginx else r.get("cpu_per_req_vs_nginx")
        lat = r.get("latency_us") or {}
        r["p99_ms"] = round(lat["p99"] / 1000, 3) if lat.get("p99") is not None else None
        r["db_share"] = r.get("reached_db_ratio")
        if r["scenario"] == "overload" and redis_quiet and redis_quiet.get("rps"):
            r["throughput_vs_redis"] = round(r["rps"] / redis_quiet["rps"], 4)
        one_pod = rows.get("two-pods-1")
        if r["scenario"] == "two-pods-2" and one_pod and one_pod.get("rps"):
            r["throughput_vs_one_pod"] = round(r["rps"] / one_pod["rps"], 4)
            if r.get("server_cpu_us_per_req") and one_pod.get("server_cpu_us_per_req"):
                r["cpu_per_req_vs_one_pod"] = round(r["server_cpu_us_per_req"] / one_pod["server_cpu_us_per_req"], 3)
        mix = rows.get("hot-mix")
        if r["scenario"] == "rules" and mix and mix.get("rps"):
            r["throughput_vs_hot_mix"] = round(r["rps"] / mix["rps"], 4)
        if r["scenario"] == "rules" and hot and hot.get("rps"):
            r["throughput_vs_hot"] = round(r["rps"] / hot["rps"], 4)
            if r.get("server_cpu_us_per_req") and hot.get("server_cpu_us_per_req"):
                r["cpu_per_req_vs_hot"] = round(r["server_cpu_us_per_req"] / hot["server_cpu_us_per_req"], 3)
        if r["scenario"] in ("visits-off", "domains") and hot and hot.get("rps"):
            r["throughput_vs_hot"] = round(r["rps"] / hot["rps"], 4)
            if r.get("server_cpu_us_per_req") and hot.get("server_cpu_us_per_req"):
                r["cpu_per_req_vs_hot"] = round(r["server_cpu_us_per_req"] / hot["server_cpu_us_per_req"], 3)

    def lat_ok(r):
        return (r.get("latency_us") or {}).get("p99") is not None

    def note(r):
        n = []
        if r["scenario"] == "miss" and r.get("reached_db_ratio") is not None:
            n.append(f"reached DB: {r['reached_db']:,} of {r['requests']:,} ({r['reached_db_ratio']:.1%})")
        if r["scenario"] == "redis" and r.get("reached_redis_ratio") is not None:
            lk, req = r.get("lookups", {}), r["requests"] or 1
            n.append(f"Redis hit {lk.get('redis_hit', 0) / req:.1%}, Redis error/timeout "
                     f"{lk.get('redis_error', 0) / req:.1%}, reached DB {r.get('reached_db_ratio', 0):.1%}")
        if r["scenario"] == "overload":
            if r.get("throughput_vs_redis") is not None:
                n.append(f"vs quiet redis: {r['throughput_vs_redis']:.2f}x req/s")
            if "breaker_closed_at_end" in r:
                n.append(f"breaker {'closed' if r['breaker_closed_at_end'] else 'NOT closed'} at end, "
                         f"{r.get('breaker_refused_calls', 0):,} calls refused by it")
            lk, req = r.get("lookups", {}), r["requests"] or 1
            n.append(f"Redis error/timeout {lk.get('redis_error', 0) / req:.1%}, reached DB {r.get('reached_db_ratio', 0):.1%}")
        if r["scenario"] == "db" and r.get("reached_db_ratio") is not None:
            n.append(f"DB lookups {r['reached_db_ratio']:.1%}")
        if r["scenario"] == "visits-off" and r.get("throughput_vs_hot") is not None:
            n.append(f"vs hot: {r['throughput_vs_hot']:.2f}x req/s, {r.get('cpu_per_req_vs_hot', 0):.2f}x CPU/req")
        if r["scenario"] == "rules" and r.get("throughput_vs_hot") is not None:
            n.append(f"5 rules a link; vs hot: {r['throughput_vs_hot']:.2f}x req/s (goal >= 0.8x), "
                     f"{r.get('cpu_per_req_vs_hot', 0):.2f}x CPU/req; vs hot-mix (same traffic, no rules): "
                     f"{r.get('throughput_vs_hot_mix') or 0:.2f}x req/s; Redis calls/req "
                     f"{r.get('reached_redis_ratio') or 0:.4f}, DB calls/req {r.get('reached_db_ratio') or 0:.4f}")
        if r["scenario"] == "domains" and r.get("throughput_vs_hot") is not None:
            n.append(f"3 domains by Host; vs hot: {r['throughput_vs_hot']:.2f}x req/s (goal >= 0.95x), "
                     f"{r.get('cpu_per_req_vs_hot', 0):.2f}x CPU/req; Redis calls/req "
                     f"{r.get('reached_redis_ratio') or 0:.4f}, DB calls/req {r.get('reached_db_ratio') or 0:.4f}")
        if r["scenario"].startswith("two-pods-"):
            n.append(f"through nginx to {r['scenario'][-1]} pod(s); CPU/req of the pods, not nginx")
        if r["scenario"] == "two-pods-2" and r.get("throughput_vs_one_pod") is not None:
            n.append(f"vs 1 pod: {r['throughput_vs_one_pod']:.2f}x req/s, "
                     f"{r.get('cpu_per_req_vs_one_pod', 0):.2f}x CPU/req")
        if r["scenario"].startswith("shorten-batch"):
            n.append(f"{r.get('batches')} batches of {r.get('batch_size')}; rate counts links")
            if r.get("rps"):
                n.append(f"goal >= 5,000 links/s: {'met' if r['rps'] >= 5000 else 'missed'}")
        elif r["scenario"].startswith("shorten"):
            n.append("single creates")
            if r.get("created_ratio") is not None:
                n.append(f"{r['created_ratio']:.0%} made a link")
            if r.get("create_group_mean") is not None:
                n.append(f"{r['create_group_mean']} per group")
            if r.get("rps"):
                n.append(f"goal >= 1,500/s: {'met' if r['rps'] >= 1500 else 'missed'}")
        if r["scenario"] == "sustained":
            n.append("paced load")
        if "visits" in r and r["scenario"] in ("hot", "sustained", "visits-off", "hot-mix", "rules", "domains", "redis", "db"):
            v = r["visits"]
            per_s = f" ({v.get('written', 0) / r['duration_s']:,.0f}/s)" if r.get("duration_s") else ""
            ratio = f", {v.get('written', 0) / r['requests']:.2f}x redirects" if r.get("requests") else ""
            n.append(f"raw rows written {v.get('written', 0):,}{per_s}{ratio}, dropped {v.get('dropped', 0):,}")
            if "counted" in v:
                n.append(f"counted {v['counted']:,}, counts written {v.get('counts_written', 0):,}")
        if r["scenario"].startswith("stats-") and lat_ok(r):
            p99 = r["latency_us"]["p99"] / 1000
            n.append(f"{STATS_CONNECTIONS_NOTE}goal p99 <= {STATS_P99_GOAL_MS} ms: "
                     + ("met" if p99 <= STATS_P99_GOAL_MS else "missed"))
        e = r.get("errors") or {}
        bad = {k: v for k, v in e.items() if v and not (k == "status" and r["scenario"] == "miss")}
        if bad:
            n.append("errors " + ", ".join(f"{k}={v:,}" for k, v in bad.items()))
        return "; ".join(n)

    def spread(r):
        if r.get("rps_min") is None or r.get("runs", 1) < 2:
            return fmt(r.get("rps"))
        return f"{fmt(r.get('rps'))} ({fmt(r['rps_min'])}–{fmt(r['rps_max'])})"

    def tiers(r):
        share = r.get("tier_share") or {}
        return " / ".join(f"{t} {share[t]:.0%}" for t in TIERS if share.get(t, 0) >= 0.005) or "-"

    head = ["scenario", "req/s median (min–max)", "× nginx req/s", "CPU µs/req", "× nginx CPU/req", "p50 ms",
            "p99 ms", "answered from", "notes"]
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join(["---"] + ["---:"] * 6 + ["---", "---"]) + "|"]
    for r in ordered:
        lat = r.get("latency_us") or {}
        lines.append("| " + " | ".join([
            r["scenario"],
            spread(r),
            "1" if r is nginx else fmt(r.get("throughput_vs_nginx"), "{:.3f}"),
            fmt(r.get("server_cpu_us_per_req"), "{:.1f}"),
            "1" if r is nginx else fmt(r.get("cpu_per_req_vs_nginx"), "{:.2f}"),
            fmt(lat.get("p50") / 1000 if lat.get("p50") is not None else None, "{:.2f}"),
            fmt(lat.get("p99") / 1000 if lat.get("p99") is not None else None, "{:.2f}"),
            tiers(r),
            note(r),
        ]) + " |")

    shutdown_check = None
    shutdown_path = os.path.join(args.dir, "visits-after-shutdown.json")
    if os.path.exists(shutdown_path):
        with open(shutdown_path) as f:
            shutdown_check = json.load(f)

    heap_result = None
    heap_path = os.path.join(args.dir, "heap.json")
    if os.path.exists(heap_path):
        with open(heap_path) as f:
            heap_result = json.load(f)

    meta = json.loads(args.meta) if args.meta else {}
    result = dict(meta)
    result["scenarios"] = ordered
    if heap_result:
        result["heap"] = heap_result
    for name in ("paced", "cold-start", "cold-start-nowarm"):
        path = os.path.join(args.dir, f"{name}.json")
        if os.path.exists(path):
            with open(path) as f:
                extra = json.load(f)
            extra.pop("per_second", None) if name != "cold-start" else None
            result[name.replace("-", "_")] = extra
    if shutdown_check:
        result["visits_after_shutdown"] = shutdown_check
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(result, f, indent=2)

    print()
    print(f"Shortgate benchmark, {meta.get('date', '')}, {meta.get('cores', '?')} cores "
          f"({meta.get('cpu_model', '')}), {meta.get('java', '')}")
    print(f"Command: {meta.get('command', '')}")
    print()
    if ordered:
        print("\n".join(lines))
    if result.get("paced"):
        pc = result["paced"]
        print(f"\npaced at {pc['rate']:,} req/s (half nginx's max, open loop): Shortgate p50/p99/p99.9 "
              f"{pc['p50_ms']}/{pc['p99_ms']}/{pc['p999_ms']} ms, nginx {pc['nginx_p50_ms']}/{pc['nginx_p99_ms']}/"
              f"{pc['nginx_p999_ms']} ms; goal (p99 <= 2x nginx, p99.9 <= 10 ms) {'met' if pc['goal_met'] else 'missed'}")
    for key in ("cold_start", "cold_start_nowarm"):
        if result.get(key):
            cs = result[key]
            print(f"{key.replace('_', '-')}: ready after {cs.get('ready_after_s')} s, 5xx {cs['errors_5xx']}, "
                  f"80% of warm {cs['warm_rps']:,} req/s after {cs['seconds_to_80pct']} s; "
                  f"goal (0 x 5xx, <= 5 s) {'met' if cs['goal_met'] else 'missed'}")
    if shutdown_check:
        c = shutdown_check
        print()
        print(f"Visits after the main app's SIGTERM: {c['redirects_found']:,} redirects answered, link_stats total "
              f"{c['aggregate_total']:,} ({'exact' if c['aggregate_total'] == c['redirects_found'] else 'MISMATCH'}), "
              f"raw rows {c['raw_rows']:,}")
    if heap_result:
        print()
        print(f"Heap per cached link: {heap_result['bytes_per_cached_link']} bytes "
              f"({heap_result['cached_links']:,} links, URLs ~{heap_result['avg_url_chars']} chars, "
              f"live heap {heap_result['live_heap_empty_bytes'] / 2**20:.1f} -> "
              f"{heap_result['live_heap_full_bytes'] / 2**20:.1f} MiB)")
    print()
    print(f"Written {args.out}")


def meta(args):
    import platform
    import subprocess
    model = ""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    java = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr.splitlines()
    wrk = subprocess.run(["wrk", "-v"], capture_output=True, text=True).stdout.splitlines()
    options = {}
    for kv in args.option or []:
        k, _, v = kv.partition("=")
        options[k] = int(v) if v.isdigit() else v
    seed_file = os.path.join(args.run_dir, "seed.json")
    seed_result = None
    if os.path.exists(seed_file):
        with open(seed_file) as f:
            seed_result = json.load(f)
    print(json.dumps({
        "date": args.date, "command": args.command, "cores": os.cpu_count(), "cpu_model": model,
        "kernel": platform.release(), "java": java[0] if java else "",
        "wrk": wrk[0].split(" [")[0] if wrk else "", "options": options, "seed": seed_result,
        "run_dir": args.run_dir,
    }))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)

    s = sub.add_parser("seed")
    s.add_argument("--host", default="127.0.0.1")
    s.add_argument("--port", type=int, required=True)
    s.add_argument("--count", type=int, required=True)
    s.add_argument("--batch", type=int, default=1000)
    s.add_argument("--concurrency", type=int, default=4)
    s.add_argument("--tag", required=True)
    s.add_argument("--url-format", default="https://example.com/articles/{tag}/{i}?utm_source=bench&utm_medium=seed")
    s.add_argument("--timeout", type=float, default=60)
    s.add_argument("--out")
    s.add_argument("--progress", action="store_true")
    s.set_defaults(fn=seed)

    r = sub.add_parser("record")
    r.add_argument("--name", required=True)
    r.add_argument("--wrk")
    r.add_argument("--json-in")
    r.add_argument("--ticks-before", type=int, required=True)
    r.add_argument("--ticks-after", type=int, required=True)
    r.add_argument("--clk-tck", type=int, required=True)
    r.add_argument("--pids", default="")
    r.add_argument("--prom-before")
    r.add_argument("--prom-after")
    r.add_argument("--extra", action="append")
    r.add_argument("--out", required=True)
    r.set_defaults(fn=record)

    c = sub.add_parser("combine")
    c.add_argument("--out", required=True)
    c.add_argument("runs", nargs="+")
    c.set_defaults(fn=combine)

    h = sub.add_parser("heap")
    h.add_argument("--before", required=True)
    h.add_argument("--after", required=True)
    h.add_argument("--cached-before", type=int, required=True)
    h.add_argument("--cached-after", type=int, required=True)
    h.add_argument("--links", type=int, required=True)
    h.add_argument("--avg-url", type=float)
    h.add_argument("--code-chars", type=int)
    h.add_argument("--xmx")
    h.add_argument("--fill-seconds", type=float)
    h.add_argument("--out", required=True)
    h.set_defaults(fn=heap)

    j = sub.add_parser("jfr")
    j.add_argument("--file", required=True)
    j.add_argument("--top", type=int, default=30)
    j.set_defaults(fn=jfr)

    o = sub.add_parser("report")
    o.add_argument("--dir", required=True)
    o.add_argument("--out", required=True)
    o.add_argument("--meta")
    o.set_defaults(fn=report)

    pc = sub.add_parser("paced")
    pc.add_argument("--app", nargs="+", required=True)
    pc.add_argument("--nginx", nargs="+", required=True)
    pc.add_argument("--rate", type=int, required=True)
    pc.add_argument("--nginx-max", type=float)
    pc.add_argument("--connections", type=int)
    pc.add_argument("--out", required=True)
    pc.set_defaults(fn=paced)

    cs = sub.add_parser("cold-start")
    cs.add_argument("--raw", required=True)
    cs.add_argument("--name", default="cold-start")
    cs.add_argument("--ready-after", type=float)
    cs.add_argument("--warm-seconds", type=int, default=10)
    cs.add_argument("--out", required=True)
    cs.set_defaults(fn=cold_start)

    m = sub.add_parser("meta")
    m.add_argument("--command", required=True)
    m.add_argument("--date", required=True)
    m.add_argument("--run-dir", required=True)
    m.add_argument("--option", action="append")
    m.set_defaults(fn=meta)

    args = p.parse_args()
    args.fn(args)


if __name__ == "__main__":
    main()
