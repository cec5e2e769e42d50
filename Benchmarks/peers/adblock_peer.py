"""adblock-rust (PyPI `adblock`) on the AdBlock-syntax originals, against the benchmark's requests.

The rule sets are equivalent in intent, not byte-identical: easy2json's JSON was converted from
EasyList/EasyPrivacy at another date and Safari's rule language cannot express every ABP option.
Both engines' blocked counts are reported; adblock-rust's is not checked.

usage: adblock_peer.py WORKLOAD CORPUS WORKDIR RUNS MATCH_RUNS ABP_FILE... -- REQUEST_SET...
"""
import sys
from importlib.metadata import version

import adblock

from common import match_phase, peak_rss_mib, read_requests, record, timed, write_latencies


def main():
    args = sys.argv[1:]
    workload, corpus, work, runs, match_runs = args[0], args[1], args[2], int(args[3]), int(args[4])
    sep = args.index("--")
    abp_files, request_sets = args[5:sep], args[sep + 1:]
    peer = "adblock-rust (PyPI adblock %s)" % version("adblock")
    texts = [open(corpus + "/" + f, encoding="utf-8").read() for f in abp_files]
    line_count = sum(t.count("\n") for t in texts)

    def build():
        fs = adblock.FilterSet(debug=False)
        for t in texts:
            fs.add_filter_list(t, format="standard")
        return adblock.Engine(filter_set=fs, optimize=True)

    stats, engine = timed(runs, build)
    out = [record(workload, "adblock-rust", peer, "parse+compile", "ms", stats, rules=line_count,
                  note="ABP text lines incl. comments and cosmetic filters")]
    blob = engine.serialize()
    stats, _ = timed(runs, engine.serialize)
    out.append(record(workload, "adblock-rust", peer, "write", "ms", stats, bytes=len(blob),
                      note="serialize() to memory"))

    def load():
        e = adblock.Engine(adblock.FilterSet())
        e.deserialize(blob)
        return e

    stats, _ = timed(runs, load)
    out.append(record(workload, "adblock-rust", peer, "load", "ms", stats, bytes=len(blob), peakRSSMiB=peak_rss_mib()))
    for rs in request_sets:
        requests = read_requests("%s/%s.%s.requests.jsonl" % (work, workload, rs))

        def blocks(req):
            src = req["frameUrl"] or req["url"]
            return engine.check_network_urls(req["url"], src, req["abpType"]).matched

        rec, lat = match_phase(workload, rs, "adblock-rust", peer, requests, match_runs, blocks)
        rec["note"] = "GIL: single thread only"
        out.append(rec)
        write_latencies("%s/%s.%s.adblock-rust.latencies.txt" % (work, workload, rs), lat)
        print("    adblock-rust %s: %d blocked" % (rs, rec["blocked"]), file=sys.stderr)
    json.dump(out, open("%s/%s.adblock-rust.records.json" % (work, workload), "w"), indent=1)


if __name__ == "__main__":
    import json
    main()
