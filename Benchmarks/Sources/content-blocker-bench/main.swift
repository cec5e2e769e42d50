// content-blocker-bench: measures swift-content-blocker on the workloads of Benchmarks/workloads.
//
//   content-blocker-bench run --workload FILE --mode quick|full --work DIR [--corpus DIR] [--repo DIR]
//       [--runs N] [--match-runs N] [--record]
//     Assembles the rules and requests (written to DIR for the peers), runs parse, compile, write,
//     compile-to-file, load (child process) and match (1 thread, all cores) for "ours", the latency
//     pass from strings ("ours-actions", "ours" on every request of latencyLimit, "reference" on the
//     sample), checks the blocked counts against the workload file, and writes
//     DIR/<workload>.records.json and per-request latencies.
//     --record: print the reference matcher's blocked counts (both cores) instead of measuring.
//   content-blocker-bench callgrind --binary FILE --requests FILE --count N --engine ours-actions|ours|reference
//       [--warm]
//     Loads a compiled list and matches the first N requests from strings, with callgrind's
//     instrumentation on only around that loop (run under valgrind --tool=callgrind --instr-atstart=no).
//     --warm: runs the loop once before instrumenting, so the measured pass is the steady state
//     (no first-use PCRE2 compiles, top-URL caches filled).
//   content-blocker-bench worstcase --rules JSON --name W --work DIR [--mode quick|full] [--runs N]
//     The worst case: the rules plus hostile ones, adversarial long URLs (WorstCase.swift).
//   content-blocker-bench batch --binary FILE --requests FILE [--count N] [--callgrind] [--runs N] [--jobs N]
//     The in-process side of Benchmarks/batch: match --requests lines decided as match decides them
//     (BatchBaseline.swift).
//   content-blocker-bench load --binary FILE --runs N [--url U --frame F --type T]
//     Fresh-process figures: open → ready to match (each of N opens), first match, RSS (JSON on stdout).
import CCallgrind
import ContentRuleCompiler
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
    let matchRuns = Int(option("--match-runs", in: arguments) ?? "") ?? 3
    var runner = PhaseRunner(
        workload: workload.name, runs: Int(option("--runs", in: arguments) ?? "") ?? 5, matchRuns: matchRuns)
    let targets = workload.targets == true

    let (json, ruleCount) = try Corpus.assembleRules(workload, corpus: corpus, repoRoot: repo)
    if let expected = workload.expectedRuleCount, expected != ruleCount, corpus != nil {
        throw BenchError.failed("\(workload.name): \(ruleCount) rules, expected \(expected)")
    }
    try Data(json).write(to: URL(fileURLWithPath: workDir + "/\(workload.name).rules.json"))
    print("\(workload.name): \(ruleCount) rules, \(json.count) bytes")
    if record { return try recordCounts(workload, json: json, corpus: corpus, repo: repo) }
    let first = try? Corpus.requests(
        source: workload.requestSets.first?.source ?? "tsurlfilter", corpus: corpus, repoRoot: repo, limit: 1
    ).first
    let list = try runner.buildPhases(
        json: json, ruleCount: ruleCount, workDir: workDir, targets: targets, firstRequest: first)
    for built in runner.records { printRecord(built) }

    var failures: [String] = []
    let encoder = JSONEncoder()
    for set in workload.requestSets {
        let limit = set.limit[mode] ?? Int.max
        let latencyLimit = max(limit, set.latencyLimit?[mode] ?? 0)
        let requests = try Corpus.requests(
            source: set.source, corpus: corpus, repoRoot: repo, limit: latencyLimit)
        // Requests whose URL or type does not parse are dropped (not blocked by anyone); `sample` is
        // the first `limit` requests of the source, the set the blocked counts were recorded on.
        var usable: [BenchRequest] = []
        var sampleCount = 0
        for (index, request) in requests.enumerated() where request.loadInfo() != nil {
            usable.append(request)
            if index < limit { sampleCount += 1 }
        }
        let sampleLoads = usable.prefix(sampleCount).compactMap { $0.loadInfo() }
        let raw = usable.map(RawRequest.init)
        let lines = try usable.map { String(decoding: try encoder.encode($0), as: UTF8.self) }
        try (lines.joined(separator: "\n") + "\n").write(
            toFile: workDir + "/\(workload.name).\(set.source).requests.jsonl", atomically: true, encoding: .utf8)
        print(
            "  \(set.source): \(usable.count) requests (\(requests.count - usable.count) dropped: URL does not parse);"
                + " sample checked against the reference counts: first \(sampleCount)")
        guard let expected = set.expectedBlocked[mode] else {
            failures.append("\(workload.name)/\(set.source): no expectedBlocked for mode \(mode)")
            continue
        }
        func check(_ what: String, _ blocked: Int?) {
            guard let blocked, blocked != expected else { return }
            failures.append("\(workload.name)/\(set.source)/\(what): blocked \(blocked), expected \(expected)")
        }
        // Our engines: matching only (prepared loads) on the sample, 1 thread and all cores ...
        let ours = OurEngine.ours(list)
        let match = runner.matchPhases(
            engine: ours, loads: sampleLoads, requestSet: set.source, expected: expected, runs: matchRuns)
        check("ours match-1thread", match.blocked)
        check("ours match-allcores", match.parallelBlocked)
        printRecord(runner.records[runner.records.count - 2])
        printRecord(runner.records[runner.records.count - 1])
        // ... and from strings, every request timed alone, on all `latencyLimit` requests.
        var oursSampleMedian: Double?
        for engine in [LatencyEngine.actions(list), LatencyEngine.blocker(list)] {
            let result = runner.latencyPhase(
                engine: engine, requests: raw, requestSet: set.source, runs: matchRuns, prefix: sampleCount,
                expected: expected, targets: targets)
            check("\(engine.name) latency (first \(sampleCount))", result.blockedInPrefix)
            printRecord(runner.records[runner.records.count - 1])
            try writeLatencies(result.lastRun, workDir, workload.name, set.source, engine.name)
            if engine.name == "ours" {
                oursSampleMedian = Summary(Array(result.lastRun.prefix(sampleCount))).median
            }
        }
        // The reference matcher: the sample only, one run (it is ~1,000× slower).
        let reference = runner.latencyPhase(
            engine: .reference(list), requests: Array(raw.prefix(sampleCount)), requestSet: set.source, runs: 1,
            prefix: sampleCount, expected: expected, targets: false)
        check("reference latency", reference.blocked)
        if let oursSampleMedian {
            runner.records[runner.records.count - 1].oursMedianSameRequests = oursSampleMedian
            runner.records[runner.records.count - 1].ratioToOurs =
                (runner.records[runner.records.count - 1].median ?? .nan) / oursSampleMedian
        }
        printRecord(runner.records[runner.records.count - 1])
        try writeLatencies(reference.lastRun, workDir, workload.name, set.source, "reference")
        let parallel = runner.matchPhases(
            engine: .reference(list), loads: sampleLoads, requestSet: set.source, expected: expected, runs: 1,
            singleThread: false)
        check("reference match-allcores", parallel.parallelBlocked)
        printRecord(runner.records[runner.records.count - 1])
    }
    try writeJSON(runner.records, to: workDir + "/\(workload.name).records.json")
    for failure in failures { print("FAILED: \(failure)") }
    return failures.isEmpty ? 0 : 1
}

