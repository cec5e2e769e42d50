import PCRE2Support
import Testing

@testable import URLFilterSyntax

/// The linear-search spelling of `.*` runs (`Translator.pcre2Pattern`): `X.*S.*Y` searches only the
/// first `X` and the first `S` of each run of code points 1–127, so a URL repeating `X` without `Y`
/// costs one pass instead of one pass per `X`. The language must stay what the plain translation
/// (spec §3.6, `LegacyTranslation` here) says.
@Suite struct LinearSearchTests {
    /// The spelling follows the documented shape: a fixed-length run between two `.*` becomes an atomic
    /// lazy group; an unanchored pattern's leading fixed-length run is found as the first of its run
    /// of ASCII bytes; variable-length runs and anchored starts are left as they were.
    @Test func spelling() {
        let any = #"[\x{01}-\x{7f}]"#
        let runStart = #"\A(?:[\x{01}-\x{7f}]*+[^\x{01}-\x{7f}])*?"#
        let cases: [(String, String)] = [
            (#"/ad.*\.gif"#, runStart + "(?>" + any + #"*?/ad)"# + any + #"*\.gif"#),
            (
                #"^https?://.*/.*sw[.0-9_]"#,
                #"\Ahttps?://(?>"# + any + "*?/)" + any + "*sw[.0-9_]"
            ),
            ("a.*b.*c", runStart + "(?>" + any + "*?a)(?>" + any + "*?b)" + any + "*c"),
            // A trailing `.*` is dropped before translation (spec §3.4): nothing to rewrite.
            ("ad.*", "ad"),
            // A leading `a+` is needed once (`searchCore`), then spelled as a leading run.
            ("a+.*b", runStart + "(?>" + any + "*?a)" + any + "*b"),
            // A quantified run is not fixed-length: left as it is.
            ("xa+.*b", "xa+" + any + "*b"),
            ("^x.*b+.*c", #"\Ax"# + any + "*b+" + any + "*c"),
        ]
        for (filter, expected) in cases {
            #expect(URLFilter.parse(filter, caseSensitive: true).pcre2Pattern == expected, "\(filter)")
        }
    }

    /// Only whether a URL matches counts, so the ends of a search keep what decides it (`searchCore`):
    /// optional terms at the start of an unanchored search and at the end are dropped, a repeated term
    /// there is needed once. Each expected text follows from those two rules; the hostile shapes of
    /// `WorstCaseTests` become plain searches. Their answers are checked against the regular language
    /// there, and every list's url-filters against the plain translation in
    /// `CompactTranslationDifferentialTests`.
    @Test func searchKeepsWhatDecidesTheMatch() {
        let cases: [(String, String)] = [
            ("(.*a)*b", "b"), ("(aa?)*b", "b"), ("(a+)+b", "ab"), ("((a*)*)*b", "b"), ("ab*", "a"),
            ("ab+", "ab"), ("^ab*", #"\Aa"#), ("ab*$", #"ab*\z"#), ("^ab?", #"\Aa"#), ("x(a+)+b", "x(?:a+)+b"),
        ]
        for (filter, expected) in cases {
            #expect(URLFilter.parse(filter, caseSensitive: true).pcre2Pattern == expected, "\(filter)")
        }
    }

    /// Hand-made subjects where taking the first `X` would be wrong if the search ignored runs: a
    /// byte outside 1–127 (NUL, 0x80–0xFF) between the first `X` and the rest, `Y` only before `X`,
    /// the only full match in a later run. Expected: the plain translation, and the stated answers.
    @Test func sameAnswersAsThePlainTranslation() throws {
        let scratch = PCRE2Scratch()
        let cases: [(filter: String, subject: [UInt8], matches: Bool)] = [
            ("/ad.*gif", Array("https://a.test/ad/x.gif".utf8), true),
            ("/ad.*gif", Array("https://a.test/gif/ad".utf8), false),
            ("/ad.*gif", Array("https://a.test/ad/".utf8) + [0xC3, 0xA9] + Array("/ad/b.gif".utf8), true),
            ("/ad.*gif", Array("https://a.test/ad/".utf8) + [0x00] + Array("x.gif".utf8), false),
            ("/ad.*gif", Array("https://a.test/ad/".utf8) + [0x00] + Array("/ad.gif".utf8), true),
            ("a.*b.*c", Array("xaxbx".utf8) + [0xFF] + Array("c abc".utf8), true),
            ("a.*b.*c", Array("xaxbx".utf8) + [0xFF] + Array("c".utf8), false),
            ("a.*b.*c", Array("ba cb".utf8), false),
            ("a.*b.*c", Array("a b a c b c".utf8), true),
            ("^https?://.*/.*sw[.0-9_]", Array("https://x.test/a/b/sw1".utf8), true),
            ("^https?://.*/.*sw[.0-9_]", Array("https://x.test/a".utf8) + [0x80] + Array("/sw1".utf8), false),
            ("^https?://.*/.*sw[.0-9_]", Array("https://x.test/sw/".utf8), false),
            ("x.*y$", Array("x y x".utf8), false),
            ("x.*y$", Array("x y x y".utf8), true),
        ]
        for (filter, subject, expected) in cases {
            for caseSensitive in [true, false] {
                let result = URLFilter.parse(filter, caseSensitive: caseSensitive)
                let pattern = try #require(result.pcre2Pattern)
                let tree = try #require(result.terms)
                let plain = try PCRE2Regex(
                    LegacyTranslation.pcre2Pattern(tree, caseSensitive: caseSensitive), options: [])
                let linear = try PCRE2Regex(pattern, options: [])
                let isMatch = subject.withUnsafeBufferPointer { linear.matches($0, scratch: scratch) }
                let wasMatch = subject.withUnsafeBufferPointer { plain.matches($0, scratch: scratch) }
                #expect(wasMatch == expected, "\(filter) (plain) on \(subject)")
                #expect(isMatch == expected, "\(pattern) on \(subject)")
            }
        }
    }

    /// The EasyList rule that made a 1 MiB URL take minutes (`^https?://.*/.*sw[.0-9_]`, a URL of
    /// `/ad` repeated), and an unanchored `X.*Y`: answered with and without the final piece, and without
    /// hitting the (small) match limit — the backtracking search itself stays linear.
    @Test func repeatedSeparatorsAreAnswered() throws {
        let scratch = PCRE2Scratch()
        let body = Array("https://site.test/f".utf8) + Array(repeating: Array("/ad".utf8), count: 100_000).joined()
        for (filter, tail) in [("^https?://.*/.*sw[.0-9_]", "sw1"), (#"/ad.*\.gif"#, "x.gif")] {
            let pattern = try #require(URLFilter.parse(filter, caseSensitive: false).pcre2Pattern)
            let regex = try PCRE2Regex(pattern, options: [])
            for (subject, expected) in [(body, false), (body + Array(tail.utf8), true)] {
                let outcome = subject.withUnsafeBufferPointer { regex.matchesReportingLimit($0, scratch: scratch) }
                #expect(outcome == (expected ? .match : .noMatch), "\(filter)")
                #expect(!scratch.lastMatchHitLimit, "\(filter)")
            }
        }
    }
}
