import ContentRuleFormat
import ContentRuleModel
import PCRE2Support

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The tests both strategies share: a stored pattern against a URL, a condition against the top or
/// frame URL.
extension ContentRuleList {
    /// Whether pattern `id` matches `subject` (a serialized URL's bytes).
    ///
    /// - Parameters:
    ///   - prefilter: check the pattern's required literal in the lower-cased URL before PCRE2
    ///     (the fast strategy); the reference strategy passes `nil` and runs PCRE2 directly.
    ///   - gram: with `prefilter`, where the literal index found the rule's gram in the lower-cased URL
    ///     (``containsFromGram(_:_:lowered:gram:caseSensitive:)``).
    @inline(__always)
    func patternMatches(
        _ id: Int, _ subject: UnsafeBufferPointer<UInt8>, prefilter lowered: LoweredURL?, gram: GramHit = .none,
        _ scratch: PCRE2Scratch
    ) -> Bool {
        let pattern = rules.pattern(id)
        switch pattern.kind {
        case .everything:
            return true
        case .literal:
            guard let lowered else { return Self.literalMatches(pattern, subject) }
            if gram.at >= 0 && !pattern.anchoredAtStart && !pattern.anchoredAtEnd {
                return Self.containsFromGram(
                    pattern.caseSensitive ? subject : lowered.bytes, pattern.text, lowered: lowered, gram: gram,
                    caseSensitive: pattern.caseSensitive)
            }
            if pattern.caseSensitive { return Self.exactLiteralMatches(pattern, subject, byteCounts: nil) }
            return Self.exactLiteralMatches(pattern, lowered.bytes, byteCounts: lowered.byteCounts)
        case .regex:
            return regexMatches(id, pattern, subject, prefilter: lowered, gram: gram, scratch)
        }
    }

    /// ``patternMatches(_:_:prefilter:gram:_:)`` for a PCRE2 pattern (out of line: the literal
    /// candidates' path stays small): the host anchor and the required literal, then the regex's
    /// mandatory runs, then PCRE2.
    @inline(never)
    func regexMatches(
        _ id: Int, _ pattern: PatternRecord, _ subject: UnsafeBufferPointer<UInt8>, prefilter lowered: LoweredURL?,
        gram: GramHit, _ scratch: PCRE2Scratch
    ) -> Bool {
        guard let lowered else { return searchRegex(id, pattern, subject, prefilter: nil, gram: gram, scratch) }
        // Rules that share a url-filter share its pattern: its answer for this URL is found once.
        if let known = lowered.knownAnswer(pattern: id) { return known }
        let answer = searchRegex(id, pattern, subject, prefilter: lowered, gram: gram, scratch)
        lowered.remember(answer, pattern: id)
        return answer
    }

    /// ``regexMatches(_:_:_:prefilter:gram:_:)`` without the request's remembered answers.
    private func searchRegex(
        _ id: Int, _ pattern: PatternRecord, _ subject: UnsafeBufferPointer<UInt8>, prefilter lowered: LoweredURL?,
        gram: GramHit, _ scratch: PCRE2Scratch
    ) -> Bool {
        if let lowered, pattern.hostAnchored {
            // Where it holds, the URL contains the required literal.
            guard Self.holdsAfterHostAnchor(pattern.required, lowered) else { return false }
        } else if let lowered, !pattern.required.isEmpty {
            let found =
                gram.at >= 0
                ? Self.containsFromGram(
                    lowered.bytes, pattern.required, lowered: lowered, gram: gram, caseSensitive: false)
                : Self.contains(lowered.bytes, pattern.required, byteCounts: lowered.byteCounts)
            if !found { return false }
        }
        // A canonical URL's bytes are all 1–127 (checked, not assumed): the faster spelling is exact.
        return regexes.withPatternRegex(id, in: rules, asciiSubject: lowered?.isASCIIWithoutNUL ?? false) {
            compiled in
            if let lowered, !compiled.suffix.isEmpty {
                let end = compiled.caseless ? lowered.bytes : subject
                guard end.count >= compiled.suffix.count,
                    compiled.suffix.withUnsafeBufferPointer({
                        Self.equal($0, end, at: end.count - $0.count, fold: false)
                    })
                else { return false }
            }
            if let lowered, compiled.hasByteDemand, !compiled.byteDemandMet(lowered.byteCounts) { return false }
            if let lowered, !compiled.mandatory.isEmpty {
                for run in compiled.mandatory {
                    let found = run.withUnsafeBufferPointer {
                        compiled.caseless
                            ? Self.contains(lowered.bytes, $0, byteCounts: lowered.byteCounts)
                            : Self.contains(subject, $0, byteCounts: nil)
                    }
                    if !found { return false }
                }
            }
            return compiled.regex?.matches(subject, scratch: scratch) ?? false
        }
    }

