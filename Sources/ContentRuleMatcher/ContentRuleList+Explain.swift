public import ContentRuleModel
import PCRE2Support

/// What became of one rule whose url-filter matched a load (``ContentRuleList/explain(_:)``).
public struct RuleTrace: Sendable, Hashable {
    /// What stopped a rule whose url-filter matched.
    public enum Stop: Sendable, Hashable {
        /// Its `resource-type` does not name the load's type.
        case resourceType
        /// Its `load-type` is not the load's (first- or third-party).
        case loadType
        /// Its `load-context` is not the load's frame.
        case loadContext
        /// Its `request-method` is not the load's.
        case requestMethod
        /// Its condition did not hold: no value matched the URL it tests (for `if-…`), or one did (for
        /// `unless-…`); for a rule with a `request-method`, WebKit holds an `if-` condition false and an
        /// `unless-` condition true whatever the URL (spec §4.6).
        case condition(TriggerCondition.Kind)
    }

    /// The rule's index in the JSON array of the list.
    public var rule: Int
    /// Its url-filter matches every URL (such rules are reached once per page, not per load).
    public var matchesEveryURL: Bool
    /// What stopped it, or `nil` when it fired.
    public var stoppedBy: Stop?

    /// Whether the rule fired.
    public var fired: Bool { stoppedBy == nil }
}

extension ContentRuleList {
    /// Every rule whose url-filter matches `load`'s URL, in list order, and what became of it: fired,
    /// or the first check that stopped it — resource type, load type, load context, request method,
    /// then the condition — the checks ``referenceActions(for:)`` makes, one at a time. The fired
    /// rules are ``ContentRuleListActions/firedRules`` of the load (`ExplainTests` checks it);
    /// `css-display-none` rules of the global stylesheet are not rules of the compiled list and are not
    /// here.
    ///
    /// - Complexity: O(rules × URL length) in the worst case, as the reference strategy: one pattern
    ///   search per rule.
    public func explain(_ load: ResourceLoadInfo) -> [RuleTrace] {
        guard load.isEvaluated else { return [] }
        var url = load.url.serialization
        var top = load.mainDocumentURL?.serialization ?? ""
        var frame = load.frameURL?.serialization ?? ""
        let flags = LoadFlags(load)
        let scratch = PCRE2Scratch.forCurrentThread
        var traces: [RuleTrace] = []
        // The url-filters are tested with the fast strategy's prefilters (the lower-cased URL: required
        // literals and mandatory runs before PCRE2, one answer per shared pattern), which give PCRE2's
        // answer (the differential tests keep them equal) far faster than a search per rule.
        url.withUTF8 { urlBytes in
            top.withUTF8 { topBytes in
                frame.withUTF8 { frameBytes in
                    LoweredURL.with(urlBytes) { lowered in
                        for number in 0..<rules.ruleCount {
                            let rule = rules.rule(number)
                            guard patternMatches(rule.pattern, urlBytes, prefilter: lowered, scratch) else { continue }
                            var stop = Self.stoppingFlag(rule, flags)
                            if stop == nil, let condition = rule.condition {
                                let kind = rules.condition(condition).kind
                                let holds = Self.conditionHolds(kind, method: rule.method) {
                                    conditionPatternsMatch(
                                        condition, kind.testsFrameURL ? frameBytes : topBytes, scratch)
                                }
                                if !holds { stop = .condition(kind) }
                            }
                            traces.append(
                                RuleTrace(
                                    rule: Int(rules.sourceIndex(ofRule: number)), matchesEveryURL: rule.entry == 3,
                                    stoppedBy: stop))
                        }
                    }
                }
            }
        }
        return traces
    }

    /// The first of a rule's flags that does not admit the load, in WebKit's order, or nil when they
    /// all do (``flagsAdmit(_:_:)``, which the matchers use, says the same in one expression).
    static func stoppingFlag(_ rule: RuleRecord, _ load: LoadFlags) -> RuleTrace.Stop? {
        if rule.resourceTypes != 0 && rule.resourceTypes & load.resourceType == 0 { return .resourceType }
        if rule.loadTypes != 0 && rule.loadTypes & load.loadType == 0 { return .loadType }
        if rule.loadContexts != 0 && rule.loadContexts & load.loadContext == 0 { return .loadContext }
        if rule.method != 0 && rule.method != load.method { return .requestMethod }
        return nil
    }
}
