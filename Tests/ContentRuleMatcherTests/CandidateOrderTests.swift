import ContentRuleMatcher
import TestSupport
import Testing

/// The fast matcher tries its candidates in the order it collects them (always-checked rules, literal
/// index hits in URL order, domain candidates), not in rule order, and sorts the rules that fire: the
/// fired rules and actions equal the reference matcher's when the URL holds the rules' literals in the
/// reverse of rule order, with domain and always-checked candidates between them, and with
/// ignore-previous-rules depending on that order.
@Suite struct CandidateOrderTests {
    /// Rule number → url-filter, optional `if-domain`, action type.
    static let rules: [(filter: String, domain: String?, action: String)] = [
        ("zulu-tail", nil, "block"),
        ("a[0-9]x", "site.test", "block-cookies"),  // a domain candidate (no usable literal)
        ("yankee-mid", nil, "make-https"),
        ("b[0-9]y", nil, "block"),  // always checked (no usable literal)
        ("xray-head", nil, "ignore-previous-rules"),
        ("whisky-last", nil, "block"),
    ]

    static let urls = [
        "https://cdn.test/xray-head/yankee-mid/zulu-tail/a1x/b2y",
        "https://cdn.test/whisky-last/b2y/xray-head/a1x/zulu-tail",
        "https://cdn.test/zulu-tail/yankee-mid/a1x",
        "https://cdn.test/whisky-last/yankee-mid",
        "https://cdn.test/b2y/a1x",
    ]

    static var json: String {
        "["
            + rules.map { rule in
                let domain = rule.domain.map { #","if-domain":["\#($0)"]"# } ?? ""
                return #"{"trigger":{"url-filter":"\#(rule.filter)"\#(domain)},"action":{"type":"\#(rule.action)"}}"#
            }
            .joined(separator: ",") + "]"
    }

    @Test func sameRulesAndActionsAsTheReferenceMatcher() throws {
        let list = try #require(TestLists.compile(Self.json).list)
        var firedByReference = Set<UInt32>()
        for url in Self.urls {
            let load = try #require(TestLists.script(url, top: "https://site.test/"))
            let fast = list.actions(for: load)
            let reference = list.referenceActions(for: load)
            #expect(fast.firedRules == reference.firedRules, "\(url)")
            #expect(fast == reference, "\(url)")
            firedByReference.formUnion(reference.firedRules)
        }
        #expect(firedByReference == Set(Self.rules.indices.map { UInt32($0) }))
    }
}
