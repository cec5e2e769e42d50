import ContentRuleCompiler
import ContentRuleMatcher
import TestSupport
import Testing
import URLFilterSyntax

@testable import ContentRuleFormat

/// A PCRE2 pattern that begins with the host anchor `^[htpsw]+://([a-z0-9-]+\.)?` and then spells its
/// required literal is marked host-anchored in the file (PATS flag 32); the fast matcher then answers
/// "no match" without PCRE2 when the literal is neither just after the `://` nor just after the first
/// label's dot. The same rules fire as with the reference matcher, and the flag is set exactly on the
/// patterns that qualify.
@Suite struct HostAnchorPrefilterTests {
    /// Rule number → url-filter (JSON-escaped) and whether its pattern qualifies.
    static let rules: [(filter: String, hostAnchored: Bool)] = [
        (#"^[htpsw]+://([a-z0-9-]+\\.)?doubleclick\\.net([/:&\\?].*)?$"#, true),
        (#"^[htpsw]+://([a-z0-9-]+\\.)?pw([/:&\\?].*)?$"#, true),
        (#"^[htpsw]+://([a-z0-9-]+\\.)?com/$"#, true),
        (#"^[htpsw]+://([a-z0-9-]+\\.)?ad\\.mail\\.ru/x"#, true),
        // An optional byte before the literal: the pattern does not qualify.
        (#"^[htpsw]+://([a-z0-9-]+\\.)?t?racker\\.test"#, false),
        // Other beginnings do not qualify.
        (#"^https?://([a-z0-9-]+\\.)?cdnads\\.test"#, false),
        (#"[htpsw]+://([a-z0-9-]+\\.)?pixel\\.test"#, false),
    ]

    static let urls = [
        "https://doubleclick.net/", "https://ad.doubleclick.net/x", "https://a.b.doubleclick.net/",
        "HTTPS://X.DoubleClick.NET/", "ftp://doubleclick.net/", "wss://x.doubleclick.net/",
        "https://doubleclick.net.evil.test/", "https://xdoubleclick.net/", "https://x_y.doubleclick.net/",
        "https://site.test/?u=https://doubleclick.net/", "http://x-y.pw/", "http://pw/", "http://pw.com/",
        "http://com/", "http://a.com/", "http://a.com/x", "http://a.b.com/", "https://ad.mail.ru/x",
        "https://x.ad.mail.ru/x", "https://x.y.ad.mail.ru/x", "https://tracker.test/", "https://x.racker.test/",
        "https://a.b.tracker.test/", "https://cdnads.test/", "https://x.cdnads.test/", "https://pixel.test/",
        "https://a.pixel.test/", "https://user@pixel.test/", "http://ad.mail.ru:8080/x", "https://pw:1/",
    ]

    static var json: String {
        "["
            + rules.enumerated().map { index, rule in
                #"{"trigger":{"url-filter":"\#(rule.filter)"},"#
                    + #""action":{"type":"css-display-none","selector":".r\#(index)"}}"#
            }
            .joined(separator: ",") + "]"
    }

    @Test func flagMarksTheQualifyingPatterns() throws {
        let list = try #require(TestLists.compile(Self.json).list)
        for (index, rule) in Self.rules.enumerated() {
            let pattern = list.rules.pattern(list.rules.rule(index).pattern)
            #expect(pattern.kind == .regex, "\(rule.filter)")
            #expect(pattern.hostAnchored == rule.hostAnchored, "\(rule.filter)")
        }
    }

    @Test func sameRulesFireAsWithTheReferenceMatcher() throws {
        try TestLists.expectReferenceAnswers(json: Self.json, ruleCount: Self.rules.count, urls: Self.urls)
    }

    /// The validator accepts flag 32 on a PCRE2 pattern only.
    @Test func validatorRefusesTheFlagOnALiteralPattern() throws {
        let json =
            #"[{"trigger":{"url-filter":"plainliteral"},"action":{"type":"block"}},"#
            + #"{"trigger":{"url-filter":"^https?://x[0-9]\\.test"},"action":{"type":"block"}}]"#
        let compiled = try #require(RuleListCompiler.compile(json: Array(json.utf8)).list)
        let bytes = try BinaryRuleList.encode(compiled)
        let mapped = try MappedRuleList(bytes: bytes)
        func flagged(_ rule: Int) throws -> [UInt8] {
            var copy = bytes
            let word = mapped.sections.patterns.offset + mapped.rule(rule).pattern * Layout.patternSize + 4
            copy[word + 3] |= 0x80
            let checksum = BinaryRuleList.checksum(Array(copy[64...]))
            for index in 0..<8 { copy[32 + index] = UInt8(truncatingIfNeeded: checksum >> (8 * UInt64(index))) }
            return copy
        }
        #expect(mapped.pattern(mapped.rule(0).pattern).kind == .literal)
        #expect(mapped.pattern(mapped.rule(1).pattern).kind == .regex)
        #expect(throws: BinaryRuleListError.self) { try MappedRuleList(bytes: try flagged(0)) }
        let regexFlagged = try MappedRuleList(bytes: try flagged(1))
        #expect(regexFlagged.pattern(regexFlagged.rule(1).pattern).hostAnchored)
    }

    /// The literal after WebKit's host anchor, read from the url-filter's terms
    /// (`URLFilterParseResult.hostAnchorHead`): what the writer indexes by host and files a pattern
    /// whose required literal is too short under.
    @Test func hostAnchorHeadComesFromTheTerms() {
        func head(_ filter: String, caseSensitive: Bool = false) -> String? {
            URLFilter.parse(filter, caseSensitive: caseSensitive).hostAnchorHead
        }
        let anchor = #"^[htpsw]+://([a-z0-9-]+\.)?"#
        #expect(head(anchor + #"ad\.example\.com([&/:?].*)?$"#) == "ad.example.com")
        #expect(head(#"^[htpsw]+:\/\/([-a-z0-9]+\.)?Ad\.Example/x+"#) == "ad.example/x")
        #expect(head(anchor + #"ads?\.example"#) == "ad")
        #expect(head(anchor + #"ads*\.example"#) == "ad")
        #expect(head(anchor + "ad.example") == "ad")  // a bare `.` is any character
        #expect(head(anchor + "a[0-9]example") == "a")
        #expect(head(anchor + "(x)") == "")
        #expect(head(anchor + "pw([/:&?].*)?$") == "pw")
        #expect(head(#"^https?://pw"#) == nil)
        #expect(head(#"^[htpsw]+://pw"#) == nil)  // no optional label
        #expect(head(#"[htpsw]+://([a-z0-9-]+\.)?pw"#) == nil)  // not anchored
        #expect(head(anchor + "pw", caseSensitive: true) == nil)
    }
}
