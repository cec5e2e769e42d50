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

    /// The symbols, by code.
    private(set) var symbols: [[UInt8]] = []
    /// Codes of the symbols that start with each byte, longest first (the greedy encoder's candidates).
    private var byFirstByte = [[UInt8]](repeating: [], count: 256)

    /// A table trained on `texts` (empty, so every byte escaped, when there are none).
    init(training texts: [[UInt8]]) {
        var table = Self(symbols: [])
        for _ in 0..<Self.rounds { table = Self(symbols: table.chooseSymbols(texts)) }
        self = table
    }

    private init(symbols: [[UInt8]]) {
        self.symbols = symbols
        for code in symbols.indices { byFirstByte[Int(symbols[code][0])].append(UInt8(code)) }
        for byte in 0..<256 { byFirstByte[byte].sort { symbols[Int($0)].count > symbols[Int($1)].count } }
    }

    /// The code of the longest symbol at `at` in `text` and its length, or `nil`.
    private func longestSymbol(_ text: [UInt8], at: Int) -> (code: UInt8, length: Int)? {
        for code in byFirstByte[Int(text[at])] {
            let symbol = symbols[Int(code)]
            guard symbol.count <= text.count - at else { continue }
            var index = 1
            while index < symbol.count, symbol[index] == text[at + index] { index += 1 }
            if index == symbol.count { return (code, symbol.count) }
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

    /// FSST's step: encode `texts` with this table, count each symbol (a literal byte is a symbol of
    /// its own) and each pair of adjacent symbols that fits in 8 bytes, and keep the 255 with the most
    /// bytes covered (count × length). Ties go to the lexicographically smaller symbol (deterministic).
    private func chooseSymbols(_ texts: [[UInt8]]) -> [[UInt8]] {
        // Units: 0..<256 literal bytes, 256 + code the symbols.
        var unitCounts = [Int](repeating: 0, count: 256 + symbols.count)
        var pairCounts: [UInt32: Int] = [:]
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
                if previous >= 0, unitLength(previous) + unitLength(unit) <= Self.maximumLength {
                    pairCounts[UInt32(previous) << 16 | UInt32(unit), default: 0] += 1
                }
                previous = unit
            }
        }
        var gains: [[UInt8]: Int] = [:]
        for unit in unitCounts.indices where unitCounts[unit] > 0 {
            gains[unitBytes(unit), default: 0] += unitCounts[unit] * unitLength(unit)
        }
        for (pair, count) in pairCounts {
            let bytes = unitBytes(Int(pair >> 16)) + unitBytes(Int(pair & 0xFFFF))
            gains[bytes, default: 0] += count * bytes.count
        }
        let ranked = gains.sorted {
            $0.value > $1.value || ($0.value == $1.value && $0.key.lexicographicallyPrecedes($1.key))
        }
        return ranked.prefix(Self.maximumCount).map(\.key)
    }

    private func unitLength(_ unit: Int) -> Int { unit < 256 ? 1 : symbols[unit - 256].count }
    private func unitBytes(_ unit: Int) -> [UInt8] { unit < 256 ? [UInt8(unit)] : symbols[unit - 256] }

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
