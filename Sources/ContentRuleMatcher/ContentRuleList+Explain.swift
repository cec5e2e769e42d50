import ContentRuleFormat
public import ContentRuleModel
import Locking
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
    /// Found from the indexes ``actions(for:)`` finds its candidates with, but whatever the load's
    /// flags and top URL: the rules the literal index files under a gram of the lower-cased URL, those
    /// the host index files under a prefix of its host, and every rule the indexes do not file (those
    /// reached through their `if-domain` entries, the always-checked rules, the rules whose url-filter
    /// matches every URL): a rule filed in an index whose url-filter matches the URL is among the
    /// first. Only their url-filters are tested; a top-URL condition is answered by the top URL's
    /// cached conditions (those of ``actions(for:)``), a frame-URL condition by a search per value.
    ///
    /// - Complexity: O(URL length + c log c + (c + u) × URL length) in the worst case, for the c rules
    ///   the indexes give for the URL and the u rules they do not file (found once per list, O(rules)):
    ///   what ``actions(for:)`` costs, with every one of the u rules instead of those the top URL and
    ///   flags select; plus, once per distinct top URL and flags, what ``actions(for:)`` computes for
    ///   them (the same cache).
    public func explain(_ load: ResourceLoadInfo) -> [RuleTrace] {
        guard load.isEvaluated else { return [] }
        return PCRE2Scratch.withCurrentThread { scratch in
            var url = load.url.serialization
            var frame = load.frameURL?.serialization ?? ""
            let flags = LoadFlags(load)
            let entry = topURLEntry(top: load.mainDocumentURL?.serialization ?? "", flags: flags, scratch: scratch)
            let outside = rulesOutsideIndexes
            var traces: [RuleTrace] = []
            url.withUTF8 { urlBytes in
                frame.withUTF8 { frameBytes in
                    LoweredURL.with(urlBytes) { lowered in
                        explainCandidates(
                            urlBytes, frameBytes, lowered, outside: outside, entry: entry, flags: flags,
                            scratch: scratch, into: &traces)
                    }
                }
            }
            return traces
        }
    }

    /// The body of ``explain(_:)`` once the URL is lowered: the indexes' candidates for the URL, merged
    /// in rule order with the rules `outside` them (ascending), each rule once; those whose url-filter
    /// matches get their trace.
    private func explainCandidates(
        _ urlBytes: UnsafeBufferPointer<UInt8>, _ frameBytes: UnsafeBufferPointer<UInt8>, _ lowered: LoweredURL,
        outside: [UnindexedRule], entry: TopURLEntry, flags: LoadFlags, scratch: PCRE2Scratch,
        into traces: inout [RuleTrace]
    ) {
        var candidates: [UInt64] = []
        let repeated = collectIndexedCandidates(lowered, into: &candidates)
        // `rule << 32 | (position + 1)` (the neighbour code left out, so that they sort by rule), without
        // those a neighbour rules out.
        var kept = 0
        for index in candidates.indices {
            let value = candidates[index]
            guard !GramHit(candidate: value, repeated: repeated).rulesOut(value, lowered) else { continue }
            candidates[kept] = UInt64(IndexHash.candidateRule(value)) << 32 | value & 0xFFFF_FFFF
            kept += 1
        }
        candidates.removeLast(candidates.count - kept)
        candidates.sort()
        // At most one trace per rule tried: one allocation.
        traces.reserveCapacity(candidates.count + outside.count)
        var nextCandidate = 0
        var nextOutside = 0
        var previous = -1
        while nextCandidate < candidates.count || nextOutside < outside.count {
            let number: Int
            let gram: GramHit
            var source: UInt32? = nil
            if nextOutside == outside.count
                || (nextCandidate < candidates.count
                    && candidates[nextCandidate] >> 32 < UInt64(outside[nextOutside].number))
            {
                number = Int(truncatingIfNeeded: candidates[nextCandidate] >> 32)
                gram = GramHit(candidate: candidates[nextCandidate], repeated: repeated)
                nextCandidate += 1
            } else {
                number = Int(outside[nextOutside].number)
                source = outside[nextOutside].source
                gram = .none
                nextOutside += 1
            }
            // A rule the host index gives twice (its prefix at both places) is tried once.
            guard number != previous else { continue }
            previous = number
            let rule = rules.rule(number)
            guard patternMatches(rule.pattern, urlBytes, prefilter: lowered, gram: gram, scratch) else { continue }
            traces.append(
                trace(source ?? rules.sourceIndex(ofRule: number), rule, flags) {
                    failedCondition(of: rule, Int32(number), frameBytes, entry: entry, scratch)
                })
        }
    }

    /// ``explain(_:)`` by trying every rule: the plain statement of what it returns (the differential
    /// tests compare them). The url-filters are tested with the fast strategy's prefilters (the
    /// lower-cased URL: required literals and mandatory runs before PCRE2, one answer per shared
    /// pattern), which give PCRE2's answer (the differential tests keep them equal) far faster than a
    /// search per rule; conditions with one PCRE2 search per value.
    ///
    /// - Complexity: O(rules × URL length) in the worst case: one pattern search per rule.
    func referenceExplain(_ load: ResourceLoadInfo) -> [RuleTrace] {
        guard load.isEvaluated else { return [] }
        var url = load.url.serialization
        var top = load.mainDocumentURL?.serialization ?? ""
        var frame = load.frameURL?.serialization ?? ""
        let flags = LoadFlags(load)
        let scratch = PCRE2Scratch.forCurrentThread
        var traces: [RuleTrace] = []
        url.withUTF8 { urlBytes in
            top.withUTF8 { topBytes in
                frame.withUTF8 { frameBytes in
                    LoweredURL.with(urlBytes) { lowered in
                        for number in 0..<rules.ruleCount {
                            let rule = rules.rule(number)
                            guard patternMatches(rule.pattern, urlBytes, prefilter: lowered, scratch) else { continue }
                            traces.append(
                                trace(rules.sourceIndex(ofRule: number), rule, flags) {
                                    failedCondition(of: rule) { condition, kind in
                                        conditionPatternsMatch(
                                            condition, kind.testsFrameURL ? frameBytes : topBytes, scratch)
                                    }
                                })
                        }
                    }
                }
            }
        }
        return traces
    }

    /// The trace of `rule` (index `source` in the JSON array), whose url-filter matched: the first of
    /// its flags that does not admit the load, else the kind of its condition when `failedCondition`
    /// gives one.
    @inline(__always)
    private func trace(
        _ source: UInt32, _ rule: RuleRecord, _ flags: LoadFlags, failedCondition: () -> TriggerCondition.Kind?
    ) -> RuleTrace {
        RuleTrace(
            rule: Int(source), matchesEveryURL: rule.entry == 3,
            stoppedBy: Self.stoppingFlag(rule, flags) ?? failedCondition().map { .condition($0) })
    }

    /// The rules the literal and host indexes do not file (RULE entry other than 0: reached through
    /// their `if-domain` entries, always checked, or url-filter matching every URL), ascending:
    /// ``explain(_:)`` tests each on every load. Found on first use (one pass over the RULE records)
    /// and kept.
    var rulesOutsideIndexes: [UnindexedRule] {
        if let found = outsideIndexes.withLock({ $0 }) { return found }
        var found: [UnindexedRule] = []
        for number in 0..<rules.ruleCount where rules.rule(number).entry != 0 {
            found.append(UnindexedRule(number: Int32(number), source: rules.sourceIndex(ofRule: number)))
        }
        outsideIndexes.withLock { $0 = found }
        return found
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

/// A rule the literal and host indexes do not file (``ContentRuleList/rulesOutsideIndexes``), with its
/// index in the JSON array: found once, not on each load that reports it.
struct UnindexedRule: Sendable {
    let number: Int32
    let source: UInt32
}