    /// Whether the lower-cased URL holds `literal` where a host-anchored pattern
    /// (``PatternRecord/hostAnchored``) needs it: at ``LoweredURL/hostStart`` or
    /// ``LoweredURL/afterFirstLabel``. False means the pattern's regex cannot match.
    @inline(__always)
    static func holdsAfterHostAnchor(_ literal: UnsafeBufferPointer<UInt8>, _ lowered: LoweredURL) -> Bool {
        let url = lowered.bytes
        let count = literal.count
        /// Whether `literal` is in `url` at `at` (-1: nowhere).
        @inline(__always) func holds(at: Int) -> Bool {
            at >= 0 && at + count <= url.count && equal(literal, url, at: at, fold: false)
        }
        return holds(at: lowered.hostStart) || holds(at: lowered.afterFirstLabel)
    }

    /// Whether some value of condition `id` matches `subject` (the top or frame URL), with PCRE2.
    func conditionPatternsMatch(_ id: Int, _ subject: UnsafeBufferPointer<UInt8>, _ scratch: PCRE2Scratch) -> Bool {
        let condition = rules.condition(id)
        for index in condition.entries {
            let entry = rules.conditionEntry(index)
            if condition.kind.isDomain {
                if domainMatches(entry, subject, scratch) { return true }
            } else if patternMatches(entry, subject, prefilter: nil, scratch) {
                return true
            }
        }
        return false
    }

    /// A domain entry's generated pattern against the top URL, with PCRE2.
    func domainMatches(_ id: Int, _ subject: UnsafeBufferPointer<UInt8>, _ scratch: PCRE2Scratch) -> Bool {
        regexes.domainRegex(id, in: rules).regex?.matches(subject, scratch: scratch) ?? false
    }

    /// Whether a rule's condition holds (spec §4.6): `if-*` when some value matches, `unless-*` when none
    /// does. WebKit quirk (`ContentExtension::populateTopURLActionCacheIfNeeded`): conditions are
    /// evaluated with all flag bits set, and a request method never equals "all methods", so a rule that
    /// also has `request-method` never fires with an `if-*` condition and ignores an `unless-*` one.
    @inline(__always)
    static func conditionHolds(
        _ kind: TriggerCondition.Kind, method: UInt8, someValueMatches: () -> Bool
    ) -> Bool {
        if method != 0 { return kind.isInverted }
        return someValueMatches() != kind.isInverted
    }

    /// The kind of `rule`'s condition when it does not hold for the load
    /// (``conditionHolds(_:method:someValueMatches:)``), or nil when it holds or the rule has none;
    /// `someValueMatches` answers for the condition (its index and kind) when asked.
    @inline(__always)
    func failedCondition(
        of rule: RuleRecord, someValueMatches: (_ condition: Int, _ kind: TriggerCondition.Kind) -> Bool
    ) -> TriggerCondition.Kind? {
        guard let condition = rule.condition else { return nil }
        let kind = rules.condition(condition).kind
        return Self.conditionHolds(kind, method: rule.method) { someValueMatches(condition, kind) } ? nil : kind
    }

    /// Whether a rule's flags admit a load: empty sets in the rule mean "all".
    @inline(__always)
    static func flagsAdmit(_ rule: RuleRecord, _ load: LoadFlags) -> Bool {
        (rule.resourceTypes == 0 || rule.resourceTypes & load.resourceType != 0)
            && (rule.loadTypes == 0 || rule.loadTypes & load.loadType != 0)
            && (rule.loadContexts == 0 || rule.loadContexts & load.loadContext != 0)
            && (rule.method == 0 || rule.method == load.method)
    }

