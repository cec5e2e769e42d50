public import Foundation

/// Locations of test data: the copy of the conformance data inside the repository, and the
/// optional `../shared` folder beside the repository (present on CI and developer machines).
public enum TestData {
    /// The repository's root (found from this file's path).
    public static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `Tests/Data/conformance` in the repository.
    public static var conformance: URL { repositoryRoot.appendingPathComponent("Tests/Data/conformance") }

    /// `../shared` beside the repository, or `nil` (tests that need it say so and are skipped).
    public static var shared: URL? {
        let url = repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared")
        return FileManager.default.fileExists(atPath: url.appendingPathComponent("corpus").path) ? url : nil
    }

    /// Reads a JSON file as Foundation objects.
    public static func json(_ url: URL) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(contentsOf: url), options: [.fragmentsAllowed])
    }

    /// The built `content-blocker` executable: `CONTENT_BLOCKER_EXECUTABLE` when set, else beside the
    /// test binary on Linux (a level or two up elsewhere, whatever the build's `--scratch-path`), else
    /// `.build/debug/content-blocker`.
    public static var contentBlockerExecutable: URL {
        if let path = ProcessInfo.processInfo.environment["CONTENT_BLOCKER_EXECUTABLE"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent()
        for _ in 0..<3 {
            let candidate = directory.appendingPathComponent("content-blocker")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return repositoryRoot.appendingPathComponent(".build/debug/content-blocker")
    }

    /// A conformance file (path relative to `Tests/Data/conformance`) as a JSON object.
    public static func jsonObject(_ relativePath: String) throws -> [String: Any] {
        guard let object = try json(conformance.appendingPathComponent(relativePath)) as? [String: Any] else {
            throw CocoaError(.fileReadCorruptFile)
        }
        return object
    }

    /// The `cases` array of a conformance file.
    public static func cases(_ relativePath: String) throws -> [[String: Any]] {
        let object = try json(conformance.appendingPathComponent(relativePath)) as? [String: Any]
        return object?["cases"] as? [[String: Any]] ?? []
    }

    /// JSON text of a value (for rebuilding a rule list from parsed conformance data).
    public static func jsonText(_ value: Any) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed]), as: UTF8.self)
    }

    /// A rule list's JSON text from a case: `rules`, `rulesText`, `rulesGenerator` (`repeat` copies of
    /// `rule`) or `rulesGenerated` (`count` copies of `template` with `{i}` numbered from `start`, then `append`).
    public static func ruleListText(_ unit: [String: Any]) throws -> String? {
        if let text = unit["rulesText"] as? String { return text }
        if let rules = unit["rules"] { return try jsonText(rules) }
        if let generator = unit["rulesGenerator"] as? [String: Any], let count = generator["repeat"] as? Int,
            let rule = generator["rule"]
        {
            let one = try jsonText(rule)
            return "[" + Array(repeating: one, count: count).joined(separator: ",") + "]"
        }
        if let generated = unit["rulesGenerated"] as? [String: Any], let count = generated["count"] as? Int,
            let template = generated["template"]
        {
            let start = generated["start"] as? Int ?? 1
            let templateText = try jsonText(template)
            var parts: [String] = []
            parts.reserveCapacity(count + 1)
            for number in start..<(start + count) {
                parts.append(templateText.replacingOccurrences(of: "{i}", with: String(number)))
            }
            for rule in generated["append"] as? [Any] ?? [] { parts.append(try jsonText(rule)) }
            return "[" + parts.joined(separator: ",") + "]"
        }
        return nil
    }
}
