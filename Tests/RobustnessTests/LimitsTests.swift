import ContentRuleCompiler
import ContentRuleMatcher
import ContentRuleModel
import ContentRuleURL
import Foundation
import RuleListParser
import TestSupport
import Testing
import URLFilterSyntax

/// WebKit's limits, both sides of each, and inputs at the edges (empty strings, NUL, invalid UTF-8).
///
/// Expected values: the spec (`../shared/spec/webkit-content-rules.md`, cited by section) and the
/// WebKitGTK 2.50.6 compile oracle (`../shared/oracle/webkit_compile.py`), run on 2026-12-01 on the
/// same inputs these tests generate; each test names its source.
@Suite struct LimitsTests {
    static let rule = #"{"trigger":{"url-filter":"a"},"action":{"type":"block"}}"#

    // MARK: Rules per list (spec §1.2, §5.7 and §7 case 2; oracle: 150,000 ok, 150,001 "Too many rules…")

    @Test func oneHundredFiftyThousandRulesAreAccepted() throws {
        let (list, error) = TestLists.compile(TestLists.repeated(Self.rule, count: 150_000))
        #expect(error == nil)
        let blocked = try #require(list).actions(for: try #require(TestLists.script("https://t.test/a.js")))
        #expect(blocked.actions == [.block])
    }

    @Test func oneHundredFiftyThousandAndOneRulesAreRejected() {
        let parsed = RuleListParser.parse(TestLists.repeated(Self.rule, count: 150_001))
        #expect(parsed.errors.first?.error == .jsonTooManyRules)
        #expect(parsed.errors.first?.message == "Too many rules in JSON array.")
    }

    // MARK: JSON nesting (spec §1.1: deeper than 1000 levels → JSONInvalid)
    // Oracle: 1001 nested arrays → "Invalid rule." (the JSON is read; the element is no object);
    // 1002 → "Failed to parse the JSON String."; a rule object with a 999-deep array under an unknown
    // key (innermost container at depth 1000) compiles, 1000-deep (depth 1001) does not.

    static func nested(_ depth: Int) -> String {
        String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    }

    static func ruleWithExtraArray(depth: Int) -> String {
        #"[{"trigger":{"url-filter":"a"},"action":{"type":"block"},"x":"# + nested(depth) + "}]"
    }

    @Test func nestingAtTheLimitIsRead() {
        #expect(TestLists.compile(Self.nested(1001)).error == .jsonInvalidRule)
        #expect(TestLists.compile(Self.ruleWithExtraArray(depth: 999)).list != nil)
    }

    @Test func nestingOneOverTheLimitIsJSONInvalid() {
        #expect(TestLists.compile(Self.nested(1002)).error == .jsonInvalid)
        #expect(TestLists.compile(Self.ruleWithExtraArray(depth: 1000)).error == .jsonInvalid)
        #expect(ContentRuleListError.jsonInvalid.message == "Failed to parse the JSON String.")
    }

