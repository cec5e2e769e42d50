import Foundation
import RequestBatch

/// Real request sets and rule lists from `../shared/corpus` (present on CI and developer machines;
/// tests that need them are skipped with a message when it is absent).
public enum Corpus {
    /// One request of a real crawl, mapped to WebKit's vocabulary.
    public struct Request: Sendable {
        public var url: String
        public var mainDocumentURL: String
        /// A WebKit request resource-type name (`document`, `image`, `script`, `style-sheet`, `font`,
        /// `media`, `fetch`, `websocket`, `ping`, `csp-report`, `other`).
        public var resourceType: String
    }

    /// Chrome/puppeteer resource types of the tsurlfilter set → WebKit's: the table
    /// `match --input-format tsurlfilter` uses (`RequestFormat.tsurlfilterTypes`), `other` for a type
    /// it does not name.
    public static func webKitResourceType(chromeType: String) -> String {
        RequestFormat.tsurlfilterTypes[chromeType] ?? "other"
    }

    /// `requests/tsurlfilter/requests.json.gz` (30,524 requests), decompressed with `gzip -dc`.
    public static func tsurlfilterRequests() throws -> [Request]? {
        guard let shared = TestData.shared else { return nil }
        let path = shared.appendingPathComponent("corpus/requests/tsurlfilter/requests.json.gz").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-dc", path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        var requests: [Request] = []
        for line in data.split(separator: 0x0A) where !line.isEmpty {
            guard let object = try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
                let url = object["url"] as? String, let frame = object["frameUrl"] as? String,
                let type = object["cpt"] as? String
            else { continue }
            requests.append(
                Request(url: url, mainDocumentURL: frame, resourceType: webKitResourceType(chromeType: type)))
        }
        return requests
    }

    /// A rule list of `../shared/corpus/rules` as a JSON array text (`.ndjson` lines are wrapped).
    public static func ruleListText(_ relativePath: String) throws -> String? {
        guard let shared = TestData.shared else { return nil }
        let text = try String(
            contentsOf: shared.appendingPathComponent("corpus/rules/\(relativePath)"), encoding: .utf8)
        guard relativePath.hasSuffix(".ndjson") else { return text }
        return "[" + text.split(separator: "\n").filter { !$0.isEmpty }.joined(separator: ",") + "]"
    }

    /// Every rule list file under `../shared/corpus/rules`, relative to that folder.
    public static func ruleListFiles() -> [String] {
        guard let shared = TestData.shared else { return [] }
        let root = shared.appendingPathComponent("corpus/rules")
        let enumerator = FileManager.default.enumerator(atPath: root.path)
        var files: [String] = []
        while let path = enumerator?.nextObject() as? String {
            if path.hasSuffix(".json") || path.hasSuffix(".ndjson") { files.append(path) }
        }
        return files.sorted()
    }
}
