import ContentRuleMatcher
import ContentRuleModel
import ContentRuleURL
import Foundation

/// Per-request latency "from strings to the result": URL parsing and canonicalization of the request
/// and top URLs, the resource-type lookup, the load-type (first/third-party) computation done by
/// `ResourceLoadInfo.init`, and the match. Each request is timed on its own (two `clock_gettime`
/// calls, ~25 ns, included).
struct LatencyEngine: Sendable {
    var name: String
    var peer: String
    var blocks: @Sendable (ResourceLoadInfo) -> Bool

    /// `ContentRuleList.actions(for:)`: the matcher itself (the figure the latency targets are for).
    static func actions(_ list: ContentRuleList) -> LatencyEngine {
        LatencyEngine(name: "ours-actions", peer: "swift-content-blocker ContentRuleList.actions(for:)") { load in
            list.actions(for: load).blocksLoad
        }
    }

    /// `ContentBlocker.results(for:)`: what an embedder calls (adds the results' bookkeeping).
    static func blocker(_ list: ContentRuleList) -> LatencyEngine {
        let engine = OurEngine.ours(list)
        return LatencyEngine(name: engine.name, peer: engine.peer, blocks: engine.blocks)
    }

    /// `ContentBlocker(engine: .reference)`: every rule in order, one PCRE2 search each.
    static func reference(_ list: ContentRuleList) -> LatencyEngine {
        let engine = OurEngine.reference(list)
        return LatencyEngine(name: engine.name, peer: engine.peer, blocks: engine.blocks)
    }
}

/// The strings of one request plus the already-looked-up context (the context is a constant of the
/// request set, not something a browser computes).
struct RawRequest: Sendable {
    var url: String
    var frameUrl: String
    var type: String
    var context: LoadContext

    init(_ request: BenchRequest) {
        url = request.url
        frameUrl = request.frameUrl
        type = request.type
        context = request.context == "child-frame" ? .childFrame : .topFrame
    }

    /// Strings → `ResourceLoadInfo` (the part of the timed work before matching).
    @inline(__always) func loadInfo() -> ResourceLoadInfo? {
        guard let url = WebURL(url), let resourceType = ResourceType(requestName: type, loadContext: context) else {
            return nil
        }
        let top = frameUrl.isEmpty ? nil : WebURL(frameUrl)
        return ResourceLoadInfo(url: url, mainDocumentURL: top, resourceType: resourceType, loadContext: context)
    }
}

/// Percentiles of one latency pass set, plus the worst request.
struct LatencyResult {
    var samples: [Double]
    var lastRun: [Double]
    var blocked: Int
    var blockedInPrefix: Int
    var worstIndex: Int
    var worstTimes: [Double]
    var runs: Int
}

/// Times every request of `requests` individually, `runs` times (all samples pooled for the
/// percentiles). `prefix`: also counts the blocked requests among the first `prefix` requests.
func measureLatency(_ engine: LatencyEngine, _ requests: [RawRequest], runs: Int, prefix: Int) -> LatencyResult {
    var pooled: [Double] = []
    pooled.reserveCapacity(requests.count * max(1, runs))
    var perRun: [[Double]] = []
    var blocked = 0
    var blockedInPrefix = 0
    for _ in 0..<max(1, runs) {
        var times = [Double](repeating: 0, count: requests.count)
        blocked = 0
        blockedInPrefix = 0
        for index in requests.indices {
            let start = now()
            let hit = requests[index].loadInfo().map(engine.blocks) ?? false
            let end = now()
            times[index] = Double(end - start) / 1e3
            if hit {
                blocked += 1
                if index < prefix { blockedInPrefix += 1 }
            }
        }
        pooled.append(contentsOf: times)
        perRun.append(times)
    }
    // The worst request: the one with the largest time in any run; its times in every run tell
    // whether it is slow in itself or was hit by the machine (preemption, page faults).
    var worst = 0
    var worstTime = -1.0
    for times in perRun {
        for (index, time) in times.enumerated() where time > worstTime {
            worstTime = time
            worst = index
        }
    }
    return LatencyResult(
        samples: pooled, lastRun: perRun.last ?? [], blocked: blocked, blockedInPrefix: blockedInPrefix,
        worstIndex: worst, worstTimes: perRun.map { $0.isEmpty ? 0 : $0[worst] }, runs: max(1, runs))
}

/// Nearest-rank percentile of sorted samples.
func percentile(_ sorted: [Double], _ q: Double) -> Double {
    guard !sorted.isEmpty else { return .nan }
    let index = Int((q * Double(sorted.count)).rounded(.up)) - 1
    return sorted[max(0, min(sorted.count - 1, index))]
}

/// One figure checked against its target (p50 ≤ 0.5 µs, p99 ≤ 3 µs, max ≤ 50 µs, compile ≤ 1 s, …).
struct TargetCheck: Encodable {
    var figure: String
    var value: Double
    var limit: Double
    var unit: String
    var pass: Bool

    init(_ figure: String, _ value: Double, limit: Double, unit: String) {
        self.figure = figure
        self.value = value
        self.limit = limit
        self.unit = unit
        pass = value <= limit
    }

    var line: String {
        String(format: "%@ = %.3f %@ (target ≤ %g %@): %@", figure, value, unit, limit, unit, pass ? "PASS" : "FAIL")
    }
}
