import ContentRuleModel
import ContentRuleURL
import TestSupport
import Testing

@testable import ContentRuleMatcher

/// The fast matcher computes a top URL's conditions once (`TopURLConditions`) and, from them, the
/// universal rules that fire for each flag combination (`TopURLEntry`), both cached: the same rules
/// fire as with the reference matcher whichever flag combination a top URL is first seen with, and on
/// every later load that reuses the cached conditions or entries.
@Suite struct TopURLCacheTests {
    /// Universal rules (url-filter `.*`) whose firing depends on the top URL and the flags, plus one
    /// literal rule reached through its `if-domain` entry.
    static let json = """
        [
        {"trigger":{"url-filter":".*","if-domain":["example.com"],"resource-type":["image"]},
         "action":{"type":"block"}},
        {"trigger":{"url-filter":".*","unless-domain":["*example.com"],"resource-type":["script"]},
         "action":{"type":"css-display-none","selector":".u1"}},
        {"trigger":{"url-filter":".*","if-domain":["*example.com"],"load-type":["third-party"]},
         "action":{"type":"block-cookies"}},
        {"trigger":{"url-filter":".*","resource-type":["font"]},"action":{"type":"css-display-none","selector":".u3"}},
        {"trigger":{"url-filter":".*","unless-domain":["other.test"],"resource-type":["image","font"]},
         "action":{"type":"ignore-previous-rules"}},
        {"trigger":{"url-filter":".*","if-domain":["sub.example.com"]},"action":{"type":"css-display-none","selector":".u5"}},
        {"trigger":{"url-filter":"track","if-domain":["example.com"]},"action":{"type":"block"}}
        ]
        """

    static let tops = [
        "https://example.com/", "https://sub.example.com/page", "https://other.test/", "https://example.com/x",
        "https://unrelated.test/",
    ]
    static let urls = ["https://example.com/track.gif", "https://cdn.test/a.js", "https://sub.example.com/track"]
    static let types: [ResourceType] = [.image, .script, .font, .fetch, .image]

    @Test func sameRulesFireAsWithTheReferenceMatcherInEveryOrder() throws {
        var fired = Set<UInt32>()
        var firedEverywhere: Set<UInt32>?
        // Each order of the flag combinations starts from a fresh list (empty caches), so the top URL's
        // conditions are first computed with a different flag combination each time.
        for rotation in Self.types.indices {
            let list = try #require(TestLists.compile(Self.json).list)
            let types = Array(Self.types[rotation...] + Self.types[..<rotation])
            for _ in 0..<2 {
                for top in Self.tops {
                    for type in types {
                        for url in Self.urls {
                            let load = ResourceLoadInfo(
                                url: try #require(WebURL(url)), mainDocumentURL: WebURL(top), resourceType: type)
                            let fast = list.actions(for: load)
                            let reference = list.referenceActions(for: load)
                            #expect(fast == reference, "\(url) top \(top) type \(type.rawValue)")
                            #expect(fast.nonSelectorActions == reference.nonSelectorActions)
                            fired.formUnion(reference.firedRules)
                            let now = Set(reference.firedRules)
                            firedEverywhere = firedEverywhere?.intersection(now) ?? now
                        }
                    }
                }
            }
        }
        // Every rule fires on some load and none on all: the answers depend on top URL and flags.
        #expect(fired == Set(0..<UInt32(7)))
        #expect(firedEverywhere?.isEmpty == true)
    }
}

/// The sorted-array operations the cached entries are built with, against `Set` on seeded random
/// arrays: both ways of `union` (runs copied between a short array's values, or a merge) and
/// `subtracting`, with values present and absent, at the ends and repeated across calls.
@Suite struct SortedRulesTests {
    @Test func unionAndSubtractingAgreeWithSets() {
        var random = SeededGenerator(seed: 20_261_201)
        for _ in 0..<400 {
            let a = Set(
                (0..<Int.random(in: 0...300, using: &random)).map { _ in UInt32.random(in: 0...500, using: &random) }
            )
            .sorted()
            let b = Set(
                (0..<Int.random(in: 0...40, using: &random)).map { _ in UInt32.random(in: 0...500, using: &random) }
            )
            .sorted()
            #expect(SortedRules.union(a, b) == Set(a).union(b).sorted())
            #expect(SortedRules.union(b, a) == Set(a).union(b).sorted())
            #expect(SortedRules.subtracting(a, b) == Set(a).subtracting(b).sorted())
            #expect(SortedRules.subtracting(b, a) == Set(b).subtracting(a).sorted())
        }
    }
}
