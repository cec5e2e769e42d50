import ContentRuleMatcher
import Testing

/// The fast matcher compares a candidate's literal where the literal index found its gram (the gram's
/// first position, then its later occurrences) instead of searching the whole URL: the same rules
/// fire as with the reference matcher when the gram occurs several times, inside the literal too,
/// with case-sensitive and case-insensitive literals and with the required literal of a regex.
@Suite struct GramPositionTests {
    /// Rule number → url-filter (each rule has its own action: a css-display-none selector).
    static let rules: [(filter: String, caseSensitive: Bool)] = [
        ("abcdxyz", false),  // each of its grams occurs first where the literal does not follow
        ("/ad/ad/x", false),  // the gram "/ad/" twice inside the literal
        ("AbCdXyZ", true),
        ("QwErTy", false),
        ("track[0-9]+er", false),  // a regex: its required literal "track" is checked in place
        ("aaaab", false),  // overlapping occurrences of the gram "aaaa"
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
        "https://site.test/aaaaaaaa/aaab",
        "https://abcdxyz.test/",
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
        try Hostile.expectReferenceAnswers(json: Self.json, ruleCount: Self.rules.count, urls: Self.urls)
    }
}
