import Testing
@testable import RuleListParser

@Test func smoke() {
    #expect(RuleListParser.parse("[]").diagnostics.first?.error == .jsonContainsNoRules)
}
