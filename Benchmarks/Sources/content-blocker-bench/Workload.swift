import Foundation

/// One workload file under `Benchmarks/workloads/`: which rules, which requests, and the blocked
/// counts the reference matcher found (the benchmark fails when one of our engines disagrees).
struct Workload: Decodable {
    struct RequestSet: Decodable {
        /// `tsurlfilter` or `adblock-rust`.
        var source: String
        /// Requests taken from the start of the source, per mode (`quick`, `full`).
        var limit: [String: Int]
        /// Blocked requests among those, per mode, from the reference matcher.
        var expectedBlocked: [String: Int]
        /// Requests (from the start of the source) for the latency pass of our engines, per mode;
        /// more than the source holds means all of them. Absent: the `limit` sample only.
        var latencyLimit: [String: Int]?
    }
    var name: String
    var note: String?
    /// Rule files relative to `shared/corpus/`, concatenated in order (`.ndjson`: one rule per line).
    var rules: [String]
    /// Rule files relative to the repository root, used when `shared/` is absent.
    var bundledRules: [String]?
    /// Take only the first `ruleLimit` rules (after dropping exact duplicates when `dedupe`).
    var ruleLimit: Int?
    var dedupe: Bool?
    var expectedRuleCount: Int?
    /// AdBlock-syntax originals (relative to `shared/corpus/`) for the adblock-rust peer.
    var abp: [String]?
    var requestSets: [RequestSet]
    /// Print and record the targets (pass/fail) for this workload.
    var targets: Bool?
}

/// A request in the benchmark's own normalized form (written by `prepare`, read by every engine).
struct BenchRequest: Codable {
    var url: String
    /// The top document URL, or empty.
    var frameUrl: String
    /// Our request name (`image`, `script`, `fetch`, `document`, ...).
    var type: String
    /// `top-frame` or `child-frame`.
    var context: String
    /// The request type in AdBlock terms, for adblock-rust.
    var abpType: String
}

enum Corpus {
    static func readLines(_ path: String) throws -> [String] {
        let data: Data
        if path.hasSuffix(".gz") {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/gzip")
            process.arguments = ["-dc", path]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
        } else {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// Concatenates the workload's rule files into one JSON array (rules re-serialized as given).
    static func assembleRules(_ workload: Workload, corpus: String?, repoRoot: String) throws -> (
        json: [UInt8], count: Int
    ) {
        var files: [String]
        if let corpus {
            files = workload.rules.map { corpus + "/" + $0 }
        } else if let bundled = workload.bundledRules {
            files = bundled.map { repoRoot + "/" + $0 }
        } else {
            throw BenchError.skipped("needs ../shared/corpus")
        }
        var rules: [String] = []
        var seen = Set<String>()
        for file in files {
            let data = try Data(contentsOf: URL(fileURLWithPath: file))
            var items: [String] = []
            if file.hasSuffix(".ndjson") {
                items = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
                    .filter { !$0.allSatisfy(\.isWhitespace) }
            } else {
                guard let array = try JSONSerialization.jsonObject(with: data) as? [Any] else {
                    throw BenchError.failed("\(file): not a JSON array")
                }
                for rule in array {
                    let bytes = try JSONSerialization.data(withJSONObject: rule, options: [.sortedKeys])
                    items.append(String(decoding: bytes, as: UTF8.self))
                }
            }
            for item in items {
                if workload.dedupe == true {
                    guard seen.insert(item).inserted else { continue }
                }
                rules.append(item)
                if let limit = workload.ruleLimit, rules.count == limit { break }
            }
            if let limit = workload.ruleLimit, rules.count == limit { break }
        }
        let json = "[" + rules.joined(separator: ",\n") + "]\n"
        return (Array(json.utf8), rules.count)
    }

    /// Reads and normalizes a request source (see the README of `Benchmarks/` for the mapping).
    static func requests(source: String, corpus: String?, repoRoot: String, limit: Int) throws -> [BenchRequest] {
        guard let corpus else { throw BenchError.skipped("needs ../shared/corpus/requests") }
        var out: [BenchRequest] = []
        switch source {
        case "tsurlfilter":
            for line in try readLines(corpus + "/requests/tsurlfilter/requests.json.gz") {
                guard out.count < limit else { break }
                guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                    let url = object["url"] as? String, let cpt = object["cpt"] as? String
                else { continue }
                let frame = object["frameUrl"] as? String ?? ""
                let type: String
                switch cpt {
                case "xhr", "fetch": type = "fetch"
                case "stylesheet": type = "style-sheet"
                case "texttrack": type = "media"
                case "manifest": type = "other"
                default: type = cpt
                }
                let abpType: String
                switch cpt {
                case "texttrack": abpType = "media"
                case "manifest": abpType = "other"
                default: abpType = cpt
                }
                out.append(
                    BenchRequest(url: url, frameUrl: frame, type: type, context: "top-frame", abpType: abpType))
            }
        case "adblock-rust":
            let data = try Data(
                contentsOf: URL(fileURLWithPath: corpus + "/requests/adblock-rust/matching-test-requests.json"))
            guard let array = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] else {
                throw BenchError.failed("adblock-rust requests: not an array")
            }
            for object in array {
                guard out.count < limit else { break }
                guard let url = object["url"] as? String, let abpType = object["type"] as? String else { continue }
                let source = object["sourceUrl"] as? String ?? ""
                var type = abpType
                var context = "top-frame"
                switch abpType {
                case "subdocument":
                    type = "document"
                    context = "child-frame"
                case "xhr": type = "fetch"
                case "stylesheet": type = "style-sheet"
                case "object", "object-subrequest", "webrtc", "beacon", "csp_report": type = "other"
                case "websocket": type = "websocket"
                case "ping": type = "ping"
                default: break
                }
                out.append(BenchRequest(url: url, frameUrl: source, type: type, context: context, abpType: abpType))
            }
        default:
            throw BenchError.failed("unknown request source \(source)")
        }
        return out
    }
}

enum BenchError: Error, CustomStringConvertible {
    case skipped(String)
    case failed(String)
    var description: String {
        switch self {
        case .skipped(let why): return "skipped: \(why)"
        case .failed(let why): return "FAILED: \(why)"
        }
    }
}
