import ContentRuleMatcher
import ContentRuleModel
import ContentRuleURL
import TestSupport
import Testing

/// `PageLoad` against `ResourceLoadInfo`: the load a page makes (WebKit's loader) and one backend
/// check. Expected values from WebKitGTK 2.50.6: fragments (`Tests/Data/oracle-notes/fragments.json`),
/// pings and CSP reports checked again as `other` (field case B059), a popup's navigation
/// (`Tests/Data/oracle/resource_type_matrix.json`: a `document` rule blocks `window.open`).
@Suite struct PageLoadTests {
    static func url(_ text: String) throws -> WebURL { try #require(WebURL(text)) }

    static func blocker(_ rules: String) throws -> ContentBlocker {
        ContentBlocker(lists: [try #require(TestLists.compile(rules).list)])
    }

    /// `url-filter: "#ad"` against a script `…/x.js#ad`: WebKit's loader drops the fragment (loaded);
    /// the backend, asked about the URL as given, matches it (blocked).
    @Test func fragmentIsDroppedByThePageLoadOnly() throws {
        let blocker = try Self.blocker(##"[{"trigger":{"url-filter":"#ad"},"action":{"type":"block"}}]"##)
        let url = try Self.url("https://a.example/x.js#ad")
        let top = try Self.url("https://b.example/")
        let page = PageLoad(url: url, mainDocumentURL: top, resourceType: .script)
        #expect(page.firstCheck.url.serialization == "https://a.example/x.js")
        #expect(!blocker.results(for: page).blockedLoad)
        #expect(
            blocker.results(for: ResourceLoadInfo(url: url, mainDocumentURL: top, resourceType: .script)).blockedLoad)
        // A ping keeps it in its first check (blocked there).
        #expect(blocker.results(for: PageLoad(url: url, mainDocumentURL: top, resourceType: .ping)).blockedLoad)
    }

    /// A ping whose first check an ignore rule for `ping` saves is blocked by the second, as `other`;
    /// an ignore rule for `other` (which covers ping and csp-report) saves both checks.
    @Test func pingsAreCheckedAgainAsOther() throws {
        let block = #"{"trigger":{"url-filter":"stats"},"action":{"type":"block"}}"#
        func ignore(_ type: String) -> String {
            #"{"trigger":{"url-filter":"stats","resource-type":[""# + type
                + #""]},"action":{"type":"ignore-previous-rules"}}"#
        }
        let url = try Self.url("https://stats.example.net/p")
        let top = try Self.url("https://www.example.com/")
        for (type, ignored, blocked) in [
            (ResourceType.ping, "ping", true), (.ping, "other", false), (.cspReport, "csp-report", true),
            (.cspReport, "other", false), (.image, "image", false),
        ] {
            let blocker = try Self.blocker("[\(block),\(ignore(ignored))]")
            let results = blocker.results(for: PageLoad(url: url, mainDocumentURL: top, resourceType: type))
            #expect(results.blockedLoad == blocked, "\(type) with ignore \(ignored)")
            #expect(!results.first.results.blockedLoad, "the first check is saved by its ignore rule")
            #expect((results.second != nil) == (type != .image))
            #expect(results.second?.load.resourceType == (type == .image ? nil : .other))
        }
    }

    /// A popup is checked as a popup, then as the new window's top-level navigation: a rule for
    /// `document` (or `top-document`) blocks it, one for `child-document` does not. The navigation's
    /// top URL is the popup's URL, so it is first-party.
    @Test func popupsAreCheckedAgainAsTheirNavigation() throws {
        let url = try Self.url("https://pop.example/ad#x")
        let top = try Self.url("https://www.example.com/")
        for (type, blocked) in [("document", true), ("top-document", true), ("child-document", false)] {
            let blocker = try Self.blocker(
                #"[{"trigger":{"url-filter":"pop","resource-type":[""# + type + #""]},"action":{"type":"block"}}]"#)
            let results = blocker.results(for: PageLoad(url: url, mainDocumentURL: top, resourceType: .popup))
            #expect(results.blockedLoad == blocked, "\(type)")
            let navigation = try #require(results.second?.load)
            #expect(navigation.resourceType == .topDocument && navigation.loadType == .firstParty)
            #expect(navigation.mainDocumentURL?.serialization == "https://pop.example/ad")
            #expect(navigation.frameURL?.serialization == "https://pop.example/ad", "double_checks.json")
        }
    }

    /// A popup's own check is used only for blocking (spec §4.2: the `window.open` caller reads
    /// `blockedLoad` alone): its block-cookies does not apply; the navigation's does.
    @Test func aPopupsOwnCheckOnlyBlocks() throws {
        let url = try Self.url("https://pop.example/ad")
        let top = try Self.url("https://www.example.com/")
        for (type, cookies) in [("popup", false), ("document", true)] {
            let blocker = try Self.blocker(
                #"[{"trigger":{"url-filter":"pop","resource-type":[""# + type
                    + #""]},"action":{"type":"block-cookies"}}]"#)
            let results = blocker.results(for: PageLoad(url: url, mainDocumentURL: top, resourceType: .popup))
            #expect(results.blockedCookies == cookies, "\(type)")
        }
        // A notify rule for every type fires in both checks; only the navigation's is sent.
        let notify = try Self.blocker(
            #"[{"trigger":{"url-filter":"pop"},"action":{"type":"notify","notification":"n"}}]"#)
        let notified = notify.results(for: PageLoad(url: url, mainDocumentURL: top, resourceType: .popup))
        #expect(notified.first.results.notifications == ["n"])
        #expect(notified.notifications == ["n"])
    }
}
