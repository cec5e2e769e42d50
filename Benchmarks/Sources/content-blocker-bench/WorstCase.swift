import ContentRuleCompiler
import ContentRuleFormat
import ContentRuleMatcher
import Foundation

// `content-blocker-bench worstcase --rules JSON --name W --work DIR [--mode quick|full] [--runs N]`
//
// The worst-case figure. The rules of a workload (already assembled by `run`) plus hostile rules
// — the backtracking-hostile url-filters of `WorstCaseTests` (`(a*)*b`, `.*.*.*x`, `(a+)+b`, …) and
// 2,000 universal rules with conditions — against adversarial requests built from the list itself: the
// literal pieces of its `X.*Y` url-filters (and a few fixed shapes) repeated to 256 B … 64 KiB, as
// script loads from another site and as document loads (the long URL is then the top URL too). Every
// request is timed alone from strings (`ContentRuleList.actions(for:)`), `runs` times; per length the
// record gives p50 / p99 / max and the worst request with its time in every run (the smallest of
// those is the request's own cost; a larger one is the machine). Requests of 2 KiB and less are also
// decided by the reference matcher: any disagreement fails the run.

/// The hostile rules added to the workload's rules (JSON objects, one per element).
func hostileRules() -> [String] {
    let patterns = [
        "(a*)*b", ".*.*.*x", "(a+)+b", "(.*a)*b", "((a*)*)*b", "(a*a*)*b", "a*a*a*a*a*a*a*a*b", "(.*)*x",
        "(aa?)*b", "(a?a)*c", ".*a.*a.*a.*a.*a.*b", "(a?)*a*a*b", "([^/]*a)*b", "(a+)+=",
    ]
    var rules = patterns.map { #"{"trigger":{"url-filter":"\#($0)"},"action":{"type":"block"}}"# }
    for index in 0..<2_000 {
        let condition =
            index % 2 == 0
            ? #""if-domain":["site\#(index).test"]"# : #""unless-top-url":["^https://site\#(index)\\.test/"]"#
        rules.append(
            #"{"trigger":{"url-filter":".*",\#(condition)},"action":{"type":"css-display-none","selector":".w\#(index)"}}"#
        )
    }
    return rules
}

/// Literal pieces of the rules' `X.*Y` url-filters, most frequent first.
func adversarialPieces(_ json: [UInt8], count: Int) -> [String] {
    guard let rules = try? JSONSerialization.jsonObject(with: Data(json)) as? [[String: Any]] else { return [] }
    var counts: [String: Int] = [:]
    let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/_.:?=&%-")
    for rule in rules {
        guard let filter = (rule["trigger"] as? [String: Any])?["url-filter"] as? String, filter.contains(".*")
        else { continue }
        for piece in filter.components(separatedBy: ".*") {
            var plain = ""
            var escaped = false
            for character in piece where character != "^" && character != "$" || escaped {
                if !escaped && character == "\\" {
                    escaped = true
                    continue
                }
                escaped = false
                plain.append(character)
            }
            if plain.count >= 2, plain.allSatisfy(allowed.contains) { counts[plain, default: 0] += 1 }
        }
    }
    return counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(count).map(\.key)
}

/// Adversarial requests of about `length` bytes: each piece repeated, as a third-party script and as a
/// document (top URL = the URL).
func adversarialRequests(pieces: [String], length: Int) -> [BenchRequest] {
    var out: [BenchRequest] = []
    let prefix = "https://adversarial.test/"
    for piece in pieces {
        let body = String(String(repeating: piece, count: length / piece.utf8.count + 1).prefix(length - prefix.count))
        let url = prefix + body
        out.append(
            BenchRequest(url: url, frameUrl: "https://site.test/", type: "script", context: "top-frame", abpType: ""))
        out.append(BenchRequest(url: url, frameUrl: "", type: "document", context: "top-frame", abpType: ""))
    }
    return out
}

func runWorstCase(_ arguments: [String]) throws -> Int32 {
    guard let rulesPath = option("--rules", in: arguments), let name = option("--name", in: arguments),
        let workDir = option("--work", in: arguments)
    else { throw BenchError.failed("worstcase needs --rules, --name and --work") }
    let quick = option("--mode", in: arguments) == "quick"
    let runs = max(1, Int(option("--runs", in: arguments) ?? "") ?? 3)
    let base = try Data(contentsOf: URL(fileURLWithPath: rulesPath))
    let pieces =
        adversarialPieces(Array(base), count: quick ? 12 : 60)
        + ["/ad", "a", "a/", "://", ".", "/", "-", "?&=", "%2", "aaaaaaaaab"]
    // The workload's array with the hostile rules appended.
    var json = Array(base)
    while let last = json.last, last != UInt8(ascii: "]") { json.removeLast() }
    json.removeLast()
    let hostile = hostileRules()
    json += Array((",\n" + hostile.joined(separator: ",\n") + "]\n").utf8)
    let start = now()
    guard let compiled = RuleListCompiler.compile(json: json).list else { throw BenchError.failed("compile") }
    let list = try ContentRuleList(identifier: name, compiled: compiled)
    print(
        "  worstcase \(name): \(compiled.sourceRuleCount) rules with the hostile ones, compiled in "
            + String(format: "%.0f ms", Double(now() - start) / 1e6))
    var records: [Record] = []
    var disagreements = 0
    for length in quick ? [256, 2_048, 16_384] : [256, 2_048, 16_384, 65_536] {
        let requests = adversarialRequests(pieces: pieces, length: length)
        let raw = requests.map(RawRequest.init)
        let result = measureLatency(.actions(list), raw, runs: runs, prefix: 0)
        var record = Record(
            workload: name, requestSet: "adversarial-\(length)", engine: "ours-actions",
            peer: "swift-content-blocker ContentRuleList.actions(for:)", phase: "worstcase", unit: "us/request")
        record.setLatency(result, requests: raw)
        record.note =
            "adversarial URLs of \(length) bytes (pieces of the list's X.*Y url-filters repeated; script and "
            + "document loads) against the workload plus \(hostile.count) hostile rules; each request "
            + "timed alone from strings, \(result.runs) run(s) pooled"
        if length <= 2_048 {
            for request in raw.prefix(quick ? 20 : raw.count) {
                guard let load = request.loadInfo() else { continue }
                if list.actions(for: load).actions != list.referenceActions(for: load).actions {
                    disagreements += 1
                    print("FAILED: fast and reference disagree on \(request.url.prefix(120)) (\(request.type))")
                }
            }
        }
        printRecord(record)
        print(
            String(format: "      slowest request, best of runs: %.1f µs: ", record.slowestBestOfRunsUs ?? .nan)
                + (record.slowestBestOfRunsURL?.prefix(120) ?? ""))
        records.append(record)
    }
    try writeJSON(records, to: workDir + "/\(name).worstcase.records.json")
    return disagreements == 0 ? 0 : 1
}
