import ContentRuleFormat
import ContentRuleModel
import RuleListParser

/// The lists WebKit accepts and then aborts on (release asserts of its DFA compiler, spec §5.7): valid
/// here (our format has no such limits), with a warning at the rule that reaches the limit.
extension RuleListCompiler {
    /// The warnings of ``universalActionWarning(_:)`` and ``nodeActionWarning(_:)``, in that order.
    static func webKitAbortWarnings(_ rules: [CompiledRule]) -> [RuleListDiagnostic] {
        [universalActionWarning(rules), nodeActionWarning(rules)].compactMap { $0 }
    }

    /// What WebKit keeps of a rule on an automaton state: its action location and its flags. Rules
    /// with a condition each have their own action location; rules without one share a location when
    /// their actions are combined (our action slots are assigned the same way).
    struct StateActionValue: Hashable {
        var slot: UInt32
        var resourceTypes: ResourceType.RawValue
        var loadTypes: LoadTypes.RawValue
        var loadContexts: LoadContexts.RawValue
        var requestMethod: RequestMethod?
        var condition: TriggerCondition.Kind?

        init(_ rule: CompiledRule) {
            slot = rule.actionSlot
            resourceTypes = rule.resourceTypes.rawValue
            loadTypes = rule.loadTypes.rawValue
            loadContexts = rule.loadContexts.rawValue
            requestMethod = rule.requestMethod
            condition = rule.condition?.kind
        }
    }

    /// WebKit keeps the match-everything url-filters of a list as a set of distinct
    /// ``StateActionValue``s, and aborts the process at 65,535 of them (release assert "Too many
    /// uncombined actions that match everything", `ContentExtensionCompiler.cpp`); likewise the
    /// match-everything values of top-URL and of frame-URL conditions (each their own automaton). The
    /// spec asks a reimplementation to reject such a list; it stays valid here, with this warning.
    /// WebKitGTK 2.50.6 (oracle): 65,534 conditioned `.*` rules compile, 65,535 abort; 70,000 of them
    /// with one selector, one `block` action or one `if-domain` abort; 70,000 without a condition (one
    /// action, or selectors that combine) compile; 65,534 rules of their own url-filters with
    /// `if-top-url: [".*"]` compile, 65,535 abort.
    static func universalActionWarning(_ rules: [CompiledRule]) -> RuleListDiagnostic? {
        var values = Set<StateActionValue>()
        var conditionValues: [Bool: Set<StateActionValue>] = [:]  // by "tests the frame URL"
        for rule in rules {
            if rule.urlFilter.matchesEverything {
                values.insert(StateActionValue(rule))
                if values.count == universalActionLimit {
                    return universalActionDiagnostic(rule, keyPath: "trigger.url-filter", what: "url-filter")
                }
            }
            guard let condition = rule.condition, condition.patterns.contains(where: \.matchesEverything) else {
                continue
            }
            let frame = condition.kind.testsFrameURL
            conditionValues[frame, default: []].insert(StateActionValue(rule))
            if conditionValues[frame]?.count == universalActionLimit {
                return universalActionDiagnostic(
                    rule, keyPath: "trigger.\(condition.kind.rawValue)", what: "\(condition.kind.rawValue) value")
            }
        }
        return nil
    }

    private static func universalActionDiagnostic(_ rule: CompiledRule, keyPath: String, what: String)
        -> RuleListDiagnostic
    {
        abortWarning(
            rule, keyPath: keyPath,
            detail: "this rule is the \(universalActionLimit)th whose \(what) matches everything with its own action"
                + " or flags (WebKit allows \(universalActionLimit - 1)")
    }

    /// The warning at `rule`: WebKit aborts compiling the list, `detail` says why.
    private static func abortWarning(_ rule: CompiledRule, keyPath: String, detail: String) -> RuleListDiagnostic {
        RuleListDiagnostic(
            nil, severity: .warning, ruleIndex: Int(rule.sourceIndex), keyPath: keyPath,
            detail: "WebKit aborts compiling this list: " + detail + "; rules with a condition never share one)")
    }

