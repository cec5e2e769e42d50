import ContentRuleCompiler
import ContentRuleMatcher
import ContentRuleModel
import ContentRuleURL
import TestSupport
import Testing

/// Lists installed in one `ContentBlocker` as `WKUserContentController` installs them: added after the
/// others, one list per identifier (adding one replaces the list of that identifier), removed by
/// identifier; results per list in the order they were added, and combined.
@Suite struct ContentBlockerListsTests {
    static func list(_ identifier: String, _ rules: String) throws -> ContentRuleList {
        let compiled = try #require(RuleListCompiler.compile(json: Array(rules.utf8)).list)
        return try ContentRuleList(identifier: identifier, compiled: compiled)
    }

    static let blocking = #"[{"trigger":{"url-filter":"ads"},"action":{"type":"block"}}]"#
    static let cookies = #"[{"trigger":{"url-filter":".*"},"action":{"type":"block-cookies"}}]"#
    static let notify = #"[{"trigger":{"url-filter":"ads"},"action":{"type":"notify","notification":"n"}}]"#

    @Test func addReplaceAndRemoveByIdentifier() throws {
        let load = ResourceLoadInfo(
            url: try #require(WebURL("https://x.test/ads.js")), mainDocumentURL: nil, resourceType: .script)
        var blocker = ContentBlocker(lists: [])
        blocker.addContentRuleList(try Self.list("a", Self.blocking))
        blocker.addContentRuleList(try Self.list("b", Self.cookies))
        blocker.addContentRuleList(try Self.list("c", Self.notify))
        var results = blocker.results(for: load)
        #expect(results.lists.map(\.identifier) == ["a", "b", "c"])
        #expect(results.blockedLoad && results.blockedCookies && results.notifications == ["n"])
        // Adding "a" again replaces it, after the others.
        blocker.addContentRuleList(try Self.list("a", Self.notify))
        results = blocker.results(for: load)
        #expect(results.lists.map(\.identifier) == ["b", "c", "a"])
        #expect(!results.blockedLoad && results.notifications == ["n", "n"])
        #expect(blocker.removeContentRuleList(identifier: "c")?.identifier == "c")
        #expect(blocker.removeContentRuleList(identifier: "c") == nil)
        #expect(blocker.results(for: load).lists.map(\.identifier) == ["b", "a"])
        #expect(blocker.contentRuleList(identifier: "b")?.identifier == "b")
        blocker.removeAllContentRuleLists()
        #expect(blocker.results(for: load).lists.isEmpty)
        #expect(!blocker.results(for: load).blockedCookies)
    }
}
