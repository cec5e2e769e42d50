"""Collects every records file of a run into results/latest.json, latest.md and latency.png.

usage: report.py WORKDIR RESULTS_DIR MODE [SKIP_MESSAGE...]
"""
import glob
import json
import os
import sys

ORDER = ["parse", "compile", "parse+compile", "write", "load", "match-1thread", "match-allcores", "callgrind"]


def fmt(v):
    if v is None:
        return "–"
    if isinstance(v, float):
        return "%.3g" % v if abs(v) < 100 else "%.0f" % v
    return str(v)


def main():
    work, results, mode = sys.argv[1], sys.argv[2], sys.argv[3]
    skips = sys.argv[4:]
    records = []
    for path in sorted(glob.glob(work + "/*.records.json")):
        records.extend(json.load(open(path)))
    ours = {(r["workload"], r.get("requestSet"), r["phase"]): r for r in records if r["engine"] == "ours"}
    for r in records:
        base = ours.get((r["workload"], r.get("requestSet"), r["phase"]))
        if base and r.get("median") and base.get("median"):
            r["ratioToOurs"] = r["median"] / base["median"]
    records.sort(key=lambda r: (r["workload"], r.get("requestSet") or "", ORDER.index(r["phase"])
                                if r["phase"] in ORDER else 99, r["engine"]))
    os.makedirs(results, exist_ok=True)
    json.dump({"mode": mode, "skipped": skips, "records": records}, open(results + "/latest.json", "w"), indent=1)

    lines = ["# Benchmark results (%s mode)" % mode, "",
             "Medians over repeated runs; ratio = engine median / ours (>1: slower or bigger than ours). "
             "Match figures are per request. adblock-rust runs the AdBlock-syntax originals (equivalent in intent, "
             "not byte-identical); Hyperscan matches url-filters only (a ceiling, its blocked count is an upper bound).",
             ""]
    if skips:
        lines += ["Skipped:", ""] + ["- " + s for s in skips] + [""]
    lines += ["| workload | requests | engine | phase | median | p99 | min | unit | ratio to ours | blocked (expected) "
              "| bytes | peak RSS (MiB) | peer |",
              "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in records:
        blocked = "" if r.get("blocked") is None else str(r["blocked"])
        if r.get("expectedBlocked") is not None:
            blocked += " (%d)" % r["expectedBlocked"]
        reqs = "%s ×%s" % (r["requestSet"], r.get("requests")) if r.get("requestSet") else ""
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["workload"], reqs, r["engine"], r["phase"], fmt(r.get("median")), fmt(r.get("p99")),
            fmt(r.get("min")), r["unit"], fmt(r.get("ratioToOurs")), blocked, fmt(r.get("bytes")),
            fmt(r.get("peakRSSMiB")), r["peer"] + (" — " + r["note"] if r.get("note") else "")))
    lines += ["", "![per-request latency](latency.png)", ""]
    open(results + "/latest.md", "w").write("\n".join(lines))

    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("chart skipped: matplotlib not installed", file=sys.stderr)
        return
    series = []
    for path in sorted(glob.glob(work + "/*.latencies.txt")):
        name = os.path.basename(path)[: -len(".latencies.txt")]
        values = [float(x) for x in open(path).read().split() if x]
        if values:
            series.append((name, values))
    if not series:
        return
    fig, ax = plt.subplots(figsize=(10, 0.45 * len(series) + 1.5))
    ax.boxplot([v for _, v in series], orientation="horizontal", whis=(1, 99), showfliers=False)
    ax.set_yticks(range(1, len(series) + 1), [n for n, _ in series], fontsize=7)
    ax.set_xscale("log")
    ax.set_xlabel("per-request latency (µs, log scale; box: quartiles, whiskers: p1–p99)")
    ax.set_title("Per-request match latency, single thread (%s mode)" % mode)
    fig.tight_layout()
    fig.savefig(results + "/latency.png", dpi=110)


if __name__ == "__main__":
    main()
