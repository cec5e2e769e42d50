/// Counting the selectors of a selector list (a global stylesheet is the list's global
/// css-display-none selectors joined with commas).
///
/// RuleListParser's CSS tokenizer is internal to that module; this needs only where the top-level
/// commas are, which a scan of brackets, parentheses, quoted strings, escapes and comments gives.
enum SelectorList {
    /// The number of selectors in `list`: one more than its top-level commas (those outside `[…]`,
    /// `(…)`, quoted strings and comments; a backslash escapes the next character, in and out of
    /// strings). 0 for an empty list.
    static func count(_ list: String) -> Int {
        let bytes = Array(list.utf8)
        guard !bytes.isEmpty else { return 0 }
        let backslash = UInt8(ascii: "\\")
        var count = 1
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
            case UInt8(ascii: ",") where depth == 0: count += 1
            default: break
            }
        }
        return count
    }
}
