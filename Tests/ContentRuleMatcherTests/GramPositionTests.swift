import ContentRuleMatcher
import TestSupport
import Testing

@testable import ContentRuleFormat

/// The fast matcher compares a candidate's literal where the literal index found its gram (the gram's
/// first position, then its later occurrences) instead of searching the whole URL: the same rules
/// fire as with the reference matcher when the gram occurs several times, inside the literal too,
/// with case-sensitive and case-insensitive literals and with the required literal of a regex. Where
/// the gram occurs once, a candidate whose literal has another byte beside the gram than the URL has
/// there is dropped before its records are read (its neighbour code).
@Suite struct GramPositionTests {
    /// Rule number → url-filter (each rule has its own action: a css-display-none selector).
    static let rules: [(filter: String, caseSensitive: Bool)] = [
        ("abcdxyz", false),  // each of its grams occurs first where the literal does not follow
        ("/ad/ad/x", false),  // the gram "/ad/" twice inside the literal
        ("AbCdXyZ", true),
        ("QwErTy", false),
        ("track[0-9]+er", false),  // a regex: its required literal "track" is checked in place
        ("aaaab", false),  // overlapping occurrences of the gram "aaaa"
        ("mnopq", false),  // filed under "mnop" with the byte after it, "q"
        ("zhttp", false),  // its grams' first occurrence may be the URL's first bytes, before offset 1
    ]

    static let urls = [
        "https://site.test/abcd-bcdx-cdxy-dxyz/abcdxyz",
        "https://site.test/abcd-bcdx-cdxy-dxyz/abcdxy",
        "https://site.test/ABCD-BCDX/aBcDxYz",
        "https://site.test/ad/ad/ad/x",
        "https://site.test/ad/ad/ad/",
        "https://site.test/ad/ad/x/ad/ad/",
        "https://site.test/abcdxyz/AbCdXyZ",
        "https://site.test/abcdxyz/AbCdXyz",
        "https://site.test/AbCdXyZ",
        "https://site.test/qwer/QWERTY",
        "https://site.test/qwerty-qwert",
        "https://site.test/track/trackX/track12er",
        "https://site.test/track/trackX/track12",
        "https://site.test/aaaaaaaab",
        "https://site.test/aaaaaaaa/aaab", "https://site.test/aaaaab",
        "https://abcdxyz.test/",
        "https://site.test/mnopx", "https://site.test/mnopq", "https://site.test/mnop",
        "https://site.test/xmnopxmnopq", "https://site.test/MNOPQ",
        "https://site.test/zhttp", "https://site.test/zhtt/zhttp", "https://site.test/http/zhtt",
    ]

    static var json: String {
        "["
            + rules.enumerated().map { index, rule in
                #"{"trigger":{"url-filter":"\#(rule.filter)","url-filter-is-case-sensitive":\#(rule.caseSensitive)},"#
                    + #""action":{"type":"css-display-none","selector":".r\#(index)"}}"#
            }
            .joined(separator: ",") + "]"
    }

    @Test func sameRulesFireAsWithTheReferenceMatcher() throws {
        try TestLists.expectReferenceAnswers(json: Self.json, ruleCount: Self.rules.count, urls: Self.urls)
    }

    /// A neighbour code (the compiler's, `IndexPlanningTests`) names the byte after the gram
    /// (``IndexHash/neighbourAfter`` set) or before it, by its low 6 bits; 0 checks nothing.
    @Test func neighbourCodes() {
        let after = IndexHash.neighbourAfter | UInt32(UInt8(ascii: "q") & 0x3F)  // literal "mnopq", gram "mnop"
        let url = Array("https://site.test/mnopq".utf8)
        url.withUnsafeBufferPointer { url in
            let gramAt = url.count - 5
            #expect(IndexHash.neighbourAllows(UInt64(after) << 56, url, gramAt: gramAt))
            #expect(!IndexHash.neighbourAllows(UInt64(after) << 56, url, gramAt: gramAt + 1))  // past the end
            let before = UInt64(UInt8(ascii: "/") & 0x3F) << 56
            #expect(IndexHash.neighbourAllows(before, url, gramAt: gramAt))
            #expect(!IndexHash.neighbourAllows(before, url, gramAt: 0))  // before the start
            #expect(IndexHash.neighbourAllows(0, url, gramAt: 0))
        }
    }
}
