import Foundation
import RuleListParser

/// Reading the conformance data in Tests/Data/conformance (relative to this file).
enum TestData {
    static let conformanceDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Data/conformance")

    static func jsonObject(_ relativePath: String) throws -> [String: Any] {
        let data = try Data(contentsOf: conformanceDirectory.appendingPathComponent(relativePath))
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw DataError.unexpectedShape(relativePath)
        }
        return object
    }

    enum DataError: Error { case unexpectedShape(String) }

    /// JSON text of a Foundation JSON value.
    static func text(_ value: Any) throws -> String {
        let data = try JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed])
        return String(decoding: data, as: UTF8.self)
    }

    /// The rule-list text of a case: `rules`, `rulesText`, `rulesGenerator` (webkit data) or
    /// `rulesGenerated` (field data); `nil` for `ruleLists`.
    static func ruleListText(_ item: [String: Any]) throws -> String? {
        if let text = item["rulesText"] as? String { return text }
        if let rules = item["rules"] { return try text(rules) }
        if let generator = item["rulesGenerator"] as? [String: Any], let count = generator["repeat"] as? Int,
            let rule = generator["rule"]
        {
            let one = try text(rule)
            return "[" + Array(repeating: one, count: count).joined(separator: ",") + "]"
        }
        if let generated = item["rulesGenerated"] as? [String: Any], let count = generated["count"] as? Int,
            let template = generated["template"]
        {
            let one = try text(template)
            let start = generated["start"] as? Int ?? 1
            var pieces: [String] = []
            pieces.reserveCapacity(count + 1)
            let hasPlaceholder = one.contains("{i}")
            for n in 0..<count {
                pieces.append(hasPlaceholder ? one.replacingOccurrences(of: "{i}", with: String(start + n)) : one)
            }
            for extra in generated["append"] as? [Any] ?? [] { pieces.append(try text(extra)) }
            return "[" + pieces.joined(separator: ",") + "]"
        }
        return nil
    }
}
