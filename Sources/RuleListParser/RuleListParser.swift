public import ContentRuleModel
import Locking

/// One rule that survived parsing, with its position in the JSON array.
public struct ParsedRule: Sendable, Hashable {
    /// Index of the rule object in the top-level JSON array.
    public var index: Int
    public var rule: ContentRule

    public init(index: Int, rule: ContentRule) {
        self.index = index
        self.rule = rule
    }
}

/// What ``RuleListParser`` found in a rule list.
public struct RuleListParseResult: Sendable {
    /// Rules that survived, in array order.
    public var rules: [ParsedRule]
    /// Every rule's first error in the order WebKit meets them (so `first` is WebKit's error for the
    /// list), plus warnings (severity `.warning`) for rules WebKit drops silently.
    public var diagnostics: [RuleListDiagnostic]
    /// Length of the top-level array (0 when the document is not an array).
    public var ruleCount: Int

    public init(rules: [ParsedRule] = [], diagnostics: [RuleListDiagnostic] = [], ruleCount: Int = 0) {
        self.rules = rules
        self.diagnostics = diagnostics
        self.ruleCount = ruleCount
    }

    /// The diagnostics with severity `.error`; non-empty means WebKit rejects the list.
    public var errors: [RuleListDiagnostic] { diagnostics.filter { $0.severity == .error } }
}

/// Parses a JSON content rule list with WebKit's validation and errors.
///
/// Mirrors `parseRuleList`/`loadEncodedRules`/`loadRule`/`loadTrigger`/`loadAction`
/// (`Source/WebCore/contentextensions/ContentExtensionParser.cpp`) and `RedirectAction::parse`,
/// `ModifyHeadersAction::parse` (`ContentExtensionActions.cpp`). Regular expressions are *not*
/// checked here (WebKit checks them while compiling; `JSONInvalidRegex` comes later).
///
/// Unlike WebKit, which stops at the first error, the parser reports the first error of *every*
/// rule, so `diagnostics.first` is WebKit's error and a list maintainer sees all problems.
public struct RuleListParser {
    public struct Options: Sendable {
        /// More top-level elements than this → `JSONTooManyRules` (WebKit: 150,000).
        public var maximumRuleCount = 150_000
        /// When false, every `css-display-none` rule is skipped (with a warning), as WebKit's
        /// declarativeNetRequest path does.
        public var allowsCSSDisplayNone = true
        public init() {}
    }

    /// Parses a JSON rule list given as UTF-8 bytes. Never throws; problems are diagnostics.
    /// - Complexity: O(n) in the input size (plus the CSS selector checks, linear in selector size).
    public static func parse(_ json: some Collection<UInt8>, options: Options = .init()) -> RuleListParseResult {
        switch JSONReader.parse(json) {
        case .failure(let error):
            return RuleListParseResult(
                diagnostics: locatedInFileOrder(
                    [
                        RuleListDiagnostic(
                            .jsonInvalid, byteOffset: error.byteOffset,
                            detail: error.reason + (looksLikeJSONLines(json) ? jsonLinesHint : ""))
                    ], json: json))
        case .success(let value):
            var result = parse(value: value, options: options)
            result.diagnostics = locatedInFileOrder(result.diagnostics, json: json)
            return result
        }
    }

    /// Parses a JSON rule list given as a string. Never throws; problems are diagnostics.
    public static func parse(_ json: String, options: Options = .init()) -> RuleListParseResult {
        parse(Array(json.utf8), options: options)
    }

    /// Validates an already-read JSON document as a rule list.
    public static func parse(value: JSONValue, options: Options = .init()) -> RuleListParseResult {
        guard case .array(let elements) = value else {
            return RuleListParseResult(diagnostics: [RuleListDiagnostic(.jsonTopLevelStructureNotAnArray)])
        }
        var result = RuleListParseResult(ruleCount: elements.count)
        if elements.count > options.maximumRuleCount {
            result.diagnostics.append(
                RuleListDiagnostic(
                    .jsonTooManyRules,
                    detail: "\(elements.count) rules; the maximum is \(options.maximumRuleCount)"))
        }
        result.rules.reserveCapacity(elements.count)
        let outcomes = loadRules(elements, options: options)
        for (index, outcome) in outcomes.enumerated() {
            switch outcome {
            case .rule(let rule):
                result.rules.append(ParsedRule(index: index, rule: rule))
            case .skipped(let keyPath, let detail):
                result.diagnostics.append(
                    RuleListDiagnostic(nil, severity: .warning, ruleIndex: index, keyPath: keyPath, detail: detail))
            case .failed(let failure):
                result.diagnostics.append(
                    RuleListDiagnostic(
                        failure.error, ruleIndex: index, keyPath: failure.keyPath, detail: failure.detail))
            }
        }
        if result.rules.isEmpty && result.errors.isEmpty {
            result.diagnostics.insert(RuleListDiagnostic(.jsonContainsNoRules), at: 0)
        }
        return result
    }
}

/// A rule's first error, with where it is inside the rule.
struct RuleFailure: Error, Sendable {
    var error: ContentRuleListError
    var keyPath: String?
    var detail: String? = nil

    init(_ error: ContentRuleListError, _ keyPath: String?, detail: String? = nil) {
        self.error = error
        self.keyPath = keyPath
        self.detail = detail
    }
}

enum RuleOutcome: Sendable {
    case rule(ContentRule)
    /// Dropped silently by WebKit (invalid selector, or css-display-none not allowed).
    case skipped(keyPath: String, detail: String)
    case failed(RuleFailure)
}

extension RuleListParser {
    /// Below this many rules, one thread loads them all.
    static let parallelThreshold = 4096

    /// `loadRule` for every element, in order; large lists are loaded in parts on several threads
    /// (each rule is independent, so the result does not depend on the split).
    static func loadRules(_ elements: [JSONValue], options: Options) -> [RuleOutcome] {
        Parallel.map(count: elements.count, minimumCount: parallelThreshold) { range in
            elements[range].map { loadRule($0, options: options) }
        }
    }

    /// `loadRule`: trigger first, then action. `_identifier`/`_rulesetIdentifier` are ignored.
    static func loadRule(_ element: JSONValue, options: Options) -> RuleOutcome {
        guard case .object(let ruleObject) = element else {
            return .failed(RuleFailure(.jsonInvalidRule, nil))
        }
        do throws(RuleFailure) {
            let trigger = try loadTrigger(ruleObject)
            switch try loadAction(ruleObject, urlFilter: trigger.urlFilter, options: options) {
            case .action(let action):
                return .rule(ContentRule(trigger: trigger, action: action))
            case .skip(let keyPath, let detail):
                return .skipped(keyPath: keyPath, detail: detail)
            }
        } catch {
            return .failed(error)
        }
    }
}

extension RuleListParser {
    static let jsonLinesHint =
        "; this looks like JSON Lines (one rule object per line): a rule list is one JSON array, `[rule, rule, …]`"

    /// Whether a text the JSON reader refused is JSON Lines of objects: its first two non-blank lines
    /// each start with `{` and end with `}`.
    static func looksLikeJSONLines(_ json: some Collection<UInt8>) -> Bool {
        var lines = 0
        for line in json.split(separator: 0x0A) {
            let trimmed = line.drop { [0x20, 0x09, 0x0D].contains($0) }
            guard !trimmed.isEmpty else { continue }
            let end = trimmed.reversed().drop { [0x20, 0x09, 0x0D].contains($0) }
            guard trimmed.first == 0x7B, end.first == 0x7D else { return false }
            lines += 1
            if lines == 2 { return true }
        }
        return false
    }
}
