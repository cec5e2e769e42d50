/// Request lines are strict JSON (RFC 8259), read by `JSONReader` and checked here; and the raw text of a
/// member, to echo an `id` as written.
package enum StrictJSON {
    /// Whether a line `JSONReader` accepted is strict JSON (RFC 8259, as Foundation's JSON reader takes
    /// it), which request lines must be. WebKit's reader also accepts `\v` and `\xHH` escapes, control
    /// characters unescaped in strings, lone UTF-16 surrogates (`\uD800` not followed by `\uDC00`…, or
    /// the second half alone), numbers beyond `Double`'s range (`1e999`), and containers nested deeper
    /// than Foundation's 512 levels.
    package static func isStrictJSON(_ line: ArraySlice<UInt8>) -> Bool { strictJSONProblem(line) == nil }

    /// Where and why a line `JSONReader` accepted is not strict JSON (``isStrictJSON(_:)``): the byte
    /// offset in the line (from 0) and the reason; `nil` when it is strict JSON.
    package static func strictJSONProblem(_ line: ArraySlice<UInt8>) -> (offset: Int, reason: String)? {
        let quote = UInt8(ascii: "\"")
        let backslash = UInt8(ascii: "\\")
        var depth = 0
        var inString = false
        /// A `\uD800`–`\uDBFF` escape was just read: the next must be its second half.
        var pendingHighSurrogate = false
        var index = line.startIndex
        func problem(_ at: Int, _ reason: String) -> (offset: Int, reason: String) { (at - line.startIndex, reason) }
        let loneSurrogate = "a lone UTF-16 surrogate escape"
        while index < line.endIndex {
            let byte = line[index]
            index += 1
            if inString {
                if byte == backslash {
                    // JSONReader accepted the line: an escape is complete, `\u` with four hex digits.
                    let escape = line[index]
                    index += 1
                    guard escape == UInt8(ascii: "u") else {
                        if pendingHighSurrogate { return problem(index - 2, loneSurrogate) }
                        if escape == UInt8(ascii: "v") || escape == UInt8(ascii: "x") {
                            return problem(index - 2, "the escape \\\(Character(UnicodeScalar(escape))) is not JSON")
                        }
                        continue
                    }
                    let unit = line[index..<index + 4].reduce(0) { $0 << 4 | hexDigitValue($1) }
                    index += 4
                    switch unit {
                    case 0xD800...0xDBFF:
                        if pendingHighSurrogate { return problem(index - 12, loneSurrogate) }
                        pendingHighSurrogate = true
                    case 0xDC00...0xDFFF:
                        if !pendingHighSurrogate { return problem(index - 6, loneSurrogate) }
                        pendingHighSurrogate = false
                    default:
                        if pendingHighSurrogate { return problem(index - 12, loneSurrogate) }
                    }
                    continue
                }
                if pendingHighSurrogate { return problem(index - 7, loneSurrogate) }
                if byte < 0x20 { return problem(index - 1, "a control character in a string must be escaped") }
                if byte == quote { inString = false }
                continue
            }
            switch byte {
            case quote:
                inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > 512 { return problem(index - 1, "nested deeper than 512 levels") }
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth -= 1
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                let start = index - 1
                while index < line.endIndex, isNumberByte(line[index]) { index += 1 }
                let text = String(decoding: line[start..<index], as: UTF8.self)
                guard let value = Double(text), value.isFinite else {
                    return problem(start, "the number \(text) is out of range")
                }
            default:
                break
            }
        }
        return nil
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"),
            UInt8(ascii: "+"), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }

    /// The value of a hexadecimal digit (`JSONReader` has checked it is one).
    private static func hexDigitValue(_ byte: UInt8) -> Int {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return Int(byte - UInt8(ascii: "a")) + 10
        default: return Int(byte - UInt8(ascii: "A")) + 10
        }
    }
    /// The text of the last top-level member named `key` (written without escapes) of a line that is a
    /// strict JSON object, from its value's first byte to its last; `nil` when there is none. The same
    /// member `JSONObject` keeps (the last of a repeated key).
    /// - Complexity: O(line length).
    package static func rawMember(_ key: String, of line: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        let quote = UInt8(ascii: "\"")
        let backslash = UInt8(ascii: "\\")
        let name = Array(key.utf8)
        var found: ArraySlice<UInt8>?
        var index = line.startIndex
        /// Past the string that starts at `index` (its opening quote).
        func skipString() {
            index += 1
            while index < line.endIndex, line[index] != quote {
                index += line[index] == backslash ? 2 : 1
            }
            index += 1
        }
        func skipSpace() {
            while index < line.endIndex, [0x20, 0x09, 0x0A, 0x0D].contains(line[index]) { index += 1 }
        }
        skipSpace()
        guard index < line.endIndex, line[index] == UInt8(ascii: "{") else { return nil }
        index += 1
        while true {
            skipSpace()
            guard index < line.endIndex, line[index] == quote else { return found }
            let keyStart = index + 1
            skipString()
            let isKey = line[keyStart..<min(index - 1, line.endIndex)].elementsEqual(name)
            skipSpace()
            guard index < line.endIndex, line[index] == UInt8(ascii: ":") else { return found }
            index += 1
            skipSpace()
            let valueStart = index
            var depth = 0
            while index < line.endIndex {
                let byte = line[index]
                if byte == quote {
                    skipString()
                    if depth == 0 { break }
                    continue
                }
                if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                    depth += 1
                } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                    if depth == 0 { break }
                    depth -= 1
                    if depth == 0 {
                        index += 1
                        break
                    }
                } else if depth == 0 && (byte == UInt8(ascii: ",") || [0x20, 0x09, 0x0A, 0x0D].contains(byte)) {
                    break
                }
                index += 1
            }
            if isKey { found = line[valueStart..<min(index, line.endIndex)] }
            skipSpace()
            guard index < line.endIndex, line[index] == UInt8(ascii: ",") else { return found }
            index += 1
        }
    }
}
