import ContentRuleFormat
import ContentRuleMatcher
import ContentRuleModel
import ContentRuleURL
import Foundation
import TestSupport
import Testing

/// The fast strategy (`actions(for:)`) against the reference strategy (`referenceActions(for:)`):
/// identical actions, ignore-previous flag, global stylesheet and fired rules on real lists with
/// real and generated requests.
///
/// Sizes are bounded for debug runs; `DIFFERENTIAL_REQUESTS` (generated requests per list),
/// `DIFFERENTIAL_CORPUS_STRIDE` (every n-th crawl request; 1 = all) and `DIFFERENTIAL_SEED` scale
/// them up, e.g. in a release test run.
@Suite struct FastMatcherDifferentialTests {
    static let generatedPerList = Differential.environment("DIFFERENTIAL_REQUESTS", 300)
    static let seed = UInt64(Differential.environment("DIFFERENTIAL_SEED", 20_240_601))

    static let sharedLists = Corpus.ruleListFiles().filter { !$0.hasSuffix("advanced-rules.json") }

    /// Compares both strategies on `loads`; records the first few differences.
    static func compare(_ list: ContentRuleList, _ loads: [ResourceLoadInfo], _ name: String) -> (Int, Int) {
        var mismatches = 0
        var fired = 0
        for load in loads {
            let fast = list.actions(for: load)
            let reference = list.referenceActions(for: load)
            if !reference.firedRules.isEmpty { fired += 1 }
            if fast != reference {
                mismatches += 1
                if mismatches <= 5 {
                    Issue.record(
                        Comment(
                            rawValue:
                                "\(name): \(load.url.serialization) top \(load.mainDocumentURL?.serialization ?? "-") "
                                + "fast fired \(fast.firedRules) reference fired \(reference.firedRules)"))
                }
            }
        }
        return (mismatches, fired)
    }

    static func generatedLoads(for list: ContentRuleList, count: Int, seed: UInt64) -> [ResourceLoadInfo] {
        let vocabulary = Differential.Vocabulary(list.compiled)
        var random = SeededGenerator(seed: seed)
        var loads: [ResourceLoadInfo] = []
        var attempts = 0
        while loads.count < count && attempts < count * 4 {
            attempts += 1
            if let load = Differential.load(vocabulary, &random) { loads.append(load) }
        }
        return loads
    }

    @Test(arguments: Differential.bundledLists)
    func bundledListGeneratedRequests(_ name: String) throws {
        let list = try #require(try Differential.list(try Differential.bundledText(name), identifier: name))
        let loads = Self.generatedLoads(for: list, count: Self.generatedPerList, seed: Self.seed)
        #expect(loads.count * 2 >= Self.generatedPerList, "\(name): too few valid generated URLs")
        let (mismatches, fired) = Self.compare(list, loads, name)
        #expect(mismatches == 0)
        print("\(name): \(loads.count) generated requests, \(fired) with a rule firing, \(mismatches) differences")
    }

    @Test(.enabled(if: TestData.shared != nil, "needs ../shared/corpus"), arguments: Differential.bundledLists)
    func bundledListCorpusRequests(_ name: String) throws {
        let list = try #require(try Differential.list(try Differential.bundledText(name), identifier: name))
        // Debug builds run the reference strategy slowly on the big lists: sample the crawl.
        let stride = Differential.environment("DIFFERENTIAL_CORPUS_STRIDE", list.compiled.rules.count > 5_000 ? 60 : 6)
        let loads = try #require(try Differential.corpusLoads(stride: stride))
        let (mismatches, fired) = Self.compare(list, loads, name)
        #expect(mismatches == 0)
        print("\(name): \(loads.count) crawl requests, \(fired) with a rule firing, \(mismatches) differences")
    }

    @Test(.enabled(if: TestData.shared != nil, "needs ../shared/corpus"), arguments: sharedLists)
    func sharedCorpusList(_ file: String) throws {
        let text = try #require(try Corpus.ruleListText(file))
        let list = try #require(try Differential.list(text, identifier: file))
        let big = list.compiled.rules.count > 5_000
        let stride = Differential.environment("DIFFERENTIAL_CORPUS_STRIDE", big ? 120 : 15)
        var loads = try #require(try Differential.corpusLoads(stride: stride))
        loads += Self.generatedLoads(
            for: list, count: big ? Self.generatedPerList / 3 : Self.generatedPerList, seed: Self.seed &+ 1)
        let (mismatches, fired) = Self.compare(list, loads, file)
        #expect(mismatches == 0)
        print("\(file): \(loads.count) requests, \(fired) with a rule firing, \(mismatches) differences")
    }

    /// Both engines through `ContentBlocker`, as the CLI uses them.
    @Test func contentBlockerEngines() throws {
        let list = try #require(
            try Differential.list(try Differential.bundledText("easy2json/easyprivacy.json"), identifier: "p"))
        let fast = ContentBlocker(lists: [list])
        let reference = ContentBlocker(lists: [list], engine: .reference)
        #expect(fast.engine == .fast)
        for load in Self.generatedLoads(for: list, count: 100, seed: Self.seed &+ 2) {
            let a = fast.results(for: load)
            let b = reference.results(for: load)
            #expect(a.lists.map(\.actions) == b.lists.map(\.actions))
            #expect(a.blockedLoad == b.blockedLoad && a.blockedCookies == b.blockedCookies && a.madeHTTPS == b.madeHTTPS)
        }
    }
}
