import ContentRuleModel
import Foundation
import TestSupport
import Testing

/// The error table of the ContentRuleCompiler documentation (`ContentRuleCompiler.docc/Errors.md`) is
/// `ContentRuleListError`: every case with WebKit's message, in declaration order. `UPDATE_GOLDEN=1`
/// writes the rows (review the diff).
@Suite struct ErrorTableTests {
    static let article = TestData.repositoryRoot.appendingPathComponent(
        "Sources/ContentRuleCompiler/ContentRuleCompiler.docc/Errors.md")
    static let header = "| error | WebKit's message |\n| --- | --- |\n"
    static let end = "<!-- end of table -->"

    @Test func tableIsTheErrorEnum() throws {
        let text = try String(contentsOf: Self.article, encoding: .utf8)
        let rows = ContentRuleListError.allCases.map { error in
            "| `\(error.rawValue)` | \(error.message.replacingOccurrences(of: "|", with: "\\|")) |\n"
        }.joined()
        let start = try #require(text.range(of: Self.header))
        let end = try #require(text.range(of: Self.end))
        if ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1" {
            let updated = text.replacingCharacters(in: start.upperBound..<end.lowerBound, with: rows)
            try Data(updated.utf8).write(to: Self.article)
            return
        }
        #expect(String(text[start.upperBound..<end.lowerBound]) == rows)
    }
}
