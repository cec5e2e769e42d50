import ContentRuleCompiler
import ContentRuleFormat
import ContentRuleMatcher
import ContentRuleModel
import Foundation
import RuleListParser

/// Per-index result slots written by concurrent workers (each index by one worker only).
final class Slots: @unchecked Sendable {
    var values: [Int]
    init(_ count: Int) { values = Array(repeating: 0, count: count) }
}

struct PhaseRunner {
    var workload: String
    var runs: Int
    var matchRuns: Int
    var records: [Record] = []

    /// parse, compile, write, compile-to-file, load (in a child process): returns the loaded list.
    mutating func buildPhases(
        json: [UInt8], ruleCount: Int, workDir: String, targets: Bool, firstRequest: BenchRequest?
    ) throws -> ContentRuleList {
        let peer = "swift-content-blocker"
        let (parseTime, parsed) = timeRuns(runs) { RuleListParser.parse(json) }
        if let error = parsed.diagnostics.first(where: { $0.severity == .error }) {
            throw BenchError.failed("parse: \(error)")
        }
        var record = Record(workload: workload, engine: "ours", peer: peer, phase: "parse", unit: "ms")
        record.set(parseTime)
        record.rules = ruleCount
        record.bytes = json.count
        records.append(record)

        let (compileTime, compiled) = timeRuns(runs) {
            RuleListCompiler.compile(parsed.rules, sourceRuleCount: parsed.ruleCount)
        }
        guard let list = compiled.0 else {
            throw BenchError.failed("compile: \(compiled.1.first.map { "\($0)" } ?? "")")
        }
        record = Record(workload: workload, engine: "ours", peer: peer, phase: "compile", unit: "ms")
        record.set(compileTime)
        record.rules = ruleCount
        records.append(record)

        // parse + compile as one call, the figure comparable to WebKit's compile.
        let (totalTime, _) = timeRuns(runs) { RuleListCompiler.compile(json: json) }
        record = Record(workload: workload, engine: "ours", peer: peer, phase: "parse+compile", unit: "ms")
        record.set(totalTime)
        record.rules = ruleCount
        records.append(record)

        let path = workDir + "/\(workload).cbin"
        let (writeTime, bytes) = try timeRuns(runs) { () throws -> Int in
            let encoded = try BinaryRuleList.encode(list)
            try AtomicFile.write(encoded, to: path)
            return encoded.count
        }
        record = Record(workload: workload, engine: "ours", peer: peer, phase: "write", unit: "ms")
        record.set(writeTime)
        record.bytes = bytes
        records.append(record)

        // The compile figure of the targets: JSON bytes in memory → binary file on disk (what `content-blocker
        // compile` does after reading its input: compile, encode, atomic write with fsync).
        let (toFileTime, _) = try timeRuns(runs) { () throws -> Int in
            guard let list = RuleListCompiler.compile(json: json).list else { throw BenchError.failed("compile") }
            let encoded = try BinaryRuleList.encode(list)
            try AtomicFile.write(encoded, to: path)
            return encoded.count
        }
        record = Record(workload: workload, engine: "ours", peer: peer, phase: "compile-to-file", unit: "ms")
        record.set(toFileTime)
        record.rules = ruleCount
        record.bytes = bytes
        if targets {
            record.targets = [
                TargetCheck("compile (median)", toFileTime.median / 1000, limit: 1, unit: "s"),
                TargetCheck("binary size", Double(bytes) / 1e6, limit: 6, unit: "MB"),
            ]
        }
        records.append(record)

        // Open → ready to match, first match and resident memory, in a fresh process.
        let figures = try measureLoadInChild(binary: path, runs: runs, request: firstRequest)
        record = Record(workload: workload, engine: "ours", peer: peer, phase: "load", unit: "ms")
        record.set(Summary(figures.readyMs))
        record.bytes = bytes
        record.rssMiB = figures.rssAfterLoadMiB
        record.rssDeltaMiB = figures.rssAfterLoadMiB - figures.rssBeforeMiB
        record.firstMatchUs = figures.firstMatchUs
        record.secondMatchUs = figures.secondMatchUs
        record.note =
            "fresh process: ContentRuleList(identifier:contentsOfFile:) until it returns; RSS from /proc/self/statm "
            + String(
                format: "(%.1f MiB before, %.1f after load, %.1f after the first match)",
                figures.rssBeforeMiB, figures.rssAfterLoadMiB, figures.rssAfterMatchMiB)
        if targets {
            record.targets = [
                TargetCheck("ready to match (median)", Summary(figures.readyMs).median, limit: 2, unit: "ms"),
                TargetCheck(
                    "RSS delta after load / binary size",
                    (figures.rssAfterLoadMiB - figures.rssBeforeMiB) * 1_048_576
                        / Double(max(1, bytes)), limit: 2, unit: "×"),
            ]
        }
        records.append(record)
        return try ContentRuleList(identifier: workload, contentsOfFile: path)
    }

