/// Shared beginnings and endings of PCRE2 texts, stored once (TMPL section).
///
/// Real lists repeat the same scaffolding around a host name thousands of times (28,000 of the
/// 83,750 rules of the combined benchmark list are `^[htpsw]+:\/\/([a-z0-9-]+\.)?HOST([\/:&\?].*)?$`):
/// a pattern stores the text between a prefix template and a suffix template, and the matcher joins the
/// three before compiling it with PCRE2. Templates are chosen per list by the writer: the text before the
/// first and after the last run of three or more letters or digits outside a character class or escape,
/// when it is at least ``minimumLength`` bytes and shared by at least ``minimumUses`` patterns.
enum PatternTemplates {
    static let minimumLength = 8
    static let minimumUses = 8
    static let maximumCount = 0xFFE

    /// Where the first literal run starts and the last ends, or nil when the text has no such run.
    static func cuts(_ text: [UInt8]) -> (prefixEnd: Int, suffixStart: Int)? { cuts(text, 0..<text.count) }

    /// ``cuts(_:)`` of `bytes[range]`, as offsets from `range.lowerBound`.
    static func cuts(_ bytes: [UInt8], _ range: Range<Int>) -> (prefixEnd: Int, suffixStart: Int)? {
        let base = range.lowerBound
        let count = range.count
        var first: Int?
        var lastEnd = 0
        var index = 0
        var runStart = -1
        func close(_ end: Int) {
            if runStart >= 0 && end - runStart >= 3 {
                if first == nil { first = runStart }
                lastEnd = end
            }
            runStart = -1
        }
        func at(_ offset: Int) -> UInt8 { bytes[base + offset] }
        while index < count {
            let byte = at(index)
            if RequiredLiteral.isAlphanumeric(byte) {
                if runStart < 0 { runStart = index }
                index += 1
                continue
            }
            close(index)
            if byte == UInt8(ascii: "\\") {
                index += 2
                if index - 1 < count, at(index - 1) == UInt8(ascii: "x"), index < count, at(index) == UInt8(ascii: "{")
                {
                    while index < count, at(index) != UInt8(ascii: "}") { index += 1 }
                    index += 1
                }
            } else if byte == UInt8(ascii: "[") {
                index += 1
                if index < count, at(index) == UInt8(ascii: "^") { index += 1 }
                if index < count, at(index) == UInt8(ascii: "]") { index += 1 }
                while index < count, at(index) != UInt8(ascii: "]") {
                    index += at(index) == UInt8(ascii: "\\") ? 2 : 1
                }
                index += 1
            } else if byte == UInt8(ascii: "("), index + 2 < count, at(index + 1) == UInt8(ascii: "?"),
                at(index + 2) == UInt8(ascii: "i")
            {
                index += 3
            } else {
                index += 1
            }
        }
        close(min(index, count))
        guard let first else { return nil }
        return (first, min(max(lastEnd, first), count))
    }

    /// How one PCRE2 text is split: its ``cuts(_:)`` and the templates (TMPL indexes) it may use.
    struct Split {
        var prefixEnd: Int
        var suffixStart: Int
        var prefix: UInt16?
        var suffix: UInt16?
    }

    /// The templates worth storing for the texts `bytes[range]` of `texts`, in TMPL order (prefixes
    /// first, each kind most used first, ties in byte order), and how each text is split.
    static func choose(_ bytes: [UInt8], _ texts: [Range<Int>]) -> (templates: [ArraySlice<UInt8>], splits: [Split?]) {
        var prefixes = Counter()
        var suffixes = Counter()
        var cutList: [(prefixEnd: Int, suffixStart: Int, prefix: Int, suffix: Int)?] = []
        cutList.reserveCapacity(texts.count)
        for text in texts {
            guard let (prefixEnd, suffixStart) = cuts(bytes, text) else {
                cutList.append(nil)
                continue
            }
            var prefix = -1
            var suffix = -1
            if prefixEnd >= minimumLength {
                prefix = prefixes.add(bytes[text.lowerBound..<(text.lowerBound + prefixEnd)])
            }
            if text.count - suffixStart >= minimumLength {
                suffix = suffixes.add(bytes[(text.lowerBound + suffixStart)..<text.upperBound])
            }
            cutList.append((prefixEnd, suffixStart, prefix, suffix))
        }
        let chosenPrefixes = prefixes.chosen()
        let chosenSuffixes = suffixes.chosen()
        var prefixIndex = [Int](repeating: -1, count: prefixes.keys.count)
        var suffixIndex = [Int](repeating: -1, count: suffixes.keys.count)
        for (index, key) in chosenPrefixes.enumerated() { prefixIndex[key] = index }
        for (index, key) in chosenSuffixes.enumerated() { suffixIndex[key] = chosenPrefixes.count + index }
        let templates = chosenPrefixes.map { prefixes.keys[$0] } + chosenSuffixes.map { suffixes.keys[$0] }
        let splits = cutList.map { cut -> Split? in
            guard let cut else { return nil }
            let prefix = cut.prefix < 0 ? -1 : prefixIndex[cut.prefix]
            let suffix = cut.suffix < 0 ? -1 : suffixIndex[cut.suffix]
            return Split(
                prefixEnd: cut.prefixEnd, suffixStart: cut.suffixStart, prefix: prefix < 0 ? nil : UInt16(prefix),
                suffix: suffix < 0 ? nil : UInt16(suffix))
        }
        return (templates, splits)
    }

    /// Distinct template candidates and how many texts use each.
    private struct Counter {
        var keys = ByteKeyTable()
        var uses: [Int] = []

        mutating func add(_ slice: ArraySlice<UInt8>) -> Int {
            keys.append(slice)
            let (id, isNew) = keys.finish()
            if isNew { uses.append(0) }
            uses[id] += 1
            return id
        }

        /// Ids of the candidates worth storing, most used first, ties in byte order.
        func chosen() -> [Int] {
            uses.indices.filter { uses[$0] >= minimumUses }
                .sorted {
                    uses[$0] != uses[$1] ? uses[$0] > uses[$1] : keys[$0].lexicographicallyPrecedes(keys[$1])
                }
                .prefix(maximumCount / 2).map { $0 }
        }
    }
}
