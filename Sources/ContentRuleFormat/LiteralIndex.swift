/// The literal index (LGRM and LPST sections): every rule with a usable required literal is filed under
/// the 4-byte gram of that literal that the fewest literals contain; grams that nearly every URL
/// contains are avoided when the literal has others.
enum LiteralIndex {
    /// Grams of nearly every URL: costlier than any count, so only chosen when a literal has no other gram.
    private static let common = [
        "http", "ttp:", "tps:", "ttps", "tp:/", "ps:/", "p://", "s://", "://w", "//ww", "/www", "www.",
        ".com", "com/", ".net", ".org", "html", ".htm", ".js?", "ript", "scri", "crip",
    ].map { IndexHash.gram(Array($0.utf8), 0) }
    private static let commonCost: Int32 = 1_000_000

    /// `(LGRM, LPST)` for `literals`, each a rule and where its required literal (at least
    /// ``IndexHash/gramLength`` bytes, none 0) is in `bytes`. A gram's cost also counts the literals of
    /// `alsoCounted` (those of the host index: URL-like text, so a gram common there is common in URLs,
    /// and a rule filed under it would be a candidate for many requests). O(total literal length).
    static func build(
        _ literals: [(rule: Int32, literal: Range<Int>)], alsoCounted: [Range<Int>] = [], in bytes: [UInt8]
    ) -> ([UInt8], [UInt8]) {
        // Each distinct gram gets a dense id; `ids` holds the id of every literal position in order.
        var positions = 0
        for entry in literals { positions += entry.literal.count - IndexHash.gramLength + 1 }
        var gramIDs = GramIDs(expected: positions / 4)
        var grams: [UInt32] = []
        // Per gram id: the number of literals containing it (+ commonCost for common grams).
        var costs: [Int32] = []
        var lastLiteral: [Int32] = []
        var ids: [Int32] = []
        ids.reserveCapacity(positions)
        for (index, entry) in literals.enumerated() {
            for at in entry.literal.lowerBound...(entry.literal.upperBound - IndexHash.gramLength) {
                let gram = IndexHash.gram(bytes, at)
                let id = gramIDs.id(of: gram, new: grams.count)
                if id == grams.count {
                    grams.append(gram)
                    costs.append(0)
                    lastLiteral.append(-1)
                }
                if lastLiteral[id] != Int32(index) {
                    lastLiteral[id] = Int32(index)
                    costs[id] += 1
                }
                ids.append(Int32(id))
            }
        }
        for (index, literal) in alsoCounted.enumerated() where literal.count >= IndexHash.gramLength {
            let tag = Int32(truncatingIfNeeded: literals.count + index)
            for at in literal.lowerBound...(literal.upperBound - IndexHash.gramLength) {
                let id = gramIDs.id(of: IndexHash.gram(bytes, at), new: -1)
                if id >= 0 && lastLiteral[id] != tag {
                    lastLiteral[id] = tag
                    costs[id] += 1
                }
            }
        }
        for gram in common {
            let id = gramIDs.id(of: gram, new: -1)
            if id >= 0 { costs[id] += commonCost }
        }
        var chosen: [UInt64] = []  // gram << 32 | rule
        chosen.reserveCapacity(literals.count)
        // Per rule: its neighbour code (put beside the rule when the postings are written).
        var codes = [UInt8](repeating: 0, count: Int(literals.map(\.rule).max() ?? -1) + 1)
        var position = 0
        for (rule, literal) in literals {
            var best = 0
            var bestCost = Int32.max
            var offset = 0
            for at in 0...(literal.count - IndexHash.gramLength) {
                let id = Int(ids[position])
                position += 1
                // The first offset of the cheapest gram (a later offset of the same gram costs the same).
                if costs[id] < bestCost {
                    best = id
                    bestCost = costs[id]
                    offset = at
                }
            }
            codes[Int(rule)] = UInt8(neighbourCode(bytes[literal], gramAt: offset))
            chosen.append(UInt64(grams[best]) << 32 | UInt64(UInt32(bitPattern: rule)))
        }
        chosen.sort()
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

    /// The neighbour code of a literal filed under its gram at `offset` (its first occurrence there):
    /// ``IndexHash/neighbourAfter`` | the low 6 bits of the byte after the gram, or, when the gram ends
    /// the literal, the low 6 bits of the byte before it; 0 (no check) when the gram is the whole
    /// literal or that code would be 0. Where the gram occurs once in a URL, an occurrence of the
    /// literal has that byte there (``IndexHash/neighbourCodeShift``).
    static func neighbourCode(_ literal: ArraySlice<UInt8>, gramAt offset: Int) -> UInt32 {
        let start = literal.startIndex
        if offset + IndexHash.gramLength < literal.count {
            return IndexHash.neighbourAfter | UInt32(literal[start + offset + IndexHash.gramLength] & 0x3F)
        }
        return offset > 0 ? UInt32(literal[start + offset - 1] & 0x3F) : 0
    }

    /// Open-addressing map from a gram (never 0) to its dense id: one `gram << 32 | id` word per slot
    /// (0 = empty), so a probe touches one cache line.
    private struct GramIDs {
        private var slots: [UInt64]
        private var used = 0

        /// A table that holds `expected` grams without growing.
        init(expected: Int) {
            var capacity = 1 << 12
            while capacity < expected * 2 { capacity *= 2 }
            slots = [UInt64](repeating: 0, count: capacity)
        }

        /// The id of `gram`; when absent, `new` is stored as its id and returned (unless `new` < 0).
        @inline(__always) mutating func id(of gram: UInt32, new: Int) -> Int {
            var mask = slots.count - 1
            var slot = IndexHash.gramSlot(gram) & mask
            while slots[slot] != 0 {
                if UInt32(truncatingIfNeeded: slots[slot] >> 32) == gram {
                    return Int(truncatingIfNeeded: slots[slot] & 0xFFFF_FFFF)
                }
                slot = (slot + 1) & mask
            }
            if new < 0 { return new }
            if (used + 1) * 2 > slots.count {
                grow()
                mask = slots.count - 1
                slot = IndexHash.gramSlot(gram) & mask
                while slots[slot] != 0 { slot = (slot + 1) & mask }
            }
            slots[slot] = UInt64(gram) << 32 | UInt64(new)
            used += 1
            return new
        }

        private mutating func grow() {
            let old = slots
            slots = [UInt64](repeating: 0, count: old.count * 2)
            let mask = slots.count - 1
            for entry in old where entry != 0 {
                var slot = IndexHash.gramSlot(UInt32(truncatingIfNeeded: entry >> 32)) & mask
                while slots[slot] != 0 { slot = (slot + 1) & mask }
                slots[slot] = entry
            }
        }
    }
}