    /// The number of distinct match-everything values at which WebKit aborts (spec §5.7).
    static let universalActionLimit = 65_535

    /// Rules whose url-filters WebKit reads as the same terms end on one state of its automaton, which
    /// holds their distinct ``StateActionValue``s; at more than 65,535 WebKit aborts the process
    /// (release assert "Too many actions for the current DFANode size.", `DFA` construction in
    /// `NFAToDFA.cpp`, spec §5.7). So do the rules that share a condition value (the same domain, or
    /// top-URL or frame-URL pattern), in the automaton of their conditions. Two patterns are the same
    /// terms when their PCRE2 translations are equal (the translation spells each term one way: `\/`
    /// and `/` are one term).
    ///
    /// WebKitGTK 2.50.6 (oracle): 65,535 rules with `^[htpsw]+:\/\/` and an `if-domain` each compile,
    /// 65,536 (also of two resource types, the last one `^[htpsw]+://` without a condition, or 65,534
    /// with `if-top-url` and two without a condition: conditions of any kind share the state) abort;
    /// 65,536 `notify` rules with their own messages abort; 65,536 css-display-none rules without a
    /// condition compile (their selectors combine). 65,535 rules of their own url-filters with
    /// `if-domain: ["example.com"]` compile, 65,536 abort (also with `if-top-url: ["example"]`, or half
    /// of them `unless-domain`: `if` and `unless` share the state); half `example.com`, half
    /// `*example.com` compile (two values).
    ///
    /// Not detected: different terms that WebKit's automaton still reaches together — 65,536
    /// conditioned rules on `adbanner`, half of them case-sensitive, abort WebKit too (the lower-case
    /// URL reaches both) — which depends on how WebKit splits a large list into automata; condition
    /// values that match everything.
    static func nodeActionWarning(_ rules: [CompiledRule]) -> RuleListDiagnostic? {
        /// The distinct values of one pattern: the first, then a set of the others once there are
        /// (most patterns have one rule).
        struct Values {
            let first: StateActionValue
            var others: Set<StateActionValue> = []

            /// Adds `value`; the number of distinct values when it is new, else 0.
            mutating func add(_ value: StateActionValue) -> Int {
                value != first && others.insert(value).inserted ? 1 + others.count : 0
            }
        }
        // Url-filters by their translation; condition values by their automaton (domains, top-URL and
        // frame-URL patterns, each `if` with its `unless`), then their translation.
        var byPattern: [String: Values] = [:]
        func reachesLimit(_ key: String, _ value: StateActionValue) -> Bool {
            // In place (a copy of the entry would copy its set at each insertion).
            byPattern[key, default: Values(first: value)].add(value) == nodeActionLimit + 1
        }
        for rule in rules {
            let value = StateActionValue(rule)
            if let pattern = rule.urlFilter.pcre2Pattern, reachesLimit(pattern, value) {
                return nodeActionDiagnostic(rule, keyPath: "trigger.url-filter", what: "url-filter")
            }
            guard let condition = rule.condition else { continue }
            let automaton =
                condition.kind.isDomain ? "\u{1}domain " : condition.kind.testsFrameURL ? "\u{1}frame " : "\u{1}top "
            for entry in condition.patterns {
                guard let pattern = entry.pcre2Pattern, reachesLimit(automaton + pattern, value) else { continue }
                return nodeActionDiagnostic(
                    rule, keyPath: "trigger.\(condition.kind.rawValue)", what: "\(condition.kind.rawValue) value")
            }
        }
        return nil
    }

    private static func nodeActionDiagnostic(_ rule: CompiledRule, keyPath: String, what: String) -> RuleListDiagnostic
    {
        abortWarning(
            rule, keyPath: keyPath,
            detail: "this rule is the \(nodeActionLimit + 1)th with this \(what) (as WebKit reads it) and its own"
                + " action or flags (WebKit allows \(nodeActionLimit) on one state of its automaton")
    }

    /// The most distinct values one state of WebKit's automaton holds (spec §5.7).
    static let nodeActionLimit = 65_535
}
