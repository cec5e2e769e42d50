// content-blocker-bench: measures swift-content-blocker on the workloads of Benchmarks/workloads.
//
//   content-blocker-bench run --workload FILE --mode quick|full --work DIR [--corpus DIR] [--repo DIR]
//       [--runs N] [--match-runs N] [--record]
//     Assembles the rules and requests (written to DIR for the peers), runs parse, compile, write,
//     load and match (1 thread, all cores) for "ours" and "reference", checks the blocked counts
//     against the workload file, and writes DIR/<workload>.records.json and per-request latencies.
//     --record: print the reference matcher's blocked counts instead of checking them.
//   content-blocker-bench callgrind --binary FILE --requests FILE --count N --engine ours|reference
//     Loads a compiled list and matches the first N requests (for valgrind --tool=callgrind).
import CCallgrind
import ContentRuleMatcher
import Foundation

func option(_ name: String, in arguments: [String]) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

func readRequests(_ path: String) throws -> [BenchRequest] {
    let decoder = JSONDecoder()
    return try Corpus.readLines(path).map { try decoder.decode(BenchRequest.self, from: Data($0.utf8)) }
}

func writeJSON<T: Encodable>(_ value: T, to path: String) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    try encoder.encode(value).write(to: URL(fileURLWithPath: path))
}

func runWorkload(_ arguments: [String]) throws -> Int32 {
    guard let workloadPath = option("--workload", in: arguments), let workDir = option("--work", in: arguments) else {
        throw BenchError.failed("run needs --workload and --work")
    }
    let mode = option("--mode", in: arguments) ?? "quick"
    let repo = option("--repo", in: arguments) ?? FileManager.default.currentDirectoryPath
    let corpus = option("--corpus", in: arguments).flatMap { $0 == "none" ? nil : $0 }
    let record = arguments.contains("--record")
    let workload = try JSONDecoder().decode(
        Workload.self, from: Data(contentsOf: URL(fileURLWithPath: workloadPath)))
    var runner = PhaseRunner(
        workload: workload.name, runs: Int(option("--runs", in: arguments) ?? "") ?? 5,
        matchRuns: Int(option("--match-runs", in: arguments) ?? "") ?? 3)

    let (json, ruleCount) = try Corpus.assembleRules(workload, corpus: corpus, repoRoot: repo)
    if let expected = workload.expectedRuleCount, expected != ruleCount, corpus != nil {
        throw BenchError.failed("\(workload.name): \(ruleCount) rules, expected \(expected)")
    }
    try Data(json).write(to: URL(fileURLWithPath: workDir + "/\(workload.name).rules.json"))
    print("\(workload.name): \(ruleCount) rules, \(json.count) bytes")
    let list = try runner.buildPhases(json: json, ruleCount: ruleCount, workDir: workDir)

    var failures: [String] = []
    var recorded: [String: Int] = [:]
    let encoder = JSONEncoder()
    for set in workload.requestSets {
        if record {
            // Once per workload: the reference matcher's blocked counts for every mode's prefix.
            let reference = OurEngine.reference(list)
            let all = try Corpus.requests(
                source: set.source, corpus: corpus, repoRoot: repo, limit: set.limit.values.max() ?? Int.max)
            var blockedAt: [Int] = [0]
            for request in all {
                let hit = request.loadInfo().map(reference.blocks) ?? false
                blockedAt.append(blockedAt.last! + (hit ? 1 : 0))
            }
            for (name, limit) in set.limit.sorted(by: { $0.key < $1.key }) {
                print("RECORD \(workload.name) \(set.source) \(name) \(blockedAt[min(limit, all.count)])")
            }
            continue
        }
        let limit = set.limit[mode] ?? Int.max
        let requests = try Corpus.requests(source: set.source, corpus: corpus, repoRoot: repo, limit: limit)
        var usable: [BenchRequest] = []
        var loads: [ResourceLoadInfo] = []
        for request in requests {
            guard let load = request.loadInfo() else { continue }
            usable.append(request)
            loads.append(load)
        }
        let lines = try usable.map { String(decoding: try encoder.encode($0), as: UTF8.self) }
        try (lines.joined(separator: "\n") + "\n").write(
            toFile: workDir + "/\(workload.name).\(set.source).requests.jsonl", atomically: true, encoding: .utf8)
        print("  \(set.source): \(loads.count) requests (\(requests.count - loads.count) dropped: URL does not parse)")
        let expected = record ? nil : set.expectedBlocked[mode]
        for engine in [OurEngine.ours(list), OurEngine.reference(list)] {
            let (latencies, blocked) = runner.matchPhases(
                engine: engine, loads: loads, requestSet: set.source, expected: expected)
            try latencies.map { String(format: "%.3f", $0) }.joined(separator: "\n").write(
                toFile: workDir + "/\(workload.name).\(set.source).\(engine.name).latencies.txt", atomically: true,
                encoding: .utf8)
            let parallel = runner.records.last?.blocked ?? -1
            print("    \(engine.name): \(blocked) blocked (all cores: \(parallel))")
            if record {
                if engine.name == "reference" { recorded[set.source] = blocked }
            } else if let expected {
                if blocked != expected || parallel != expected {
                    failures.append(
                        "\(workload.name)/\(set.source)/\(engine.name): blocked \(blocked) (all cores \(parallel)), expected \(expected)"
                    )
                }
            } else {
                failures.append("\(workload.name)/\(set.source): no expectedBlocked for mode \(mode)")
            }
        }
    }
    try writeJSON(runner.records, to: workDir + "/\(workload.name).records.json")
    if record { print("RECORD \(workload.name) \(mode) \(recorded)") }
    for failure in failures { print("FAILED: \(failure)") }
    return failures.isEmpty ? 0 : 1
}

func runCallgrind(_ arguments: [String]) throws -> Int32 {
    guard let binary = option("--binary", in: arguments), let requestsPath = option("--requests", in: arguments)
    else { throw BenchError.failed("callgrind needs --binary and --requests") }
    let count = Int(option("--count", in: arguments) ?? "") ?? 0
    let list = try ContentRuleList(identifier: "bench", contentsOfFile: binary)
    let loads = try readRequests(requestsPath).prefix(count).compactMap { $0.loadInfo() }
    let engine = option("--engine", in: arguments) == "reference" ? OurEngine.reference(list) : OurEngine.ours(list)
    var blocked = 0
    bench_callgrind_start()
    for load in loads where engine.blocks(load) { blocked += 1 }
    bench_callgrind_stop()
    print("\(loads.count) requests, \(blocked) blocked")
    return 0
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "run": exit(try runWorkload(arguments))
    case "callgrind": exit(try runCallgrind(arguments))
    default:
        print("usage: content-blocker-bench run|callgrind ... (see the comment at the top of main.swift)")
        exit(2)
    }
} catch {
    print("\(error)")
    exit(error is BenchError && "\(error)".hasPrefix("skipped") ? 3 : 1)
}