    /// 100,000 open brackets (with and without their closing ones): an error, not a stack overflow.
    /// Swift Testing runs this on a pool thread with a small stack, so a recursive reader would crash.
    @Test func hundredThousandDeepNestingIsAnErrorNotACrash() {
        let open = String(repeating: "[", count: 100_000)
        #expect(TestLists.compile(open).error == .jsonInvalid)
        #expect(TestLists.compile(open + String(repeating: "]", count: 100_000)).error == .jsonInvalid)
        let objects = String(repeating: #"{"a":"#, count: 100_000)
        #expect(TestLists.compile("[" + objects).error == .jsonInvalid)
    }

    // MARK: url-filter length (spec §3.1 step 3 and §5.7: Yarr rejects more than 1,048,576 characters)

    @Test(.slowTier) func urlFilterOfOneMebibyteIsAccepted() throws {
        let pattern = String(repeating: "a", count: 1_048_576)
        #expect(URLFilter.parse(pattern, caseSensitive: false).status == .ok)
        let json = #"[{"trigger":{"url-filter":"\#(pattern)"},"action":{"type":"block"}}]"#
        let list = try #require(TestLists.compile(json).list)
        let hit = try #require(TestLists.script("https://t.test/" + pattern))
        let miss = try #require(TestLists.script("https://t.test/" + pattern.dropLast()))
        #expect(list.actions(for: hit).actions == [.block])
        #expect(list.actions(for: miss).actions == [])
        #expect(list.referenceActions(for: miss).actions == [])
    }

    @Test func urlFilterOneByteOverIsRejected() {
        let pattern = String(repeating: "a", count: 1_048_577)
        #expect(URLFilter.parse(pattern, caseSensitive: false).status == .yarrError)
        let json = #"[{"trigger":{"url-filter":"\#(pattern)"},"action":{"type":"block"}}]"#
        #expect(TestLists.compile(json).error == .jsonInvalidRegex)
    }

    /// A long pattern that is not a plain literal is accepted by WebKit (only the length limit applies,
    /// spec §3.1), but its PCRE2 translation exceeds PCRE2's compiled-size limit (Debian's libpcre2 has
    /// 2-byte links: 64 KiB of compiled code). The list compiles and loads (the matcher compiles PCRE2
    /// patterns on first use); the pattern then fails to compile and never matches, where WebKit would
    /// block. Known divergence (SECURITY.md, "Known limits and divergences").
    @Test func longNonLiteralURLFilterMatchesLikeWebKit() throws {
        let pattern = String(repeating: "a.", count: 50_000)
        #expect(URLFilter.parse(pattern, caseSensitive: false).status == .ok)
        let json = #"[{"trigger":{"url-filter":"\#(pattern)"},"action":{"type":"block"}}]"#
        let list = try #require(TestLists.compile(json).list)  // the rule list is valid, as in WebKit
        let hit = try #require(TestLists.script("https://t.test/" + String(repeating: "ab", count: 50_000)))
        withKnownIssue("PCRE2 compiled-size limit: a 100,000-byte non-literal url-filter never matches") {
            #expect(list.actions(for: hit).actions == [.block])
        }
        #expect(throws: ContentRuleListLoadError.self) { try list.compileAllPatterns() }
    }

    // MARK: Empty strings (oracle answers in the comments)

    @Test func emptyStrings() {
        // "" → our reader: JSONInvalid (WTF's parser fails on empty input; WebKitGTK's API refuses it
        // earlier with "Source JSON rule set cannot be empty", spec §1.1 and §2.4).
        #expect(TestLists.compile("").error == .jsonInvalid)
        // Oracle: "Invalid url-filter object."
        #expect(
            TestLists.compile(#"[{"trigger":{"url-filter":""},"action":{"type":"block"}}]"#).error
                == .jsonInvalidURLFilterInTrigger)
        // Oracle: "Invalid list of if-domain, unless-domain, if-top-url, or unless-top-url conditions." (both)
        for key in ["if-domain", "if-top-url"] {
            let json = #"[{"trigger":{"url-filter":"a","\#(key)":[""]},"action":{"type":"block"}}]"#
            #expect(TestLists.compile(json).error == .jsonInvalidConditionList, "\(key)")
        }
        // Oracle: an empty selector drops the rule → "Empty extension."
        let emptySelector = #"[{"trigger":{"url-filter":"a"},"action":{"type":"css-display-none","selector":""}}]"#
        #expect(TestLists.compile(emptySelector).error == .jsonContainsNoRules)
        // Oracle: an empty notification compiles.
        #expect(
            TestLists.compile(#"[{"trigger":{"url-filter":"a"},"action":{"type":"notify","notification":""}}]"#)
                .list != nil)
        // An empty URL is not a URL (WHATWG URL parser: failure without a base).
        #expect(WebURL("") == nil)
    }

    // MARK: NUL bytes and invalid UTF-8 in the JSON (oracle answers in the comments)

    @Test func nulBytesInTheJSON() {
        // Oracle: a raw NUL and an escaped \u0000 inside the url-filter are both
        // "Invalid or unsupported regular expression." (WebKit reads NUL as the end-of-line assertion,
        // here followed by "b": "The end of line assertion must be the last term").
        let raw: [UInt8] =
            Array(#"[{"trigger":{"url-filter":"a"#.utf8) + [0] + Array(#"b"},"action":{"type":"block"}}]"#.utf8)
        #expect(TestLists.compile(raw).error == .jsonInvalidRegex)
        #expect(
            TestLists.compile(#"[{"trigger":{"url-filter":"a\u0000b"},"action":{"type":"block"}}]"#).error
                == .jsonInvalidRegex)
        // Oracle: a NUL between tokens → "Failed to parse the JSON String."
        let between = Array(#"[{"trigger":{"url-filter":"ab"},"action":{"type":"block"}}"#.utf8) + [0, 0x5D]
        #expect(TestLists.compile(between).error == .jsonInvalid)
    }

    @Test func invalidUTF8InTheJSON() {
        // Oracle: invalid UTF-8 in a url-filter, a selector or a notification → "Failed to parse the JSON String."
        let cases: [[UInt8]] = [
            Array(#"[{"trigger":{"url-filter":"a"#.utf8) + [0xC3, 0x28]
                + Array(#"b"},"action":{"type":"block"}}]"#.utf8),
            Array(#"[{"trigger":{"url-filter":"a"},"action":{"type":"css-display-none","selector":".a"#.utf8) + [0xFF]
                + Array(#""}}]"#.utf8),
            Array(#"[{"trigger":{"url-filter":"a"},"action":{"type":"notify","notification":""#.utf8) + [0xFE]
                + Array(#""}}]"#.utf8),
        ]
        for json in cases { #expect(TestLists.compile(json).error == .jsonInvalid) }
    }

    // MARK: NUL bytes and invalid UTF-8 in URLs (WHATWG URL Standard)

    @Test func nulAndInvalidUTF8InURLs() throws {
        // NUL is a forbidden host code point: the URL fails to parse.
        #expect(WebURL("https://exa\u{0}mple.com/") == nil)
        // In a path it is percent-encoded (C0 control percent-encode set); U+FFFD (what invalid UTF-8
        // becomes in a Swift String) is encoded as its UTF-8 bytes.
        let url = try #require(WebURL("https://example.com/a\u{0}b\u{FFFD}c"))
        #expect(url.serialization == "https://example.com/a%00b%EF%BF%BDc")
        let list = try #require(
            TestLists.compile(#"[{"trigger":{"url-filter":"a%00b"},"action":{"type":"block"}}]"#).list)
        let load = ResourceLoadInfo(url: url, mainDocumentURL: nil, resourceType: .image)
        #expect(list.actions(for: load).actions == [.block])
        #expect(list.referenceActions(for: load).actions == [.block])
    }
}
