#!/usr/bin/env python3
"""What makes the paced scenario's tail: lines the pacer's slow requests up with JVM pauses and per-thread CPU.

  tail.py sample --out FILE --interval 0.025 PID... [--name mariadbd --name pacer]
      every INTERVAL s until killed: the on-CPU nanoseconds of every thread of the given processes (and of the
      processes found by name), from /proc/<pid>/task/<tid>/schedstat, plus the machine's busy and total jiffies
      (/proc/stat). One line per sample: "T <unix us> <busy jiffies> <all jiffies>", then "<pid> <tid> <ns> <comm>".

  tail.py analyze --run DIR/paced.run1 [--gc GC.log] [--samples FILE] [--threshold-ms 10] [--top 8]
      reads DIR/paced.run1.raw (pacer records) and .pacer.txt (t0_unix_us), cuts the slow requests into stall
      windows (slow requests whose due times lie within 20 ms of each other), and for each window prints the JVM
      pauses (safepoint lines of a -Xlog:safepoint*,gc*:file=...:timemillis log) that overlap it and which thread
      groups took the CPU in it. Also the share of all slow requests that were in flight during a pause.
"""
import argparse
import bisect
import json
import os
import re
import signal
import struct
import sys
import time


def groups(comm):
    """Thread name (comm, 15 characters) -> group."""
    rules = [("reactor-http", "event loops"), ("lettuce", "lettuce"), ("boundedElastic", "boundedElastic"),
             ("parallel-", "parallel"), ("r2dbc", "r2dbc"), ("reactor-tcp", "r2dbc"), ("GC Thread", "gc"),
             ("G1 ", "gc"), ("VM Thread", "vm thread"), ("C2 Compiler", "jit"), ("C1 Compiler", "jit"),
             ("JFR", "jfr"), ("mariadbd", "mariadb"), ("pacer", "pacer"), ("nginx", "nginx"),
             ("redis", "redis"), ("ZWorker", "gc"), ("ZDriver", "gc"), ("ZDirector", "gc")]
    for prefix, group in rules:
        if comm.startswith(prefix):
            return group
    return "other java" if comm else "?"


def sample(args):
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    signal.signal(signal.SIGINT, lambda *_: stop.append(1))
    def by_name():
        found = []
        for pid in os.listdir("/proc"):
            if pid.isdigit():
                try:
                    with open(f"/proc/{pid}/comm") as f:
                        if f.read().strip() in args.name:
                            found.append(pid)
                except OSError:
                    pass
        return found

    pids, k = [], 0
    with open(args.out, "w") as out:
        while not stop:
            if k % 40 == 0:  # processes by name (the pacer starts after the sampler), again every 40 samples
                pids = [str(p) for p in args.pid] + by_name()
            k += 1
            t = time.time()
            with open("/proc/stat") as f:
                cpu = [int(x) for x in f.readline().split()[1:]]
            idle = cpu[3] + cpu[4]
            lines = [f"T {int(t * 1e6)} {sum(cpu) - idle} {sum(cpu)}"]
            for pid in pids:
                try:
                    tids = os.listdir(f"/proc/{pid}/task")
                except OSError:
                    continue
                for tid in tids:
                    try:
                        with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                            ns = f.read().split()[0]
                        with open(f"/proc/{pid}/task/{tid}/comm") as f:
                            comm = f.read().strip()
                    except OSError:
                        continue
                    lines.append(f"{pid} {tid} {ns} {comm}")
            out.write("\n".join(lines) + "\n")
            time.sleep(max(0.0, args.interval - (time.time() - t)))


def read_samples(path):
    """[(t_us, busy, total, {tid: (ns, comm)})]"""
    samples = []
    cur = None
    with open(path) as f:
        for line in f:
            p = line.split(None, 3)
            if p[0] == "T":
                cur = (int(p[1]), int(p[2]), int(p[3]), {})
                samples.append(cur)
            elif cur is not None and len(p) == 4:
                cur[3][p[1]] = (int(p[2]), p[3].strip())
    return samples


def cpu_by_group(samples, start_us, end_us):
    """CPU ms per thread group between the samples around [start, end], the window's length, and machine busy %."""
    ts = [s[0] for s in samples]
    i = max(0, bisect.bisect_right(ts, start_us) - 1)
    j = min(len(samples) - 1, bisect.bisect_left(ts, end_us))
    if j <= i:
        return {}, 0, None
    a, b = samples[i], samples[j]
    out = {}
    for tid, (ns, comm) in b[3].items():
        d = ns - a[3].get(tid, (ns, comm))[0]  # a thread born in the window counts from its first sample
        g = groups(comm)
        out[g] = out.get(g, 0) + d / 1e6
    span_ms = (b[0] - a[0]) / 1000
    busy = (b[1] - a[1]) / (b[2] - a[2]) * 100 if b[2] > a[2] else None
    return out, span_ms, busy


PAUSE = re.compile(r"\[(\d+)ms\].*Safepoint \"([^\"]+)\".*Total: (\d+) ns")
GCLINE = re.compile(r"\[(\d+)ms\].*\[gc *\] GC\(\d+\) (Pause [^0-9]*?) .*?([\d.]+)ms$")
HEAP = re.compile(r"\[(\d+)ms\].*\[gc *\] GC\(\d+\) Pause Young.* (\d+)M->(\d+)M\(\d+M\)")


