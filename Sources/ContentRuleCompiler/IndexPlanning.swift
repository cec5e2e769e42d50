import ContentRuleFormat

/// The compiler's choice of where the indexes file each rule reached through its literal
/// (``CompiledRule/indexKey``): a host-anchored pattern's rule in the host index under the beginning of
/// its literal, every other one in the literal index under the 4-byte gram of its literal that the
/// fewest literals contain. The format only lays these keys out in its hash tables.
enum IndexPlanning {
    /// Grams of nearly every URL: costlier than any count, so only chosen when a literal has no other gram.
    private static let common = [
        "http", "ttp:", "tps:", "ttps", "tp:/", "ps:/", "p://", "s://", "://w", "//ww", "/www", "www.",
        ".com", "com/", ".net", ".org", "html", ".htm", ".js?", "ript", "scri", "crip",
    ].map { IndexHash.gram(Array($0.utf8), 0) }
    private static let commonCost: Int32 = 1_000_000

    /// Sets ``CompiledRule/indexKey`` of every rule whose ``CompiledRule/entry`` is
    /// ``RuleEntry/literal``: host-anchored patterns (``CompiledPattern/hostAnchored``) get a host key
    /// when the host index's slots can hold the list (`HostIndex.fits`), else every such rule gets a
    /// gram. A gram's cost counts the host-anchored literals too (URL-like text: a gram common there
    /// is common in URLs, and a rule filed under it would be a candidate for many requests).
    ///
    /// - Complexity: O(total literal length + rules × log rules).
    static func assignKeys(_ rules: inout [CompiledRule]) {
        var literals: [(rule: Int32, literal: [UInt8])] = []
        var hostLiterals: [(rule: Int32, literal: [UInt8])] = []
        for (number, rule) in rules.enumerated() where rule.entry == .literal {
            let literal = Array((rule.urlFilter.requiredLiteral ?? "").utf8)
            if rule.urlFilter.hostAnchored && rule.urlFilter.literal == nil {
                hostLiterals.append((Int32(number), literal))
            } else {
                literals.append((Int32(number), literal))
            }
        }
        var grams = chooseGrams(literals, alsoCounted: hostLiterals.map(\.literal))
        let hostKeys = hostLiterals.map {
            (rule: $0.rule, key: HostIndex.key($0.literal.prefix(RegexSearchPlan.maximumLength)))
        }
        let postingWords =
            HostIndex.postingWords(grams.map(\.gram)) + HostIndex.postingWords(hostKeys.map(\.key))
        if HostIndex.fits(rules: rules.count, postingWords: postingWords) {
            for (rule, key) in hostKeys { rules[Int(rule)].indexKey = .host(key) }
        } else {
            grams = chooseGrams(literals + hostLiterals, alsoCounted: [])
        }
        for (rule, gram, code) in grams { rules[Int(rule)].indexKey = .gram(gram, neighbourCode: code) }
    }

    /// Each literal's gram (the first offset of its cheapest: the one the fewest literals, of `literals`
    /// and `alsoCounted`, contain) and its neighbour code. Each literal has at least
    /// ``IndexHash/gramLength`` bytes, none 0.
    static func chooseGrams(
        _ literals: [(rule: Int32, literal: [UInt8])], alsoCounted: [[UInt8]]
    ) -> [(rule: Int32, gram: UInt32, code: UInt8)] {
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
            for at in 0...(entry.literal.count - IndexHash.gramLength) {
                let gram = IndexHash.gram(entry.literal, at)
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
            for at in 0...(literal.count - IndexHash.gramLength) {
                let id = gramIDs.id(of: IndexHash.gram(literal, at), new: -1)
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
        var chosen: [(rule: Int32, gram: UInt32, code: UInt8)] = []
        chosen.reserveCapacity(literals.count)
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
            chosen.append((rule, grams[best], IndexHash.neighbourCode(literal[...], gramAt: offset)))
        }
        return chosen
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
