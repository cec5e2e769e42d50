/// The selectors of a selector list, cut at its top-level commas (a global stylesheet is a list's
/// global css-display-none selectors joined with commas): what `inspect` counts and what names the
/// selector WebKit refuses in a dropped rule. Only where the top-level commas are is needed, which a
/// scan of brackets, parentheses, quoted strings, escapes and comments gives.
package enum SelectorList {
    /// The number of selectors in `list`: one more than its top-level commas (those outside `[…]`,
    /// `(…)`, quoted strings and comments; a backslash escapes the next character, in and out of
    /// strings). 0 for an empty list.
    package static func count(_ list: String) -> Int {
        list.isEmpty ? 0 : commaOffsets(Array(list.utf8)).count + 1
    }

    /// The selectors of `list` (cut at its top-level commas, each as written, spaces included).
    package static func parts(_ list: String) -> [String] {
        let bytes = Array(list.utf8)
        var parts: [String] = []
        var start = 0
        for comma in commaOffsets(bytes) + [bytes.count] {
            parts.append(String(decoding: bytes[start..<comma], as: UTF8.self))
            start = comma + 1
        }
        return parts
    }

    /// The byte offsets of the top-level commas of `bytes`.
    static func commaOffsets(_ bytes: [UInt8]) -> [Int] {
        let backslash = UInt8(ascii: "\\")
        var commas: [Int] = []
        var depth = 0
        var quote: UInt8?
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == backslash {
                index += 1
                continue
            }
            if let open = quote {
                // A newline ends a string (a bad string, in CSS terms) as it ends the quote here.
                if byte == open || byte == UInt8(ascii: "\n") { quote = nil }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "'"): quote = byte
            case UInt8(ascii: "["), UInt8(ascii: "("): depth += 1
            case UInt8(ascii: "]"), UInt8(ascii: ")"): depth = max(0, depth - 1)
            case UInt8(ascii: "/") where index < bytes.count && bytes[index] == UInt8(ascii: "*"):
                // A comment runs from after its `/*` to the next `*/` (or the end).
                index += 1
                while index + 1 < bytes.count
                    && !(bytes[index] == UInt8(ascii: "*") && bytes[index + 1] == UInt8(ascii: "/"))
                {
                    index += 1
                }
                index += 2
            case UInt8(ascii: ",") where depth == 0: commas.append(index - 1)
            default: break
            }
        }
        return commas
    }
}
