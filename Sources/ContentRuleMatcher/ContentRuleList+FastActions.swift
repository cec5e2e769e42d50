import ContentRuleFormat
import ContentRuleModel
import ContentRuleURL
import PCRE2Support

extension ContentRuleList {
    /// The candidate count from which their records are read in a pass of their own first
    /// (`MappedRuleList.touchRecords(of:)`).
    static let touchFrom = 32

    /// The actions this list takes for `load` (WebKit `actionsFromContentRuleList`, spec §4.5–§4.8).
    ///
    /// Same answer as ``referenceActions(for:)``, found without trying every rule:
    /// - what depends only on the top URL — which domain and top-URL conditions hold — is computed
    ///   once per distinct top URL (`TopURLConditions`), and which universal rules (url-filter
    ///   matching everything) fire once per distinct (top URL, flags) from it (`TopURLEntry`); both
    ///   are cached;
    /// - the lower-cased URL is scanned once for the 4-byte grams of the rules' required literals
    ///   (the file's literal index); only those rules, the rules whose `if-domain` entries matched,
    ///   and the few always-checked rules are tried, each once: flags first, then the literal or
    ///   PCRE2 url-filter (PCRE2 only after the required literal was found; a rule from the literal
    ///   index has its literal compared where its gram occurs, not searched for), then the condition.
    ///
    /// - Complexity: O(URL length + candidate rules × URL length), plus, once per distinct top URL,
    ///   O(top URL length × its dots + top-URL condition values), and once per distinct (top URL,
    ///   flags), O(universal rules) at most (O(1) when no universal rule's condition matched).
    public func actions(for load: ResourceLoadInfo) -> ContentRuleListActions {
        PCRE2Scratch.withCurrentThread { actions(for: load, scratch: $0) }
    }

    func actions(for load: ResourceLoadInfo, scratch: PCRE2Scratch) -> ContentRuleListActions {
        var url = load.url.serialization
        guard url.withUTF8({ ResourceLoadInfo.isEvaluated(serialization: $0) }) else {
            return ContentRuleListActions(notEvaluated: identifier)
        }
        let top = load.mainDocumentURL?.serialization ?? ""
        var frame = load.frameURL?.serialization ?? ""
        let flags = LoadFlags(load)
        let entry = topURLEntry(top: top, flags: flags, scratch: scratch)
        // The thread's work arrays (with the capacity earlier requests gave them), put back after; this
        // request's elements are those after the ones they hold.
        var (candidates, fired) = scratch.takeWorkArrays()
        defer { scratch.restoreWorkArrays(&candidates, &fired) }
        let firstCandidate = candidates.count
        let firstFired = fired.count
        url.withUTF8 { urlBytes in
            frame.withUTF8 { frameBytes in
                LoweredURL.with(urlBytes) { lowered in
                    collectAndVerify(
                        urlBytes, frameBytes, lowered, entry: entry, flags: flags, scratch: scratch,
                        candidates: &candidates, firstCandidate: firstCandidate, fired: &fired)
                }
            }
        }
        guard fired.count > firstFired else {
            return ContentRuleListActions(list: self, universal: entry, otherRules: [])
        }
        // A copy of its own (the work array stays with the thread).
        var otherRules = fired[firstFired...].withUnsafeBufferPointer { Array($0) }
        SortedRules.sortUnique(&otherRules)
        return ContentRuleListActions(list: self, universal: entry, otherRules: otherRules)
    }

