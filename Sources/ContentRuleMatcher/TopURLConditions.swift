import ContentRuleFormat
import ContentRuleModel
import Locking
import PCRE2Support

/// What a list decides from the top URL alone, whatever the load's flags: which rules' domain or
/// top-URL conditions have a matching value. Computed once per distinct top URL (the costly part:
/// domain look-ups and the PCRE2 searches of top-URL conditions) and shared by the ``TopURLEntry``
/// of each flag combination.
final class TopURLConditions: Sendable {
    /// Rules whose domain or top-URL condition has a matching value (before `if`/`unless`), ascending.
    let conditionMatches: [Int32]
    /// Rules reached through their `if-domain` entries that have a matching entry, ascending.
    let domainCandidates: [Int32]
    /// Universal rules with an `if-*` condition that has a matching value: they fire for the flags
    /// they admit. Ascending.
    let firingUniversal: [Int32]
    /// Universal rules of the baselines (no condition, or `unless-*`) whose condition has a matching
    /// value: they do not fire for the flags they admit. Ascending.
    let excludedUniversal: [Int32]

    init(list: ContentRuleList, top: UnsafeBufferPointer<UInt8>, scratch: PCRE2Scratch) {
        let rules = list.rules
        var matches = DomainLookup.matchingRules(rules, top: top)
        var extra: [Int32] = []
        for (rule, domain) in list.domainFallbacks where list.domainMatches(domain, top, scratch) {
            extra.append(rule)
        }
        for rule in list.topURLRules {
            if let condition = rules.rule(Int(rule)).condition, list.conditionPatternsMatch(condition, top, scratch) {
                extra.append(rule)
            }
        }
        if !extra.isEmpty { matches = SortedRules.union(matches, SortedRules.sortedUnique(extra)) }
        conditionMatches = matches
        var candidates: [Int32] = []
        var firing: [Int32] = []
        for rule in matches {
            let record = rules.rule(Int(rule))
            if record.entry == 1 {
                candidates.append(rule)
            } else if record.entry == 3, let condition = record.condition, !rules.condition(condition).kind.isInverted {
                firing.append(rule)
            }
        }
        domainCandidates = candidates
        firingUniversal = firing
        excludedUniversal = matches.filter { SortedRules.contains(list.universal, $0) }
    }
}

/// What a list decides from the top URL and the load's flags alone, computed once per distinct
/// (top URL, flags) from the top URL's ``TopURLConditions`` and the flags' ``UniversalBaseline``, and
/// shared by every request with the same pair (WebKit caches its top-URL actions per top URL the same
/// way, `ContentExtension::topURLActions`).
final class TopURLEntry: Sendable {
    /// Rules whose domain or top-URL condition has a matching value (before `if`/`unless`), ascending.
    let conditionMatches: [Int32]
    /// Rules reached through their `if-domain` entries that have a matching entry, ascending.
    let domainCandidates: [Int32]
    /// The baseline's universal rules, those of them whose `unless-*` condition matched, and the
    /// universal rules whose `if-*` condition matched, for these flags; ascending.
    private let baselineRules: [Int32]
    private let excludedRules: [Int32]
    private let firingRules: [Int32]
    /// Action slots of the universal rules that fire for these flags, ascending and unique.
    let universalSlots: [UInt32]
    /// The `ignore-previous-rules` / `ignore-following-rules` / `block` slots among them, ascending.
    let ignorePreviousSlots: [UInt32]
    let ignoreFollowingSlots: [UInt32]
    let blockSlots: [UInt32]
    /// The slots among them that are not `css-display-none`, ascending.
    let nonSelectorSlots: [UInt32]

    /// Universal rules (url-filter matches everything) that fire for these flags, ascending. Built
    /// when read (only ``ContentRuleListActions/firedRules`` reads it).
    var universalRules: [Int32] {
        SortedRules.union(firingRules, SortedRules.subtracting(baselineRules, excludedRules))
    }

