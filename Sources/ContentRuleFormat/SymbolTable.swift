/// A static symbol table in the manner of FSST (Boncz, Neumann, Leis, "FSST: Fast Random Access String
/// Compression", VLDB 2020): up to 255 symbols of 1 to 8 bytes, chosen per list; a coded text is a run
/// of codes, each a symbol's index, or ``escape`` followed by one literal byte. Each text is decoded on
/// its own, from the map (``RawBytes/symbolDecoded(_:_:table:)``). The `SYMB` section holds two: one
/// for css-display-none selectors (decoded when the action is read) and one for PCRE2 texts (decoded
/// by ``MappedRuleList/regexSource(_:)``, when the matcher compiles the pattern).
///
/// Real selectors share their vocabulary (`ad`, `banner`, `-container`, `[class^="`…) far more than
/// their prefixes: on the 25,719 css-display-none rules of the combined benchmark list the table halves
/// the selector bytes, where sorted front coding saves under 8%.
struct SymbolTable {
    /// The code that introduces a literal byte (any code at or past the symbol count is read so).
    static let escape: UInt8 = 0xFF
    static let maximumCount = 255
    static let maximumLength = 8
    /// Rounds of choosing symbols from the counts of the previous table's encoding (FSST uses 5).
    private static let rounds = 5
    /// About how many bytes of texts a table is trained on (the rest are only encoded): the smallest
    /// sample that codes as well as training on every text, in a fraction of the time
    /// (`Benchmarks/results/2026-12-03-notes.md`).
    private static let sampleBytes = 1 << 18

    /// The symbols, by code.
    private(set) var symbols: [[UInt8]] = []
    /// Per code: the symbol's bytes big-endian in a word (the first byte highest, zero-padded), so that
    /// a symbol matches a text window with one shift and compare.
    private var words: [UInt64] = []
    /// Per code: the symbol's length in bytes (1...8).
    private var lengths: [Int] = []
    /// Codes of the symbols that start with each byte, longest first (the greedy encoder's candidates):
    /// those of byte `b` are `candidates[candidateStarts[b]..<candidateStarts[b + 1]]`.
    private var candidates: [UInt8] = []
    private var candidateStarts = [Int](repeating: 0, count: 257)

    /// A table trained on `texts` (empty, so every byte escaped, when there are none).
    init(training texts: [[UInt8]]) {
        // Like FSST, train on a sample: every k-th text, about `sampleBytes` in all.
        let total = texts.reduce(0) { $0 + $1.count }
        let step = max(1, (total + Self.sampleBytes - 1) / Self.sampleBytes)
        let sample = step == 1 ? texts : stride(from: 0, to: texts.count, by: step).map { texts[$0] }
        var table = Self(symbols: [])
        for _ in 0..<Self.rounds { table = Self(symbols: table.chooseSymbols(sample)) }
        self = table
    }

    private init(symbols: [[UInt8]]) {
        self.symbols = symbols
        words = symbols.map { Self.word($0[...]) }
        lengths = symbols.map(\.count)
        var byFirstByte = [[UInt8]](repeating: [], count: 256)
        for code in symbols.indices { byFirstByte[Int(symbols[code][0])].append(UInt8(code)) }
        for byte in 0..<256 {
            byFirstByte[byte].sort { symbols[Int($0)].count > symbols[Int($1)].count }
            candidates += byFirstByte[byte]
            candidateStarts[byte + 1] = candidates.count
        }
    }

    /// Up to 8 bytes big-endian in a word, zero-padded.
    private static func word(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var word: UInt64 = 0
        for (index, byte) in bytes.prefix(8).enumerated() { word |= UInt64(byte) << (56 - 8 * index) }
        return word
    }

    /// The code of the longest symbol at `at` in `text` and its length, or `nil`.
    private func longestSymbol(_ text: [UInt8], at: Int) -> (code: UInt8, length: Int)? {
        let first = Int(text[at])
        let range = candidateStarts[first]..<candidateStarts[first + 1]
        guard !range.isEmpty else { return nil }
        let remaining = text.count - at
        let window = Self.word(text[at..<min(text.count, at + Self.maximumLength)])
        for code in candidates[range] {
            let length = lengths[Int(code)]
            guard length <= remaining else { continue }
            let shift = UInt64(64 - 8 * length)
            if window >> shift == words[Int(code)] >> shift { return (code, length) }
        }
        return nil
    }

