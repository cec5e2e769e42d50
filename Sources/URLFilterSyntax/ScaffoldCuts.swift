/// Where the translator's scaffolding around a url-filter's own characters ends and begins in a PCRE2
/// text it wrote (``URLFilterParseResult/pcre2Pattern``, ``URLFilterSearchFacts/asciiSubjectPattern``).
///
/// Real lists repeat the same spelling around a host name thousands of times (WebKit's host anchor
/// before it, `([/:&?].*)?$` after it); the binary rule list stores such beginnings and endings once.
/// The scaffolding is the text before the first run of three or more ASCII letters or digits outside a
/// character class, an escape (`\x{…}` included) or a `(?i` flag group, and the text after the last
/// such run. It reads the translator's own spelling, in the layer that writes it.
public enum ScaffoldCuts {
    /// The offset of the first such run and the end of the last one in `text` (`prefixEnd` ≤
    /// `suffixStart` ≤ `text.count`), or `nil` when it has none. O(text length).
    public static func of(_ text: String) -> (prefixEnd: Int, suffixStart: Int)? {
        var text = text
        return text.withUTF8 { of($0) }
    }

    /// ``of(_:)-(String)`` of UTF-8 bytes.
    public static func of(_ bytes: UnsafeBufferPointer<UInt8>) -> (prefixEnd: Int, suffixStart: Int)? {
        let count = bytes.count
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
        while index < count {
            let byte = bytes[index]
            if isAlphanumeric(byte) {
                if runStart < 0 { runStart = index }
                index += 1
                continue
            }
            close(index)
            if byte == UInt8(ascii: "\\") {
                index += 2
                if index - 1 < count, bytes[index - 1] == UInt8(ascii: "x"), index < count,
                    bytes[index] == UInt8(ascii: "{")
                {
                    while index < count, bytes[index] != UInt8(ascii: "}") { index += 1 }
                    index += 1
                }
            } else if byte == UInt8(ascii: "[") {
                index += 1
                if index < count, bytes[index] == UInt8(ascii: "^") { index += 1 }
                if index < count, bytes[index] == UInt8(ascii: "]") { index += 1 }
                while index < count, bytes[index] != UInt8(ascii: "]") {
                    index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                index += 1
            } else if byte == UInt8(ascii: "("), index + 2 < count, bytes[index + 1] == UInt8(ascii: "?"),
                bytes[index + 2] == UInt8(ascii: "i")
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

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }
}