func writeLatencies(_ values: [Double], _ workDir: String, _ workload: String, _ set: String, _ engine: String) throws {
    try values.map { String(format: "%.3f", $0) }.joined(separator: "\n").write(
        toFile: workDir + "/\(workload).\(set).\(engine).latencies.txt", atomically: true, encoding: .utf8)
}

/// One line per record, with the targets where checked.
func printRecord(_ record: Record) {
    func fmt(_ value: Double?) -> String { value.map { String(format: "%.3f", $0) } ?? "-" }
    var line = "    \(record.engine) \(record.phase)"
    if let set = record.requestSet { line += " [\(set) ×\(record.requests ?? 0)]" }
    if record.phase == "latency" || record.phase == "worstcase" {
        line += ": p50 \(fmt(record.p50)) p90 \(fmt(record.p90)) p99 \(fmt(record.p99)) p99.9 \(fmt(record.p999))"
        line += " max \(fmt(record.max)) mean \(fmt(record.mean)) \(record.unit)"
        if let p50 = record.warmP50 {
            line += "; last run (warm): p50 \(fmt(p50)) p99 \(fmt(record.warmP99)) max \(fmt(record.warmMax))"
            line += "; slowest request by its best run: \(fmt(record.slowestBestOfRunsUs))"
        }
        if let url = record.worstURL {
            line +=
                "; worst: \(url.prefix(160)) (\(record.worstTimesUs?.map { fmt($0) }.joined(separator: ", ") ?? "") µs)"
        }
    } else {
        line += ": median \(fmt(record.median)) min \(fmt(record.min)) p99 \(fmt(record.p99)) \(record.unit)"
    }
    if let blocked = record.blocked { line += "; blocked \(blocked)" }
    if let bytes = record.bytes { line += "; \(bytes) bytes" }
    if let rss = record.rssMiB {
        line += String(format: "; RSS %.1f MiB (+%.1f MiB)", rss, record.rssDeltaMiB ?? .nan)
        line += "; first match \(fmt(record.firstMatchUs)) µs, second \(fmt(record.secondMatchUs)) µs"
    }
    if let ratio = record.ratioToOurs {
        line += String(
            format: "; ours on the same requests %.3f µs: ratio %.0f×", record.oursMedianSameRequests ?? .nan, ratio)
    }
    print(line)
    for target in record.targets ?? [] { print("      TARGET " + target.line) }
}

