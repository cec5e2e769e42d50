import ContentRuleMatcher
import Foundation

/// `content-blocker-bench slowest --binary FILE --requests FILE [--runs N] [--top K]`: times every
/// request `runs` times (as the latency pass does: strings → result), keeps each request's best
/// time (the machine's noise removed), and prints the percentiles of those best times and the `K`
/// slowest requests with their URL length. For finding which requests make p99 and max.
func runSlowest(_ arguments: [String]) throws -> Int32 {
    guard let binary = option("--binary", in: arguments), let requestsPath = option("--requests", in: arguments)
    else { throw BenchError.failed("slowest needs --binary and --requests") }
    let runs = max(1, Int(option("--runs", in: arguments) ?? "") ?? 5)
    let top = Int(option("--top", in: arguments) ?? "") ?? 20
    let list = try ContentRuleList(identifier: "bench", contentsOfFile: binary)
    let requests = try readRequests(requestsPath).map(RawRequest.init)
    let engine = LatencyEngine.actions(list)
    var best = [Double](repeating: .infinity, count: requests.count)
    for _ in 0..<runs {
        for index in requests.indices {
            let start = now()
            _ = requests[index].loadInfo().map(engine.blocks)
            let end = now()
            best[index] = min(best[index], Double(end - start) / 1e3)
        }
    }
    let sorted = best.sorted()
    print(
        String(
            format: "%d requests, best of %d runs: p50 %.3f p90 %.3f p99 %.3f p99.9 %.3f max %.3f µs",
            requests.count, runs, percentile(sorted, 0.5), percentile(sorted, 0.9), percentile(sorted, 0.99),
            percentile(sorted, 0.999), sorted.last ?? .nan))
    for index in best.indices.sorted(by: { best[$0] > best[$1] }).prefix(top) {
        let request = requests[index]
        print(
            String(format: "%9.3f µs  #%-6d %6d B  %@ ", best[index], index, request.url.utf8.count, request.type)
                + String(request.url.prefix(150)))
    }
    return 0
}
