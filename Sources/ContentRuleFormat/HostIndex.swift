/// The host index (HGRM section, postings in LPST): rules whose PCRE2 url-filter is host-anchored
/// (WebKit's host anchor followed by its required literal: `PATS` flag 32) can only match where that
/// literal begins just after the URL's `://` or just after its first label's dot. The compiler files
/// each under the hash of the literal's first 24, 16, 8 or 4 bytes (``key(_:)``, the longest it has:
/// ``IndexHash/hostKeyLengths``; ``IndexKey/host(_:)``), and the matcher looks up those four prefixes
/// at the two places, instead of finding the rule through a gram that may occur anywhere in the URL.
///
/// Most indexed rules of real lists are host-anchored, and the grams of a host name occur in many URLs
/// that do not hold it where the rule needs it: looked up at those two places, far fewer of these
/// rules become a request's candidates (measured: `Benchmarks/results/2026-12-03-notes.md`).
package enum HostIndex {
    /// Whether rule numbers and LPST offsets fit a slot's 23 bits: when not, the compiler files every
    /// rule in the literal index, and the writer refuses host keys (`tooLarge`).
    package static func fits(rules: Int, postingWords: Int) -> Bool {
        rules <= Int(Layout.hostValueMask) && postingWords <= Int(Layout.hostValueMask)
    }

    /// The ``IndexHash/hostKey(_:_:_:length:)`` hash of `literal`'s longest indexed prefix (`literal`:
    /// lower-cased, at least 4 bytes).
    package static func key(_ literal: ArraySlice<UInt8>) -> UInt64 {
        let length = IndexHash.hostKeyLengths.first { $0 <= literal.count }!
        func word(_ from: Int, _ count: Int) -> UInt64 {
            var value: UInt64 = 0
            for index in 0..<count { value |= UInt64(literal[literal.startIndex + from + index]) << (8 * index) }
            return value
        }
        return IndexHash.hostKey(
            word(0, min(length, 8)), length >= 16 ? word(8, 8) : 0, length >= 24 ? word(16, 8) : 0, length: length)
    }

    /// The LPST words that the rules filed under `keys` (one key per rule, in the literal or the host
    /// index) take: a count and the rules, for each key with more than one rule (one rule is held in
    /// its slot). O(keys).
    package static func postingWords<Key: Hashable>(_ keys: [Key]) -> Int {
        var rulesPerKey: [Key: Int] = [:]
        rulesPerKey.reserveCapacity(keys.count)
        for key in keys { rulesPerKey[key, default: 0] += 1 }
        return rulesPerKey.values.reduce(0) { $0 + ($1 > 1 ? $1 + 1 : 0) }
    }

    /// `(HGRM, postings)` for `filed` (each a rule and its key): the postings are the lists of keys
    /// with more than one rule, to be appended to LPST at word `postingsBase`. A power-of-two table at
    /// most 70% full with an empty slot (none for no rules); the rules of a key ascending.
    /// O(rules × log rules).
    static func encode(
        _ filed: [(rule: Int32, key: UInt64)], postingsBase: Int
    ) -> (table: [UInt8], postings: [UInt8]) {
        guard !filed.isEmpty else { return ([], []) }
        var postings = ByteWriter()
        var keyed = filed.map { (hash: $0.key, rule: UInt32(bitPattern: $0.rule)) }
        keyed.sort { $0.hash < $1.hash || ($0.hash == $1.hash && $0.rule < $1.rule) }
        var distinct = 0
        for index in keyed.indices where index == 0 || keyed[index].hash != keyed[index - 1].hash { distinct += 1 }
        var capacity = 16
        while capacity * 7 < distinct * 10 { capacity *= 2 }
        let mask = capacity - 1
        var slots = [UInt32](repeating: 0, count: capacity)
        var start = 0
        while start < keyed.count {
            let hash = keyed[start].hash
            var end = start
            while end < keyed.count, keyed[end].hash == hash { end += 1 }
            var slot = Int(truncatingIfNeeded: hash >> 32) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            if end - start == 1 {
                slots[slot] = IndexHash.hostCheck(hash) | Layout.hostInlinePosting | keyed[start].rule
            } else {
                slots[slot] =
                    IndexHash.hostCheck(hash) | UInt32(truncatingIfNeeded: postingsBase + postings.bytes.count / 4)
                postings.u32(UInt32(end - start))
                for index in start..<end { postings.u32(keyed[index].rule) }
            }
            start = end
        }
        var table = ByteWriter()
        table.reserve(capacity * 4)
        for slot in slots { table.u32(slot) }
        return (table.bytes, postings.bytes)
    }
}
