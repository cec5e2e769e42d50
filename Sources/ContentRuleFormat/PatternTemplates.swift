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
    static let maximumCount = 0xFFFE

    /// Where the first literal run starts and the last ends, or nil when the text has no such run.
    static func cuts(_ text: [UInt8]) -> (prefixEnd: Int, suffixStart: Int)? {
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
        while index < text.count {
            let byte = text[index]
            if RequiredLiteral.isAlphanumeric(byte) {
                if runStart < 0 { runStart = index }
                index += 1
                continue
            }
            close(index)
            if byte == UInt8(ascii: "\\") {
                index += 2
                if index - 1 < text.count, text[index - 1] == UInt8(ascii: "x"), index < text.count,
                    text[index] == UInt8(ascii: "{")
                {
                    while index < text.count, text[index] != UInt8(ascii: "}") { index += 1 }
                    index += 1
                }
            } else if byte == UInt8(ascii: "[") {
                index += 1
                if index < text.count, text[index] == UInt8(ascii: "^") { index += 1 }
                if index < text.count, text[index] == UInt8(ascii: "]") { index += 1 }
                while index < text.count, text[index] != UInt8(ascii: "]") {
                    index += text[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                index += 1
            } else if byte == UInt8(ascii: "("), index + 2 < text.count, text[index + 1] == UInt8(ascii: "?"),
                text[index + 2] == UInt8(ascii: "i")
            {
                index += 3
            } else {
                index += 1
            }
        }
        close(min(index, text.count))
        guard let first else { return nil }
        return (first, min(max(lastEnd, first), text.count))
    }

    /// The templates worth storing for `texts`, most used first.
    static func choose(_ texts: [[UInt8]]) -> (prefixes: [[UInt8]], suffixes: [[UInt8]]) {
        var prefixes: [ByteString: Int] = [:]
        var suffixes: [ByteString: Int] = [:]
        for text in texts {
            guard let (prefixEnd, suffixStart) = cuts(text) else { continue }
            if prefixEnd >= minimumLength { prefixes[ByteString(bytes: Array(text[..<prefixEnd])), default: 0] += 1 }
            if text.count - suffixStart >= minimumLength {
                suffixes[ByteString(bytes: Array(text[suffixStart...])), default: 0] += 1
            }
        }
        func pick(_ counts: [ByteString: Int]) -> [[UInt8]] {
            counts.filter { $0.value >= minimumUses }
                .sorted {
                    $0.value != $1.value ? $0.value > $1.value : $0.key.bytes.lexicographicallyPrecedes($1.key.bytes)
                }
                .prefix(maximumCount / 2).map(\.key.bytes)
        }
        return (pick(prefixes), pick(suffixes))
    }
}
