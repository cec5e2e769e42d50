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
    ///
    /// A case's `modelAs` (keys as the case's) says what its `html` makes the page do instead. A
    /// hyperlink ping is sent by clicking `<a href="#oracle-ping" ping=…>`, which first moves the page
    /// to its `#oracle-ping` fragment: both of the ping's checks see that as the top and frame URL.
    static func load(_ testCase: [String: Any]) -> PageLoad? {
        let testCase = testCase.merging(testCase["modelAs"] as? [String: Any] ?? [:]) { $1 }
        let kind = testCase["type"] as? String ?? "image"
        guard let url = WebURL(testCase["url"] as? String ?? "") else { return nil }
        var main = WebURL(testCase["main"] as? String ?? "http://first.test/")!
        if kind == "ping" { main.setFragment("oracle-ping") }
        let frame = (testCase["frame"] as? String).flatMap(WebURL.init)
        let blank = WebURL("about:blank")
        switch kind {
        case "document":
            // A top-level navigation: the top URL is its own URL; the frame URL is the document shown
            // before (about:blank between the harness's cases, or the page a script navigates from).
            return PageLoad(
                url: url, mainDocumentURL: url, frameURL: frame ?? blank, resourceType: .topDocument,
                requestMethod: .get)
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
                url: url, mainDocumentURL: main, frameURL: kind == "ping" ? main : frame ?? main, resourceType: type,
                loadContext: frame == nil ? .topFrame : .childFrame, requestMethod: .get)
        }
    }

    @Test func suitesArePresent() { #expect(Self.suites.count == 15) }

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
            // A CSP report to another origin never carries cookies, with or without a rule
            // (`PingLoader::sendViolationReport`; `double_checks.json`: same-origin reports do).
            if let cookieSent = expect["cookie_sent"] as? Bool, !Self.isCrossOriginReport(testCase) {
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

    /// Whether the case is a CSP report to another origin (scheme, host and port) than its page.
    static func isCrossOriginReport(_ testCase: [String: Any]) -> Bool {
        guard testCase["type"] as? String == "csp-report", let url = WebURL(testCase["url"] as? String ?? ""),
            let main = WebURL(testCase["main"] as? String ?? "http://first.test/")
        else { return false }
        return url.scheme != main.scheme || url.host != main.host || url.port != main.port
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