    /// `text` as codes: greedily the longest symbol at each position, else an escaped byte.
    func encode(_ text: [UInt8]) -> [UInt8] {
        var codes: [UInt8] = []
        codes.reserveCapacity(text.count)
        var at = 0
        while at < text.count {
            if let (code, length) = longestSymbol(text, at: at) {
                codes.append(code)
                at += length
            } else {
                codes.append(Self.escape)
                codes.append(text[at])
                at += 1
            }
        }
        return codes
    }

    /// A candidate symbol for the next round: its bytes as ``word(_:)`` and its length. Ordered as
    /// the bytes compare lexicographically (zero padding sorts a prefix before its extensions).
    private struct Candidate: Hashable, Comparable {
        var word: UInt64
        var length: Int
        static func < (a: Self, b: Self) -> Bool { (a.word, a.length) < (b.word, b.length) }
        var bytes: [UInt8] { (0..<length).map { UInt8(truncatingIfNeeded: word >> (56 - 8 * $0)) } }
    }

    /// FSST's step: encode `texts` with this table, count each symbol (a literal byte is a symbol of
    /// its own) and each pair of adjacent symbols that fits in 8 bytes, and keep the 255 with the most
    /// bytes covered (count × length). Ties go to the lexicographically smaller symbol (deterministic).
    private func chooseSymbols(_ texts: [[UInt8]]) -> [[UInt8]] {
        // Units: 0..<256 literal bytes, 256 + code the symbols; pairs counted in a flat square.
        let unitCount = 256 + symbols.count
        let unitLengths = [Int](repeating: 1, count: 256) + lengths
        var unitCounts = [Int](repeating: 0, count: unitCount)
        var pairCounts = [Int32](repeating: 0, count: unitCount * unitCount)
        for text in texts {
            var at = 0
            var previous = -1
            while at < text.count {
                let unit: Int
                if let (code, length) = longestSymbol(text, at: at) {
                    unit = 256 + Int(code)
                    at += length
                } else {
                    unit = Int(text[at])
                    at += 1
                }
                unitCounts[unit] += 1
                if previous >= 0, unitLengths[previous] + unitLengths[unit] <= Self.maximumLength {
                    pairCounts[previous * unitCount + unit] += 1
                }
                previous = unit
            }
        }
        let unitCandidates =
            (0..<256).map { Candidate(word: UInt64($0) << 56, length: 1) }
            + zip(words, lengths).map { Candidate(word: $0, length: $1) }
        var gains: [Candidate: Int] = [:]
        for unit in 0..<unitCount where unitCounts[unit] > 0 {
            gains[unitCandidates[unit], default: 0] += unitCounts[unit] * unitLengths[unit]
        }
        for first in 0..<unitCount {
            for second in 0..<unitCount where pairCounts[first * unitCount + second] > 0 {
                let (a, b) = (unitCandidates[first], unitCandidates[second])
                let pair = Candidate(word: a.word | b.word >> UInt64(8 * a.length), length: a.length + b.length)
                gains[pair, default: 0] += Int(pairCounts[first * unitCount + second]) * pair.length
            }
        }
        let ranked = gains.sorted { $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key) }
        return ranked.prefix(Self.maximumCount).map(\.key.bytes)
    }

    /// Size of one table in `SYMB`.
    static let byteCount = maximumCount * (1 + maximumLength)

    /// The table in `SYMB`: the `u8` length of each of the 255 symbols, then each symbol in 8 bytes
    /// (zero-padded); unused codes hold the 1-byte symbol 0.
    var section: [UInt8] {
        let padded = symbols + [[UInt8]](repeating: [0], count: Self.maximumCount - symbols.count)
        var bytes = padded.map { UInt8($0.count) }
        for symbol in padded { bytes += symbol + [UInt8](repeating: 0, count: Self.maximumLength - symbol.count) }
        return bytes
    }
}
