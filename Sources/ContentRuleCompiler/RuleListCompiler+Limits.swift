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

        /// The value of `rules[index]` (read field by field: a copy of the rule retains its strings).
        init(_ rules: [CompiledRule], _ index: Int) {
            slot = rules[index].actionSlot
            resourceTypes = rules[index].resourceTypes.rawValue
            loadTypes = rules[index].loadTypes.rawValue
            loadContexts = rules[index].loadContexts.rawValue
            requestMethod = rules[index].requestMethod
            condition = rules[index].condition?.kind
        }
    }

    /// WebKit keeps the match-everything url-filters of a list as a set of distinct
    /// ``StateActionValue``s, and aborts the process at 65,535 of them (release assert "Too many
    /// uncombined actions that match everything", `ContentExtensionCompiler.cpp`); likewise the
    /// match-everything values of top-URL and of frame-URL conditions (each their own automaton). The
    /// spec asks a reimplementation to reject such a list; it stays valid here, with this warning.
    /// The limit and what counts toward it were checked with the WebKitGTK compile oracle
    /// (`Documentation/DECISIONS.md`, the row on match-everything values).
    static func universalActionWarning(_ rules: [CompiledRule]) -> RuleListDiagnostic? {
        var values = Set<StateActionValue>()
        var conditionValues: [Bool: Set<StateActionValue>] = [:]  // by "tests the frame URL"
        for index in rules.indices {
            if rules[index].urlFilter.pcre2Pattern == nil {
                values.insert(StateActionValue(rules, index))
                if values.count == universalActionLimit {
                    return universalActionDiagnostic(rules[index], keyPath: "trigger.url-filter", what: "url-filter")
                }
            }
            guard let kind = rules[index].condition?.kind,
                rules[index].condition?.patterns.contains(where: { $0.pcre2Pattern == nil }) == true
            else { continue }
            let frame = kind.testsFrameURL
            conditionValues[frame, default: []].insert(StateActionValue(rules, index))
            if conditionValues[frame]?.count == universalActionLimit {
                return universalActionDiagnostic(
                    rules[index], keyPath: "trigger.\(kind.rawValue)", what: "\(kind.rawValue) value")
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
                + " or flags", allowed: "\(universalActionLimit - 1)")
    }

    /// The warning at `rule`: WebKit aborts compiling the list, `detail` says why and `allowed` what
    /// WebKit allows.
    private static func abortWarning(_ rule: CompiledRule, keyPath: String, detail: String, allowed: String)
        -> RuleListDiagnostic
    {
        RuleListDiagnostic(
            nil, severity: .warning, ruleIndex: Int(rule.sourceIndex), keyPath: keyPath,
            detail: "WebKit aborts compiling this list: \(detail) (WebKit allows \(allowed);"
                + " rules with a condition never share one)")
    }

    /// The number of distinct match-everything values at which WebKit aborts (spec §5.7).
    static let universalActionLimit = 65_535

    /// Rules whose url-filters WebKit reads as the same terms end on one state of its automaton, which
    /// holds their distinct ``StateActionValue``s; at more than 65,535 WebKit aborts the process
    /// (release assert "Too many actions for the current DFANode size.", `DFA` construction in
    /// `NFAToDFA.cpp`, spec §5.7). So do the rules that share a condition value (the same domain, or
    /// top-URL or frame-URL pattern), in the automaton of their conditions. Two patterns are the same
    /// terms when their PCRE2 translations are equal (the translation spells each term one way: `\/`
    /// and `/` are one term). Conditions of any kind share the state, `if` with `unless`, and domains
    /// count in the top-URL automaton, where WebKit adds their generated patterns. Each of these was
    /// checked with the WebKitGTK compile oracle (`Documentation/DECISIONS.md`, the row on actions
    /// per url-filter).
    ///
    /// Not detected: different terms that WebKit's automaton still reaches together (a lower-case URL
    /// reaches a case-sensitive and a case-insensitive spelling of one url-filter), which depends on
    /// how WebKit splits a large list into automata; condition values that match everything (counted
    /// by ``universalActionWarning(_:)``).
    static func nodeActionWarning(_ rules: [CompiledRule]) -> RuleListDiagnostic? {
        // Each value comes from a rule of its own: a list of at most 65,535 rules is below the limit.
        guard rules.count > nodeActionLimit else { return nil }
        /// Url-filters by their translation; condition values by their automaton (top URL: domains,
        /// whose generated patterns WebKit adds to it, and top-URL patterns; frame URL), `if` with
        /// `unless`, then their translation.
        struct Key: Hashable {
            var automaton: UInt8  // 0 url-filter, 1 top URL (domains too), 2 frame URL
            var pattern: String
        }
        /// Calls `body` with each key of `rules[index]` until it returns true.
        func keys(of index: Int, _ body: (Key, _ keyPath: String) -> Bool) -> Bool {
            if let pattern = rules[index].urlFilter.pcre2Pattern,
                body(Key(automaton: 0, pattern: pattern), "url-filter")
            {
                return true
            }
            guard let kind = rules[index].condition?.kind, let count = rules[index].condition?.patterns.count else {
                return false
            }
            let automaton: UInt8 = kind.testsFrameURL ? 2 : 1
            for entry in 0..<count {
                if let pattern = rules[index].condition?.patterns[entry].pcre2Pattern,
                    body(Key(automaton: automaton, pattern: pattern), kind.rawValue)
                {
                    return true
                }
            }
            return false
        }
        // Only a key met more than 65,535 times can reach the limit: first the keys are counted in
        // 65,536 buckets by hash (a flat array: no dictionary of strings), then the values of the keys
        // of a bucket that passed 65,535 are collected (for most lists, none).
        var buckets = [Int32](repeating: 0, count: 1 << 16)
        var crowded = false
        for index in rules.indices {
            _ = keys(of: index) { key, _ in
                let bucket = Self.bucket(of: key.pattern, key.automaton)
                buckets[bucket] += 1
                crowded = crowded || buckets[bucket] > nodeActionLimit
                return false
            }
        }
        guard crowded else { return nil }
        var values: [Key: Set<StateActionValue>] = [:]
        for index in rules.indices {
            var keyPath: String?
            let value = StateActionValue(rules, index)
            _ = keys(of: index) { key, path in
                guard buckets[Self.bucket(of: key.pattern, key.automaton)] > nodeActionLimit,
                    values[key, default: []].insert(value).inserted, values[key]?.count == nodeActionLimit + 1
                else { return false }
                keyPath = path
                return true
            }
            if let keyPath {
                let what = keyPath == "url-filter" ? keyPath : keyPath + " value"
                return nodeActionDiagnostic(rules[index], keyPath: "trigger." + keyPath, what: what)
            }
        }
        return nil
    }

    /// One of 65,536 buckets for a pattern of an automaton: a multiplicative hash of its UTF-8, 8
    /// bytes at a time (`String`'s own seeded hash costs several times as much, on every rule of
    /// every list; `Benchmarks/results/2026-12-03-notes.md`).
    private static func bucket(of pattern: String, _ automaton: UInt8) -> Int {
        let multiplier: UInt64 = 0xD6E8_FEB8_6659_FD93
        var copy = pattern
        let hash = copy.withUTF8 { bytes -> UInt64 in
            let raw = UnsafeRawBufferPointer(bytes)
            var hash = UInt64(automaton) &+ 0x9E37_79B9_7F4A_7C15
            var offset = 0
            while offset + 8 <= raw.count {
                hash = (hash ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* multiplier
                offset += 8
            }
            while offset < raw.count {
                hash = (hash ^ UInt64(raw[offset])) &* multiplier
                offset += 1
            }
            return hash
        }
        return Int(truncatingIfNeeded: hash >> 48)
    }

    private static func nodeActionDiagnostic(_ rule: CompiledRule, keyPath: String, what: String) -> RuleListDiagnostic
    {
        abortWarning(
            rule, keyPath: keyPath,
            detail: "this rule is the \(nodeActionLimit + 1)th with this \(what) (as WebKit reads it) and its own"
                + " action or flags", allowed: "\(nodeActionLimit) on one state of its automaton")
    }

    /// The most distinct values one state of WebKit's automaton holds (spec §5.7).
    static let nodeActionLimit = 65_535
}
