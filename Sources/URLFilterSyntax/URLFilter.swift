/// A url-filter pattern in WebKit's regular-expression subset (spec §3): parsing, status, normalization
/// and translation to PCRE2.
///
/// Mirrors `URLFilterParser::addPattern` (`Source/WebCore/contentextensions/URLFilterParser.cpp`),
/// `Term.h`, and the Yarr tokenizer (`Source/JavaScriptCore/yarr/YarrParser.h`, legacy mode).
public struct URLFilter: Sendable, Hashable {
    /// The pattern text.
    public var pattern: String
    /// Whether ASCII letters match only their own case.
    public var caseSensitive: Bool
    /// The parse result.
    public var result: URLFilterParseResult

    /// Parses and stores `pattern`.
    public init(_ pattern: String, caseSensitive: Bool) {
        self.pattern = pattern
        self.caseSensitive = caseSensitive
        self.result = Self.parse(pattern, caseSensitive: caseSensitive)
    }

    /// Parses one pattern (url-filter, if/unless-top-url, if/unless-frame-url, or a generated domain
    /// pattern) exactly as WebKit's `URLFilterParser::addPattern` does.
    ///
    /// Order of checks: non-ASCII text → `nonASCII`; empty → `emptyPattern`; more than 1,048,576 bytes or
    /// any Yarr syntax error anywhere → `yarrError` (it beats every other status); otherwise the first
    /// failure reported while building terms; otherwise `matchesEverything` or `ok`.
    ///
    /// - Complexity: O(n) time and memory in the pattern's byte length, whatever the nesting depth
    ///   (no recursion).
    public static func parse(_ pattern: String, caseSensitive: Bool) -> URLFilterParseResult {
        let bytes = Array(pattern.utf8)
        if let position = bytes.firstIndex(where: { $0 >= 0x80 }) {
            var end = position + 1
            while end < bytes.count && bytes[end] & 0xC0 == 0x80 { end += 1 }
            return URLFilterParseResult(status: .nonASCII, errorSpan: position..<end)
        }
        if bytes.isEmpty { return URLFilterParseResult(status: .emptyPattern, errorSpan: nil) }
        var parser = PatternParser(bytes: bytes, caseSensitive: caseSensitive)
        parser.parse()
        if let span = parser.yarrErrorSpan {
            var result = URLFilterParseResult(status: .yarrError, errorSpan: span)
            result.errorReason = parser.yarrErrorReason
            return result
        }
        parser.finalize()
        switch parser.status {
        case .ok, .matchesEverything:
            let tree = URLFilterTermTree(
                nodes: parser.nodes, topLevel: parser.sunk,
                isAnchoredAtStart: parser.hasBeginningOfLineAssertion)
            var result = URLFilterParseResult(status: parser.status, errorSpan: nil)
            result.isAnchoredAtStart = parser.hasBeginningOfLineAssertion
            result.terms = tree
            if parser.status == .ok {
                let translation = Translator(tree: tree, caseSensitive: caseSensitive)
                let pcre2 = translation.pcre2Pattern()
                result.pcre2Pattern = pcre2
                result.searchFacts = translation.searchFacts(exact: pcre2)
                (result.requiredLiteral, result.plainLiteral) = translation.literals()
                result.hostAnchorHead = PatternFacts.hostAnchorHead(tree, caseSensitive: caseSensitive)
            }
            return result
        default:
            return URLFilterParseResult(status: parser.status, errorSpan: parser.statusSpan)
        }
    }