    /// - Complexity: O(1) when no universal rule's condition matched the top URL (most top URLs);
    ///   else O(k log n) for the k matched rules plus copies of the baseline's n slots (no per-slot
    ///   work on the baseline).
    init(list: ContentRuleList, conditions: TopURLConditions, flags: LoadFlags) {
        let rules = list.rules
        conditionMatches = conditions.conditionMatches
        domainCandidates = conditions.domainCandidates
        let firing = conditions.firingUniversal.filter { ContentRuleList.flagsAdmit(rules.rule(Int($0)), flags) }
        let excluded = conditions.excludedUniversal.filter {
            ContentRuleList.flagsAdmit(rules.rule(Int($0)), flags)
        }
        let baseline = list.universalBaseline(flags)
        baselineRules = baseline.rules
        excludedRules = excluded
        firingRules = firing
        if firing.isEmpty && excluded.isEmpty {
            universalSlots = baseline.slots
            ignorePreviousSlots = baseline.ignorePreviousSlots
            ignoreFollowingSlots = baseline.ignoreFollowingSlots
            blockSlots = baseline.blockSlots
            nonSelectorSlots = baseline.nonSelectorSlots
            return
        }
        // A baseline slot goes when every baseline rule that has it is excluded (excluded rules are
        // baseline rules: universal, no condition or `unless-*`, admitted by the flags).
        var removed: [UInt32] = []
        let excludedSlots = excluded.map { rules.rule(Int($0)).actionSlot }.sorted()
        var start = 0
        while start < excludedSlots.count {
            var end = start + 1
            while end < excludedSlots.count && excludedSlots[end] == excludedSlots[start] { end += 1 }
            let index = SortedRules.lowerBound(baseline.slots, excludedSlots[start])
            if index < baseline.slots.count && baseline.slots[index] == excludedSlots[start]
                && Int(baseline.slotRuleCounts[index]) <= end - start
            {
                removed.append(excludedSlots[start])
            }
            start = end
        }
        // Then the firing rules' slots are added, classified the same way.
        let added = SortedRules.sortedUnique(firing.map { rules.rule(Int($0)).actionSlot })
        let addedKinds = UniversalBaseline.classify(added, rules)
        func adjusted(_ slots: [UInt32], _ extra: [UInt32]) -> [UInt32] {
            SortedRules.union(SortedRules.subtracting(slots, removed), extra)
        }
        universalSlots = adjusted(baseline.slots, added)
        ignorePreviousSlots = adjusted(baseline.ignorePreviousSlots, addedKinds.ignorePrevious)
        ignoreFollowingSlots = adjusted(baseline.ignoreFollowingSlots, addedKinds.ignoreFollowing)
        blockSlots = adjusted(baseline.blockSlots, addedKinds.blocks)
        nonSelectorSlots = adjusted(baseline.nonSelectorSlots, addedKinds.nonSelector)
    }
}

/// The universal rules without a condition or with an `unless-*` one that a flag combination admits,
/// before any top URL: what most top URLs get unchanged. Computed once per flag combination.
struct UniversalBaseline: Sendable {
    let rules: [Int32]
    let slots: [UInt32]
    /// How many of ``rules`` have each slot of ``slots`` (same indexes).
    let slotRuleCounts: [UInt32]
    let ignorePreviousSlots: [UInt32]
    let ignoreFollowingSlots: [UInt32]
    let blockSlots: [UInt32]
    let nonSelectorSlots: [UInt32]

    init(list: ContentRuleList, flags: LoadFlags) {
        let records = list.rules
        rules = list.universal.filter { ContentRuleList.flagsAdmit(records.rule(Int($0)), flags) }
        var all = rules.map { records.rule(Int($0)).actionSlot }
        all.sort()
        var slots: [UInt32] = []
        var counts: [UInt32] = []
        for slot in all {
            if slots.last == slot {
                counts[counts.count - 1] += 1
            } else {
                slots.append(slot)
                counts.append(1)
            }
        }
        self.slots = slots
        slotRuleCounts = counts
        (ignorePreviousSlots, ignoreFollowingSlots, blockSlots, nonSelectorSlots) = Self.classify(slots, records)
    }

