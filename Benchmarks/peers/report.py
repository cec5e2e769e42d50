"""Collects every records file of a run into results/latest.json, latest.md and latency.png.

usage: report.py WORKDIR RESULTS_DIR MODE [SKIP_MESSAGE...]
"""
import glob
import json
import os
import sys

ORDER = ["parse", "compile", "parse+compile", "write", "compile-to-file", "load", "match-1thread", "match-allcores",
         "latency", "callgrind"]


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
        if base and r.get("median") and base.get("median") and "ratioToOurs" not in r:
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
    lines += targets_table(records) + latency_table(records) + callgrind_table(records)
    lines += ["## All figures", ""]
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
    charts = chart(work, results, mode, records)
    lines += [""] + ["![%s](%s)" % (c, c) for c in charts] + [""]
    open(results + "/latest.md", "w").write("\n".join(lines))


def targets_table(records):
    rows = [(r, t) for r in records for t in r.get("targets") or []]
    if not rows:
        return []
    out = ["## Issue 3's targets", "",
           "Single thread, this machine (2 cores shared with other builds). Latency: every request of the set timed "
           "alone, from strings to the result (URL parsing + load type + match).", "",
           "| workload | engine | requests | figure | value | target | |", "|---|---|---|---|---|---|---|"]
    for r, t in rows:
        reqs = "%s ×%s" % (r["requestSet"], r.get("requests")) if r.get("requestSet") else ""
        out.append("| %s | %s | %s | %s | %s %s | ≤ %g %s | %s |" % (
            r["workload"], r["engine"], reqs, t["figure"], fmt(t["value"]), t["unit"], t["limit"], t["unit"],
            "pass" if t["pass"] else "**FAIL**"))
    return out + [""]


def latency_table(records):
    rows = [r for r in records if r["phase"] == "latency"]
    if not rows:
        return []
    out = ["## Per-request latency from strings (µs)", "",
           "ours-actions = `ContentRuleList.actions(for:)`; ours = `ContentBlocker.results(for:)`; reference = "
           "`ContentBlocker(engine: .reference)` on the sample the blocked counts are checked on (its ratio is to "
           "ours on the same requests). Runs pooled; the worst request's times are given for every run.", "",
           "| workload | requests | engine | p50 | p90 | p99 | p99.9 | max | mean | blocked (expected) | worst request "
           "(µs per run) |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        blocked = "" if r.get("blocked") is None else str(r["blocked"])
        if r.get("expectedBlocked") is not None:
            blocked += " (%d)" % r["expectedBlocked"]
        worst = (r.get("worstURL") or "")[:90].replace("|", "%7C")
        times = ", ".join(fmt(v) for v in r.get("worstTimesUs") or [])
        extra = ""
        if r.get("ratioToOurs") and r["engine"] == "reference":
            extra = " — %s× ours (%s µs)" % (fmt(r["ratioToOurs"]), fmt(r.get("oursMedianSameRequests")))
        out.append("| %s | %s ×%s | %s | %s | %s | %s | %s | %s | %s | %s | `%s` (%s)%s |" % (
            r["workload"], r["requestSet"], r.get("requests"), r["engine"], fmt(r.get("p50")), fmt(r.get("p90")),
            fmt(r.get("p99")), fmt(r.get("p999")), fmt(r.get("max")), fmt(r.get("mean")), blocked, worst, times,
            extra))
    return out + [""]


def callgrind_table(records):
    rows = [r for r in records if r["phase"] == "callgrind"]
    if not rows:
        return []
    out = ["## Instructions per request (valgrind --tool=callgrind)", "",
           "| workload | engine | requests | instructions/request |", "|---|---|---|---|"]
    for r in rows:
        out.append("| %s | %s | %s | %s |" % (r["workload"], r["engine"], r.get("requests"), fmt(r.get("median"))))
    return out + [""]


def chart(work, results, mode, records):
    """One ECDF chart per workload (every engine and request set) and an overall box plot."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("chart skipped: matplotlib not installed", file=sys.stderr)
        return []
    series = {}
    for path in sorted(glob.glob(work + "/*.latencies.txt")):
        name = os.path.basename(path)[: -len(".latencies.txt")]
        values = sorted(float(x) for x in open(path).read().split() if x)
        if values:
            workload, rest = name.split(".", 1)
            series.setdefault(workload, []).append((rest, values))
    for old in glob.glob(results + "/latency*.png"):
        os.remove(old)
    names = []
    for workload, items in sorted(series.items()):
        fig, ax = plt.subplots(figsize=(9, 5))
        for label, values in items:
            n = len(values)
            ax.step(values, [(i + 1) / n for i in range(n)], where="post", label="%s (n=%d)" % (label, n))
        for limit, text in ((0.5, "p50 target"), (3, "p99 target"), (50, "max target")):
            ax.axvline(limit, color="grey", linestyle=":", linewidth=0.8)
            ax.text(limit, 0.02, text, rotation=90, fontsize=7, color="grey")
        ax.set_xscale("log")
        ax.set_xlabel("per-request latency, µs (log scale)")
        ax.set_ylabel("fraction of requests")
        ax.set_title("%s: per-request latency, single thread (%s mode)" % (workload, mode))
        ax.legend(fontsize=7, loc="lower right")
        ax.grid(True, which="both", alpha=0.3)
        fig.tight_layout()
        name = "latency-%s.png" % workload
        fig.savefig(results + "/" + name, dpi=100)
        plt.close(fig)
        names.append(name)
    flat = [("%s.%s" % (w, label), v) for w, items in sorted(series.items()) for label, v in items]
    fig, ax = plt.subplots(figsize=(10, 0.4 * len(flat) + 1.5))
    ax.boxplot([v for _, v in flat], orientation="horizontal", whis=(1, 99), showfliers=False)
    ax.set_yticks(range(1, len(flat) + 1), [n for n, _ in flat], fontsize=7)
    ax.set_xscale("log")
    ax.set_xlabel("per-request latency (µs, log scale; box: quartiles, whiskers: p1–p99)")
    ax.set_title("Per-request match latency, single thread (%s mode)" % mode)
    fig.tight_layout()
    fig.savefig(results + "/latency.png", dpi=100)
    plt.close(fig)
    return ["latency.png"] + names


if __name__ == "__main__":
    main()