/// `--record`: the reference matcher's blocked counts for every mode's prefix of every request set
/// (both cores: requests are split between two workers). Prints `RECORD` lines; fails nothing.
func recordCounts(_ workload: Workload, json: [UInt8], corpus: String?, repo: String) throws -> Int32 {
    guard let compiled = RuleListCompiler.compile(json: json).list else { throw BenchError.failed("compile") }
    let list = try ContentRuleList(identifier: workload.name, compiled: compiled)
    let reference = OurEngine.reference(list)
    for set in workload.requestSets {
        let all = try Corpus.requests(
            source: set.source, corpus: corpus, repoRoot: repo, limit: set.limit.values.max() ?? Int.max)
        let threads = ProcessInfo.processInfo.activeProcessorCount
        let hits = Slots(all.count)
        DispatchQueue.concurrentPerform(iterations: threads) { worker in
            var index = worker
            while index < all.count {
                hits.values[index] = all[index].loadInfo().map(reference.blocks) == true ? 1 : 0
                index += threads
            }
        }
        for (name, limit) in set.limit.sorted(by: { $0.key < $1.key }) {
            print("RECORD \(workload.name) \(set.source) \(name) \(hits.values.prefix(limit).reduce(0, +))")
        }
    }
    return 0
}

func runCallgrind(_ arguments: [String]) throws -> Int32 {
    guard let binary = option("--binary", in: arguments), let requestsPath = option("--requests", in: arguments)
    else { throw BenchError.failed("callgrind needs --binary and --requests") }
    let count = Int(option("--count", in: arguments) ?? "") ?? 0
    let list = try ContentRuleList(identifier: "bench", contentsOfFile: binary)
    // Strings → result, as in the latency pass; instrumentation is on only around this loop.
    let requests = try readRequests(requestsPath).prefix(count).map(RawRequest.init)
    let engine: LatencyEngine
    switch option("--engine", in: arguments) {
    case "reference": engine = .reference(list)
    case "ours": engine = .blocker(list)
    default: engine = .actions(list)
    }
    func pass() -> Int { requests.reduce(0) { $0 + (($1.loadInfo().map(engine.blocks) == true) ? 1 : 0) } }
    if arguments.contains("--warm") { _ = pass() }
    bench_callgrind_start()
    let blocked = pass()
    bench_callgrind_stop()
    print("\(requests.count) requests, \(blocked) blocked")
    return 0
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "run": exit(try runWorkload(arguments))
    case "callgrind": exit(try runCallgrind(arguments))
    case "load": exit(try runLoad(arguments))
    case "worstcase": exit(try runWorstCase(arguments))
    case "slowest": exit(try runSlowest(arguments))
    case "batch": exit(try runBatchBaseline(arguments))
    default:
        print("usage: content-blocker-bench run|callgrind ... (see the comment at the top of main.swift)")
        exit(2)
    }
} catch {
    print("\(error)")
    exit(error is BenchError && "\(error)".hasPrefix("skipped") ? 3 : 1)
}
