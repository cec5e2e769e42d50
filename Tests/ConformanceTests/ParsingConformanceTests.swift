import ContentRuleCompiler
import ContentRuleModel
import Foundation
import TestSupport
import Testing

/// WebKit's parse and compile verdicts: `parsing-errors.json` (errors and their messages) and the
/// compile-level verdict of every `url-filter-syntax.json` pattern used as a url-filter.
@Suite struct ParsingConformanceTests {
    nonisolated(unsafe) static let parsingCases = (try? TestData.cases("webkit/parsing-errors.json")) ?? []
    nonisolated(unsafe) static let syntaxCases = (try? TestData.cases("webkit/url-filter-syntax.json")) ?? []

    @Test func dataIsPresent() {
        #expect(Self.parsingCases.count == 83)
        #expect(Self.syntaxCases.count == 87)
    }

    @Test(arguments: parsingCases.indices)
    func parsingError(_ index: Int) throws {
        let testCase = Self.parsingCases[index]
        let id = testCase["id"] as? String ?? "\(index)"
        let text = try #require(try TestData.ruleListText(testCase), "\(id) has no rule list")
        let result = RuleListCompiler.compile(json: Array(text.utf8))
        if let expected = testCase["expectError"] as? String {
            let first = try #require(result.errors.first, "\(id): expected \(expected), compiled")
            if expected != "*" {
                #expect(first.error?.rawValue == expected, "\(id)")
                #expect(first.message == testCase["expectErrorMessage"] as? String, "\(id)")
            }
        } else {
            #expect(result.errors.isEmpty, "\(id): \(result.errors)")
        }
    }

    @Test(arguments: syntaxCases.indices)
    func urlFilterAsRuleCompiles(_ index: Int) throws {
        let testCase = Self.syntaxCases[index]
        let id = testCase["id"] as? String ?? "\(index)"
        var pattern = testCase["pattern"] as? String
        if let generator = testCase["patternGenerator"] as? [String: Any], let unit = generator["repeat"] as? String,
            let count = generator["count"] as? Int
        {
            pattern = String(repeating: unit, count: count)
        }
        let filter = try #require(pattern, "\(id) has no pattern")
        let rule: [String: Any] = [
            "trigger": [
                "url-filter": filter, "url-filter-is-case-sensitive": testCase["caseSensitive"] as? Bool ?? false,
            ],
            "action": ["type": "block"],
        ]
        let result = RuleListCompiler.compile(json: Array(try TestData.jsonText([rule]).utf8))
        let expected = testCase["expectCompileError"] as? String
        #expect(result.errors.first?.error?.rawValue == expected, "\(id): \(result.errors)")
    }
}
