import ContentRuleModel
import Foundation
import RuleListParser
import TestSupport
import Testing

/// Real rule lists from `../shared/corpus/rules`: WebKit compiled them all, so none may give a
/// parser error, except adguard-safariconverterlib/advanced-rules.json (JSONInvalidActionType).
/// Skipped, saying so, without `../shared` beside the repository; in the slow tier.
@Suite(.tags(.corpus)) struct ParserCorpusTests {
    @Test(
        .slowTier, .enabled(if: TestData.shared != nil, "needs ../shared/corpus beside the repository"),
        arguments: Corpus.ruleListFiles())
    func corpusList(_ file: String) throws {
        let text = try #require(try Corpus.ruleListText(file))
        let result = RuleListParser.parse(Data(text.utf8))
        if file == "adguard-safariconverterlib/advanced-rules.json" {
            #expect(result.diagnostics.first?.error == .jsonInvalidActionType)
        } else {
            #expect(result.errors.isEmpty, "\(result.errors.prefix(3))")
            #expect(!result.rules.isEmpty)
        }
    }
}