    /// A literal pattern (lower-cased unless case-sensitive) against `subject`, comparing ASCII
    /// case-insensitively when the pattern is.
    static func literalMatches(_ pattern: PatternRecord, _ subject: UnsafeBufferPointer<UInt8>) -> Bool {
        let needle = pattern.text
        let count = needle.count
        guard count <= subject.count else { return false }
        let fold = !pattern.caseSensitive
        if pattern.anchoredAtStart && pattern.anchoredAtEnd {
            return count == subject.count && equal(needle, subject, at: 0, fold: fold)
        }
        if pattern.anchoredAtStart { return equal(needle, subject, at: 0, fold: fold) }
        if pattern.anchoredAtEnd { return equal(needle, subject, at: subject.count - count, fold: fold) }
        var start = 0
        while start + count <= subject.count {
            if equal(needle, subject, at: start, fold: fold) { return true }
            start += 1
        }
        return false
    }

    /// A literal pattern against a subject already in the literal's case (the lower-cased URL for a
    /// case-insensitive literal): exact comparisons, the unanchored case with ``contains(_:_:byteCounts:)``.
    static func exactLiteralMatches(
        _ pattern: PatternRecord, _ subject: UnsafeBufferPointer<UInt8>, byteCounts: UnsafeBufferPointer<Int32>?
    ) -> Bool {
        let needle = pattern.text
        let count = needle.count
        guard count <= subject.count else { return false }
        if pattern.anchoredAtStart && pattern.anchoredAtEnd {
            return count == subject.count && equal(needle, subject, at: 0, fold: false)
        }
        if pattern.anchoredAtStart { return equal(needle, subject, at: 0, fold: false) }
        if pattern.anchoredAtEnd { return equal(needle, subject, at: subject.count - count, fold: false) }
        return contains(subject, needle, byteCounts: byteCounts)
    }

    /// Whether `subject` at `start` spells `needle` (bytes `from..<to` of it only, when given; `subject`
    /// holds them).
    @inline(__always)
    static func equal(
        _ needle: UnsafeBufferPointer<UInt8>, _ subject: UnsafeBufferPointer<UInt8>, at start: Int, fold: Bool,
        from: Int = 0, to end: Int? = nil
    ) -> Bool {
        var index = from
        let end = end ?? needle.count
        if !fold {
            // 8 bytes at a time (the callers keep `start + end` within `subject`).
            while index + 8 <= end {
                if needle.u64(index) != subject.u64(start + index) { return false }
                index += 8
            }
        }
        while index < end {
            var byte = subject[start + index]
            if fold { byte = IndexHash.lowercased(byte) }
            if byte != needle[index] { return false }
            index += 1
        }
        return true
    }

