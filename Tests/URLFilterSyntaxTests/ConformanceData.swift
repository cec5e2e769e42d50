import Foundation

/// Loads the conformance JSON copied into Tests/Data/conformance (located from this file's path).
enum ConformanceData {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Data/conformance")

    static func cases(_ relativePath: String) -> [[String: Any]] {
        let url = root.appendingPathComponent(relativePath)
        guard let data = try? Data(contentsOf: url),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let cases = object["cases"] as? [[String: Any]]
        else { return [] }
        return cases
    }
}

/// One url-filter-syntax.json case.
struct SyntaxCase: Sendable, CustomStringConvertible {
    var id: String
    var pattern: String
    var caseSensitive: Bool
    /// Expected status name, or nil for the SupportsRegex cases.
    var expectStatus: String?
    var expectSupported: Bool?

    var description: String { id }

    static let all: [SyntaxCase] = ConformanceData.cases("webkit/url-filter-syntax.json").map {
        json in
        var pattern = json["pattern"] as? String ?? ""
        if let generator = json["patternGenerator"] as? [String: Any],
            let unit = generator["repeat"] as? String,
            let count = generator["count"] as? Int
        {
            pattern = String(repeating: unit, count: count)
        }
        return SyntaxCase(
            id: json["id"] as? String ?? "?", pattern: pattern,
            caseSensitive: json["caseSensitive"] as? Bool ?? false,
            expectStatus: json["expectStatus"] as? String,
            expectSupported: json["expectSupported"] as? Bool)
    }
}

/// One pattern-matching.json case.
struct MatchingCase: Sendable, CustomStringConvertible {
    struct Pattern: Sendable {
        var pattern: String
        var caseSensitive: Bool
        var id: Int
    }
    struct Input: Sendable {
        var input: String
        var expectedIDs: Set<Int>?
        var expectedCount: Int?
    }
    var id: String
    var patterns: [Pattern]
    var inputs: [Input]

    var description: String { id }

    static let all: [MatchingCase] = ConformanceData.cases("webkit/pattern-matching.json").map {
        json in
        let patterns = (json["patterns"] as? [[String: Any]] ?? []).map {
            Pattern(
                pattern: $0["pattern"] as? String ?? "",
                caseSensitive: $0["caseSensitive"] as? Bool ?? false, id: $0["id"] as? Int ?? -1)
        }
        let inputs = (json["inputs"] as? [[String: Any]] ?? []).map {
            Input(
                input: $0["input"] as? String ?? "",
                expectedIDs: ($0["expectedMatchIds"] as? [Int]).map(Set.init),
                expectedCount: $0["expectedMatchCount"] as? Int)
        }
        return MatchingCase(id: json["id"] as? String ?? "?", patterns: patterns, inputs: inputs)
    }
}
