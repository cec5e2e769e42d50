"""Collects every records file of a run into results/latest.json, latest.md and latency.png.

usage: report.py WORKDIR RESULTS_DIR MODE [SKIP_MESSAGE...]
"""
import glob
import json
import os
import sys

ORDER = ["parse", "compile", "parse+compile", "write", "compile-to-file", "load", "match-1thread", "match-allcores",
         "latency", "worstcase", "callgrind"]


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
    lines += summary_table(records) + targets_table(records) + latency_table(records) + worstcase_table(records) + callgrind_table(records)
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


def summary_table(records):
    """One row per workload: us next to each peer on the figures that matter most."""
    def get(w, engine, phase, rs=None):
        for r in records:
            if r["workload"] == w and r["engine"] == engine and r["phase"] == phase and (
                    rs is None or r.get("requestSet") == rs):
                return r
        return None

    def ms(r, key="median"):
        if r is None:
            return "–"
        if r.get("didNotFinishSeconds"):
            return "did not finish in %g s" % r["didNotFinishSeconds"]
        if r.get(key) is None:
            return (r.get("note") or "–")[:60]
        return "%s ms" % fmt(r[key])

    def mb(r):
        return "%.1f MB" % (r["bytes"] / 1e6) if r and r.get("bytes") else "–"

    def us(r, key):
        return "%s" % fmt(r.get(key)) if r and r.get(key) is not None else "–"

    out = ["## Summary", "",
           "Compile: JSON in → binary file out (ours), `webkit_user_content_filter_store_save` (WebKit), "
           "filter set + engine (adblock-rust, ABP text). Latency: tsurlfilter requests, single thread, µs per "
           "request from strings; reference: median on the checked sample and its ratio to ours on the same "
           "requests; adblock-rust: `check_network_urls` from Python (call overhead included).", "",
           "| workload | rules | compile ours | compile WebKit | compile adblock-rust | compile Hyperscan | binary ours "
           "| binary WebKit | ready (open → match) | RSS after load | ours-actions p50 / p99 / max | reference "
           "median (× ours) | adblock-rust median | Hyperscan median |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for w in sorted({r["workload"] for r in records}):
        c = get(w, "ours", "compile-to-file") or get(w, "ours", "parse+compile")
        load = get(w, "ours", "load")
        lat = get(w, "ours-actions", "latency", "tsurlfilter")
        ref = get(w, "reference", "latency", "tsurlfilter")
        ab = get(w, "adblock-rust", "match-1thread", "tsurlfilter")
        hs = get(w, "hyperscan", "match-1thread", "tsurlfilter") or get(w, "hyperscan-subset", "match-1thread",
                                                                           "tsurlfilter")
        hsc = get(w, "hyperscan-subset", "parse+compile") or get(w, "hyperscan", "parse+compile")
        rss = "%.0f MiB (+%.0f)" % (load["rssMiB"], load.get("rssDeltaMiB") or 0) if load and load.get(
            "rssMiB") is not None else "–"
        refcell = "–"
        if ref:
            refcell = "%s µs (%s×, n=%s)" % (fmt(ref.get("median")), fmt(ref.get("ratioToOurs")), ref.get("requests"))
        hscell = "–"
        if hsc:
            hscell = ms(hsc) + (" (subset)" if hsc["engine"] == "hyperscan-subset" else "")
        out.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            w, (c or {}).get("rules", "–"), ms(c), ms(get(w, "webkit", "parse+compile")),
            ms(get(w, "adblock-rust", "parse+compile")), hscell, mb(get(w, "ours", "write")),
            mb(get(w, "webkit", "parse+compile")), ms(load), rss,
            "%s / %s / %s" % (us(lat, "p50"), us(lat, "p99"), us(lat, "max")) if lat else "–", refcell,
            "%s µs" % fmt(ab["median"]) if ab else "–", "%s µs" % fmt(hs["median"]) if hs else "–"))
    return out + [""]


def targets_table(records):
    rows = [(r, t) for r in records for t in r.get("targets") or []]
    if not rows:
        return []
    out = ["## Targets", "",
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


def worstcase_table(records):
    rows = [r for r in records if r["phase"] == "worstcase"]
    if not rows:
        return []
    out = ["## Worst case: hostile rules and adversarial URLs (µs)", "",
           "The workload's rules plus 14 backtracking-hostile url-filters and 2,000 universal rules with "
           "conditions; requests: pieces of the list's own `X.*Y` url-filters (and a few fixed shapes) repeated "
           "to the given length, as script and as document loads; each request timed alone from strings. "
           "\"slowest, best of runs\": each request's smallest time over the runs (machine noise removed), the "
           "largest of those. Target: no request over 50 µs.", "",
           "| workload | URL bytes | requests | p50 | p99 | max (any run) | slowest, best of runs | ≤ 50 µs | "
           "that request |",
           "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        best = r.get("slowestBestOfRunsUs")
        url = (r.get("slowestBestOfRunsURL") or "")[:80].replace("|", "%7C")
        out.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["workload"], r["requestSet"].split("-")[-1], r.get("requests"), fmt(r.get("p50")), fmt(r.get("p99")),
            fmt(r.get("max")), fmt(best), "yes" if best is not None and best <= 50 else "no", url))
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
        fig, ax = plt.subplots(figsize=(12, 5))
        for label, values in sorted(items, key=lambda item: item[0].split(".", 1)[::-1]):
            n = len(values)
            request_set, engine = label.split(".", 1)
            ax.step(values, [(i + 1) / n for i in range(n)], where="post",
                    label="%s on %s (n=%d)" % (engine, request_set, n))
        for limit, text in ((0.5, "p50 target"), (3, "p99 target"), (50, "max target")):
            ax.axvline(limit, color="grey", linestyle=":", linewidth=0.8)
            ax.text(limit, 0.02, text, rotation=90, fontsize=7, color="grey")
        ax.set_xscale("log")
        ax.set_xlabel("per-request latency, µs (log scale)")
        ax.set_ylabel("fraction of requests")
        ax.set_title("%s: per-request latency, single thread (%s mode)" % (workload, mode))
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1))
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
