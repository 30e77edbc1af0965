#!/usr/bin/env python3
"""collapsed.py FILE [pattern...]: from an async-profiler collapsed-stacks file, the inclusive share of samples whose stack
contains each pattern (substring); with no patterns, the top inclusive frames of Shortgate and its libraries."""
import sys, collections
f = sys.argv[1]; pats = sys.argv[2:]
total = 0; inc = collections.Counter(); own = collections.Counter()
for line in open(f):
    stack, _, n = line.rstrip().rpartition(' ')
    n = int(n); total += n
    frames = stack.split(';')
    own[frames[-1]] += n
    seen = set()
    for fr in frames:
        key = fr if not pats else next((p for p in pats if p in fr), None)
        if key and key not in seen:
            seen.add(key); inc[key] += n
print(f"{total} samples")
if pats:
    for p in pats: print(f"{100*inc[p]/total:6.1f}%  {p}")
else:
    keep = ('dev/shortgate', 'dev.shortgate', 'springframework', 'reactor/netty', 'r2dbc', 'lettuce', 'jackson', 'bucket4j', 'micrometer')
    for k, v in inc.most_common(400):
        if any(x in k for x in keep): print(f"{100*v/total:6.1f}%  {k}")
    print("--- own")
    for k, v in own.most_common(40): print(f"{100*v/total:6.1f}%  {k}")
