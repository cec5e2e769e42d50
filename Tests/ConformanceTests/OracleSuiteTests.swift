import ContentRuleCompiler
import ContentRuleMatcher
import ContentRuleModel
import ContentRuleURL
import Foundation
import TestSupport
import Testing

/// Suites of the WebKitGTK matching oracle (`Tests/Data/oracle`), whose `expect` values real WebKit
/// produced: every case's outcome (blocked / loaded / upgraded), cookies and hidden selectors.
@Suite struct OracleSuiteTests {
    static let folder = TestData.repositoryRoot.appendingPathComponent("Tests/Data/oracle")
    static let suites: [String] =
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".json") }
        .sorted()

    /// The load each kind the oracle issues makes (oracle README, spec §4.1–§4.4), as a page load:
    /// the library's ``PageLoad`` makes WebKit's second checks (ping and csp-report as `other`, a
    /// popup's navigation). Pages are loaded with GET, so the document's request method is `get`.
    static func load(_ testCase: [String: Any]) -> PageLoad? {
        let kind = testCase["type"] as? String ?? "image"
        guard let url = WebURL(testCase["url"] as? String ?? "") else { return nil }
        let main = WebURL(testCase["main"] as? String ?? "http://first.test/")!
        let frame = (testCase["frame"] as? String).flatMap(WebURL.init)
        let blank = WebURL("about:blank")
        switch kind {
        case "document":
            // A top-level navigation: the top URL is its own URL; the view still shows about:blank.
            return PageLoad(
                url: url, mainDocumentURL: url, frameURL: blank, resourceType: .topDocument, requestMethod: .get)
        case "child-frame":
            // An <iframe src>: a child-frame navigation whose frame shows about:blank until it loads.
            return PageLoad(
                url: url, mainDocumentURL: main, frameURL: blank, resourceType: .childDocument,
                loadContext: .childFrame,
                requestMethod: .get)
        default:
            let types: [String: ResourceType] = [
                "image": .image, "script": .script, "style-sheet": .styleSheet, "font": .font, "media": .media,
                "fetch": .fetch, "xhr": .fetch, "websocket": .webSocket, "beacon": .other, "ping": .ping,
                "svg-document": .svgDocument, "popup": .popup, "csp-report": .cspReport,
            ]
            guard let type = types[kind] else { return nil }
            return PageLoad(
                url: url, mainDocumentURL: main, frameURL: frame ?? main, resourceType: type,
                loadContext: frame == nil ? .topFrame : .childFrame, requestMethod: .get)
        }
    }

    @Test func suitesArePresent() { #expect(Self.suites.count == 14) }

    @Test(arguments: suites)
    func suite(_ file: String) throws {
        let suite = try #require(try TestData.json(Self.folder.appendingPathComponent(file)) as? [String: Any])
        var texts: [String] = []
        if let rules = suite["rules"] { texts.append(try TestData.jsonText(rules)) }
        for list in suite["rule_lists"] as? [Any] ?? [] { texts.append(try TestData.jsonText(list)) }
        let lists = Harness.compileAll(texts.enumerated().map { ("list\($0.offset)", $0.element) }, context: file)
        let blocker = ContentBlocker(lists: lists)
        for testCase in suite["cases"] as? [[String: Any]] ?? [] {
            let context = "\(file) \(testCase["id"] ?? "")"
            let load = try #require(Self.load(testCase), "\(context): unknown load")
            let results = blocker.results(for: load)
            let blocked = results.blockedLoad
            var expect = testCase["expect"] as? [String: Any] ?? [:]
            if let outcome = testCase["expect"] as? String { expect = ["outcome": outcome] }
            if let outcome = expect["outcome"] as? String {
                let actual = blocked ? "blocked" : results.madeHTTPS ? "upgraded" : "loaded"
                #expect(actual == Self.contentBlockerOutcome(outcome, load: results.first.load), "\(context)")
            }
            // CSP reports never carry cookies, with or without a rule (oracle README, "Confounds").
            if let cookieSent = expect["cookie_sent"] as? Bool, testCase["type"] as? String != "csp-report" {
                #expect(results.blockedCookies == !cookieSent, "\(context): cookies")
            }
            if let hidden = expect["hidden"] as? [String: Bool] {
                let applied = Harness.appliedSelectors(load: load, results: results, blocker: blocker)
                let page = SimplePage(html: testCase["html"] as? String)
                for (selector, isHidden) in hidden {
                    #expect(page.isHidden(selector, by: applied) == isHidden, "\(context): \(selector)")
                }
            }
        }
    }

    /// The oracle observes the network: an http subresource of an https page arrives upgraded by
    /// WebKit's mixed-content rules, not by the content blocker (oracle README, "Confounds").
    static func contentBlockerOutcome(_ outcome: String, load: ResourceLoadInfo) -> String {
        if outcome == "upgraded", load.mainDocumentURL?.scheme == "https", load.url.scheme == "http",
            load.resourceType != .topDocument
        {
            return "loaded"
        }
        return outcome
    }
}