    /// The `ignore-previous-rules`, `ignore-following-rules`, `block` and not-`css-display-none`
    /// slots among `slots`.
    static func classify(
        _ slots: [UInt32], _ rules: MappedRuleList
    ) -> (ignorePrevious: [UInt32], ignoreFollowing: [UInt32], blocks: [UInt32], nonSelector: [UInt32]) {
        var ignorePrevious: [UInt32] = []
        var ignoreFollowing: [UInt32] = []
        var blocks: [UInt32] = []
        var nonSelector: [UInt32] = []
        for slot in slots {
            let type = rules.actionType(Int(slot))
            switch type {
            case .ignorePreviousRules: ignorePrevious.append(slot)
            case .ignoreFollowingRules: ignoreFollowing.append(slot)
            case .block: blocks.append(slot)
            default: break
            }
            if type != .cssDisplayNone { nonSelector.append(slot) }
        }
        return (ignorePrevious, ignoreFollowing, blocks, nonSelector)
    }
}

extension ContentRuleList {
    /// The cached ``UniversalBaseline`` of a flag combination.
    func universalBaseline(_ flags: LoadFlags) -> UniversalBaseline {
        if let found = baselines.withLock({ $0[flags] }) { return found }
        let made = UniversalBaseline(list: self, flags: flags)
        baselines.withLock { $0[flags] = made }
        return made
    }
}

/// The per-list cache of ``TopURLEntry`` values, keyed by top URL and load flags, and of
/// ``TopURLConditions``, keyed by top URL. Bounded: a table that holds its capacity starts over. The
/// entries found last (a few, one per flag combination a page's loads use) are checked first: a page's
/// loads come in runs with one top URL and a handful of resource types, and comparing flags and two
/// strings is cheaper than hashing one.
final class TopURLCache: Sendable {
    struct Key: Hashable, Sendable {
        var top: String
        var flags: LoadFlags
    }
    private struct State {
        var table: [Key: TopURLEntry] = [:]
        var conditions: [String: TopURLConditions] = [:]
        /// The last entries found, at most ``recentCapacity``; the oldest is replaced.
        var recent: [(key: Key, entry: TopURLEntry)] = []
        var nextRecent = 0

        mutating func remember(_ key: Key, _ entry: TopURLEntry) {
            if recent.count < TopURLCache.recentCapacity {
                recent.append((key, entry))
            } else {
                recent[nextRecent] = (key, entry)
                nextRecent = (nextRecent + 1) % TopURLCache.recentCapacity
            }
        }
    }
    /// At most this many (top URL, flags) entries (a few hundred bytes each: their arrays are shared
    /// with the flags' baseline unless a universal rule's condition matched) …
    static let capacity = 8192
    /// … and this many top URLs' conditions.
    static let conditionsCapacity = 4096
    static let recentCapacity = 8
    private let state = Locked(State())

    /// The entry of (`top`, `flags`): cached, or made by `make` from the top URL's conditions, cached
    /// or made by `conditions` (the costly part, once per top URL whatever the flags).
    func entry(
        top: String, flags: LoadFlags, conditions makeConditions: () -> TopURLConditions,
        make: (TopURLConditions) -> TopURLEntry
    ) -> TopURLEntry {
        let found = state.withLock { state -> Lookup in
            // By index: a `for recent in` loop would copy (retain) each key and entry it looks at.
            for index in state.recent.indices
            where state.recent[index].key.flags == flags && state.recent[index].key.top == top {
                return .found(state.recent[index].entry)
            }
            let key = Key(top: top, flags: flags)
            guard let entry = state.table[key] else { return .missing(state.conditions[top]) }
            state.remember(key, entry)
            return .found(entry)
        }
        let conditions: TopURLConditions
        switch found {
        case .found(let entry): return entry
        case .missing(let cached): conditions = cached ?? makeConditions()
        }
        let made = make(conditions)
        let key = Key(top: top, flags: flags)
        state.withLock {
            if $0.table.count >= Self.capacity { $0.table.removeAll(keepingCapacity: true) }
            if $0.conditions.count >= Self.conditionsCapacity { $0.conditions.removeAll(keepingCapacity: true) }
            $0.table[key] = made
            $0.conditions[top] = conditions
            $0.remember(key, made)
        }
        return made
    }
}

