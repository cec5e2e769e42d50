import ContentRuleFormat
import Foundation
import PCRE2Support
import Testing
import URLFilterSyntax

/// The binary rule list stores indexed domain entries as bare domains and the matcher rebuilds their
/// PCRE2 pattern with `DomainConditionPattern`; it must match exactly what the url-filter WebKit
/// generates for the entry (`URLFilter.domainPattern(for:)`, spec §1.4) matches after translation.
@Suite struct DomainConditionPatternTests {
    static let crafted = [
        "example.com", "*example.com", "a", "*a", "xn--80ak6aa92e.com", "*sub.domain-with-dash.co.uk",
        "under_score.net",
        "1.2.3.4", "*.leading.dot", "trailing.dot.", "UPPER.example", "*Mixed.Case",
    ]

    static func domains() throws -> [String] {
        var found = Set(crafted)
        let text = try Differential.bundledText("easy2json/easylist.json")
        let rules = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]] ?? []
        for rule in rules {
            guard let trigger = rule["trigger"] as? [String: Any] else { continue }
            for key in ["if-domain", "unless-domain"] {
                for domain in trigger[key] as? [String] ?? [] where found.count < 1_500 { found.insert(domain) }
            }
        }
        return found.sorted()
    }

    static func urls(for domain: String) -> [String] {
        let bare = domain.hasPrefix("*") ? String(domain.dropFirst()) : domain
        var urls: [String] = []
        for scheme in ["https", "http", "HTTPS", "ws", "a+b", "1http", "+", "x.y-z"] {
            for host in [bare, "www." + bare, "a.b." + bare, "x" + bare, bare + "x", bare.uppercased(), "." + bare] {
                for rest in ["/", ":8080/", "", "/path?q=\(bare)", "?x", "#/"] {
                    urls.append("\(scheme)://\(host)\(rest)")
                }
            }
        }
        urls += ["https://user@\(bare)/", "https://evil.test/redirect?to=https://\(bare)/", "\(bare)/", "://\(bare)/"]
        return urls
    }

    @Test func generatedPatternsMatchTheTranslatedURLFilter() throws {
        let scratch = PCRE2Scratch()
        var compared = 0
        for domain in try Self.domains() {
            for caseSensitive in [false, true] {
                let parsed = URLFilter.parse(URLFilter.domainPattern(for: domain), caseSensitive: caseSensitive)
                let translated = try #require(parsed.pcre2Pattern, "\(domain)")
                let bare = domain.hasPrefix("*") ? String(domain.dropFirst()) : domain
                let generated = DomainConditionPattern.pcre2(
                    domain: bare, subdomains: domain.hasPrefix("*"), caseSensitive: caseSensitive)
                let expected = try PCRE2Regex(translated, options: [])
                let actual = try PCRE2Regex(generated, options: [])
                for url in Self.urls(for: domain) {
                    var bytes = Array(url.utf8)
                    let same = bytes.withUnsafeMutableBufferPointer { buffer in
                        let view = UnsafeBufferPointer(buffer)
                        return expected.matches(view, scratch: scratch) == actual.matches(view, scratch: scratch)
                    }
                    #expect(same, "\(domain) case-sensitive \(caseSensitive): \(url)")
                    compared += 1
                }
            }
        }
        #expect(compared > 100_000)
    }
}
