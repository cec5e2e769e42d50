import PCRE2Support
import Testing

/// `PCRE2MandatoryLiterals` on hand-checked patterns: the expected runs follow from PCRE2's syntax
/// (pcre2pattern(3)); `CompactTranslationDifferentialTests` checks the runs against real matches.
@Suite struct MandatoryLiteralTests {
    static func runs(_ pattern: String, minimumLength: Int = 1) -> (Bool, [String]) {
        let found = PCRE2MandatoryLiterals.runs(in: Array(pattern.utf8), minimumLength: minimumLength, limit: .max)
        return (found.caseless, found.runs.map { String(decoding: $0, as: UTF8.self) })
    }

    @Test(arguments: [
        // A translated EasyList url-filter: the host part and the suffix after `.*`, caseless.
        (
            #"(?i)\A[HPSTWhpstw]+://(?:[0-9A-Za-z-]+\.)?g\.doubleclick\.net/gampad/ads\?[\x{01}-\x{7f}]*SuperBanner_3"#,
            true, ["g.doubleclick.net/gampad/ads?", "superbanner_3", "://"]
        ),
        // Unquantified groups are required in place; the lazy step and the class are not literals.
        (#"(?>[\x{01}-\x{7f}]*?/ads/)[\x{01}-\x{7f}]*\.js"#, false, ["/ads/", ".js"]),
        (#"ab+c"#, false, ["ab", "c"]),
        (#"a(?:bc)?d"#, false, ["a", "d"]),
        (#"a{2}b"#, false, ["b"]),
        (#"\x{41}B\.\x43"#, false, ["AB.C"]),
        (#"(?i)AbC"#, true, ["abc"]),
        (#"a\dbc\Ade"#, false, ["bc", "de", "a"]),
        (#"\p{L}xyz\cAuv"#, false, ["xyz", "uv"]),
        (#"(?=abc)d"#, false, ["d"]),
        (#"[]a]bc[^]x]"#, false, ["bc"]),
        (#"(abc)*def"#, false, ["def"]),
        (#"a.b^c$d"#, false, ["a", "b", "c", "d"]),
    ])
    func runsOf(_ pattern: String, caseless: Bool, expected: [String]) {
        let (isCaseless, found) = Self.runs(pattern)
        #expect(isCaseless == caseless)
        #expect(found == expected, "\(pattern)")
    }

    /// Alternation, option settings inside, verbs, `\Q…\E` and back references by name give nothing.
    @Test(arguments: [
        #"abc|def"#, #"ab(?:c|d)ef"#, #"(?-i)abc"#, #"ab(?i:c)"#, #"(*UTF)abc"#, #"\Qabc\E"#, #"(a)\k<x>bc"#,
    ])
    func nothingWhenUnsure(_ pattern: String) {
        #expect(Self.runs(pattern).1.isEmpty, "\(pattern)")
    }

    /// The run just before a required `\z` is the subject's suffix; a quantified last character, a
    /// group edge, a class or alternation leaves none.
    @Test(arguments: [
        (#"(?i)\A(?>[\x{01}-\x{7f}]*?/ads\?)[\x{01}-\x{7f}]*=\z"#, "="),
        (#"(?>[\x{01}-\x{7f}]*?/)[\x{01}-\x{7f}]*\.JSON\z"#, ".JSON"),
        (#"(?i)\A[\x{01}-\x{7f}]*\.JSON\z"#, ".json"),
        (#"a(?:bc\z)"#, "bc"),
        (#"ab\x{41}\z"#, "abA"),
        (#"ab+\z"#, ""), (#"ab*\z"#, ""), (#"ab{2}\z"#, ""), (#"a(?:bc)?\z"#, ""), (#"a(?:bc)\z"#, ""),
        (#"a[bc]\z"#, ""), (#"abc|d\z"#, ""), (#"abc\Z"#, ""), (#"abc"#, ""), (#"(?=abc\z)"#, ""),
    ])
    func suffixOf(_ pattern: String, expected: String) {
        let found = PCRE2MandatoryLiterals.analysis(of: Array(pattern.utf8))
        #expect(String(decoding: found.suffix, as: UTF8.self) == expected, "\(pattern)")
    }

    /// The bytes of runs shorter than the minimum, counted over every run: `.*a.*a.*a.*b` needs three
    /// `a` and a `b`; a quantified byte or a class adds nothing; no runs, no demand.
    @Test(arguments: [
        (#"(?i)\A(?>[\x{01}-\x{7f}]*?a)(?>[\x{01}-\x{7f}]*?A)(?>[\x{01}-\x{7f}]*?a)[\x{01}-\x{7f}]*b"#, "a3 b1"),
        (#"x.ab.x"#, "x2"), (#"ab.cd"#, ""), (#"a*.b+.[c]"#, "b1"), (#"a.ba"#, "a2"), (#"a|b"#, ""),
        (#"(?=a)b.c"#, "b1 c1"),
    ])
    func byteDemandOf(_ pattern: String, expected: String) {
        let found = PCRE2MandatoryLiterals.analysis(of: Array(pattern.utf8), minimumLength: 2, limit: .max)
        let text = found.byteDemand.map { "\(UnicodeScalar($0.byte))\($0.count)" }.joined(separator: " ")
        #expect(text == expected, "\(pattern)")
    }

    @Test func longestFirstAndLimited() {
        let found = PCRE2MandatoryLiterals.runs(in: Array("ab.cdef.ghi".utf8))
        #expect(found.runs.map { String(decoding: $0, as: UTF8.self) } == ["cdef", "ghi"])
    }
}
