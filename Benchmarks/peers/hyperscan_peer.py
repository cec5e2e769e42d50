"""Hyperscan over the same url-filters, as a multi-regex ceiling (not a content blocker).

Only the url-filters of `block` rules are compiled into one database (case-insensitive unless the
rule sets url-filter-is-case-sensitive); if-domain, resource-type, load-type and ignore-previous-rules
are ignored, so its blocked count is an upper bound, not comparable to WebKit's answer. Filters that
match a content-free URL (".*" or "^https?://" with an if-domain, say) would match every URL without
their conditions, so they are left out and counted.

The compile runs in a child process with a time limit (LIMIT seconds): when it does not finish, the
record says "did not finish in LIMIT s" and the peer tries once more, with the same limit, on the
url-filters that contain no `.*` (the ones that make Hyperscan's compile blow up), saying how many
were left out (only when LIMIT >= 30 s: quick mode reports the first timeout and moves on). Patterns Hyperscan rejects (it names no index, so they are found by bisection) are
dropped and counted. The run is never left hanging.

usage: hyperscan_peer.py WORKLOAD WORKDIR RUNS MATCH_RUNS LIMIT REQUEST_SET...
"""
import json
import multiprocessing
import os
import re
import sys
import tempfile
import time
from importlib.metadata import version

import hyperscan

from common import match_phase, peak_rss_mib, read_requests, record, timed, write_latencies


# A filter that matches one of these matches (nearly) every URL when its conditions are ignored.
TRIVIAL_URLS = ("", "http://x.invalid/", "https://x.invalid/")


def compile_db(patterns, flags):
    db = hyperscan.Database()
    db.compile(expressions=patterns, ids=list(range(len(patterns))), elements=len(patterns), flags=flags)
    return db


def accepted(patterns, flags, indexes):
    """Indexes Hyperscan accepts, found by bisection over failing chunks; returns (good, reasons)."""
    try:
        compile_db([patterns[i] for i in indexes], [flags[i] for i in indexes])
        return list(indexes), {}
    except hyperscan.error as exc:
        if len(indexes) == 1:
            return [], {str(exc): 1}
    half = len(indexes) // 2
    good1, why1 = accepted(patterns, flags, indexes[:half])
    good2, why2 = accepted(patterns, flags, indexes[half:])
    for key, count in why2.items():
        why1[key] = why1.get(key, 0) + count
    return good1 + good2, why1


def child(patterns, flags, out_path):
    """Compiles everything Hyperscan accepts; writes the database and what was left out."""
    start = time.perf_counter()
    try:
        db = compile_db(patterns, flags)
        good, reasons = list(range(len(patterns))), {}
    except hyperscan.error:
        good, reasons = accepted(patterns, flags, list(range(len(patterns))))
        db = compile_db([patterns[i] for i in good], [flags[i] for i in good])
    seconds = time.perf_counter() - start
    blob = hyperscan.dumpb(db)
    with open(out_path + ".db", "wb") as f:
        f.write(blob)
    json.dump({"seconds": seconds, "compiled": len(good), "rejected": reasons}, open(out_path, "w"))


def compile_limited(patterns, flags, limit):
    """Runs `child` with a time limit; returns its result dict and the database, or None on timeout."""
    fd, out = tempfile.mkstemp(prefix="hyperscan-", suffix=".json")
    os.close(fd)
    os.unlink(out)
    proc = multiprocessing.get_context("fork").Process(target=child, args=(patterns, flags, out))
    proc.start()
    proc.join(limit)
    if proc.is_alive():
        proc.kill()
        proc.join()
        return None, None
    if proc.exitcode != 0 or not os.path.exists(out):
        raise RuntimeError("hyperscan compile child failed (exit %s)" % proc.exitcode)
    result = json.load(open(out))
    blob = open(out + ".db", "rb").read()
    os.unlink(out)
    os.unlink(out + ".db")
    return result, blob