    /// The url-filter pattern WebKit generates for one `if-domain` / `unless-domain` entry (spec §1.4,
    /// `getDomainList` in `ContentExtensionParser.cpp`).
    ///
    /// A leading `*` (only one) means "and subdomains"; `\ { } [ . ? * $` are backslash-escaped, nothing
    /// else is. `"*example.com"` → `[a-z][a-z+.-]*:\/\/([^/]*\.)*example\.com[:/]`.
    public static func domainPattern(for domain: String) -> String {
        var bytes = Array(domain.utf8)[...]
        var allowSubdomains = false
        if bytes.first == UInt8(ascii: "*") {
            allowSubdomains = true
            bytes = bytes.dropFirst()
        }
        var pattern: [UInt8] = []
        pattern.reserveCapacity(bytes.count + 40)
        pattern.append(contentsOf: #"[a-z][a-z+.-]*:\/\/"#.utf8)
        if allowSubdomains { pattern.append(contentsOf: #"([^/]*\.)*"#.utf8) }
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\\"), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "["), UInt8(ascii: "."),
                UInt8(ascii: "?"), UInt8(ascii: "*"), UInt8(ascii: "$"):
                pattern.append(UInt8(ascii: "\\"))
            default: break
            }
            pattern.append(byte)
        }
        pattern.append(contentsOf: "[:/]".utf8)
        return String(decoding: pattern, as: UTF8.self)
    }
}

/// A pattern that is a plain string after normalization: `literal`, optionally at the start of the
/// URL (`^`) and/or at its end (`$`).
public struct PlainLiteral: Sendable, Hashable {
    /// The characters (lower-cased when the pattern is case-insensitive). Never empty.
    public var literal: String
    /// The pattern began with `^` (and not with `^.*`).
    public var anchoredAtStart: Bool
    /// The pattern ends with `$` / `\0`.
    public var anchoredAtEnd: Bool

    /// Creates a plain literal description.
    public init(literal: String, anchoredAtStart: Bool, anchoredAtEnd: Bool) {
        self.literal = literal
        self.anchoredAtStart = anchoredAtStart
        self.anchoredAtEnd = anchoredAtEnd
    }
}

/// Everything `URLFilter.parse` finds out about one pattern.
public struct URLFilterParseResult: Sendable, Hashable {
    /// WebKit's parse status.
    public var status: URLFilterParseStatus
    /// Byte range of the offending token, when known (nil for accepted patterns and `emptyPattern`).
    public var errorSpan: Range<Int>?
    /// For `yarrError`: what YARR found wrong, in words (`a \`(\` that is never closed`); WebKit says
    /// only "Internal error in YARR.".
    public var errorReason: String?
    /// `status == .matchesEverything`: the pattern matches every URL and never goes to PCRE2.
    public var matchesEverything: Bool { status == .matchesEverything }
    /// The pattern began with `^`.
    public var isAnchoredAtStart: Bool = false
    /// PCRE2 source with WebKit's semantics; nil unless `status == .ok`.
    ///
    /// Self-contained: compile it with **no** options (no `PCRE2_CASELESS`, no `PCRE2_DOTALL`). A
    /// case-insensitive pattern starts with `(?i)` and its classes are already closed under ASCII case
    /// folding (so `[A-z]` keeps WebKit's meaning); `^` is `\A`, `$`/`\0` are `\z`, `.` is
    /// `[\x{01}-\x{7f}]`, groups are non-capturing. Literals take their shortest exact spelling: a
    /// metacharacter as `\` + itself (`\.`, `\?`), other printable ASCII as itself (`/`, `:`), a
    /// control character as `\x{hh}`; a letter is written once (lower case) under `(?i)`.
    /// A pattern of more than about 30,000 literal terms can exceed PCRE2's compiled-size limit
    /// (error 120); `plainLiteral` / `requiredLiteral` still describe such patterns.
    /// Search it (unanchored match) in the serialized URL's bytes; a search hit is a WebKit match.
    public var pcre2Pattern: String?
    /// A literal every matching URL contains (lower-cased when case-insensitive), the longest found on
    /// the top level of the normalized terms; nil when there is none. Only for `ok` patterns.
    public var requiredLiteral: String?
    /// Set when the whole normalized pattern is a plain literal. Only for `ok` patterns.
    public var plainLiteral: PlainLiteral?
    /// For an `ok` case-insensitive pattern that begins with WebKit's host anchor
    /// `^[htpsw]+://([a-z0-9-]+\.)?`: the literal every matching URL holds right after the scheme's
    /// `://` or the first label's dot (lower-cased, possibly empty); `nil` otherwise.
    public var hostAnchorHead: String?
    /// What a search for ``pcre2Pattern`` can be told in advance (``URLFilterSearchFacts``); nil unless
    /// `status == .ok`.
    public var searchFacts: URLFilterSearchFacts?
    /// The normalized terms (spec §3.4), for `ok` and `matchesEverything`.
    public var terms: URLFilterTermTree?

    /// Creates a result with only a status.
    public init(status: URLFilterParseStatus, errorSpan: Range<Int>?) {
        self.status = status
        self.errorSpan = errorSpan
    }
}
