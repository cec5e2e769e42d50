/// Rules indexed by one 4-byte window ("gram") of their required literal.
///
/// Each rule is filed under the gram of its literal that the fewest rules use (common URL grams
/// such as `http` or `www.` are avoided when the literal has others). One pass over the lower-cased
/// URL, looking up each 4-byte window in an open-addressing hash table, yields every rule whose gram
/// occurs in the URL: a superset of the rules whose literal occurs, hence of the rules that match.
struct LiteralIndex: Sendable {
    static let gramLength = 4

    /// Open-addressing table: `keys[slot]` (0 = empty; indexed literals never contain a NUL byte) and
    /// the rules filed under it, `rules[starts[slot]..<ends[slot]]`, ascending.
    private let keys: [UInt32]
    private let starts: [Int32]
    private let ends: [Int32]
    private let rules: [Int32]
    private let mask: Int

    /// Grams that nearly every request URL contains.
    private static let commonGrams: Set<UInt32> = Set(
        [
            "http", "ttp:", "tps:", "ttps", "tp:/", "ps:/", "p://", "s://", "://w", "//ww", "/www", "www.", ".com",
            "com/", ".net", ".org", "html", ".htm", ".js?", "ript", "scri", "crip",
        ].map { gram(Array($0.utf8), 0) })

    @inline(__always) static func gram(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
    }

    /// - Parameter literals: (rule number, lower-cased literal of at least ``gramLength`` bytes), any order.
    /// - Complexity: O(total literal length).
    init(literals: [(rule: Int32, literal: [UInt8])]) {
        var frequency: [UInt32: Int] = [:]
        for (_, literal) in literals {
            var seen = Set<UInt32>()
            for at in 0...(literal.count - Self.gramLength) where seen.insert(Self.gram(literal, at)).inserted {
                frequency[Self.gram(literal, at), default: 0] += 1
            }
        }
        var chosen: [UInt32: [Int32]] = [:]
        for (rule, literal) in literals {
            var best: UInt32 = 0
            var bestCost = Int.max
            for at in 0...(literal.count - Self.gramLength) {
                let gram = Self.gram(literal, at)
                let cost = (frequency[gram] ?? 0) + (Self.commonGrams.contains(gram) ? 1_000_000 : 0)
                if cost < bestCost {
                    best = gram
                    bestCost = cost
                }
            }
            chosen[best, default: []].append(rule)
        }
        var capacity = 16
        while capacity < chosen.count * 2 { capacity *= 2 }
        var keys = [UInt32](repeating: 0, count: capacity)
        var starts = [Int32](repeating: 0, count: capacity)
        var ends = [Int32](repeating: 0, count: capacity)
        var rules: [Int32] = []
        let mask = capacity - 1
        for (gram, numbers) in chosen {
            var slot = Self.hash(gram) & mask
            while keys[slot] != 0 { slot = (slot + 1) & mask }
            keys[slot] = gram
            starts[slot] = Int32(rules.count)
            rules.append(contentsOf: numbers.sorted())
            ends[slot] = Int32(rules.count)
        }
        self.keys = keys
        self.starts = starts
        self.ends = ends
        self.rules = rules
        self.mask = mask
    }

    @inline(__always) private static func hash(_ gram: UInt32) -> Int {
        Int(truncatingIfNeeded: (UInt64(gram) &* 0x9E37_79B9_7F4A_7C15) >> 32)
    }

    /// Appends the rules whose gram occurs in `url` (lower-cased) to `candidates` (with duplicates).
    /// - Complexity: O(URL length + candidates).
    func collect(_ url: UnsafeBufferPointer<UInt8>, into candidates: inout [Int32]) {
        guard url.count >= Self.gramLength, !rules.isEmpty else { return }
        var gram =
            UInt32(url[0]) << 8 | UInt32(url[1]) << 16 | UInt32(url[2]) << 24
        for at in 3..<url.count {
            gram = gram >> 8 | UInt32(url[at]) << 24
            var slot = Self.hash(gram) & mask
            while true {
                let key = keys[slot]
                if key == gram {
                    for position in Int(starts[slot])..<Int(ends[slot]) { candidates.append(rules[position]) }
                    break
                }
                if key == 0 { break }
                slot = (slot + 1) & mask
            }
        }
    }
}
