import ContentRuleCompiler
import ContentRuleMatcher
import ContentRuleModel
import Foundation
import TestSupport
import Testing

/// `conformance/field`: problems real users reported, answered by real WebKit (WebKitGTK oracle or
/// source reading). Every unit (the entry and each non-control variant) compiles or fails with
/// WebKit's message, and every request gives the expected blocked / blockedCookies / madeHTTPS,
/// load type and hidden selectors. Requests are loads a page makes (``PageLoad``: WebKit's loader
/// drops fragments and checks pings, CSP reports and popups twice).
@Suite struct FieldConformanceTests {
    static let files: [String] = {
        let folder = TestData.conformance.appendingPathComponent("field")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasPrefix("B") && $0.hasSuffix(".json") }.sorted()
    }()

    /// Cases with generated lists (`rulesGenerated`: up to 150,001 rules) run in the slow tier.
    static let generatedListFiles = files.filter { file in
        let text = try? String(
            contentsOf: TestData.conformance.appendingPathComponent("field/\(file)"), encoding: .utf8)
        return text?.contains("\"rulesGenerated\"") ?? false
    }
    static let smallListFiles = files.filter { !generatedListFiles.contains($0) }

    /// Field values (from source reading, not the oracle) that WebKit's source contradicts, with the
    /// source's value. B041 marks an `about:blank` frame under `https://www.example.com/` first-party,
    /// but `ResourceLoadInfo::isThirdParty` is `!RegistrableDomain(mainDocumentURL).matches(resourceURL)`
    /// and an empty host never matches a registrable domain (spec §4.3, §7 item 36).
    static let sourceOverrides: [String: String] = ["B041.json main about:blank loadType": "third-party"]

    @Test func dataIsPresent() { #expect(Self.files.count == 32) }

    @Test(arguments: smallListFiles)
    func fieldCase(_ file: String) throws { try run(file) }

    @Test(.slowTier, arguments: generatedListFiles)
    func generatedListFieldCase(_ file: String) throws { try run(file) }

    func run(_ file: String) throws {
        let entry = try #require(
            try TestData.json(TestData.conformance.appendingPathComponent("field/\(file)")) as? [String: Any])
        var units: [[String: Any]] = [entry]
        units += (entry["variants"] as? [[String: Any]] ?? []).filter { $0["control"] as? Bool != true }
        for unit in units {
            let name = "\(file) \(unit["name"] as? String ?? "main")"
            var lists: [ContentRuleList] = []
            var failedMessage: String?
            for (identifier, text) in try Harness.ruleListTexts(unit, defaultIdentifier: "list") {
                switch Harness.compile(text, identifier: identifier) {
                case .success(let list): lists.append(list)
                case .failure(let failure): failedMessage = failure.result.errors.first?.message
                }
            }
            #expect(failedMessage == unit["expectCompileError"] as? String, "\(name): compile verdict")
            if failedMessage != nil { lists = [] }  // a rejected list installs nothing
            let blocker = ContentBlocker(lists: lists)
            for request in unit["requests"] as? [[String: Any]] ?? [] {
                try check(request, blocker: blocker, context: "\(name) \(request["url"] ?? "")")
            }
        }
    }

    func check(_ request: [String: Any], blocker: ContentBlocker, context: String) throws {
        let load = try #require(Harness.pageLoad(request), "\(context): bad request")
        if let loadType = request["loadType"] as? String {
            let expected = Self.sourceOverrides["\(context) loadType"] ?? loadType
            #expect(load.firstCheck.loadType.rawValue == expected, "\(context): load type")
        }
        try checkOutcome(request, load: load, blocker: blocker, context: context)
    }

    func checkOutcome(_ request: [String: Any], load: PageLoad, blocker: ContentBlocker, context: String) throws {
        let results = blocker.results(for: load)
        let expected = (request["contentBlockerExpected"] ?? request["expected"]) as? [String: Any] ?? [:]
        if let blocked = expected["blocked"] as? Bool { #expect(results.blockedLoad == blocked, "\(context): blocked") }
        if let cookies = expected["blockedCookies"] as? Bool {
            #expect(results.blockedCookies == cookies, "\(context): blockedCookies")
        }
        if let https = expected["madeHTTPS"] as? Bool { #expect(results.madeHTTPS == https, "\(context): madeHTTPS") }
        if let hidden = expected["hiddenSelectors"] as? [String], let probed = request["selectors"] as? [String] {
            let applied = Harness.appliedSelectors(load: load, results: results, blocker: blocker)
            let page = SimplePage(html: request["html"] as? String)
            let actuallyHidden = probed.filter { page.isHidden($0, by: applied) }
            #expect(Set(actuallyHidden) == Set(hidden), "\(context): hidden selectors")
        }
    }
}