    /// Single-thread and all-core matching; checks the blocked count against `expected`.
    /// Returns the per-request latencies (µs) of the last single-thread run, and the blocked count.
    /// `singleThread: false` skips the single-thread pass (the reference matcher's single-thread figure
    /// comes from the latency pass).
    mutating func matchPhases(
        engine: OurEngine, loads: [ResourceLoadInfo], requestSet: String, expected: Int?, runs: Int,
        singleThread: Bool = true
    ) -> (latencies: [Double], blocked: Int?, parallelBlocked: Int) {
        var samples: [Double] = []
        var last: [Double] = []
        var blocked = 0
        for _ in 0..<(singleThread ? Swift.max(1, runs) : 0) {
            last.removeAll(keepingCapacity: true)
            blocked = 0
            for load in loads {
                let start = now()
                let hit = engine.blocks(load)
                let end = now()
                if hit { blocked += 1 }
                last.append(Double(end - start) / 1e3)
            }
            samples.append(contentsOf: last)
        }
        if singleThread {
            var record = Record(
                workload: workload, requestSet: requestSet, engine: engine.name, peer: engine.peer,
                phase: "match-1thread", unit: "us/request")
            record.set(Summary(samples))
            record.runs = runs
            record.threads = 1
            record.requests = loads.count
            record.blocked = blocked
            record.expectedBlocked = expected
            record.peakRSSMiB = peakRSSMiB()
            record.note = "ResourceLoadInfo built before timing: matching only"
            records.append(record)
        }

        let threads = ProcessInfo.processInfo.activeProcessorCount
        var wall: [Double] = []
        var parallelBlocked = 0
        for _ in 0..<Swift.max(1, runs) {
            let slots = Slots(threads)
            let start = now()
            DispatchQueue.concurrentPerform(iterations: threads) { worker in
                var count = 0
                var index = worker
                while index < loads.count {
                    if engine.blocks(loads[index]) { count += 1 }
                    index += threads
                }
                slots.values[worker] = count
            }
            wall.append(Double(now() - start) / 1e3 / Double(Swift.max(1, loads.count)))
            parallelBlocked = slots.values.reduce(0, +)
        }
        var record = Record(
            workload: workload, requestSet: requestSet, engine: engine.name, peer: engine.peer,
            phase: "match-allcores", unit: "us/request")
        record.set(Summary(wall))
        record.threads = threads
        record.requests = loads.count
        record.blocked = parallelBlocked
        record.expectedBlocked = expected
        records.append(record)
        return (last, singleThread ? blocked : nil, parallelBlocked)
    }
}

extension PhaseRunner {
    /// The latency pass: every request timed on its own, from strings to the result. Records p50, p90,
    /// p99, p99.9, max and the worst request; with `targets`, checks the latency targets.
    mutating func latencyPhase(
        engine: LatencyEngine, requests: [RawRequest], requestSet: String, runs: Int, prefix: Int, expected: Int?,
        targets: Bool
    ) -> LatencyResult {
        let result = measureLatency(engine, requests, runs: runs, prefix: prefix)
        var record = Record(
            workload: workload, requestSet: requestSet, engine: engine.name, peer: engine.peer, phase: "latency",
            unit: "us/request")
        record.setLatency(result, requests: requests)
        record.expectedBlocked = prefix == requests.count ? expected : nil
        record.note =
            "from strings: WebURL parse of request + top URL, resource type, load type, match; "
            + "each request timed alone, \(result.runs) run(s) pooled; warm figures: the last run alone"
        if targets {
            record.targets = [
                TargetCheck("p50", record.p50 ?? .nan, limit: 0.5, unit: "µs"),
                TargetCheck("p99", record.p99 ?? .nan, limit: 3, unit: "µs"),
                TargetCheck("max", record.max ?? .nan, limit: 50, unit: "µs"),
            ]
            if let p50 = record.warmP50, let p99 = record.warmP99, let slowest = record.slowestBestOfRunsUs {
                record.targets! += [
                    TargetCheck("p50, last run (warm)", p50, limit: 0.5, unit: "µs"),
                    TargetCheck("p99, last run (warm)", p99, limit: 3, unit: "µs"),
                    TargetCheck("max of each request's best run", slowest, limit: 50, unit: "µs"),
                ]
            }
        }
        records.append(record)
        return result
    }
}

extension Record {
    /// The percentiles, run count, blocked count and worst request of a latency pass (one thread).
    mutating func setLatency(_ result: LatencyResult, requests: [RawRequest]) {
        let sorted = result.samples.sorted()
        set(Summary(result.samples))
        p50 = percentile(sorted, 0.5)
        p90 = percentile(sorted, 0.9)
        p999 = percentile(sorted, 0.999)
        max = sorted.last
        mean = sorted.isEmpty ? nil : sorted.reduce(0, +) / Double(sorted.count)
        runs = result.runs
        threads = 1
        self.requests = requests.count
        blocked = result.blocked
        worstURL = requests.isEmpty ? nil : String(requests[result.worstIndex].url.prefix(200))
        worstTimesUs = result.worstTimes
        if result.runs > 1 {
            let warm = result.lastRun.sorted()
            warmP50 = percentile(warm, 0.5)
            warmP99 = percentile(warm, 0.99)
            warmMax = warm.last
        }
        // Each request's own cost: its smallest time over the runs (the pooled samples are run-major).
        var best = [Double](repeating: .infinity, count: requests.count)
        for (position, time) in result.samples.enumerated() {
            best[position % requests.count] = Swift.min(best[position % requests.count], time)
        }
        if let slowest = best.indices.max(by: { best[$0] < best[$1] }) {
            slowestBestOfRunsUs = best[slowest]
            slowestBestOfRunsURL = String(requests[slowest].url.prefix(200)) + " (\(requests[slowest].type))"
        }
    }
}