    /// Substring search (exact bytes): the C library's `memchr` finds each occurrence of one byte of
    /// the needle, then the whole needle is compared around it. With `byteCounts` (how often each byte
    /// occurs in `subject`) that byte is the one `subject` holds least often, and a needle byte absent
    /// from `subject` answers at once; without, it is the first byte.
    ///
    /// When `byteCounts` are a long URL's (``LoweredURL`` with room for ``URLGramTable``), the
    /// searches of the request are costed (the occurrences of their anchor bytes they follow) and, once
    /// they cost as much as building it, the table of the URL's 4-byte grams is built: from then on a
    /// needle with a gram the URL lacks answers at once, without a search. A search that reaches that
    /// cost midway builds it and asks it before going on.
    static func contains(
        _ subject: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>,
        byteCounts: UnsafeBufferPointer<Int32>? = nil, from first: Int = 0
    ) -> Bool {
        guard !needle.isEmpty else { return true }
        guard needle.count <= subject.count, let base = subject.baseAddress else { return false }
        var anchor = 0
        // With a long URL's statistics, while its table is not built: the occurrences this search
        // may follow before they are (then it asks them).
        var unbuilt: UnsafeBufferPointer<Int32>? = nil
        var budget = Int.max
        if let byteCounts {
            var fewest = Int32.max
            for index in 0..<needle.count {
                let count = byteCounts[Int(needle[index])]
                if count < fewest {
                    if count == 0 { return false }
                    fewest = count
                    anchor = index
                    if count == 1 { break }
                }
            }
            if byteCounts.count > 256 {
                switch URLGramTable.beginSearch(needle, in: subject, statistics: byteCounts) {
                case .absent: return false
                case .search(let occurrences):
                    unbuilt = byteCounts
                    budget = occurrences
                case .built: break
                }
            }
        }
        let byte = Int32(needle[anchor])
        let last = subject.count - needle.count
        var start = first
        var followed = 0
        var found = false
        while start <= last {
            guard let at = memchr(base + start + anchor, byte, last - start + 1) else { break }
            start = base.distance(to: at.assumingMemoryBound(to: UInt8.self)) - anchor
            if equal(needle, subject, at: start, fold: false) {
                found = true
                break
            }
            start += 1
            followed += 1
            if followed == budget, let statistics = unbuilt {
                // The searches have cost as much as the table: built now, and asked.
                unbuilt = nil
                guard URLGramTable.buildAndCheck(needle, in: subject, statistics: statistics) else { return false }
            }
        }
        if let unbuilt { URLGramTable.record(followed: followed, statistics: unbuilt) }
        return found
    }
}

extension ContentRuleList {
    /// Whether `needle` occurs in `subject`, given where a 4-byte gram first occurs in the lower-cased
    /// URL (the literal index's hit): when the needle (ASCII lower-cased) holds that gram at offset `k`,
    /// an occurrence of the needle with its gram at the first occurrence `gram.at` starts at
    /// `gram.at - k`, so the needle is compared there. When the gram may occur again
    /// (``GramHit/repeated``), or the needle does not hold the gram, the needle is searched for as
    /// ``exactLiteralMatches(_:_:byteCounts:)`` does: ``contains(_:_:byteCounts:)``.
    ///
    /// - Parameter subject: the URL (for a case-sensitive needle) or `lowered.bytes`; the needle's case.
    /// - Complexity: O(needle length) plus O(URL length) when the gram occurs more than once.
    static func containsFromGram(
        _ subject: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>, lowered: LoweredURL,
        gram hit: GramHit, caseSensitive: Bool
    ) -> Bool {
        let url = lowered.bytes
        let first = hit.at
        let gram = url.u32(first)
        let count = needle.count
        // k: the gram's first offset in the needle (ASCII lower-cased when case-sensitive).
        var k = 0
        if caseSensitive {
            var window = UInt32(0)
            while true {
                guard k < count else { return contains(subject, needle, byteCounts: nil) }
                window = window >> 8 | UInt32(IndexHash.lowercased(needle[k])) << 24
                k += 1
                if k >= IndexHash.gramLength && window == gram { break }
            }
            k -= IndexHash.gramLength
        } else {
            guard let offset = gramOffset(gram, in: needle) else {
                return contains(subject, needle, byteCounts: lowered.byteCounts)
            }
            k = offset
        }
        /// Whether the needle is in `subject` with its gram at `at` (at least `k`); lower-cased bytes:
        /// the gram's 4 are known to be equal.
        @inline(__always) func matches(at: Int) -> Bool {
            caseSensitive
                ? equal(needle, subject, at: at - k, fold: false)
                : equal(needle, subject, at: at - k, fold: false, from: k + IndexHash.gramLength)
                    && equal(needle, subject, at: at - k, fold: false, to: k)
        }
        // The last gram position at which the needle still fits.
        let last = url.count - count + k
        guard first <= last else { return false }
        if first >= k && matches(at: first) { return true }
        guard hit.repeated & IndexHash.gramRepeatBit(gram) != 0 else { return false }
        // The gram occurs again: a search anchored on the needle's rarest byte (with the byte counts,
        // an absent byte answers at once). Following the gram's own occurrences instead costs one
        // compare per occurrence and candidate: quadratic on a URL repeating a common gram (`/ad/…`).
        // An occurrence holds the gram at its offset `k`, at or after the gram's first occurrence,
        // which was just compared: the search starts after it.
        return contains(
            subject, needle, byteCounts: caseSensitive ? nil : lowered.byteCounts, from: max(0, first - k + 1))
    }
}

