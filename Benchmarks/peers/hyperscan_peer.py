"""Hyperscan over the same url-filters, as a multi-regex ceiling (not a content blocker).

Only the url-filters of `block` rules are compiled into one database (case-insensitive unless the
rule sets url-filter-is-case-sensitive); if-domain, resource-type, load-type and ignore-previous-rules
are ignored, so its blocked count is an upper bound, not comparable to WebKit's answer. Patterns
Hyperscan rejects are dropped and counted. Run under `timeout` by Benchmarks/run (compile time limit).

usage: hyperscan_peer.py WORKLOAD WORKDIR RUNS MATCH_RUNS REQUEST_SET...
"""
import json
import re
import sys
from importlib.metadata import version

import hyperscan

from common import match_phase, peak_rss_mib, read_requests, record, timed, write_latencies


def main():
    workload, work, runs, match_runs = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    request_sets = sys.argv[5:]
    peer = "Hyperscan (PyPI hyperscan %s)" % version("hyperscan")
    rules = json.load(open("%s/%s.rules.json" % (work, workload)))
    patterns, flags = [], []
    for rule in rules:
        if rule.get("action", {}).get("type") != "block":
            continue
        trig = rule.get("trigger", {})
        patterns.append(trig.get("url-filter", "").encode())
        f = hyperscan.HS_FLAG_SINGLEMATCH | hyperscan.HS_FLAG_ALLOWEMPTY
        if not trig.get("url-filter-is-case-sensitive"):
            f |= hyperscan.HS_FLAG_CASELESS
        flags.append(f)
    dropped = 0
    while True:
        db = hyperscan.Database()
        try:
            stats, _ = timed(1, lambda: db.compile(expressions=patterns, ids=list(range(len(patterns))),
                                                   elements=len(patterns), flags=flags))
            break
        except hyperscan.error as exc:  # drop the offending expression and retry
            m = re.search(r"[Ee]xpression (?:id )?(\d+)", str(exc)) or re.search(r"(\d+)", str(exc))
            if not m or int(m.group(1)) >= len(patterns):
                raise
            i = int(m.group(1))
            del patterns[i], flags[i]
            dropped += 1
    out = [record(workload, "hyperscan", peer, "parse+compile", "ms", stats, rules=len(patterns),
                  note="block url-filters only; %d rejected by Hyperscan" % dropped)]
    blob = hyperscan.dumpb(db)
    stats, _ = timed(runs, lambda: hyperscan.loadb(blob, hyperscan.HS_MODE_BLOCK))
    out.append(record(workload, "hyperscan", peer, "load", "ms", stats, bytes=len(blob), peakRSSMiB=peak_rss_mib()))
    scratch = hyperscan.Scratch(db)
    db.scratch = scratch

    def stop(*_):
        return True  # stop at the first match

    for rs in request_sets:
        requests = read_requests("%s/%s.%s.requests.jsonl" % (work, workload, rs))
        for req in requests:
            req["_bytes"] = req["url"].encode()

        def blocks(req):
            return bool(db.scan(req["_bytes"], match_event_handler=stop))

        rec, lat = match_phase(workload, rs, "hyperscan", peer, requests, match_runs, blocks)
        rec["note"] = "ceiling: url-filter only, no conditions"
        out.append(rec)
        write_latencies("%s/%s.%s.hyperscan.latencies.txt" % (work, workload, rs), lat)
        print("    hyperscan %s: %d blocked (url-filter only)" % (rs, rec["blocked"]), file=sys.stderr)
    json.dump(out, open("%s/%s.hyperscan.records.json" % (work, workload), "w"), indent=1)


if __name__ == "__main__":
    main()
