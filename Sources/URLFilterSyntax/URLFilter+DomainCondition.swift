// Domain-condition entries without parsing: the pattern WebKit generates for a plain host name always
// has the same shape, so its translation is a fixed prefix, the host and a fixed suffix.

extension URLFilter {
    /// Parses the pattern WebKit generates for one `if-domain` / `unless-domain` entry.
    ///
    /// The result equals `parse(domainPattern(for: domain), caseSensitive: caseSensitive)` in every
    /// field except `terms`, which is `nil` when the entry is a plain host name (an optional leading
    /// `*`, then one or more ASCII letters, digits, `.`, `-`, `_`): such an entry is translated
    /// directly, without running the parser. Other entries go through `parse`.
    ///
    /// - Complexity: O(n) in the entry's length.
    public static func parseDomainCondition(_ domain: String, caseSensitive: Bool) -> URLFilterParseResult {
        var host = Array(domain.utf8)[...]
        var allowSubdomains = false
        if host.first == UInt8(ascii: "*") {
            allowSubdomains = true
            host = host.dropFirst()
        }
        guard !host.isEmpty, host.allSatisfy(isPlainHostByte) else {
            return parse(domainPattern(for: domain), caseSensitive: caseSensitive)
        }
        let lowered = caseSensitive ? Array(host) : host.map { isAlpha($0) ? $0 | 0x20 : $0 }
        var pcre2 = Array(
            DomainConditionTemplate.prefix(subdomains: allowSubdomains, caseSensitive: caseSensitive).utf8)
        pcre2.reserveCapacity(pcre2.count + 2 * lowered.count + 4)
        for byte in lowered { PCRE2Spelling.appendLiteral(byte, to: &pcre2) }
        pcre2.append(contentsOf: "[/:]".utf8)
        // Literal runs: `://`, then the host (a separate run after the `([^/]*\.)*` group); the
        // longer wins, the first on a tie.
        let scheme = Array("://".utf8)
        let required =
            allowSubdomains ? (lowered.count > scheme.count ? lowered : scheme) : scheme + lowered
        var result = URLFilterParseResult(status: .ok, errorSpan: nil)
        result.pcre2Pattern = String(decoding: pcre2, as: UTF8.self)
        result.requiredLiteral = String(decoding: required, as: UTF8.self)
        // The same runs as the translator's facts: `://` then the host, or one run of both; the
        // subdomain part is a repeated group.
        var runs = MandatoryRunCollector(caseless: !caseSensitive)
        for byte in scheme { runs.append(byte) }
        if allowSubdomains { runs.endRun() }
        for byte in lowered { runs.append(byte) }
        result.searchFacts = runs.facts(repeatsAGroup: allowSubdomains, asciiSubjectPattern: nil)
        return result
    }

    private static func isPlainHostByte(_ byte: UInt8) -> Bool {
        isAlpha(byte) || isDigit(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: "_")
    }
}

/// The PCRE2 text before the host in a translated domain pattern, taken from the real translation of
/// a one-letter host (so it cannot drift from the translator).
enum DomainConditionTemplate {
    private static let prefixes: [String] = [false, true].flatMap { subdomains in
        [false, true].map { caseSensitive in
            let pcre2 =
                URLFilter.parse(URLFilter.domainPattern(for: subdomains ? "*z" : "z"), caseSensitive: caseSensitive)
                .pcre2Pattern ?? ""
            let suffix = "z[/:]"
            precondition(pcre2.hasSuffix(suffix), "unexpected domain pattern translation \(pcre2)")
            return String(pcre2.dropLast(suffix.count))
        }
    }

    static func prefix(subdomains: Bool, caseSensitive: Bool) -> String {
        prefixes[(subdomains ? 2 : 0) + (caseSensitive ? 1 : 0)]
    }
}