    /// The body of ``actions(for:scratch:)`` once the URL is lowered: collects the candidate rules
    /// (always-checked, literal index, host index, domain candidates) after `firstCandidate` in
    /// `candidates` and appends those that fire to `fired`. A method of its own, with everything as
    /// parameters: as the innermost of three closures it retained and released the list, the entry
    /// and the scratch on every request.
    private func collectAndVerify(
        _ urlBytes: UnsafeBufferPointer<UInt8>, _ frameBytes: UnsafeBufferPointer<UInt8>, _ lowered: LoweredURL,
        entry: TopURLEntry, flags: LoadFlags, scratch: PCRE2Scratch, candidates: inout [UInt64], firstCandidate: Int,
        fired: inout [Int32]
    ) {
        // `rule << 32 | (position + 1)`: where the literal index found the rule's gram first in
        // the lower-cased URL; 0 (always-checked and domain candidates) = no position. Not
        // sorted: each rule reaches the fast matcher one way only (its RULE entry) and the
        // index files it under one gram, so each is tried once and each on its own; the few
        // that fire are sorted (and any duplicate a damaged file makes removed) after.
        candidates.reserveCapacity(
            firstCandidate + alwaysChecked.count + entry.domainCandidates.count + 64)
        for rule in alwaysChecked { candidates.append(UInt64(UInt32(bitPattern: rule)) << 32) }
        let repeated = collectIndexedCandidates(lowered, into: &candidates)
        for rule in entry.domainCandidates { candidates.append(UInt64(UInt32(bitPattern: rule)) << 32) }
        if candidates.count - firstCandidate >= Self.touchFrom {
            // Those a neighbour rules out are dropped first, so that the read-ahead does not read
            // their records either (a separate pass costs more than it saves on the requests with few
            // candidates).
            var kept = firstCandidate
            for index in firstCandidate..<candidates.count {
                let value = candidates[index]
                guard !GramHit(candidate: value, repeated: repeated).rulesOut(value, lowered) else { continue }
                candidates[kept] = value
                kept &+= 1
            }
            candidates.removeLast(candidates.count &- kept)
            scratch.sink = rules.touchRecords(of: candidates[firstCandidate...])
        }
        for value in candidates[firstCandidate...] {
            let gram = GramHit(candidate: value, repeated: repeated)
            if gram.rulesOut(value, lowered) { continue }
            let candidate = Int32(truncatingIfNeeded: IndexHash.candidateRule(value))
            let rule = rules.rule(Int(candidate))
            guard Self.flagsAdmit(rule, flags),
                patternMatches(rule.pattern, urlBytes, prefilter: lowered, gram: gram, scratch),
                failedCondition(of: rule, candidate, frameBytes, entry: entry, scratch) == nil
            else { continue }
            fired.append(candidate)
        }
    }

    /// The ``TopURLEntry`` of (`top`, `flags`): cached, or made now (with the top URL's
    /// ``TopURLConditions``, cached or made now too).
    func topURLEntry(top: String, flags: LoadFlags, scratch: PCRE2Scratch) -> TopURLEntry {
        topURLCache.entry(
            top: top, flags: flags,
            conditions: {
                var top = top
                return top.withUTF8 { TopURLConditions(list: self, top: $0, scratch: scratch) }
            },
            make: { TopURLEntry(list: self, conditions: $0, flags: flags) })
    }

    /// Appends the rules the literal index files under a gram of the lower-cased URL and those the
    /// host index files under a prefix of the URL where its host begins or after its first label
    /// (``MappedRuleList/collectLiteralCandidates(_:into:)``,
    /// ``MappedRuleList/collectHostCandidates(_:hostStart:afterFirstLabel:into:)``): every rule filed in
    /// an index (RULE entry 0) whose url-filter can match the URL, and others that
    /// ``GramHit/rulesOut(_:_:)`` or the rule's own checks rule out.
    /// - Returns: the indexed grams that occur more than once in the URL (``GramHit/repeated``).
    @inline(__always)
    func collectIndexedCandidates(_ lowered: LoweredURL, into candidates: inout [UInt64]) -> UInt64 {
        let repeated = rules.collectLiteralCandidates(lowered.bytes, into: &candidates)
        rules.collectHostCandidates(
            lowered.bytes, hostStart: lowered.hostStart, afterFirstLabel: lowered.afterFirstLabel,
            into: &candidates)
        return repeated
    }

    /// ``failedCondition(of:someValueMatches:)`` for rule `number` (`rule`), as the fast strategy
    /// answers it: a frame-URL condition searched in the frame URL, a top-URL condition looked up in
    /// `entry` (the top URL's ``TopURLEntry/conditionMatches``).
    @inline(__always)
    func failedCondition(
        of rule: RuleRecord, _ number: Int32, _ frameBytes: UnsafeBufferPointer<UInt8>, entry: TopURLEntry,
        _ scratch: PCRE2Scratch
    ) -> TriggerCondition.Kind? {
        failedCondition(of: rule) { condition, kind in
            kind.testsFrameURL
                ? conditionPatternsMatch(condition, frameBytes, scratch)
                : SortedRules.contains(entry.conditionMatches, number)
        }
    }
}
