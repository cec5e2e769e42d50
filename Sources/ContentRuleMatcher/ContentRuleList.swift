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

    /// Prepares a compiled list: compiles every url-filter and condition pattern with PCRE2.
    ///
    /// - Complexity: O(total pattern length).
    /// - Throws: ``ContentRuleListLoadError`` if a pattern does not compile (a damaged or foreign file).
    public init(identifier: String, compiled: CompiledRuleList, extensionBaseURL: WebURL? = nil) throws(ContentRuleListLoadError) {
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
                for pattern in condition.patterns { prepared.append(try PreparedPattern(pattern, rule: rule.sourceIndex)) }
                conditions.append(prepared)
            } else {
                conditions.append(nil)
            }
        }
        self.urlFilters = urlFilters
        self.conditions = conditions
    }

    /// Loads a binary rule list file written by `content-blocker compile`.
    /// - Throws: ``ContentRuleListLoadError`` for I/O errors, damaged files and wrong versions.
    public convenience init(identifier: String, contentsOfFile path: String, extensionBaseURL: WebURL? = nil) throws(ContentRuleListLoadError) {
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
        case .pattern(let rule, let pattern, let error): return "rule \(rule): pattern \(pattern) does not compile: \(error)"
        }
    }
}

/// A pattern with its PCRE2 code; `regex == nil` matches everything.
struct PreparedPattern: Sendable {
    let regex: PCRE2Regex?

    init(_ pattern: CompiledPattern, rule: UInt32) throws(ContentRuleListLoadError) {
        guard let source = pattern.pcre2Pattern else {
            regex = nil
            return
        }
        var options: PCRE2Options = [.dotAll]
        if !pattern.caseSensitive { options.insert(.caseless) }
        do {
            regex = try PCRE2Regex(source, options: options)
        } catch {
            throw .pattern(rule: rule, pattern: pattern.source, error: error.description)
        }
    }

    func matches(_ subject: UnsafeBufferPointer<UInt8>, scratch: PCRE2Scratch) -> Bool {
        guard let regex else { return true }
        return regex.matches(subject, scratch: scratch)
    }
}
