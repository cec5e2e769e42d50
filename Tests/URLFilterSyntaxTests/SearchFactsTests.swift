import Foundation
import TestSupport
import Testing

@testable import PCRE2Support
@testable import URLFilterSyntax

/// The search facts (`URLFilterSearchFacts`) come from the url-filter's terms; an independent reader of
/// the PCRE2 text (`PCRE2MandatoryLiterals`, `PCRE2ASCIISubject`, `PCRE2Regex.hasRepeatedGroup`, which
/// the matcher used before the facts were stored) must find the same facts in the text the translator
/// wrote, for every pattern of the bundled lists (every tenth in the fast tier) and of the corpus.
@Suite struct SearchFactsTests {
    @Test(arguments: CompactTranslationDifferentialTests.bundledFiles)
    func factsAreWhatTheTextSays(_ path: String) throws {
        try compare(path, stride: TestTier.includesSlow ? 1 : 10)
    }

    @Test(
        .slowTier, .tags(.corpus), .enabled(if: TestData.shared != nil, "needs ../shared/corpus"),
        arguments: CompactTranslationDifferentialTests.sharedFiles)
    func corpusFactsAreWhatTheTextSays(_ path: String) throws { try compare(path, stride: 1) }

    func compare(_ path: String, stride: Int) throws {
        var compared = 0
        for (index, (pattern, caseSensitive)) in try CompactTranslationDifferentialTests.patterns(in: path).enumerated()
        where index % stride == 0 {
            let result = URLFilter.parse(pattern, caseSensitive: caseSensitive)
            guard result.status == .ok, let text = result.pcre2Pattern else { continue }
            let facts = try #require(result.searchFacts, "\(pattern)")
            Self.expectSame(facts, text, "\(pattern)")
            compared += 1
        }
        #expect(compared > 0 || !path.hasSuffix("easylist.json"))
    }

    static func expectSame(_ facts: URLFilterSearchFacts, _ text: String, _ what: String) {
        let read = PCRE2MandatoryLiterals.analysis(of: Array(text.utf8), minimumLength: 2, limit: .max)
        #expect(facts.caseless == read.caseless, "\(what) → \(text)")
        #expect(facts.mandatoryRuns == read.runs, "\(what) → \(text)")
        #expect(facts.suffix == read.suffix, "\(what) → \(text)")
        #expect(
            facts.byteDemand.map { "\($0.byte):\($0.count)" } == read.byteDemand.map { "\($0.byte):\($0.count)" },
            "\(what) → \(text)")
        #expect(facts.repeatsAGroup == PCRE2Regex.hasRepeatedGroup(Array(text.utf8)), "\(what) → \(text)")
        #expect(
            facts.asciiSubjectPattern == PCRE2ASCIISubject.pattern(for: text, spelling: .urlFilter),
            "\(what) → \(text)")
    }

    /// Hand-picked url-filters, the expected facts worked out from the translation rules (spec §3.6 and
    /// `Translator.pcre2Pattern`), and the independent reading agreeing.
    @Test func handPicked() throws {
        func facts(_ filter: String, _ caseSensitive: Bool = false) throws -> URLFilterSearchFacts {
            let result = URLFilter.parse(filter, caseSensitive: caseSensitive)
            let text = try #require(result.pcre2Pattern)
            let facts = try #require(result.searchFacts)
            Self.expectSame(facts, text, filter)
            return facts
        }
        func strings(_ runs: [[UInt8]]) -> [String] { runs.map { String(decoding: $0, as: UTF8.self) } }
        // `.*` between literals: two runs, longest first; lower-cased when case-insensitive.
        let banner = try facts("ADS.*Banner")
        #expect(strings(banner.mandatoryRuns) == ["banner", "ads"])
        #expect(banner.caseless && banner.suffix.isEmpty && !banner.repeatsAGroup)
        #expect(banner.asciiSubjectPattern == #"(?s)(?i)\A(?>.*?ads).*?banner"#)
        // Case-sensitive: no `(?i)`, case kept.
        #expect(strings(try facts("ADS.*Banner", true).mandatoryRuns) == ["Banner", "ADS"])
        // `$`: the run before it is the suffix; the `.*` before more stays greedy at the end anchor.
        let gif = try facts("/pixel.*\\.gif$")
        #expect(String(decoding: gif.suffix, as: UTF8.self) == ".gif")
        // A one-byte run counts in the byte demand: `a` three times, `b` once.
        let demand = try facts("a.*a.*a.*b")
        #expect(demand.mandatoryRuns.isEmpty)
        #expect(demand.byteDemand.map { "\(UnicodeScalar($0.byte))\($0.count)" } == ["a3", "b1"])
        // `+` on a character: required once, ends the run; on a group inside the pattern: a repeated
        // group (at the start of an unanchored search it is needed once, `(ab)+c` searches `abc`).
        #expect(strings(try facts("xy+z").mandatoryRuns) == ["xy"])
        #expect(try facts("x(ab)+c").repeatsAGroup)
        #expect(!(try facts("(ab)+c").repeatsAGroup))
        #expect(!(try facts("x(ab)?c").repeatsAGroup))
        // No `.`: no ASCII-subject spelling.
        #expect(try facts("^https://example\\.com/").asciiSubjectPattern == nil)
    }
}