def allocation_rate(path, start_us, end_us):
    """MB allocated per second between the young pauses inside [start, end] (heap before one less after the last)."""
    marks = []
    with open(path, errors="replace") as f:
        for line in f:
            m = HEAP.search(line)
            if m:
                marks.append((int(m.group(1)) * 1000, int(m.group(2)), int(m.group(3))))
    inside = [m for m in marks if start_us <= m[0] <= end_us]
    if len(inside) < 2:
        return None, len(inside)
    allocated = sum(b[1] - a[2] for a, b in zip(inside, inside[1:]))
    return allocated / ((inside[-1][0] - inside[0][0]) / 1e6), len(inside)


def read_pauses(path):
    """[(start_us, end_us, what)] from safepoint lines (every pause), else from gc pause lines."""
    pauses, gcs = [], []
    with open(path, errors="replace") as f:
        for line in f:
            m = PAUSE.search(line)
            if m:
                end = int(m.group(1)) * 1000
                pauses.append((end - int(m.group(3)) // 1000, end, m.group(2)))
                continue
            m = GCLINE.search(line.rstrip())
            if m:
                end = int(m.group(1)) * 1000
                gcs.append((end - int(float(m.group(3)) * 1000), end, m.group(2).strip()))
    return pauses or gcs, gcs


def analyze(args):
    with open(args.run + ".pacer.txt") as f:
        meta = json.loads(f.read().split(" ", 1)[1])
    t0 = meta["t0_unix_us"]
    with open(args.run + ".raw", "rb") as f:
        data = f.read()
    recs = [struct.unpack_from("<III", data, i) for i in range(0, len(data) - 11, 12)]
    lats = sorted(r[1] for r in recs)
    n = len(lats)
    pct = lambda p: lats[int((n - 1) * p)] / 1000
    print(f"{args.run}: {n} answers, p50 {pct(.5):.2f} p99 {pct(.99):.2f} p99.9 {pct(.999):.2f} max {lats[-1] / 1000:.1f} ms;"
          f" pacer cpu {meta.get('cpu_ms')} ms over {meta['seconds']} s")
    thr = args.threshold_ms * 1000
    slow = sorted((t0 + due, t0 + due + lat, lat) for due, lat, st in recs if lat >= thr)
    pauses, gcs = read_pauses(args.gc) if args.gc else ([], [])
    run_start, run_end = t0, t0 + int(meta["seconds"] * 1e6)
    in_run = [p for p in pauses if p[1] >= run_start and p[0] <= run_end]
    if args.gc:
        long = sorted(in_run, key=lambda p: p[0] - p[1])[:5]
        total = sum(p[1] - p[0] for p in in_run) / 1000
        rate, young = allocation_rate(args.gc, run_start, run_end)
        print(f"  young collections in the run: {young}, allocation {rate or 0:.0f} MB/s")
        print(f"  pauses in the run: {len(in_run)}, {total:.1f} ms in all; longest: " +
              ", ".join(f"{(p[1] - p[0]) / 1000:.1f} ms {p[2]}" for p in long))
    # stall windows: slow requests whose due times are within 20 ms of each other
    windows = []
    for s in slow:
        if windows and s[0] - windows[-1]["last_due"] <= 20000:
            w = windows[-1]
            w["n"] += 1
            w["last_due"] = s[0]
            w["end"] = max(w["end"], s[1])
            w["max"] = max(w["max"], s[2])
        else:
            windows.append({"first_due": s[0], "last_due": s[0], "end": s[1], "max": s[2], "n": 1})
    if slow:
        hit = sum(1 for s in slow if any(p[0] < s[1] and p[1] > s[0] for p in in_run))
        print(f"  requests >= {args.threshold_ms} ms: {len(slow)} ({len(slow) / n * 100:.2f}%) in {len(windows)} stall "
              f"windows; {hit} of them ({hit / len(slow) * 100:.0f}%) were in flight during a JVM pause")
    samples = read_samples(args.samples) if args.samples else []
    if samples:
        base, span, busy = cpu_by_group(samples, run_start, run_end)
        print(f"  whole run, CPU ms per second by thread group (machine busy {busy:.0f}%): " + ", ".join(
            f"{g} {v / span * 1000:.0f}" for g, v in sorted(base.items(), key=lambda x: -x[1]) if v > 0.5))
    for w in sorted(windows, key=lambda w: -w["n"] * w["max"])[:args.top]:
        ov = [p for p in in_run if p[0] < w["end"] and p[1] > w["first_due"]]
        line = (f"  +{(w['first_due'] - t0) / 1e6:7.3f}s..+{(w['end'] - t0) / 1e6:7.3f}s: {w['n']} slow, worst "
                f"{w['max'] / 1000:.1f} ms; pauses: " + (", ".join(
                    f"{(p[1] - p[0]) / 1000:.1f} ms {p[2]} at +{(p[0] - t0) / 1e6:.3f}s" for p in ov) or "none"))
        print(line)
        if samples:
            by, span, busy = cpu_by_group(samples, w["first_due"], w["end"])
            if span:
                print(f"      CPU ms per second over {span:.0f} ms (machine busy {busy:.0f}%): " + ", ".join(
                    f"{g} {v / span * 1000:.0f}" for g, v in sorted(by.items(), key=lambda x: -x[1]) if v > 0.5))


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("sample")
    s.add_argument("--out", required=True)
    s.add_argument("--interval", type=float, default=0.025)
    s.add_argument("--name", action="append", default=[])
    s.add_argument("pid", nargs="*", type=int)
    a = sub.add_parser("analyze")
    a.add_argument("--run", required=True)
    a.add_argument("--gc")
    a.add_argument("--samples")
    a.add_argument("--threshold-ms", type=float, default=10)
    a.add_argument("--top", type=int, default=8)
    args = ap.parse_args()
    {"sample": sample, "analyze": analyze}[args.cmd](args)


if __name__ == "__main__":
    main()
