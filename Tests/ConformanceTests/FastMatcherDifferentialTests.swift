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
/// Sizes are bounded for debug runs (ten times smaller in the fast tier; the crawl sweeps run in the
/// slow tier); `DIFFERENTIAL_REQUESTS` (generated requests per list),
/// `DIFFERENTIAL_BUDGET` and `DIFFERENTIAL_MAX_REQUESTS` (see ``requestCount(for:)``),
/// `DIFFERENTIAL_CORPUS_STRIDE` (every n-th crawl request; 1 = all) and `DIFFERENTIAL_SEED` scale
/// them up, e.g. in a release test run (`scripts/differential`).
@Suite struct FastMatcherDifferentialTests {
    static let seed = UInt64(Differential.environment("DIFFERENTIAL_SEED", 20_240_601))

    /// Lists of `../shared/corpus/rules` (the AdGuard advanced list does not compile; the ones
    /// bundled in `rules/` are covered by the bundled-list tests).
    static let sharedLists = Corpus.ruleListFiles().filter {
        !$0.hasSuffix("advanced-rules.json") && !Differential.bundledLists.contains($0)
    }

    /// Generated requests per list: `DIFFERENTIAL_REQUESTS` if set, else as many as keep the debug
    /// reference run to about `DIFFERENTIAL_BUDGET` (1,000,000) rule and condition-pattern
    /// evaluations, 10 to `DIFFERENTIAL_MAX_REQUESTS` (400): a large run raises both, so that each
    /// list gets requests in inverse proportion to what the reference matcher pays for one.
    static func requestCount(for list: ContentRuleList) -> Int {
        if let count = ProcessInfo.processInfo.environment["DIFFERENTIAL_REQUESTS"].flatMap({ Int($0) }) {
            return count
        }
        let budget = Differential.environment("DIFFERENTIAL_BUDGET", TestTier.includesSlow ? 1_000_000 : 100_000)
        let most = Differential.environment("DIFFERENTIAL_MAX_REQUESTS", TestTier.includesSlow ? 400 : 60)
        return max(10, min(most, budget / max(Differential.referenceCost(list), 1)))
    }

    /// Every n-th crawl request (`DIFFERENTIAL_CORPUS_STRIDE`, 1 = all 30,524), by default about
    /// ``requestCount(for:)`` / 2 of them (each gives two loads).
    static func corpusStride(for list: ContentRuleList) -> Int {
        Differential.environment("DIFFERENTIAL_CORPUS_STRIDE", max(1, 30_524 * 2 / requestCount(for: list)))
    }

    /// Compares both strategies on `loads`; records the first few differences.
    static func compare(_ list: ContentRuleList, _ loads: [ResourceLoadInfo], _ name: String) -> (Int, Int) {
        var mismatches = 0
        var fired = 0
        for load in loads {
            let fast = list.actions(for: load)
            let reference = list.referenceActions(for: load)
            if !reference.firedRules.isEmpty { fired += 1 }
            // The fast strategy reads the non-selector actions from its cached universal slots, the
            // reference one from every fired rule's slot.
            if fast != reference || fast.nonSelectorActions != reference.nonSelectorActions {
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
        let vocabulary = Differential.Vocabulary(Differential.compiled(list))
        var random = SeededGenerator(seed: seed)
        var loads: [ResourceLoadInfo] = []
        var attempts = 0
        while loads.count < count && attempts < count * 4 {
            attempts += 1
            if let load = Differential.load(vocabulary, &random) { loads.append(load) }
        }
        return loads
    }

    /// The bundled lists the fast tier checks with generated requests (the others compile for seconds
    /// in a debug build, or cost the reference matcher seconds a request: slow tier).
    static let fastTierLists = [
        "blockparty/blockerList.json", "brave-ios/block-ads.json", "brave-ios/block-cookies.json",
        "brave-ios/mixed-content-upgrade.json",
    ]

    @Test(arguments: TestTier.includesSlow ? Differential.bundledLists : fastTierLists)
    func bundledListGeneratedRequests(_ name: String) throws {
        let clock = ContinuousClock()
        let start = clock.now
        let list = try #require(try Differential.cachedList(name))
        let loaded = clock.now
        let count = Self.requestCount(for: list)
        let loads = Self.generatedLoads(for: list, count: count, seed: Self.seed)
        #expect(loads.count * 2 >= count, "\(name): too few valid generated URLs")
        let generated = clock.now
        let (mismatches, fired) = Self.compare(list, loads, name)
        #expect(mismatches == 0)
        print(
            "\(name): \(loads.count) generated requests, \(fired) with a rule firing, \(mismatches) differences "
                + "(load \(loaded - start), generate \(generated - loaded), compare \(clock.now - generated))")
    }

    @Test(
        .slowTier, .tags(.corpus), .enabled(if: TestData.shared != nil, "needs ../shared/corpus"),
        arguments: Differential.bundledLists)
    func bundledListCorpusRequests(_ name: String) throws {
        let list = try #require(try Differential.cachedList(name))
        let loads = try #require(try Differential.corpusLoads(stride: Self.corpusStride(for: list)))
        let (mismatches, fired) = Self.compare(list, loads, name)
        #expect(mismatches == 0)
        print("\(name): \(loads.count) crawl requests, \(fired) with a rule firing, \(mismatches) differences")
    }

    @Test(
        .slowTier, .tags(.corpus), .enabled(if: TestData.shared != nil, "needs ../shared/corpus"),
        arguments: sharedLists)
    func sharedCorpusList(_ file: String) throws {
        let list = try #require(try Differential.cachedList("shared:" + file))
        var loads = try #require(try Differential.corpusLoads(stride: Self.corpusStride(for: list)))
        let generated = Self.generatedLoads(for: list, count: Self.requestCount(for: list), seed: Self.seed &+ 1)
        loads += generated
        let (mismatches, fired) = Self.compare(list, loads, file)
        #expect(mismatches == 0)
        print(
            "\(file): \(loads.count) requests (\(generated.count) generated), \(fired) with a rule firing, "
                + "\(mismatches) differences")
    }

    /// Both engines through `ContentBlocker`, as the CLI uses them.
    @Test func contentBlockerEngines() throws {
        let list = try #require(try Differential.cachedList("easy2json/easyprivacy.json"))
        let fast = ContentBlocker(lists: [list])
        let reference = ContentBlocker(lists: [list], engine: .reference)
        #expect(fast.engine == .fast)
        for load in Self.generatedLoads(for: list, count: Self.requestCount(for: list), seed: Self.seed &+ 2) {
            let a = fast.results(for: load)
            let b = reference.results(for: load)
            #expect(a.lists.map(\.actions) == b.lists.map(\.actions))
            #expect(
                a.blockedLoad == b.blockedLoad && a.blockedCookies == b.blockedCookies && a.madeHTTPS == b.madeHTTPS)
        }
    }
}
