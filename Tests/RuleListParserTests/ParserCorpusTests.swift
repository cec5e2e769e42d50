import ContentRuleModel
import Foundation
import RuleListParser
import Testing

/// Real rule lists from /work/shared/corpus/rules: WebKit compiled them all, so none may give a
/// parser error, except adguard-safariconverterlib/advanced-rules.json (JSONInvalidActionType).
@Suite struct CorpusTests {
    static let directory = URL(fileURLWithPath: "/work/shared/corpus/rules")
    static let available = FileManager.default.fileExists(atPath: directory.path)

    static func files() -> [String] {
        guard available, let enumerator = FileManager.default.enumerator(atPath: directory.path) else { return [] }
        return enumerator.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".json") || $0.hasSuffix(".ndjson") }.sorted()
    }

    @Test(
        .enabled(if: available, "corpus folder /work/shared/corpus/rules is missing; skipped"),
        arguments: files())
    func corpusList(_ file: String) throws {
        var data = try Data(contentsOf: Self.directory.appendingPathComponent(file))
        if file.hasSuffix(".ndjson") {
            // One rule per line.
            let lines = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline)
                .filter { !$0.allSatisfy(\.isWhitespace) }
            data = Data(("[" + lines.joined(separator: ",") + "]").utf8)
        }
        let result = RuleListParser.parse(data)
        if file == "adguard-safariconverterlib/advanced-rules.json" {
            #expect(result.diagnostics.first?.error == .jsonInvalidActionType)
        } else {
            #expect(result.errors.isEmpty, "\(result.errors.prefix(3))")
            #expect(!result.rules.isEmpty)
        }
    }
}
