import PCRE2Support
import Testing
import URLFilterSyntax

/// Spec §7 items 16–26 and §3.6 (pattern, case sensitivity, URL → matches?).
struct MatchRow: Sendable, CustomStringConvertible {
    var pattern: String
    var caseSensitive: Bool
    var url: String
    var matches: Bool
    var description: String { "\(pattern) ~ \(url)" }
}

let specMatchRows: [MatchRow] = [
    // 16: unanchored substring search.
    MatchRow(
        pattern: "ads", caseSensitive: false, url: "https://example.com/uploads/x.png", matches: true),
    // 17
    MatchRow(pattern: "^foobar", caseSensitive: false, url: "foobar://webkit.org/", matches: true),
    MatchRow(pattern: "^foobar", caseSensitive: false, url: "http://foobar.org/", matches: false),
    // 18
    MatchRow(
        pattern: "foobar$", caseSensitive: false, url: "http://webkit.org/foobar", matches: true),
    MatchRow(
        pattern: "foobar$", caseSensitive: false, url: "http://webkit.org/foobarfoo", matches: false),
    MatchRow(
        pattern: "foobar$", caseSensitive: false, url: "http://webkit.org/foobar#frag", matches: false),
    // 19: `.` never consumes the end of input.
    MatchRow(
        pattern: #"https://webkit\.org/."#, caseSensitive: false, url: "https://webkit.org/",
        matches: false),
    MatchRow(
        pattern: #"https://webkit\.org/."#, caseSensitive: false, url: "https://webkit.org/A",
        matches: true),
    // §3.6: inverted classes never consume the end of input.
    MatchRow(pattern: "[^y]$", caseSensitive: false, url: "http://webkit.org/", matches: true),
    MatchRow(pattern: "[^y]$", caseSensitive: false, url: "http://webkit.org/y", matches: false),
    // 20
    MatchRow(
        pattern: "foob?a?r?", caseSensitive: false, url: "https://webkit.org/fooc", matches: true),
    // 21: matches everything, even `^$`.
    MatchRow(pattern: "a?", caseSensitive: false, url: "https://webkit.org/", matches: true),
    MatchRow(pattern: "^$", caseSensitive: false, url: "https://webkit.org/", matches: true),
    // 22
    MatchRow(pattern: "a{0,1}b", caseSensitive: false, url: "https://x.test/b", matches: true),
    // 23: `\1` is U+0001, which no URL contains.
    MatchRow(pattern: #"(a)\1"#, caseSensitive: false, url: "https://x.test/aa", matches: false),
    // 25: `\0` behaves like `$`.
    MatchRow(pattern: #"a\0"#, caseSensitive: false, url: "https://x.test/a", matches: true),
    MatchRow(pattern: #"a\0"#, caseSensitive: false, url: "https://x.test/ab", matches: false),
    // 26: case folding of ranges.
    MatchRow(
        pattern: "[A-H][a-z]cko", caseSensitive: true, url: "http://webkit.org/Gecko", matches: true),
    MatchRow(
        pattern: "[A-H][a-z]cko", caseSensitive: true, url: "http://webkit.org/gecko", matches: false),
    MatchRow(
        pattern: "[A-H][a-z]cko", caseSensitive: false, url: "http://webkit.org/Gecko", matches: true),
    MatchRow(
        pattern: "[A-H][a-z]cko", caseSensitive: false, url: "http://webkit.org/gecko", matches: true),
    // §3.2: `[A-z]` also contains `[\]^_\``; case-insensitive folding happens before inversion.
    MatchRow(pattern: "x[A-z]y", caseSensitive: false, url: "http://t.test/x_y", matches: true),
    MatchRow(pattern: "x[A-Z]y", caseSensitive: true, url: "http://t.test/xay", matches: false),
    MatchRow(pattern: "x[A-Z]y", caseSensitive: false, url: "http://t.test/xay", matches: true),
    MatchRow(pattern: "x[^a]y", caseSensitive: false, url: "http://t.test/xAy", matches: false),
    MatchRow(pattern: "x[^a]y", caseSensitive: true, url: "http://t.test/xAy", matches: true),
    // Default is case-insensitive for literals.
    MatchRow(pattern: "WEBKIT", caseSensitive: false, url: "http://webkit.org/", matches: true),
    MatchRow(pattern: "WEBKIT", caseSensitive: true, url: "http://webkit.org/", matches: false),
    // §7 31: anchored pattern does not match inside the fragment.
    MatchRow(
        pattern: "^http://web.*kit.org", caseSensitive: false,
        url: "http://example.com/#http://webkit.org/test.html",
        matches: false),
    // Octal and hex escapes are characters: `\x41` = A, `\101` = A.
    MatchRow(pattern: #"/\x41B"#, caseSensitive: true, url: "http://t.test/AB", matches: true),
    MatchRow(pattern: #"/\101B"#, caseSensitive: true, url: "http://t.test/AB", matches: true),
    // `\8` is a literal 8; Annex B literal braces.
    MatchRow(pattern: #"v\8"#, caseSensitive: false, url: "http://t.test/v8", matches: true),
    MatchRow(pattern: "a{0,1", caseSensitive: false, url: "http://t.test/a{0,1", matches: true),
]

/// Spec §3.3 / §3.5 / §7 status examples (pattern → status).
let specStatusRows: [(String, URLFilterParseStatus)] = [
    ("a{0,1}b", .ok), ("a{0,2}b", .invalidQuantifier), ("a{2}", .invalidQuantifier),
    ("a{1}", .invalidQuantifier),
    ("a{1,1}", .invalidQuantifier), ("a{0,}b", .ok), ("a{1,}b", .ok),
    (#"(a)\1"#, .ok), (#"(?<A>a)\k<A>"#, .backReference), (#"\k<A>(?<A>a)"#, .yarrError),
    ("this|that", .disjunction), ("(a|b)", .disjunction), (#"\d"#, .unsupportedCharacterClass),
    (#"[\d]"#, .atomCharacter), (#"[a\w]"#, .atomCharacter), (#"\b"#, .wordBoundary),
    (#"\B"#, .wordBoundary),
    ("(?=a)", .group), ("(?!a)", .group), ("(?<=a)", .group), ("(?<!a)", .group), ("(?i:a)", .group),
    ("a^", .misplacedStartOfLine), ("(^)", .misplacedStartOfLine), ("a$^", .misplacedStartOfLine),
    ("^^a", .ok),
    ("$$", .misplacedEndOfLine), ("a$b", .misplacedEndOfLine), ("(a$)", .misplacedEndOfLine),
    ("(a$)?", .misplacedEndOfLine), (#"a\0b"#, .misplacedEndOfLine), (#"a\0"#, .ok),
    ("é", .nonASCII), (#"\xff"#, .nonASCII), (#"\u00e9"#, .nonASCII), (#"\x"#, .ok), (#"\u"#, .ok),
    ("[z-a]", .yarrError), ("[a}", .yarrError), ("+", .yarrError), ("*a", .yarrError),
    ("^*", .yarrError),
    ("$?", .yarrError), ("a++", .yarrError), ("a**", .yarrError), (#"a\"#, .yarrError),
    ("(a", .yarrError),
    ("a)", .yarrError), ("(?<=a)*", .yarrError), ("{1}", .yarrError), ("a{2,1}", .yarrError),
    ("this|that(", .yarrError), (#"\d("#, .yarrError), ("(?<A>a)(?<A>b)", .yarrError),
    ("(?x)", .yarrError),
    ("{", .ok), ("a]", .ok), ("a{a,b}", .ok), (".*?a", .ok), ("a+?", .ok), ("()", .matchesEverything),
    (".+", .ok), ("^", .matchesEverything), ("$", .matchesEverything), ("^$", .matchesEverything),
    (".*$", .matchesEverything), ("^a?", .matchesEverything), ("", .emptyPattern),
    (#"[\b]"#, .ok), (#"\cJ"#, .ok), (#"\c1"#, .ok), (#"[\c1]"#, .ok), (#"\p{L}"#, .ok),
]

@Suite struct URLFilterSpecTests {
    @Test(arguments: specMatchRows)
    func matching(_ row: MatchRow) throws {
        #expect(
            try webKitMatches(row.pattern, caseSensitive: row.caseSensitive, row.url) == row.matches)
    }

    @Test(arguments: specStatusRows.map { ($0.0, $0.1) })
    func status(_ pattern: String, _ expected: URLFilterParseStatus) {
        #expect(URLFilter.parse(pattern, caseSensitive: false).status == expected)
    }

    @Test func messages() {
        #expect(URLFilterParseStatus.disjunction.message == "Disjunctions are not supported yet.")
        #expect(URLFilterParseStatus.yarrError.message == "Internal error in YARR.")
        #expect(URLFilterParseStatus.allCases.filter(\.isAccepted) == [.ok, .matchesEverything])
    }

    @Test func domainPatterns() throws {
        let wildcard = URLFilter.domainPattern(for: "*example.com")
        #expect(wildcard == #"[a-z][a-z+.-]*:\/\/([^/]*\.)*example\.com[:/]"#)
        #expect(URLFilter.domainPattern(for: "example.com") == #"[a-z][a-z+.-]*:\/\/example\.com[:/]"#)
        let exact = URLFilter.domainPattern(for: "example.com")
        for (url, expected) in [
            ("http://example.com/", true), ("https://example.com:8080/x", true),
            ("http://www.example.com/", false),
            ("http://example.com.evil.net/", false), ("http://notexample.com/", false),
            ("https://evil.test/?u=https://example.com/", true),
        ] {
            #expect(try webKitMatches(exact, caseSensitive: false, url) == expected, "\(url)")
        }
        for (url, expected) in [
            ("http://example.com/", true), ("http://www.example.com/", true),
            ("http://a.b.example.com/", true),
            ("http://notexample.com/", false), ("https://user@example.com/", false),
        ] {
            #expect(try webKitMatches(wildcard, caseSensitive: false, url) == expected, "\(url)")
        }
        let webkit = URLFilter.domainPattern(for: "*webkit.org")
        #expect(
            try !webKitMatches(webkit, caseSensitive: false, "http://example.com/.webkit.org/in/path"))
        #expect(
            try !webKitMatches(webkit, caseSensitive: false, "http://webkit.organization/test.html"))
        // Only \ { } [ . ? * $ are escaped.
        #expect(URLFilter.domainPattern(for: "a|b(c)") == #"[a-z][a-z+.-]*:\/\/a|b(c)[:/]"#)
        #expect(
            URLFilter.parse(URLFilter.domainPattern(for: "a|b"), caseSensitive: false).status
                == .disjunction)
    }

    @Test func deepPatterns() {
        do {
            let letters = URLFilter.parse(String(repeating: "A", count: 100_000), caseSensitive: false)
            #expect(letters.status == .ok)
            #expect(letters.plainLiteral?.literal == String(repeating: "a", count: 100_000))
            let nested =
                String(repeating: "(", count: 50_000) + "a" + String(repeating: ")", count: 50_000)
            let groups = URLFilter.parse(nested, caseSensitive: false)
            #expect(groups.status == .ok)
            #expect(groups.pcre2Pattern == "(?i)a")
            let quantified =
                String(repeating: "(", count: 50_000) + "a" + String(repeating: ")+", count: 50_000)
            #expect(URLFilter.parse(quantified, caseSensitive: false).status == .ok)
            let unbalanced = String(repeating: "(", count: 100_000)
            #expect(URLFilter.parse(unbalanced, caseSensitive: false).status == .yarrError)
            #expect(
                URLFilter.parse(String(repeating: "A", count: 1_048_577), caseSensitive: false).status
                    == .yarrError)
        }
    }

    @Test func literalsAndAnchors() {
        let plain = URLFilter.parse(#"^https://Example\.com/$"#, caseSensitive: false)
        #expect(plain.isAnchoredAtStart)
        #expect(
            plain.plainLiteral
                == PlainLiteral(literal: "https://example.com/", anchoredAtStart: true, anchoredAtEnd: true)
        )
        #expect(
            URLFilter.parse("ads", caseSensitive: true).plainLiteral
                == PlainLiteral(literal: "ads", anchoredAtStart: false, anchoredAtEnd: false))
        #expect(URLFilter.parse("a[bc]d", caseSensitive: false).plainLiteral == nil)
        #expect(
            URLFilter.parse("tracker.*/pixel\\.gif", caseSensitive: false).requiredLiteral == "/pixel.gif"
        )
        #expect(URLFilter.parse("Ab+cd", caseSensitive: true).requiredLiteral == "bcd")
        #expect(URLFilter.parse("[ab]", caseSensitive: false).requiredLiteral == nil)
        // Spans point at the offending token.
        #expect(URLFilter.parse("abc|d", caseSensitive: false).errorSpan == 3..<4)
        #expect(URLFilter.parse("ab\\d", caseSensitive: false).errorSpan == 2..<4)
        #expect(URLFilter.parse("abé", caseSensitive: false).errorSpan == 2..<4)
    }
}
