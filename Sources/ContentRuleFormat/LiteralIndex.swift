/// The literal index (LGRM and LPST sections): each rule the compiler filed under a 4-byte gram of its
/// required literal (``IndexKey/gram(_:neighbourCode:)``), found from the grams of the lower-cased URL.
enum LiteralIndex {
    /// `(LGRM, LPST)` for `filed` (each a rule, its gram, never 0, and its neighbour code): a
    /// power-of-two table of `(gram, value)` slots at most 70% full (none for no rules), where the value
    /// is the gram's only rule with its code (``Layout/inlinePosting``) or the word offset of its LPST
    /// list (count, then the rules with their codes, ascending). O(rules × log rules).
    static func encode(_ filed: [(rule: Int32, gram: UInt32, code: UInt8)]) -> ([UInt8], [UInt8]) {
        var codes = [UInt8](repeating: 0, count: Int(filed.map(\.rule).max() ?? -1) + 1)
        for entry in filed { codes[Int(entry.rule)] = entry.code }
        let chosen = filed.map { UInt64($0.gram) << 32 | UInt64(UInt32(bitPattern: $0.rule)) }.sorted()
        var distinct = 0
        for index in chosen.indices where index == 0 || chosen[index] >> 32 != chosen[index - 1] >> 32 { distinct += 1 }
        // At most 70% full: most grams of a URL are not in the table, and misses end at an empty slot.
        var capacity = 16
        while capacity * 7 < distinct * 10 { capacity *= 2 }
        var keys = [UInt32](repeating: 0, count: chosen.isEmpty ? 0 : capacity)
        var offsets = [UInt32](repeating: 0, count: keys.count)
        var postings = ByteWriter()
        postings.reserve((chosen.count + distinct) * 4)
        /// A posting: the rule with its neighbour code above it.
        func posting(_ index: Int) -> UInt32 {
            let rule = UInt32(truncatingIfNeeded: chosen[index])
            return UInt32(codes[Int(rule)]) << IndexHash.neighbourCodeShift | rule
        }
        var start = 0
        while start < chosen.count {
            let gram = UInt32(truncatingIfNeeded: chosen[start] >> 32)
            var end = start
            while end < chosen.count, UInt32(truncatingIfNeeded: chosen[end] >> 32) == gram { end += 1 }
            var slot = IndexHash.gramSlot(gram) & (capacity - 1)
            while keys[slot] != 0 { slot = (slot + 1) & (capacity - 1) }
            keys[slot] = gram
            if end - start == 1 {
                // The only rule of the gram, in the slot itself.
                offsets[slot] = Layout.inlinePosting | posting(start)
            } else {
                offsets[slot] = UInt32(postings.bytes.count / 4)
                postings.u32(UInt32(end - start))
                for index in start..<end { postings.u32(posting(index)) }
            }
            start = end
        }
        var table = ByteWriter()
        table.reserve(keys.count * 8)
        for slot in keys.indices {
            table.u32(keys[slot])
            table.u32(offsets[slot])
        }
        return (table.bytes, postings.bytes)
    }
}
