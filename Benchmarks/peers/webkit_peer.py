"""WebKit's own compiler (WebKitGTK, through ../shared/oracle/webkit_compile.py): compile time and
compiled size for the same JSON rule list. Run with /usr/bin/python3 (needs python3-gi).

usage: webkit_peer.py ORACLE WORKLOAD WORKDIR RUNS
"""
import json
import subprocess
import sys

from common import record, summary


def main():
    oracle, workload, work, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    path = "%s/%s.rules.json" % (work, workload)
    times, loads, size, version, error = [], [], None, "", None
    for _ in range(max(1, runs)):
        proc = subprocess.run([sys.executable, oracle, path, "--no-capture-log"], capture_output=True, text=True)
        lines = [l for l in proc.stdout.splitlines() if l.startswith("{")]
        if not lines:
            error = (proc.stderr or proc.stdout).strip()[-300:]
            break
        rec = json.loads(lines[-1])
        if not rec.get("ok"):
            error = rec.get("error")
            break
        times.append(rec["compile_seconds"] * 1000)
        size = rec.get("compiled_bytes")
        if rec.get("load_seconds") is not None:
            loads.append(rec["load_seconds"] * 1000)
        version = rec.get("webkit_version", version)
    peer = "WebKit content extension compiler (WebKitGTK %s)" % version if version else "WebKit (WebKitGTK)"
    if error:
        print("    webkit: compile failed: %s" % error, file=sys.stderr)
        out = [record(workload, "webkit", peer, "parse+compile", "ms", note="failed: %s" % error)]
    else:
        out = [record(workload, "webkit", peer, "parse+compile", "ms", summary(times), bytes=size,
                      note="webkit_user_content_filter_store_save; bytes = compiled size")]
        if loads:
            out.append(record(workload, "webkit", peer, "load", "ms", summary(loads), bytes=size,
                              note="webkit_user_content_filter_store_load"))
        print("    webkit: %.0f ms, %s bytes" % (out[0]["median"], size), file=sys.stderr)
    json.dump(out, open("%s/%s.webkit.records.json" % (work, workload), "w"), indent=1)


if __name__ == "__main__":
    main()