extension ContentRuleList {
    /// The first offset of `gram` (4 bytes, little-endian) in `needle`, or `nil`. Eight offsets per
    /// load: the bytes equal to the gram's first byte are found with the zero-byte test on the word
    /// XOR that byte (exact for the lowest one; every hit is checked with a 4-byte compare).
    @inline(__always)
    static func gramOffset(_ gram: UInt32, in needle: UnsafeBufferPointer<UInt8>) -> Int? {
        let count = needle.count
        let last = count - IndexHash.gramLength
        guard last >= 0 else { return nil }
        if count < 8 {
            for offset in 0...last where needle.u32(offset) == gram { return offset }
            return nil
        }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let first = UInt64(gram & 0xFF) &* ones
        var start = 0
        while true {
            // The last word overlaps the one before it: it ends at the needle's end.
            let word = UInt64(littleEndian: needle.u64(start)) ^ first
            var hits = (word &- ones) & ~word & (ones &<< 7)
            while hits != 0 {
                let offset = start + hits.trailingZeroBitCount >> 3
                if offset <= last && needle.u32(offset) == gram { return offset }
                hits &= hits &- 1
            }
            if start + 8 >= count { return nil }
            start = min(start + 8, count - 8)
        }
    }
}

/// Where the literal index found a candidate rule's gram in the lower-cased URL.
struct GramHit {
    /// The gram's first position (none before it), or -1: unknown.
    var at: Int
    /// ``IndexHash/gramRepeatBit(_:)`` of the indexed grams that occur more than once in the URL.
    var repeated: UInt64

    static let none = GramHit(at: -1, repeated: 0)
}

extension GramHit {
    /// Where the literal index found candidate `value` (`… | position + 1`; 0, as for candidates from
    /// elsewhere: unknown).
    @inline(__always) init(candidate value: UInt64, repeated: UInt64) {
        self.init(at: Int(truncatingIfNeeded: value & 0xFFFF_FFFF) &- 1, repeated: repeated)
    }

    /// Whether candidate `value`'s literal is ruled out of the URL: its gram occurs once, without the
    /// byte the literal has beside it (``IndexHash/neighbourAllows(_:_:gramAt:)``). Such a candidate
    /// is dropped before any of its records is read.
    @inline(__always) func rulesOut(_ value: UInt64, _ lowered: LoweredURL) -> Bool {
        at >= 0 && repeated & IndexHash.gramRepeatBit(lowered.bytes.u32(at)) == 0
            && !IndexHash.neighbourAllows(value, lowered.bytes, gramAt: at)
    }
}

/// What a long lower-cased URL holds, for ruling needles out without searching for them
/// (``LoweredURL/byteCounts`` after the 256 counts: a state word, then a table of 32,768 bytes,
/// nonzero for what the URL holds): its 4-byte grams, each in the byte of ``bucket(_:)``. A needle
/// with a gram whose byte is 0 cannot occur in the URL. One small table, so that it stays in the L1
/// cache while it is built.
///
/// Built once the searches of the request (``ContentRuleList/contains(_:_:byteCounts:)``) have
/// followed enough occurrences of their anchor bytes to cost as much as building it: a ski-rental
/// rule, at most about twice the cost of the better choice in hindsight, without knowing how many
/// searches the request will make. Costs are counted in URL bytes: building is `count`, following an
/// occurrence ``occurrenceCost``; the bytes `memchr` reads between occurrences are not counted (they
/// cost less than the table; `Benchmarks/results/2026-12-03-notes.md`). The state word holds the cost
/// so far, -1 once the table is built.
enum URLGramTable {
    /// The URL length from which ``LoweredURL`` keeps room for the table (33 KiB of temporary
    /// storage, on the heap: for a shorter URL that allocation would cost more than the table saves).
    static let minimumLength = 4_096
    /// Index of the state word in the statistics.
    static let state = 256
    /// Bytes of the table.
    static let tableBytes = 32_768
    /// Counts, state and the table (in words of 32 bits).
    static let statisticsCount = state + 1 + tableBytes / 4
    /// What following one occurrence costs, in URL bytes of building (a `memchr` call and a compare).
    static let occurrenceCost = 12

