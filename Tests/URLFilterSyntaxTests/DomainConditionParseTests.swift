import Foundation
import TestSupport
import Testing
import URLFilterSyntax

/// `URLFilter.parseDomainCondition` must give what parsing the generated domain pattern gives.
@Suite struct DomainConditionParseTests {
    static func assertSame(_ domain: String, caseSensitive: Bool) {
        let direct = URLFilter.parseDomainCondition(domain, caseSensitive: caseSensitive)
        let parsed = URLFilter.parse(URLFilter.domainPattern(for: domain), caseSensitive: caseSensitive)
        #expect(direct.status == parsed.status, "\(domain)")
        #expect(direct.errorSpan == parsed.errorSpan, "\(domain)")
        #expect(direct.pcre2Pattern == parsed.pcre2Pattern, "\(domain)")
        #expect(direct.requiredLiteral == parsed.requiredLiteral, "\(domain)")
        #expect(direct.plainLiteral == parsed.plainLiteral, "\(domain)")
        #expect(direct.isAnchoredAtStart == parsed.isAnchoredAtStart, "\(domain)")
        #expect(direct.searchFacts == parsed.searchFacts, "\(domain)")
    }

    @Test func handPicked() {
        let domains = [
            "example.com", "*example.com", "a", "*a", "ab", "*abc", "*abcd", "EXAMPLE.Com", "*Sub.Example.COM",
            "x-y_z.0.9", "*", "", "**a", "a*b", "a.b?", "a$", "ex{2}.com", "[x]", "a\\b", "a|b", "(a)",
            "*.example.com", ".", "-", "_", "é.com", "a:80", "a/b", "^a",
        ]
        for domain in domains {
            for caseSensitive in [false, true] { Self.assertSame(domain, caseSensitive: caseSensitive) }
        }
    }

    /// Every if-domain / unless-domain entry of the bundled lists in `rules/`.
    @Test(.slowTier) func bundledLists() throws {
        let root = TestData.repositoryRoot.appendingPathComponent("rules")
        var domains: Set<String> = []
        let enumerator = FileManager.default.enumerator(atPath: root.path)
        while let path = enumerator?.nextObject() as? String {
            guard path.hasSuffix(".json"),
                let rules = try TestData.json(root.appendingPathComponent(path)) as? [[String: Any]]
            else { continue }
            for rule in rules {
                let trigger = rule["trigger"] as? [String: Any] ?? [:]
                for key in ["if-domain", "unless-domain"] {
                    for case let domain as String in trigger[key] as? [Any] ?? [] { domains.insert(domain) }
                }
            }
        }
        #expect(domains.count > 10_000)
        for (position, domain) in domains.sorted().enumerated() {
            Self.assertSame(domain, caseSensitive: position % 7 == 0)
        }
    }
}