def main():
    workload, work, runs, match_runs, limit = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), \
        float(sys.argv[5])
    request_sets = sys.argv[6:]
    peer = "Hyperscan (PyPI hyperscan %s)" % version("hyperscan")
    rules = json.load(open("%s/%s.rules.json" % (work, workload)))
    patterns, flags = [], []
    everything = 0
    for rule in rules:
        if rule.get("action", {}).get("type") != "block":
            continue
        trig = rule.get("trigger", {})
        try:  # ".*" or "^https?://" (with an if-domain, say) match every URL once conditions are gone
            if any(re.search(trig.get("url-filter", ""), url) for url in TRIVIAL_URLS):
                everything += 1
                continue
        except re.error:
            pass
        patterns.append(trig.get("url-filter", "").encode())
        f = hyperscan.HS_FLAG_SINGLEMATCH | hyperscan.HS_FLAG_ALLOWEMPTY
        if not trig.get("url-filter-is-case-sensitive"):
            f |= hyperscan.HS_FLAG_CASELESS
        flags.append(f)
    out = []
    total = len(patterns)
    result, blob = compile_limited(patterns, flags, limit)
    subset_note = ""
    if result is None and limit < 30:
        msg = "did not finish in %g s (%d block url-filters)" % (limit, total)
        print("    hyperscan: compile %s (no second try below a 30 s limit)" % msg, file=sys.stderr)
        out.append(record(workload, "hyperscan", peer, "parse+compile", "ms", rules=total, note=msg,
                          didNotFinishSeconds=limit))
        json.dump(out, open("%s/%s.hyperscan.records.json" % (work, workload), "w"), indent=1)
        return
    if result is None:
        msg = "did not finish in %g s (%d block url-filters)" % (limit, total)
        print("    hyperscan: compile %s" % msg, file=sys.stderr)
        out.append(record(workload, "hyperscan", peer, "parse+compile", "ms", rules=total, note=msg,
                          didNotFinishSeconds=limit))
        keep = [i for i, p in enumerate(patterns) if b".*" not in p]
        left_out = total - len(keep)
        subset_note = "subset: %d of %d url-filters, the %d with .* left out (full set: %s)" % (
            len(keep), total, left_out, msg)
        result, blob = compile_limited([patterns[i] for i in keep], [flags[i] for i in keep], limit)
        if result is None:
            msg2 = "did not finish in %g s either without the %d .* url-filters" % (limit, left_out)
            print("    hyperscan: %s" % msg2, file=sys.stderr)
            out.append(record(workload, "hyperscan-subset", peer, "parse+compile", "ms", rules=len(keep),
                              note=msg2, didNotFinishSeconds=limit))
            json.dump(out, open("%s/%s.hyperscan.records.json" % (work, workload), "w"), indent=1)
            return
        total = len(keep)
    engine = "hyperscan-subset" if subset_note else "hyperscan"
    rejected = sum(result["rejected"].values())
    note = "block url-filters only, %d that match every URL (conditions ignored) left out; %d of %d rejected by Hyperscan%s" % (
        everything, rejected, total, (" (%s)" % "; ".join("%s ×%d" % kv for kv in result["rejected"].items())) if rejected else "")
    if subset_note:
        note += "; " + subset_note
    stats = {"min": result["seconds"] * 1000, "median": result["seconds"] * 1000, "p99": result["seconds"] * 1000,
             "runs": 1}
    out.append(record(workload, engine, peer, "parse+compile", "ms", stats, rules=result["compiled"],
                      rejected=rejected, note=note))
    print("    hyperscan: compiled %d url-filters in %.1f s (%s)" % (result["compiled"], result["seconds"], note),
          file=sys.stderr)
    stats, db = timed(runs, lambda: hyperscan.loadb(blob, hyperscan.HS_MODE_BLOCK))
    out.append(record(workload, engine, peer, "load", "ms", stats, bytes=len(blob), peakRSSMiB=peak_rss_mib()))
    db.scratch = hyperscan.Scratch(db)

    def stop(*_):
        return True  # stop at the first match

    for rs in request_sets:
        requests = read_requests("%s/%s.%s.requests.jsonl" % (work, workload, rs))
        for req in requests:
            req["_bytes"] = req["url"].encode()

        def blocks(req):
            hit = []

            def on_match(*_):
                hit.append(1)
                return True

            try:
                db.scan(req["_bytes"], match_event_handler=on_match)
            except hyperscan.ScanTerminated:  # the handler stopped the scan at the first match
                pass
            return bool(hit)

        rec, lat = match_phase(workload, rs, engine, peer, requests, match_runs, blocks)
        rec["note"] = "ceiling: url-filter only, no conditions, URL bytes as given (no parsing)" + (
            "; " + subset_note if subset_note else "")
        out.append(rec)
        write_latencies("%s/%s.%s.%s.latencies.txt" % (work, workload, rs, engine), lat)
        print("    %s %s: %d blocked (url-filter only)" % (engine, rs, rec["blocked"]), file=sys.stderr)
    json.dump(out, open("%s/%s.hyperscan.records.json" % (work, workload), "w"), indent=1)


if __name__ == "__main__":
    main()
