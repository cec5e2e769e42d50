import ContentRuleCompiler
import ContentRuleMatcher
import ContentRuleModel
import Foundation
import TestSupport
import Testing

/// `matching.json`: WebKit's `testRequest` cases (ContentExtensionsTests.cpp). For each request:
/// the actions of every installed list in WebKit's order (types, or payloads for `exact`) and the
/// number of lists that did not see `ignore-previous-rules`.
@Suite struct MatchingConformanceTests {
    nonisolated(unsafe) static let cases = (try? TestData.cases("webkit/matching.json")) ?? []

    @Test func dataIsPresent() { #expect(Self.cases.count == 111) }

    @Test(arguments: cases.indices)
    func matching(_ index: Int) throws {
        let testCase = Self.cases[index]
        let id = testCase["id"] as? String ?? "\(index)"
        let lists = Harness.compileAll(
            try Harness.ruleListTexts(testCase, defaultIdentifier: "testFilter"), context: id)
        let blocker = ContentBlocker(lists: lists)
        let exact = testCase["compare"] as? String == "exact"
        for request in testCase["requests"] as? [[String: Any]] ?? [] {
            let context = "\(id) \(request["url"] ?? "")"
            let load = try #require(Harness.load(request), "\(context): bad request")
            let results = blocker.results(for: load)
            Harness.checkActions(
                results, expected: request["expectedActions"] as? [[String: Any]] ?? [], exact: exact, context: context)
            if let count = request["expectedGlobalStylesheetCount"] as? Int {
                #expect(results.lists.filter { !$0.sawIgnorePreviousRules }.count == count, "\(context): stylesheets")
            }
        }
    }
}
