public import ContentRuleFormat
public import ContentRuleURL
import PCRE2Support

/// A compiled content rule list ready to match, identified by a string (WebKit's `ContentExtension`).
///
/// Immutable and `Sendable`: one instance can be queried from many threads at once. Each call
/// uses its own PCRE2 match data.
public final class ContentRuleList: Sendable {
    /// The list's identifier (the CLI uses the file name without extension).
    public let identifier: String
    /// The compiled form this list was loaded from.
    public let compiled: CompiledRuleList
    /// Base URL for `redirect` `extension-path` actions (empty for plain WKContentRuleLists).
    public let extensionBaseURL: WebURL?
    let urlFilters: [PreparedPattern]
    let conditions: [[PreparedPattern]?]
    /// The candidate indexes of the fast strategy (``actions(for:)``).
    let fast: FastMatcher

    /// Prepares a compiled list: compiles every url-filter and condition pattern with PCRE2 and
    /// builds the fast strategy's literal index and domain tables.
    ///
    /// - Complexity: O(total pattern length) plus PCRE2 compilation.
    /// - Throws: ``ContentRuleListLoadError`` if a pattern does not compile (a damaged or foreign file).
    public init(identifier: String, compiled: CompiledRuleList, extensionBaseURL: WebURL? = nil)
        throws(ContentRuleListLoadError)
    {
        self.identifier = identifier
        self.compiled = compiled
        self.extensionBaseURL = extensionBaseURL
        var urlFilters: [PreparedPattern] = []
        var conditions: [[PreparedPattern]?] = []
        urlFilters.reserveCapacity(compiled.rules.count)
        conditions.reserveCapacity(compiled.rules.count)
        for rule in compiled.rules {
            urlFilters.append(try PreparedPattern(rule.urlFilter, rule: rule.sourceIndex))
            if let condition = rule.condition {
                var prepared: [PreparedPattern] = []
                for pattern in condition.patterns {
                    prepared.append(try PreparedPattern(pattern, rule: rule.sourceIndex))
                }
                conditions.append(prepared)
            } else {
                conditions.append(nil)
            }
        }
        self.urlFilters = urlFilters
        self.conditions = conditions
        self.fast = FastMatcher(compiled)
    }

    /// Loads a binary rule list file written by `content-blocker compile`.
    /// - Throws: ``ContentRuleListLoadError`` for I/O errors, damaged files and wrong versions.
    public convenience init(identifier: String, contentsOfFile path: String, extensionBaseURL: WebURL? = nil)
        throws(ContentRuleListLoadError)
    {
        let compiled: CompiledRuleList
        do {
            compiled = try BinaryRuleList.decode(try AtomicFile.read(path))
        } catch {
            throw .binary(error)
        }
        try self.init(identifier: identifier, compiled: compiled, extensionBaseURL: extensionBaseURL)
    }
}

/// Why a rule list could not be made ready to match.
public enum ContentRuleListLoadError: Error, Sendable, CustomStringConvertible {
    case binary(BinaryRuleListError)
    case pattern(rule: UInt32, pattern: String, error: String)

    public var description: String {
        switch self {
        case .binary(let error): return error.description
        case .pattern(let rule, let pattern, let error):
            return "rule \(rule): pattern \(pattern) does not compile: \(error)"
        }
    }
}

/// A pattern ready to match: a literal search, a PCRE2 regex, or "matches everything".
struct PreparedPattern: Sendable {
    enum Kind: Sendable {
        case everything
        case literal(LiteralMatcher)
        case regex(PCRE2Regex)
    }
    let kind: Kind

    /// Literal patterns need no PCRE2 code (and some, like a 100,000-character literal, exceed
    /// PCRE2's pattern size limit); others are compiled as URLFilterSyntax emitted them, with no
    /// options (case folding is inside the pattern).
    init(_ pattern: CompiledPattern, rule: UInt32) throws(ContentRuleListLoadError) {
        if pattern.matchesEverything {
            kind = .everything
        } else if let literal = pattern.literal {
            kind = .literal(LiteralMatcher(literal, caseSensitive: pattern.caseSensitive))
        } else {
            do {
                kind = .regex(try PCRE2Regex(pattern.pcre2Pattern ?? "", options: []))
            } catch {
                throw .pattern(rule: rule, pattern: pattern.source, error: error.description)
            }
        }
    }

    func matches(_ subject: UnsafeBufferPointer<UInt8>, scratch: PCRE2Scratch) -> Bool {
        switch kind {
        case .everything: return true
        case .literal(let literal): return literal.matches(subject)
        case .regex(let regex): return regex.matches(subject, scratch: scratch)
        }
    }
}

/// Substring search for a literal url-filter, ASCII case-insensitive unless case-sensitive.
struct LiteralMatcher: Sendable {
    let bytes: [UInt8]
    let caseSensitive: Bool
    let anchoredAtStart: Bool
    let anchoredAtEnd: Bool

    init(_ literal: LiteralPattern, caseSensitive: Bool) {
        bytes = Array(caseSensitive ? literal.text.utf8 : literal.text.lowercased().utf8)
        self.caseSensitive = caseSensitive
        anchoredAtStart = literal.anchoredAtStart
        anchoredAtEnd = literal.anchoredAtEnd
    }

    func matches(_ subject: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = bytes.count
        guard count <= subject.count else { return false }
        if anchoredAtStart && anchoredAtEnd { return count == subject.count && equal(subject, at: 0) }
        if anchoredAtStart { return equal(subject, at: 0) }
        if anchoredAtEnd { return equal(subject, at: subject.count - count) }
        var start = 0
        while start + count <= subject.count {
            if equal(subject, at: start) { return true }
            start += 1
        }
        return false
    }

    private func equal(_ subject: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
        for index in 0..<bytes.count {
            var byte = subject[start + index]
            if !caseSensitive && byte >= 0x41 && byte <= 0x5A { byte |= 0x20 }
            if byte != bytes[index] { return false }
        }
        return true
    }
}
