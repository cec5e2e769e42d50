import ContentRuleFormat
import ContentRuleModel
import Locking
import RuleListParser
import URLFilterSyntax

/// Compiles the url-filter and condition patterns of rules, remembering each distinct
/// (pattern, kind, case-sensitivity) within one compile: the same domain appears in thousands of rules.
struct PatternCompiler {
    typealias RulePatterns = (urlFilter: CompiledPattern, condition: CompiledCondition?)

    private struct Key: Hashable {
        var text: String
        var isDomain: Bool
        var caseSensitive: Bool
    }

    private var cache: [Key: Swift.Result<CompiledPattern, RuleListCompiler.PatternFailure>] = [:]

    /// Below this many rules, one thread does all the work.
    static let parallelThreshold = 4096

    /// Every rule's patterns (for rules without error) and, in rule order, one diagnostic per faulty rule.
    /// Large lists are compiled in parts on several threads, each with its own cache; the result does
    /// not depend on the split.
    static func compileAll(_ rules: [ParsedRule]) -> ([RulePatterns], [RuleListDiagnostic]) {
        let outcomes = Parallel.map(count: rules.count, minimumCount: parallelThreshold) { range in
            var compiler = PatternCompiler()
            compiler.cache.reserveCapacity(2 * range.count)
            return rules[range].map { compiler.compilePatterns(of: $0) }
        }
        var patterns: [RulePatterns] = []
        patterns.reserveCapacity(rules.count)
        var diagnostics: [RuleListDiagnostic] = []
        for outcome in outcomes {
            switch outcome {
            case .success(let compiled): patterns.append(compiled)
            case .failure(let diagnostic): diagnostics.append(diagnostic)
            }
        }
        return (patterns, diagnostics)
    }

    /// Parses a rule's url-filter and condition patterns; the first invalid one is the rule's error.
    mutating func compilePatterns(of parsed: ParsedRule) -> Swift.Result<RulePatterns, RuleListDiagnostic> {
        let trigger = parsed.rule.trigger
        let urlFilter: CompiledPattern
        switch compilePattern(
            trigger.urlFilter, isDomain: false, caseSensitive: trigger.urlFilterIsCaseSensitive)
        {
        case .success(let pattern): urlFilter = pattern
        case .failure(let status):
            return .failure(
                RuleListCompiler.patternError(status, rule: parsed.index, keyPath: "trigger.url-filter"))
        }
        guard let condition = trigger.condition else { return .success((urlFilter, nil)) }
        let caseSensitive =
            condition.kind.testsFrameURL ? trigger.frameURLFilterIsCaseSensitive : trigger.topURLFilterIsCaseSensitive
        var patterns: [CompiledPattern] = []
        patterns.reserveCapacity(condition.values.count)
        for (position, value) in condition.values.enumerated() {
            switch compilePattern(value, isDomain: condition.kind.isDomain, caseSensitive: caseSensitive) {
            case .success(let compiled): patterns.append(compiled)
            case .failure(let status):
                return .failure(
                    RuleListCompiler.patternError(
                        status, rule: parsed.index, keyPath: "trigger.\(condition.kind.rawValue)[\(position)]"))
            }
        }
        return .success((urlFilter, CompiledCondition(kind: condition.kind, patterns: patterns)))
    }

    /// One pattern: `text` itself, or for a domain condition the pattern WebKit generates for it.
    /// The compiled pattern's `source` is `text`.
    mutating func compilePattern(_ text: String, isDomain: Bool, caseSensitive: Bool)
        -> Swift.Result<CompiledPattern, RuleListCompiler.PatternFailure>
    {
        let key = Key(text: text, isDomain: isDomain, caseSensitive: caseSensitive)
        if let cached = cache[key] { return cached }
        let parsed =
            isDomain
            ? URLFilter.parseDomainCondition(text, caseSensitive: caseSensitive)
            : URLFilter.parse(text, caseSensitive: caseSensitive)
        let result = Self.compile(parsed, source: text, caseSensitive: caseSensitive)
        cache[key] = result
        return result
    }

    static func compile(_ parsed: URLFilterParseResult, source: String, caseSensitive: Bool)
        -> Swift.Result<CompiledPattern, RuleListCompiler.PatternFailure>
    {
        switch parsed.status {
        case .matchesEverything:
            return .success(CompiledPattern(source: source, pcre2Pattern: nil, caseSensitive: caseSensitive))
        case .ok:
            guard let pcre2 = parsed.pcre2Pattern else {
                return .failure(RuleListCompiler.PatternFailure(parsed, source: source))
            }
            let literal = parsed.plainLiteral.map {
                LiteralPattern(text: $0.literal, anchoredAtStart: $0.anchoredAtStart, anchoredAtEnd: $0.anchoredAtEnd)
            }
            let (indexLiteral, hostAnchored) = SearchPlanning.indexLiteral(parsed, isRegex: literal == nil)
            let plan = parsed.searchFacts.map { SearchPlanning.plan($0, indexLiteral: indexLiteral) }
            return .success(
                CompiledPattern(
                    source: source, pcre2Pattern: pcre2, caseSensitive: caseSensitive, literal: literal,
                    requiredLiteral: indexLiteral, hostAnchored: hostAnchored, searchPlan: plan,
                    scaffold: literal == nil ? SearchPlanning.scaffold(pcre2) : nil))
        default:
            return .failure(RuleListCompiler.PatternFailure(parsed, source: source))
        }
    }
}
