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

    /// parse, compile, write, load: returns the loaded list and the binary file's path.
    mutating func buildPhases(json: [UInt8], ruleCount: Int, workDir: String) throws -> ContentRuleList {
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
            let encoded = BinaryRuleList.encode(list)
            try AtomicFile.write(encoded, to: path)
            return encoded.count
        }
        record = Record(workload: workload, engine: "ours", peer: peer, phase: "write", unit: "ms")
        record.set(writeTime)
        record.bytes = bytes
        records.append(record)

        let (loadTime, loaded) = try timeRuns(runs) { try ContentRuleList(identifier: workload, contentsOfFile: path) }
        record = Record(workload: workload, engine: "ours", peer: peer, phase: "load", unit: "ms")
        record.set(loadTime)
        record.bytes = bytes
        record.peakRSSMiB = peakRSSMiB()
        records.append(record)
        return loaded
    }

    /// Single-thread and all-core matching; checks the blocked count against `expected`.
    /// Returns the per-request latencies (µs) of the last single-thread run, and the blocked count.
    mutating func matchPhases(engine: OurEngine, loads: [ResourceLoadInfo], requestSet: String, expected: Int?)
        -> (latencies: [Double], blocked: Int)
    {
        var samples: [Double] = []
        samples.reserveCapacity(loads.count * matchRuns)
        var last: [Double] = []
        var blocked = 0
        for _ in 0..<Swift.max(1, matchRuns) {
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
        var record = Record(
            workload: workload, requestSet: requestSet, engine: engine.name, peer: engine.peer, phase: "match-1thread",
            unit: "us/request")
        record.set(Summary(samples))
        record.runs = matchRuns
        record.threads = 1
        record.requests = loads.count
        record.blocked = blocked
        record.expectedBlocked = expected
        record.peakRSSMiB = peakRSSMiB()
        records.append(record)

        let threads = ProcessInfo.processInfo.activeProcessorCount
        var wall: [Double] = []
        var parallelBlocked = 0
        for _ in 0..<Swift.max(1, matchRuns) {
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
        record = Record(
            workload: workload, requestSet: requestSet, engine: engine.name, peer: engine.peer,
            phase: "match-allcores", unit: "us/request")
        record.set(Summary(wall))
        record.threads = threads
        record.requests = loads.count
        record.blocked = parallelBlocked
        record.expectedBlocked = expected
        records.append(record)
        return (last, blocked)
    }
}
