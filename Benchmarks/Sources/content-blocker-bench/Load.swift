import ContentRuleMatcher
import Foundation

/// What a fresh process measures when it opens a compiled list (`content-blocker-bench load`).
struct LoadFigures: Codable {
    /// `ContentRuleList(identifier:contentsOfFile:)` until it returns, per open (ms).
    var readyMs: [Double]
    /// The first `actions(for:)` after the first open, from strings (µs), and the same request again.
    var firstMatchUs: Double
    var secondMatchUs: Double
    /// Resident set size before the first open, after it, and after the first match (MiB).
    var rssBeforeMiB: Double
    var rssAfterLoadMiB: Double
    var rssAfterMatchMiB: Double
    var binaryBytes: Int
}

/// `content-blocker-bench load --binary FILE --runs N --url U [--frame F] [--type T]`: run in a fresh
/// process so that resident memory is not mixed with the compile's heap. Prints `LoadFigures` as JSON.
func runLoad(_ arguments: [String]) throws -> Int32 {
    guard let binary = option("--binary", in: arguments) else { throw BenchError.failed("load needs --binary") }
    let runs = max(1, Int(option("--runs", in: arguments) ?? "") ?? 5)
    let request = RawRequest(
        BenchRequest(
            url: option("--url", in: arguments) ?? "https://example.com/",
            frameUrl: option("--frame", in: arguments) ?? "",
            type: option("--type", in: arguments) ?? "script", context: "top-frame", abpType: ""))
    let bytes = (try? FileManager.default.attributesOfItem(atPath: binary)[.size] as? Int) ?? nil
    let rssBefore = currentRSSMiB()
    var ready: [Double] = []
    var start = now()
    let list = try ContentRuleList(identifier: "bench", contentsOfFile: binary)
    ready.append(Double(now() - start) / 1e6)
    let rssAfterLoad = currentRSSMiB()
    start = now()
    let first = request.loadInfo().map { list.actions(for: $0).actions.count } ?? -1
    let firstMatch = Double(now() - start) / 1e3
    start = now()
    let second = request.loadInfo().map { list.actions(for: $0).actions.count } ?? -1
    let secondMatch = Double(now() - start) / 1e3
    precondition(first == second)
    let rssAfterMatch = currentRSSMiB()
    for _ in 1..<runs {
        start = now()
        let again = try ContentRuleList(identifier: "bench", contentsOfFile: binary)
        ready.append(Double(now() - start) / 1e6)
        withExtendedLifetime(again) {}
    }
    withExtendedLifetime(list) {}
    let figures = LoadFigures(
        readyMs: ready, firstMatchUs: firstMatch, secondMatchUs: secondMatch, rssBeforeMiB: rssBefore,
        rssAfterLoadMiB: rssAfterLoad, rssAfterMatchMiB: rssAfterMatch, binaryBytes: bytes ?? -1)
    print(String(decoding: try JSONEncoder().encode(figures), as: UTF8.self))
    return 0
}

/// Runs `content-blocker-bench load` on `binary` in a child process.
func measureLoadInChild(binary: String, runs: Int, request: BenchRequest?) throws -> LoadFigures {
    let process = Process()
    let executable =
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    process.executableURL = URL(fileURLWithPath: executable)
    var arguments = ["load", "--binary", binary, "--runs", String(runs)]
    if let request {
        arguments += ["--url", request.url, "--type", request.type]
        if !request.frameUrl.isEmpty { arguments += ["--frame", request.frameUrl] }
    }
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw BenchError.failed(
            "load child exited with \(process.terminationStatus): \(String(decoding: data, as: UTF8.self))")
    }
    return try JSONDecoder().decode(LoadFigures.self, from: data)
}
