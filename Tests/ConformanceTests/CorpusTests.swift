import ContentRuleCompiler
import ContentRuleFormat
import ContentRuleMatcher
import ContentRuleModel
import ContentRuleURL
import Foundation
import TestSupport
import Testing

/// Real lists from `../shared/corpus`: WebKit's verdict for each, and from-JSON vs from-binary
/// matching on every request of the tsurlfilter crawl. Skipped (with a message) without `../shared`.
@Suite(.tags(.corpus)) struct CorpusTests {
    static let files = Corpus.ruleListFiles()

    @Test func sharedCorpusPresence() {
        if TestData.shared == nil {
            print("note: ../shared is absent; corpus tests are skipped (they run on CI)")
        } else {
            #expect(Self.files.count == 25)
        }
    }

    /// WebKit (WebKitGTK oracle) compiles every corpus list except AdGuard's advanced-blocking list,
    /// which uses the non-WebKit action types `script` and `css` (PROVENANCE.md).
    @Test(.slowTier, .enabled(if: TestData.shared != nil, "needs ../shared/corpus"), arguments: files)
    func webKitVerdict(_ file: String) throws {
        let text = try #require(try Corpus.ruleListText(file))
        let result = RuleListCompiler.compile(json: Array(text.utf8))
        if file == "adguard-safariconverterlib/advanced-rules.json" {
            #expect(result.errors.first?.error == .jsonInvalidActionType)
            #expect(result.errors.first?.message == "Invalid action type.")
        } else {
            #expect(result.errors.isEmpty, "\(file): \(result.errors.prefix(3))")
            let compiled = try #require(result.list)
            let rules = try MappedRuleList(bytes: BinaryRuleList.encode(compiled))
            #expect(rules.ruleCount == compiled.rules.count, "\(file): rules after encoding")
            #expect(rules.sourceRuleCount == compiled.sourceRuleCount, "\(file): source rules after encoding")
            #expect(rules.actionSlotCount == compiled.actionSlots.count, "\(file): action slots after encoding")
            #expect(rules.globalStylesheet == compiled.globalStylesheet, "\(file): global stylesheet after encoding")
            let list = ContentRuleList(identifier: file, rules: rules)
            try list.compileAllPatterns()
            for (slot, action) in compiled.actionSlots.enumerated() where slot % 97 == 0 {
                #expect(rules.action(slot) == action, "\(file): action slot \(slot)")
            }
            for (number, rule) in compiled.rules.enumerated() where number % 89 == 0 {
                #expect(
                    rules.sourceIndex(ofRule: number) == rule.sourceIndex, "\(file): source index of rule \(number)")
            }
        }
    }

    /// The same list loaded from JSON (compiled in memory) and from a binary file written to disk gives
    /// identical results on all 30,524 real requests.
    @Test(
        .slowTier, .enabled(if: TestData.shared != nil, "needs ../shared/corpus"),
        arguments: [
            "blockparty/blockerList.json", "focus-ios/disconnect-social.json",
            "firefox-ios-fork-geocomply/disconnect-block-cryptomining.json", "brave-ios/mixed-content-upgrade.json",
        ])
    func jsonAndBinaryAgree(_ file: String) throws {
        let text = try #require(try Corpus.ruleListText(file))
        let compiled = try #require(RuleListCompiler.compile(json: Array(text.utf8)).list)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("corpus-\(UUID().uuidString).cbrl")
            .path
        try AtomicFile.write(BinaryRuleList.encode(compiled), to: path)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let fromJSON = ContentBlocker(lists: [try ContentRuleList(identifier: "list", compiled: compiled)])
        let fromBinary = ContentBlocker(lists: [try ContentRuleList(identifier: "list", contentsOfFile: path)])
        let requests = try #require(try Corpus.tsurlfilterRequests())
        #expect(requests.count == 30_524)
        var evaluated = 0
        var fired = 0
        for request in requests {
            let main = request.mainDocumentURL.isEmpty ? nil : WebURL(request.mainDocumentURL)
            guard let url = WebURL(request.url), main != nil || request.mainDocumentURL.isEmpty,
                let type = ResourceType(requestName: request.resourceType, loadContext: .topFrame)
            else {
                Issue.record(
                    Comment(rawValue: "\(file): request not understood: \(request.url) on \(request.mainDocumentURL)"))
                continue
            }
            let load = ResourceLoadInfo(url: url, mainDocumentURL: main, resourceType: type)
            let a = fromJSON.results(for: load)
            let b = fromBinary.results(for: load)
            evaluated += 1
            if !a.lists[0].actions.firedRules.isEmpty { fired += 1 }
            #expect(a.lists[0].actions == b.lists[0].actions, "\(file): \(request.url)")
            #expect(
                a.blockedLoad == b.blockedLoad && a.madeHTTPS == b.madeHTTPS && a.blockedCookies == b.blockedCookies)
        }
        #expect(evaluated == requests.count)
        print("\(file): \(evaluated) requests, \(fired) with a rule firing")
    }
}
