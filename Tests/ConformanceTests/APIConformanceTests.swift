import ContentRuleCompiler
import ContentRuleMatcher
import ContentRuleModel
import ContentRuleURL
import Foundation
import TestSupport
import Testing

/// `api-tests.json` and `layout-tests.json`: what WebKit's Cocoa API tests and layout tests observed.
///
/// Each observed outcome maps onto our results: `blocked` → blockedLoad, `promotedToHTTPS` →
/// madeHTTPS, `requestHasCookieHeader` → not blockedCookies, notifications, `requestedURL` (the URL
/// after make-https and redirects), `requestHeaders` after modify-headers, and the computed display
/// of the probed element (hidden when a css-display-none action or the global stylesheet applies).
@Suite struct APIConformanceTests {
    nonisolated(unsafe) static let cases: [[String: Any]] =
        ((try? TestData.cases("webkit/api-tests.json")) ?? [])
        + ((try? TestData.cases("webkit/layout-tests.json")) ?? [])

    /// Embedder settings the tests make outside the rule list, as their notes describe them: the
    /// lists' active-action patterns (`*://testhost/*`), an extension base URL, and the request
    /// headers the page sends (every request has `Accept`; the frame's fetch adds `Content-Type`).
    static func activeActions(_ id: String) -> ActiveActionPolicy {
        id.hasPrefix("WKContentRuleListStoreTest.")
            ? ActiveActionPolicy(patternsForAllLists: [URLMatchPattern("*://testhost/*")!]) : .none
    }
    static func extensionBaseURL(_ id: String) -> WebURL? {
        id.hasPrefix("WKContentRuleListStoreTest.ExtensionPath") ? WebURL("extension-scheme://extension-host/") : nil
    }
    static func initialHeaders(_ id: String, url: String) -> [(String, String)] {
        var headers = [("Accept", "*/*")]
        if id == "WKContentRuleListStoreTest.ModifyHeaders#1" && url.hasSuffix("fetch.txt") {
            headers.append(("Content-Type", "application/json"))
        }
        return headers
    }

    /// Observed values that are not WebKit's content-blocker output, with what WebKit's source gives.
    /// `protocol://try_to_promote`: WebKit's URLParser does not add a path to a non-special URL with
    /// a host (`URLParser.cpp`, final state `Host`: `m_pathEnd = m_hostEnd + m_portLength` when not
    /// special), as the URL Standard says; the layout test printed the URL as another layer reported it.
    static let sourceOverrides: [String: String] = [
        "protocol://try_to_promote/": "protocol://try_to_promote"
    ]

    @Test func dataIsPresent() { #expect(Self.cases.count == 32) }

    @Test(arguments: cases.indices)
    func apiCase(_ index: Int) throws {
        let testCase = Self.cases[index]
        let id = testCase["id"] as? String ?? "\(index)"
        let lists = Harness.compileAll(
            try Harness.ruleListTexts(testCase, defaultIdentifier: "testFilter"), context: id,
            extensionBaseURL: Self.extensionBaseURL(id))
        let blocker = ContentBlocker(lists: lists, activeActions: Self.activeActions(id))
        let exact = testCase["compare"] as? String == "exact"
        for request in testCase["requests"] as? [[String: Any]] ?? [] {
            let urlText = request["url"] as? String ?? ""
            let context = "\(id) \(urlText)"
            let load = try #require(Harness.load(request), "\(context): bad request")
            let results = blocker.results(for: load, requestHeaders: Self.initialHeaders(id, url: urlText))
            if let expected = request["expectedActions"] as? [[String: Any]] {
                Harness.checkActions(results, expected: expected, exact: exact, context: context)
            }
            check(outcome: request["expectedOutcome"] as? [String: Any] ?? [:], results, context: context)
        }
    }

    func check(outcome: [String: Any], _ results: ContentRuleListResults, context: String) {
        if let blocked = outcome["blocked"] as? Bool { #expect(results.blockedLoad == blocked, "\(context): blocked") }
        if let https = outcome["promotedToHTTPS"] as? Bool { #expect(results.madeHTTPS == https, "\(context): https") }
        if let cookie = outcome["requestHasCookieHeader"] as? Bool {
            #expect(results.blockedCookies == !cookie, "\(context): cookies")
        }
        if let callback = outcome["notificationCallback"] as? [String: Any] {
            #expect(results.notifications == callback["notifications"] as? [String], "\(context): notifications")
        }
        if let performed = outcome["performedAction"] as? [String: Any] {
            let list = results.lists.first { $0.identifier == performed["ruleListIdentifier"] as? String }
            #expect(list?.blockedLoad == performed["blockedLoad"] as? Bool, "\(context): performed blockedLoad")
            #expect(list?.blockedCookies == performed["blockedCookies"] as? Bool, "\(context): performed cookies")
            #expect(list?.madeHTTPS == performed["madeHTTPS"] as? Bool, "\(context): performed https")
            #expect(list?.notifications == performed["notifications"] as? [String], "\(context): performed notes")
        }
        if let requested = outcome["requestedURL"] as? String {
            let expectedURL = requested.replacingOccurrences(of: "PORT", with: "8000")
            #expect(
                results.requestURL.serialization == Self.sourceOverrides[expectedURL, default: expectedURL],
                "\(context): requested URL")
        }
        if let modified = outcome["performedActionModifiedHeaders"] as? Bool {
            #expect(results.modifiedHeaders == modified, "\(context): modified headers")
        }
        if let headers = outcome["requestHeaders"] as? [String: Any] {
            let actual = results.requestHeaders ?? [("Accept", "*/*")]
            for (name, value) in headers {
                let found = actual.first { $0.0.lowercased() == name.lowercased() }?.1
                switch value {
                case let text as String where text == "(present)": #expect(found != nil, "\(context): \(name)")
                case let text as String where text.isEmpty: #expect(found == nil || found == "", "\(context): \(name)")
                case let text as String: #expect(found == text, "\(context): \(name)")
                default: #expect(found == nil, "\(context): \(name) should be absent")
                }
            }
        }
        for key in ["computedDisplay", "linkComputedDisplay"] {
            guard let display = outcome[key] as? String else { continue }
            let hidden = results.lists.contains { $0.globalStylesheet != nil || !$0.selectors.isEmpty }
            #expect(hidden == (display == "none"), "\(context): \(key)")
        }
    }
}
