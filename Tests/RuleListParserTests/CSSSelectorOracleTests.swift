import ContentRuleModel
import Foundation
import RuleListParser
import TestSupport
import Testing

/// css-display-none selectors answered by real WebKit (WebKitGTK 2.50.6,
/// `Tests/Data/oracle-notes/css-selectors.json`): each selector was compiled alone as a
/// css-display-none rule with url-filter `.*`; a refused selector drops the rule, so the list
/// fails with "Empty extension.".
@Suite struct CSSSelectorOracleTests {
    struct Verdict: Sendable {
        var selector: String
        var accepted: Bool
    }

    static func verdicts() throws -> [Verdict] {
        let url = TestData.repositoryRoot.appendingPathComponent("Tests/Data/oracle-notes/css-selectors.json")
        let object = try TestData.json(url) as? [String: Any]
        let entries = object?["selectors"] as? [[String: Any]] ?? []
        return entries.compactMap { entry in
            guard let selector = entry["selector"] as? String, let accepted = entry["accepted"] as? Bool else {
                return nil
            }
            return Verdict(selector: selector, accepted: accepted)
        }
    }

    @Test func fileHasAllSelectors() throws {
        #expect(try Self.verdicts().count == 1468)
    }

    /// The validator alone and a one-rule list through the parser both give WebKit's verdict.
    @Test func everySelectorGetsWebKitsVerdict() throws {
        var mismatches: [String] = []
        for verdict in try Self.verdicts() {
            let valid = CSSSelectorValidator.isValidSelectorList(verdict.selector)
            let rule: [String: Any] = [
                "trigger": ["url-filter": ".*"],
                "action": ["type": "css-display-none", "selector": verdict.selector],
            ]
            let result = RuleListParser.parse(try TestData.jsonText([rule]))
            let compiled = result.errors.isEmpty
            let emptyExtension =
                result.errors.first?.message == ContentRuleListError.jsonContainsNoRules.message
            let listAgrees = verdict.accepted ? compiled : emptyExtension
            if valid != verdict.accepted || !listAgrees {
                let expected = verdict.accepted ? "accepted" : "refused"
                mismatches.append("\(verdict.selector) (WebKit: \(expected); validator: \(valid), list: \(compiled))")
            }
        }
        if !mismatches.isEmpty {
            Issue.record("\(mismatches.count) mismatches:\n\(mismatches.joined(separator: "\n"))")
        }
    }
}