    /// The table's byte for a gram (4 bytes, little-endian).
    @inline(__always) static func bucket(_ key: UInt32) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B1) >> 17)
    }

    /// What a search of `needle` in `subject` (with the statistics of ``LoweredURL``) does first.
    enum Start {
        /// The built table rules the needle out.
        case absent
        /// The table is built and does not rule it out: search.
        case built
        /// Search, following at most this many occurrences before building the table.
        case search(occurrences: Int)
    }

    /// How a search starts: asking the table when built, else with its budget of occurrences.
    @inline(__always)
    static func beginSearch(
        _ needle: UnsafeBufferPointer<UInt8>, in subject: UnsafeBufferPointer<UInt8>,
        statistics: UnsafeBufferPointer<Int32>
    ) -> Start {
        let cost = Int(statistics[state])
        if cost < 0 { return check(needle, statistics: statistics) ? .built : .absent }
        return .search(occurrences: max(1, (subject.count - cost) / occurrenceCost))
    }

    /// Adds the occurrences a search followed to the cost (before the table is built).
    @inline(__always)
    static func record(followed: Int, statistics: UnsafeBufferPointer<Int32>) {
        let cost = Int(statistics[state])
        if cost >= 0 { mutableState(statistics).pointee = Int32(clamping: cost + followed * occurrenceCost) }
    }

    /// Builds the table (once) and checks `needle` against it.
    /// - Complexity: O(subject length) the first time, then O(needle length).
    @inline(never)
    static func buildAndCheck(
        _ needle: UnsafeBufferPointer<UInt8>, in subject: UnsafeBufferPointer<UInt8>,
        statistics: UnsafeBufferPointer<Int32>
    ) -> Bool {
        if statistics[state] >= 0 {
            let table = tableStart(statistics)
            // Stores only, no read: no chain through memory when a gram repeats.
            table.initializeMemory(as: UInt8.self, repeating: 0, count: tableBytes)
            for index in 0...(subject.count - 4) {
                table.storeBytes(of: 1, toByteOffset: bucket(subject.u32(index)), as: UInt8.self)
            }
            mutableState(statistics).pointee = -1
        }
        return check(needle, statistics: statistics)
    }

    /// Whether every gram of `needle` may occur in the URL (the table is built; a needle shorter than
    /// a gram may). O(needle length).
    @inline(__always)
    private static func check(_ needle: UnsafeBufferPointer<UInt8>, statistics: UnsafeBufferPointer<Int32>) -> Bool {
        let table = UnsafeRawPointer(tableStart(statistics))
        guard needle.count >= 4 else { return true }
        for index in 0...(needle.count - 4)
        where table.load(fromByteOffset: bucket(needle.u32(index)), as: UInt8.self) == 0 {
            return false
        }
        return true
    }

    // The statistics live in ``LoweredURL/with(_:_:)``'s writable temporary storage.
    @inline(__always) private static func mutableState(_ statistics: UnsafeBufferPointer<Int32>)
        -> UnsafeMutablePointer<Int32>
    {
        UnsafeMutablePointer(mutating: statistics.baseAddress.unsafelyUnwrapped) + state
    }

    @inline(__always) private static func tableStart(_ statistics: UnsafeBufferPointer<Int32>)
        -> UnsafeMutableRawPointer
    {
        UnsafeMutableRawPointer(mutableState(statistics) + 1)
    }
}

/// A load's flag bits, as the rules store them.
struct LoadFlags: Hashable, Sendable {
    var resourceType: UInt16
    var loadType: UInt8
    var loadContext: UInt8
    /// 0 for none, else `RequestMethod.allCases.firstIndex + 1`.
    var method: UInt8
}
