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
    /// ``IndexHash/gramLength`` bytes, none 0) is in `bytes`. O(total literal length).
    static func build(_ literals: [(rule: Int32, literal: Range<Int>)], in bytes: [UInt8]) -> ([UInt8], [UInt8]) {
        // Per gram: the number of literals containing it (+ commonCost for common grams).
        var positions = 0
        for entry in literals { positions += entry.literal.count - IndexHash.gramLength + 1 }
        var costs = GramTable(expected: positions / 4)
        for (index, entry) in literals.enumerated() {
            for at in entry.literal.lowerBound...(entry.literal.upperBound - IndexHash.gramLength) {
                costs.count(IndexHash.gram(bytes, at), literal: Int32(index))
            }
        }
        for gram in common { costs.addToCost(gram, commonCost) }
        var chosen: [UInt64] = []  // gram << 32 | rule
        chosen.reserveCapacity(literals.count)
        for (rule, literal) in literals {
            var best: UInt32 = 0
            var bestCost = Int32.max
            for at in literal.lowerBound...(literal.upperBound - IndexHash.gramLength) {
                let gram = IndexHash.gram(bytes, at)
                let cost = costs.cost(gram)
                if cost < bestCost {
                    best = gram
                    bestCost = cost
                }
            }
            chosen.append(UInt64(best) << 32 | UInt64(UInt32(bitPattern: rule)))
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
        var start = 0
        while start < chosen.count {
            let gram = UInt32(truncatingIfNeeded: chosen[start] >> 32)
            var end = start
            while end < chosen.count, UInt32(truncatingIfNeeded: chosen[end] >> 32) == gram { end += 1 }
            var slot = IndexHash.gramSlot(gram) & (capacity - 1)
            while keys[slot] != 0 { slot = (slot + 1) & (capacity - 1) }
            keys[slot] = gram
            offsets[slot] = UInt32(postings.bytes.count / 4)
            postings.u32(UInt32(end - start))
            for index in start..<end { postings.u32(UInt32(truncatingIfNeeded: chosen[index])) }
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

    /// Open-addressing map from a gram (never 0) to its cost, counting each literal once per gram.
    private struct GramTable {
        private var grams: [UInt32]
        private var costs: [Int32]
        /// The last literal counted for the gram.
        private var lastLiteral: [Int32]
        private var used = 0

        /// A table that holds `expected` grams without growing.
        init(expected: Int) {
            var capacity = 1 << 12
            while capacity < expected * 2 { capacity *= 2 }
            grams = [UInt32](repeating: 0, count: capacity)
            costs = [Int32](repeating: 0, count: capacity)
            lastLiteral = [Int32](repeating: -1, count: capacity)
        }

        private func slot(_ gram: UInt32) -> Int {
            let mask = grams.count - 1
            var slot = IndexHash.gramSlot(gram) & mask
            while grams[slot] != 0 && grams[slot] != gram { slot = (slot + 1) & mask }
            return slot
        }

        mutating func count(_ gram: UInt32, literal: Int32) {
            var slot = slot(gram)
            if grams[slot] == 0 {
                if (used + 1) * 2 > grams.count {
                    grow()
                    slot = self.slot(gram)
                }
                grams[slot] = gram
                used += 1
            }
            if lastLiteral[slot] != literal {
                lastLiteral[slot] = literal
                costs[slot] += 1
            }
        }

        mutating func addToCost(_ gram: UInt32, _ value: Int32) {
            let slot = slot(gram)
            if grams[slot] == gram { costs[slot] += value }
        }

        /// The cost of a gram that was counted.
        func cost(_ gram: UInt32) -> Int32 { costs[slot(gram)] }

        private mutating func grow() {
            let (oldGrams, oldCosts, oldLast) = (grams, costs, lastLiteral)
            grams = [UInt32](repeating: 0, count: oldGrams.count * 2)
            costs = [Int32](repeating: 0, count: grams.count)
            lastLiteral = [Int32](repeating: -1, count: grams.count)
            for index in oldGrams.indices where oldGrams[index] != 0 {
                let slot = slot(oldGrams[index])
                grams[slot] = oldGrams[index]
                costs[slot] = oldCosts[index]
                lastLiteral[slot] = oldLast[index]
            }
        }
    }
}
