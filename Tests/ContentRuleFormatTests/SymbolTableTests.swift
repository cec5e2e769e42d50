import Testing

@testable import ContentRuleFormat

/// The selector and PCRE2 text tables of `SYMB` (``SymbolTable``): every text decodes back to itself,
/// and the table chooses the symbols the plain FSST step below chooses (counts kept in dictionaries,
/// symbols compared as byte arrays), so that the packed words and flat counts change no choice.
@Suite struct SymbolTableTests {
    /// Deterministic texts with a shared vocabulary, NUL and 0xFF bytes (0xFF is also the escape code),
    /// and symbols that differ only by trailing NUL bytes (`a` and `a\0` must stay distinct).
    static func texts(count: Int, seed: UInt64) -> [[UInt8]] {
        let words: [[UInt8]] = [
            Array("banner".utf8), Array("-container".utf8), Array("[class^=\"".utf8), Array("ad".utf8),
            [0x61, 0], [0x61], [0, 0, 0], [0xFF, 0xFE], Array("sponsor".utf8), Array(".".utf8),
        ]
        var state = seed
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33)
        }
        return (0..<count).map { _ in
            var text: [UInt8] = []
            for _ in 0..<(1 + next() % 12) {
                if next() % 5 == 0 {
                    text.append(UInt8(truncatingIfNeeded: next()))
                } else {
                    text += words[next() % words.count]
                }
            }
            return text
        }
    }

    /// Decodes `codes` with the table's symbols (what `RawBytes.symbolDecoded` does from the map).
    static func decode(_ codes: [UInt8], _ table: SymbolTable) -> [UInt8] {
        var text: [UInt8] = []
        var at = 0
        while at < codes.count {
            if Int(codes[at]) < table.symbols.count {
                text += table.symbols[Int(codes[at])]
                at += 1
            } else {
                text.append(codes[at + 1])
                at += 2
            }
        }
        return text
    }

    @Test(arguments: [0, 1, 300, 40_000])
    func everyTextDecodesBack(count: Int) {
        // 40,000 texts are about 1 MB: the table is trained on a sample and still codes all of them.
        let texts = Self.texts(count: count, seed: UInt64(count))
        let table = SymbolTable(training: texts)
        #expect(table.symbols.count <= SymbolTable.maximumCount)
        #expect(table.symbols.allSatisfy { (1...SymbolTable.maximumLength).contains($0.count) })
        for text in texts { #expect(Self.decode(table.encode(text), table) == text) }
        if count == 40_000 {
            let coded = texts.reduce(0) { $0 + table.encode($1).count }
            #expect(coded * 2 < texts.reduce(0) { $0 + $1.count })
        }
    }

    @Test func choosesTheSymbolsOfThePlainFSSTStep() {
        let texts = Self.texts(count: 400, seed: 7)
        var plain: [[UInt8]] = []
        for _ in 0..<5 { plain = Self.plainStep(texts, symbols: plain) }
        #expect(SymbolTable(training: texts).symbols == plain)
    }

    /// FSST's step written plainly: greedy longest-symbol encoding, counts of units and adjacent pairs
    /// (≤ 8 bytes), gain = count × length, the 255 best, ties to the lexicographically smaller bytes.
    static func plainStep(_ texts: [[UInt8]], symbols: [[UInt8]]) -> [[UInt8]] {
        var gains: [[UInt8]: Int] = [:]
        for text in texts {
            var at = 0
            var previous: [UInt8]?
            while at < text.count {
                let unit =
                    symbols.filter { at + $0.count <= text.count && Array(text[at..<(at + $0.count)]) == $0 }
                    .max { $0.count < $1.count } ?? [text[at]]
                at += unit.count
                gains[unit, default: 0] += unit.count
                if let previous, previous.count + unit.count <= SymbolTable.maximumLength {
                    gains[previous + unit, default: 0] += previous.count + unit.count
                }
                previous = unit
            }
        }
        let ranked = gains.sorted {
            $0.value > $1.value || ($0.value == $1.value && $0.key.lexicographicallyPrecedes($1.key))
        }
        return ranked.prefix(SymbolTable.maximumCount).map(\.key)
    }
}
