import ContentRuleMatcher
import ContentRuleModel
import ContentRuleURL
import Foundation
import TestSupport
import Testing

/// `if-domain` / `unless-domain` decided by the fast strategy's hash tables against the generated
/// PCRE2 patterns of the reference strategy (spec §1.4: the pattern is unanchored over the whole top
/// URL, so `scheme://domain` later in the query, user-info, ports and scheme characters all count).
@Suite struct DomainConditionDifferentialTests {
    static let domains = [
        "example.com", "ads.example.com", "a-b_c.net", "x.org", "co.uk", "1.2.3.4", "localhost", "com",
        "xn--bcher-kva.example", "user", "b.c", "x.org:8443", "google.*",
    ]

    /// Rules over every combination: if/unless, exact/`*` subdomains, case-(in)sensitive top URL,
    /// universal or literal url-filter, with and without request-method.
    static func ruleList(_ random: inout SeededGenerator) -> String {
        var rules: [String] = []
        for index in 0..<160 {
            let kind = Bool.random(using: &random) ? "if-domain" : "unless-domain"
            let values = (0..<Int.random(in: 1...3, using: &random)).map { _ in
                (Bool.random(using: &random) ? "*" : "") + domains.randomElement(using: &random)!
            }
            let json = values.map { "\"\($0)\"" }.joined(separator: ",")
            let filter = [".*", ".*", ".*", "track", "^https?://"].randomElement(using: &random)!
            let sensitive =
                Int.random(in: 0..<4, using: &random) == 0 ? ",\"top-url-filter-is-case-sensitive\":true" : ""
            let method = Int.random(in: 0..<10, using: &random) == 0 ? ",\"request-method\":\"get\"" : ""
            rules.append(
                "{\"trigger\":{\"url-filter\":\"\(filter)\",\"\(kind)\":[\(json)]\(sensitive)\(method)},"
                    + "\"action\":{\"type\":\"css-display-none\",\"selector\":\".r\(index)\"}}")
        }
        return "[" + rules.joined(separator: ",") + "]"
    }

    static func pick(_ options: [String], _ random: inout SeededGenerator) -> String {
        options.randomElement(using: &random)!
    }

    /// A host candidate: a list domain, a near miss, or a random subdomain of one.
    static func host(_ random: inout SeededGenerator) -> String {
        let domain = pick(domains, &random)
        let upper = Int.random(in: 0..<3, using: &random) == 0 ? domain.uppercased() : domain
        let prefix = pick(["", "", "www.", "a.b.", "x", "-", "ads.", "u:p@", "user@"], &random)
        let suffix = pick(["", "", "", ".evil.net", "x", ":8080", "."], &random)
        return prefix + upper + suffix
    }

    /// A top URL with optional user-info, port, and `scheme://host` sequences embedded later.
    static func topURL(_ random: inout SeededGenerator) -> String {
        let scheme = pick(["http", "https", "ftp", "ws", "a+b", "x-y.z", "file"], &random)
        let user = pick(["", "", "", "user@", "u:p@", "ads.example.com@", "a.b:c@"], &random)
        let port = pick(["", "", ":8080", ":443"], &random)
        var url = "\(scheme)://\(user)\(host(&random))\(port)" + pick(["/", "/p/q", "/example.com/", ""], &random)
        for _ in 0..<Int.random(in: 0...2, using: &random) {
            let embeddedScheme = pick(
                ["http", "HTTP", "Https", "h", "1http", "+http", "-.", ".", "a1", "x+", "-a-"], &random)
            let separator = pick(["?u=", "&v=", "/", "#", "?"], &random)
            let end = pick([":", "/", "", "?", "&", ":1/", "/x"], &random)
            url += separator + embeddedScheme + pick(["://", "://", ":/", "%3A//"], &random) + host(&random) + end
        }
        return url
    }

    @Test(.slowTier) func hashTablesAgreeWithPatterns() throws {
        var random = SeededGenerator(seed: UInt64(Differential.environment("DIFFERENTIAL_SEED", 7)))
        let list = try #require(try Differential.list(Self.ruleList(&random), identifier: "domains"))
        let count = Differential.environment("DIFFERENTIAL_DOMAIN_REQUESTS", 6_000)
        let url = try #require(WebURL("https://cdn.example.net/track.js"))
        var compared = 0
        var fired = 0
        var mismatches = 0
        while compared < count {
            let text = Self.topURL(&random)
            guard let top = WebURL(text) else { continue }
            let method: RequestMethod? = Bool.random(using: &random) ? .get : nil
            let load = ResourceLoadInfo(url: url, mainDocumentURL: top, resourceType: .image, requestMethod: method)
            let fast = list.actions(for: load)
            let reference = list.referenceActions(for: load)
            compared += 1
            fired += reference.firedRules.count
            if fast != reference {
                mismatches += 1
                if mismatches <= 5 {
                    Issue.record(
                        Comment(
                            rawValue: "\(top.serialization): fast \(fast.firedRules) reference \(reference.firedRules)")
                    )
                }
            }
        }
        #expect(mismatches == 0)
        // The generator must exercise both outcomes: many rules fire, many do not.
        #expect(fired > count && fired < count * 150)
        print("domain conditions: \(compared) top URLs, \(fired) rule firings, \(mismatches) differences")
    }
}