/// What ``TopURLCache`` holds for a (top URL, flags): the entry, or at least the top URL's conditions.
private enum Lookup {
    case found(TopURLEntry)
    case missing(TopURLConditions?)
}

/// Sorted-array helpers for rule numbers and slots (ascending arrays, no duplicates unless said).
enum SortedRules {
    static func contains(_ values: [Int32], _ value: Int32) -> Bool {
        let index = lowerBound(values, value)
        return index < values.count && values[index] == value
    }

    /// Index of the first element at or after `from` not below `value` (specialized for `Int32` rules
    /// and `UInt32` slots).
    static func lowerBound<T: BinaryInteger>(_ values: [T], _ value: T, from: Int = 0) -> Int {
        var low = from
        var high = values.count
        while low < high {
            let middle = (low + high) >> 1
            if values[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Union of two ascending arrays without duplicates. When `b` is much shorter than `a`, `a` is
    /// copied in runs between `b`'s values (O(|b| log |a|) searches plus a copy), else merged.
    static func union<T: BinaryInteger>(_ a: [T], _ b: [T]) -> [T] {
        if b.isEmpty { return a }
        if a.isEmpty { return b }
        var result: [T] = []
        result.reserveCapacity(a.count + b.count)
        if b.count * 16 < a.count {
            var from = 0
            for value in b {
                let index = lowerBound(a, value, from: from)
                result.append(contentsOf: a[from..<index])
                if index == a.count || a[index] != value { result.append(value) }
                from = index
            }
            result.append(contentsOf: a[from...])
            return result
        }
        var i = 0
        var j = 0
        while i < a.count || j < b.count {
            let next: T
            if j == b.count || (i < a.count && a[i] < b[j]) {
                next = a[i]
                i += 1
            } else {
                if i < a.count && a[i] == b[j] { i += 1 }
                next = b[j]
                j += 1
            }
            if result.last != next { result.append(next) }
        }
        return result
    }

    /// `a` without the values of `b` (both ascending, without duplicates): `a` copied in runs between
    /// the removed values, O(|b| log |a|) searches plus a copy.
    static func subtracting<T: BinaryInteger>(_ a: [T], _ b: [T]) -> [T] {
        if b.isEmpty || a.isEmpty { return a }
        var result: [T] = []
        result.reserveCapacity(a.count)
        var from = 0
        for value in b {
            let index = lowerBound(a, value, from: from)
            result.append(contentsOf: a[from..<index])
            from = index < a.count && a[index] == value ? index + 1 : index
        }
        result.append(contentsOf: a[from...])
        return result
    }

    /// Sorts and removes duplicates.
    static func sortedUnique<T: BinaryInteger>(_ values: [T]) -> [T] {
        var result = values
        sortUnique(&result)
        return result
    }

    /// Sorts `values` and removes duplicates, in place.
    static func sortUnique<T: BinaryInteger>(_ values: inout [T]) {
        guard values.count > 1 else { return }
        values.sort()
        var count = 1
        for index in 1..<values.count where values[index] != values[count - 1] {
            values[count] = values[index]
            count += 1
        }
        values.removeLast(values.count - count)
    }
}

/// `if-domain` / `unless-domain` entries looked up in the file's domain hash table, with exactly the
/// answer of their generated patterns (spec §1.4, §4.6).
///
/// An entry `d` stands for the unanchored pattern `[a-z][a-z+.-]*:\/\/d[:/]` (`*d`:
/// `[a-z][a-z+.-]*:\/\/([^/]*\.)*d[:/]`) searched over the whole top URL. It matches iff some
/// occurrence of `://` at `q` is preceded by a run of scheme characters (`[a-z+.-]`, also `[A-Z]`
/// unless case-sensitive) that contains a letter, and is followed at `h = q + 3` by `d` (for `*d`: at
/// `h` or right after a `.` before the first `/` after `h`), then `:` or `/`. As `d` holds no `:` or
/// `/`, `d` must be the text from its start up to the first `:` or `/`: one scan of the top URL
/// yields every candidate key. Only entries of letters, digits, `.`, `-`, `_` are in the table.
enum DomainLookup {
    /// Rules with a matching indexed domain entry, ascending and unique.
    /// - Complexity: O(top URL length × dots in its hosts) hash look-ups.
    static func matchingRules(_ rules: MappedRuleList, top: UnsafeBufferPointer<UInt8>) -> [Int32] {
        let capacity = rules.domainHashCapacity
        guard capacity > 0 else { return [] }
        var found: [Int32] = []
        let count = top.count
        var q = 1
        while q + 3 <= count {
            guard top[q] == UInt8(ascii: ":"), top[q + 1] == UInt8(ascii: "/"), top[q + 2] == UInt8(ascii: "/") else {
                q += 1
                continue
            }
            let (insensitiveScheme, sensitiveScheme) = schemeBefore(q, in: top)
            let h = q + 3
            var slash = h
            while slash < count, top[slash] != UInt8(ascii: "/") { slash += 1 }
            var start = h
            while start < slash {
                var end = start
                while end < count, top[end] != UInt8(ascii: ":"), top[end] != UInt8(ascii: "/") { end += 1 }
                if end < count && end > start {
                    let key = UnsafeBufferPointer(rebasing: top[start..<end])
                    for subdomains in [false, true] where subdomains || start == h {
                        if insensitiveScheme { lookUp(rules, key, subdomains: subdomains, sensitive: false, &found) }
                        if sensitiveScheme { lookUp(rules, key, subdomains: subdomains, sensitive: true, &found) }
                    }
                }
                var dot = start
                while dot < slash, top[dot] != UInt8(ascii: ".") { dot += 1 }
                start = dot + 1
            }
            q += 1
        }
        return SortedRules.sortedUnique(found)
    }

    private static func lookUp(
        _ rules: MappedRuleList, _ key: UnsafeBufferPointer<UInt8>, subdomains: Bool, sensitive: Bool,
        _ found: inout [Int32]
    ) {
        let flags: UInt32 = (subdomains ? 1 : 0) | (sensitive ? 2 : 0)
        let mask = rules.domainHashCapacity - 1
        var slot = IndexHash.domain(key, lowercase: !sensitive, flags: flags) & mask
        while let id = rules.domainHashSlot(slot) {
            let domain = rules.domain(id)
            if domain.subdomains == subdomains, domain.caseSensitive == sensitive, domain.text.count == key.count,
                sensitive ? ContentRuleList.equal(domain.text, key, at: 0, fold: false) : equalFolded(domain.text, key)
            {
                for index in domain.postings { found.append(rules.domainPosting(index)) }
            }
            slot = (slot + 1) & mask
        }
    }

    /// ASCII case-insensitive equality of two byte strings of the same length.
    private static func equalFolded(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        for index in 0..<a.count where IndexHash.lowercased(a[index]) != IndexHash.lowercased(b[index]) {
            return false
        }
        return true
    }

    /// Whether `[a-z][a-z+.-]*` can end right before `q`: case-insensitively and case-sensitively.
    private static func schemeBefore(_ q: Int, in top: UnsafeBufferPointer<UInt8>) -> (Bool, Bool) {
        func isLower(_ byte: UInt8) -> Bool { byte >= 0x61 && byte <= 0x7A }
        func isUpper(_ byte: UInt8) -> Bool { byte >= 0x41 && byte <= 0x5A }
        func isPunctuation(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
        }
        var insensitive = false
        var index = q - 1
        while index >= 0 {
            let byte = top[index]
            if isLower(byte) || isUpper(byte) {
                insensitive = true
                break
            }
            guard isPunctuation(byte) else { break }
            index -= 1
        }
        var sensitive = false
        index = q - 1
        while index >= 0 {
            let byte = top[index]
            if isLower(byte) {
                sensitive = true
                break
            }
            guard isPunctuation(byte) else { break }
            index -= 1
        }
        return (insensitive, sensitive)
    }
}
