import CCallgrind
import ContentRuleMatcher
import ContentRuleModel
import ContentRuleURL
import Foundation

/// The in-process side of the batch comparison (`Benchmarks/batch`): the requests of a `match
/// --requests` file, split into strings beforehand, decided as `match` decides them (a `PageLoad`
/// from strings: WebURL parses, resource type, load type; `results(for:)`) and the information a
/// brief result line holds read from the results (flags, notifications, the actions but
/// css-display-none ones, their count, each list's global stylesheet size, the URL's text).
struct BatchRequest: Sendable {
    var url: String
    var mainDocumentURL: String?
    var resourceType: String

    static func read(_ path: String) throws -> [BatchRequest] {
        try Corpus.readLines(path).compactMap { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let url = object["url"] as? String
            else { return nil }
            return BatchRequest(
                url: url, mainDocumentURL: object["mainDocumentURL"] as? String,
                resourceType: object["resourceType"] as? String ?? "document")
        }
    }

    /// Decides the request and sums what a brief result line says (so none of it is optimized away).
    @inline(__always) func decide(_ blocker: ContentBlocker) -> Int {
        guard let url = WebURL(url), let type = ResourceType(requestName: resourceType, loadContext: .topFrame) else {
            return 0
        }
        var main: WebURL?
        if let text = mainDocumentURL {
            main = text.isEmpty ? nil : WebURL(text)
        } else {
            main = ResourceLoadInfo.requestURL(url, forLoadOf: type)
        }
        let page = blocker.results(for: PageLoad(url: url, mainDocumentURL: main, resourceType: type))
        var sum = page.blockedLoad ? 1 : 0
        sum += page.blockedCookies || page.madeHTTPS || page.redirected ? 2 : 0
        sum += page.notifications.count
        sum += page.first.load.url.serialization.utf8.count + page.first.load.loadType.rawValue.utf8.count
        for list in page.first.results.lists {
            let actions = list.actions.nonSelectorActions
            sum += actions.count * 4 + (list.actions.actionCount - actions.count)
            sum += list.globalStylesheet?.utf8.count ?? 0
            sum += list.sawIgnorePreviousRules ? 1 : 0
        }
        return sum
    }
}

/// `content-blocker-bench batch --binary FILE --requests FILE [--count N] [--callgrind] [--runs N]
/// [--jobs N]`: with --callgrind, one cold pass over the first N requests with instrumentation on
/// around it; otherwise `--runs` timed passes over every request on `--jobs` threads (requests split
/// in contiguous parts), printing `BATCH requests=… seconds=… (median)`.
func runBatchBaseline(_ arguments: [String]) throws -> Int32 {
    guard let binary = option("--binary", in: arguments), let path = option("--requests", in: arguments) else {
        throw BenchError.failed("batch needs --binary and --requests")
    }
    let all = try BatchRequest.read(path)
    let requests = Int(option("--count", in: arguments) ?? "").map { Array(all.prefix($0)) } ?? all
    let blocker = ContentBlocker(lists: [try ContentRuleList(identifier: "bench", contentsOfFile: binary)])
    if arguments.contains("--callgrind") {
        bench_callgrind_start()
        let sum = requests.reduce(0) { $0 &+ $1.decide(blocker) }
        bench_callgrind_stop()
        print("BATCH requests=\(requests.count) checksum=\(sum)")
        return 0
    }
    let runs = Int(option("--runs", in: arguments) ?? "") ?? 3
    let jobs = Int(option("--jobs", in: arguments) ?? "") ?? 1
    var seconds: [Double] = []
    for _ in 0..<runs {
        let start = DispatchTime.now().uptimeNanoseconds
        let part = (requests.count + jobs - 1) / jobs
        DispatchQueue.concurrentPerform(iterations: jobs) { job in
            var sum = 0
            for request in requests[min(requests.count, job * part)..<min(requests.count, (job + 1) * part)] {
                sum &+= request.decide(blocker)
            }
            if sum == -1 { print(sum) }
        }
        seconds.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    seconds.sort()
    print("BATCH requests=\(requests.count) jobs=\(jobs) seconds=\(seconds[seconds.count / 2])")
    return 0
}
