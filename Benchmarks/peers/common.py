"""Shared helpers for the Python peers: timing summaries and record shape (same as latest.json)."""
import json
import math
import resource
import time


def summary(samples):
    s = sorted(samples)
    if not s:
        return {"min": None, "median": None, "p99": None, "runs": 0}

    def rank(q):
        return s[max(0, min(len(s) - 1, math.ceil(q * len(s)) - 1))]

    return {"min": s[0], "median": rank(0.5), "p99": rank(0.99), "runs": len(s)}


def timed(runs, fn):
    """Runs fn `runs` times; returns (summary in ms, last result)."""
    samples, result = [], None
    for _ in range(max(1, runs)):
        start = time.perf_counter_ns()
        result = fn()
        samples.append((time.perf_counter_ns() - start) / 1e6)
    return summary(samples), result


def peak_rss_mib():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def record(workload, engine, peer, phase, unit, stats=None, **extra):
    rec = {"workload": workload, "engine": engine, "peer": peer, "phase": phase, "unit": unit}
    if stats:
        rec.update(stats)
    rec.update({k: v for k, v in extra.items() if v is not None})
    return rec


def read_requests(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def match_phase(workload, request_set, engine, peer, requests, runs, blocks):
    """Single-thread matching; per-request latencies in µs. Returns (record, last latencies)."""
    samples, last, blocked = [], [], 0
    for _ in range(max(1, runs)):
        last, blocked = [], 0
        for req in requests:
            start = time.perf_counter_ns()
            hit = blocks(req)
            last.append((time.perf_counter_ns() - start) / 1e3)
            blocked += 1 if hit else 0
        samples.extend(last)
    rec = record(workload, engine, peer, "match-1thread", "us/request", summary(samples),
                 requestSet=request_set, threads=1, requests=len(requests), blocked=blocked,
                 peakRSSMiB=peak_rss_mib())
    return rec, last


def write_latencies(path, latencies):
    with open(path, "w") as f:
        f.write("\n".join("%.3f" % v for v in latencies) + "\n")
