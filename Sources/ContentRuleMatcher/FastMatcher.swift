import ContentRuleFormat
import ContentRuleModel

/// The indexes behind ``ContentRuleList/actions(for:)``: which rules can fire for a request, found
/// without looking at every rule, and the cheap per-rule checks done before any regex.
///
/// Every rule has exactly one way in:
/// - **literal**: its url-filter has a required literal of at least 4 bytes (``RequiredLiteral``);
///   it is filed in the ``LiteralIndex`` and becomes a candidate when the URL contains its gram;
/// - **domain**: its url-filter has no such literal, it has an `if-domain` condition that the
///   ``DomainConditionIndex`` holds entirely, and no `request-method`; it becomes a candidate when one of
///   its domains matches the top URL;
/// - **always**: every other rule (universal filters without a usable condition, short literals).
///
/// Candidates are checked in rule order with the same tests as the reference strategy, so the set of
/// fired rules, and therefore every answer, is the same.
struct FastMatcher: Sendable {
    /// Flag masks per rule; an empty set in the rule is stored as "all bits".
    struct RuleFlags: Sendable {
        var resourceTypes: UInt16
        var loadTypes: UInt8
        var loadContexts: UInt8
    }

    /// How a rule's url-filter is verified.
    enum Filter: Sendable {
        case everything
        /// A plain literal: exact byte comparison against the URL (lower-cased URL when the literal
        /// is case-insensitive, since it is stored lower-cased).
        case literal(bytes: [UInt8], caseSensitive: Bool, anchoredAtStart: Bool, anchoredAtEnd: Bool)
        /// A regex, tried only when the lower-cased URL contains `required` (lower-cased).
        case regex(required: [UInt8]?)
    }

    let flags: [RuleFlags]
    let filters: [Filter]
    /// Whether the rule's condition is decided by ``domainIndex`` (plus ``domainFallbacks``).
    let usesDomainIndex: [Bool]
    /// Per rule: positions of its domain-condition patterns that the tables cannot hold, tried with PCRE2.
    let domainFallbacks: [[Int]]
    /// Whether the rule comes in through ``domainIndex`` (rather than the literal index or always).
    let domainDriven: [Bool]
    let literalIndex: LiteralIndex
    let domainIndex: DomainConditionIndex
    /// Rules checked on every request, ascending.
    let alwaysChecked: [Int32]

    /// - Complexity: O(total pattern length) plus hashing.
    init(_ compiled: CompiledRuleList) {
        var flags: [RuleFlags] = []
        var filters: [Filter] = []
        var usesDomainIndex: [Bool] = []
        var domainDriven: [Bool] = []
        var domainFallbacks: [[Int]] = []
        var literals: [(rule: Int32, literal: [UInt8])] = []
        var domainIndex = DomainConditionIndex()
        var alwaysChecked: [Int32] = []
        flags.reserveCapacity(compiled.rules.count)
        for (position, rule) in compiled.rules.enumerated() {
            let number = Int32(position)
            flags.append(
                RuleFlags(
                    resourceTypes: rule.resourceTypes.isEmpty ? .max : rule.resourceTypes.rawValue,
                    loadTypes: rule.loadTypes.isEmpty ? .max : rule.loadTypes.rawValue,
                    loadContexts: rule.loadContexts.isEmpty ? .max : rule.loadContexts.rawValue))
            let required = RequiredLiteral.extract(from: rule.urlFilter)
            if rule.urlFilter.matchesEverything {
                filters.append(.everything)
            } else if let literal = rule.urlFilter.literal {
                filters.append(
                    .literal(
                        bytes: Array(literal.text.utf8), caseSensitive: rule.urlFilter.caseSensitive,
                        anchoredAtStart: literal.anchoredAtStart, anchoredAtEnd: literal.anchoredAtEnd))
            } else {
                filters.append(.regex(required: required))
            }
            var domainCondition = false
            var fallbacks: [Int] = []
            if let condition = rule.condition, condition.kind.isDomain, rule.requestMethod == nil {
                domainIndex.add(rule: number, condition: condition)
                domainCondition = true
                fallbacks = condition.patterns.indices.filter { !DomainConditionIndex.supports(condition.patterns[$0]) }
            }
            usesDomainIndex.append(domainCondition)
            domainFallbacks.append(fallbacks)
            if let required, required.count >= LiteralIndex.gramLength, !required.contains(0) {
                literals.append((number, required))
                domainDriven.append(false)
            } else if domainCondition, fallbacks.isEmpty, rule.condition?.kind == .ifDomain {
                domainDriven.append(true)
            } else {
                alwaysChecked.append(number)
                domainDriven.append(false)
            }
        }
        self.flags = flags
        self.filters = filters
        self.usesDomainIndex = usesDomainIndex
        self.domainFallbacks = domainFallbacks
        self.domainDriven = domainDriven
        self.literalIndex = LiteralIndex(literals: literals)
        self.domainIndex = domainIndex
        self.alwaysChecked = alwaysChecked
    }

    /// Rule numbers that may fire for a request, ascending and unique, and the rules whose domain
    /// condition has a matching entry for the top URL (ascending).
    func candidates(
        lowercasedURL: UnsafeBufferPointer<UInt8>, top: UnsafeBufferPointer<UInt8>
    ) -> (candidates: [Int32], domainMatches: [Int32]) {
        var candidates = alwaysChecked
        literalIndex.collect(lowercasedURL, into: &candidates)
        let domainMatches = domainIndex.isEmpty ? [] : domainIndex.matchingRules(top: top)
        for rule in domainMatches where domainDriven[Int(rule)] { candidates.append(rule) }
        candidates.sort()
        var unique = 0
        for value in candidates where unique == 0 || candidates[unique - 1] != value {
            candidates[unique] = value
            unique += 1
        }
        candidates.removeLast(candidates.count - unique)
        return (candidates, domainMatches)
    }

    /// The url-filter test for `rule` without PCRE2, or `nil` when the regex must decide.
    @inline(__always)
    func filterMatches(
        _ rule: Int, url: UnsafeBufferPointer<UInt8>, lowercasedURL: UnsafeBufferPointer<UInt8>
    ) -> Bool? {
        switch filters[rule] {
        case .everything:
            return true
        case .literal(let bytes, let caseSensitive, let anchoredAtStart, let anchoredAtEnd):
            let subject = caseSensitive ? url : lowercasedURL
            let count = bytes.count
            guard count <= subject.count else { return false }
            if anchoredAtStart && anchoredAtEnd { return count == subject.count && Self.equal(bytes, subject, at: 0) }
            if anchoredAtStart { return Self.equal(bytes, subject, at: 0) }
            if anchoredAtEnd { return Self.equal(bytes, subject, at: subject.count - count) }
            return Self.contains(subject, bytes)
        case .regex(let required):
            if let required, !Self.contains(lowercasedURL, required) { return false }
            return nil
        }
    }

    @inline(__always)
    static func equal(_ needle: [UInt8], _ subject: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
        var index = 0
        while index < needle.count {
            if subject[start + index] != needle[index] { return false }
            index += 1
        }
        return true
    }

    /// Substring search: scan for the first byte, then compare.
    static func contains(_ subject: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
        guard let first = needle.first else { return true }
        let last = subject.count - needle.count
        guard last >= 0 else { return false }
        var start = 0
        while start <= last {
            if subject[start] == first && equal(needle, subject, at: start) { return true }
            start += 1
        }
        return false
    }
}
