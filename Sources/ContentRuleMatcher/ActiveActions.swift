public import ContentRuleURL

/// Which lists may apply the "active" actions `redirect` and `modify-headers`, and to which URLs.
///
/// WebKit applies them only where the embedder configured URL match patterns for the list
/// (`DocumentLoader::allowsActiveContentRuleListActionsForURL`, spec §4.10); by default none.
public struct ActiveActionPolicy: Sendable {
    /// Patterns for every list.
    public var patternsForAllLists: [URLMatchPattern]
    /// Extra patterns per list identifier.
    public var patternsByList: [String: [URLMatchPattern]]

    /// A policy letting every list act on URLs of `patternsForAllLists`, and the list of each identifier
    /// of `patternsByList` on its patterns too.
    public init(patternsForAllLists: [URLMatchPattern] = [], patternsByList: [String: [URLMatchPattern]] = [:]) {
        self.patternsForAllLists = patternsForAllLists
        self.patternsByList = patternsByList
    }

    /// No list may redirect or modify headers (WebKit's default).
    public static let none = ActiveActionPolicy()

    /// Whether the list `identifier` may redirect or modify headers of a load of `url`: some pattern for
    /// all lists or for that list matches it. O(patterns).
    public func allows(list identifier: String, url: WebURL) -> Bool {
        patternsForAllLists.contains { $0.matches(url) }
            || (patternsByList[identifier] ?? []).contains { $0.matches(url) }
    }
}

/// A web-extension URL match pattern (`<all_urls>`, `*://host/*`, `https://*.example.com/path*`).
public struct URLMatchPattern: Sendable, Hashable, CustomStringConvertible {
    /// The pattern as written.
    public let description: String
    let scheme: String?  // nil = any
    let host: String?  // nil = any host
    let includesSubdomains: Bool
    let path: String

    /// Parses a pattern; `nil` when it is not of the form `scheme://host/path` or `<all_urls>`.
    public init?(_ pattern: String) {
        description = pattern
        if pattern == "<all_urls>" {
            scheme = nil
            host = nil
            includesSubdomains = false
            path = "*"
            return
        }
        let parts = pattern.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, parts[1].hasPrefix("//") else { return nil }
        let schemePart = String(parts[0]).lowercased()
        let rest = parts[1].dropFirst(2)
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        var hostPart = String(rest[..<slash]).lowercased()
        path = slash == rest.endIndex ? "/*" : String(rest[slash...])
        scheme = schemePart == "*" ? nil : schemePart
        if hostPart == "*" {
            host = nil
            includesSubdomains = false
        } else {
            includesSubdomains = hostPart.hasPrefix("*.")
            if includesSubdomains { hostPart.removeFirst(2) }
            guard !hostPart.contains("*") else { return nil }
            host = hostPart
        }
    }

    /// Whether `url` matches: its scheme (any for `*`), its host (or a subdomain, for `*.`) and its path
    /// with its query (a `*` of the pattern's path matches any run of characters).
    public func matches(_ url: WebURL) -> Bool {
        if let scheme, scheme != url.scheme { return false }
        if let host {
            let urlHost = url.host ?? ""
            guard urlHost == host || (includesSubdomains && urlHost.hasSuffix("." + host)) else { return false }
        }
        var pathAndQuery = url.path
        if let query = url.query { pathAndQuery += "?" + query }
        return URLMatchPattern.glob(path, matches: pathAndQuery)
    }

    /// `*` matches any run of characters; everything else literally. Iterative, O(pattern × text).
    static func glob(_ pattern: String, matches text: String) -> Bool {
        let pattern = Array(pattern.utf8)
        let text = Array(text.utf8)
        var patternIndex = 0
        var textIndex = 0
        var star: Int?
        var starText = 0
        while textIndex < text.count {
            if patternIndex < pattern.count, pattern[patternIndex] == UInt8(ascii: "*") {
                star = patternIndex
                starText = textIndex
                patternIndex += 1
            } else if patternIndex < pattern.count, pattern[patternIndex] == text[textIndex] {
                patternIndex += 1
                textIndex += 1
            } else if let star {
                patternIndex = star + 1
                starText += 1
                textIndex = starText
            } else {
                return false
            }
        }
        while patternIndex < pattern.count, pattern[patternIndex] == UInt8(ascii: "*") { patternIndex += 1 }
        return patternIndex == pattern.count
    }
}
