/// A JSON syntax error: where WebKit's reader would give up, and why.
public struct JSONSyntaxError: Error, Sendable, Hashable {
    /// Byte offset in the input (UTF-8) of the offending byte, or the input length at end of input.
    public var byteOffset: Int
    /// A short reason, e.g. `unexpected end of input`.
    public var reason: String

    public init(byteOffset: Int, reason: String) {
        self.byteOffset = byteOffset
        self.reason = reason
    }
}

/// Reads WebKit's JSON dialect (`WTF::JSON::Value::parseJSON`, `Source/WTF/wtf/JSONValues.cpp`).
///
/// Differences from RFC 8259, as in WebKit:
/// * string escapes `\v` and `\xHH` are accepted; raw control characters inside strings are accepted;
/// * `\uHHHH` is one UTF-16 code unit; surrogate pairs written as two escapes combine, a lone
///   surrogate becomes U+FFFD (a Swift `String` cannot hold it; WebKit keeps the code unit);
/// * whitespace is space, TAB, LF and CR only (a byte-order mark is an error);
/// * a value nested inside more than 1000 containers is an error: the top-level value has depth 0
///   and WebKit's `buildValue` fails at depth 1001, so 1001 nested empty arrays are accepted and
///   1002 are not;
/// * duplicate object keys: the last value wins (the key keeps its first position);
/// * invalid UTF-8 is an error (WebKit's UTF-8 decoding yields a null string → `JSONInvalid`).
///
/// The reader is iterative (an explicit stack), byte-based, and linear in the input size.
public enum JSONReader {
    /// The deepest container nesting of a value (WebKit `stackLimit`).
    public static let maximumDepth = 1000

    /// Parses one JSON document.
    /// - Returns: the value, or the first syntax error.
    /// - Complexity: O(n) in the input length.
    public static func parse(_ bytes: some Collection<UInt8>) -> Result<JSONValue, JSONSyntaxError> {
        if let result = bytes.withContiguousStorageIfAvailable({ parseBuffer($0) }) { return result }
        let array = Array(bytes)
        return array.withUnsafeBufferPointer { parseBuffer($0) }
    }

    /// An open container. Mutated in place on the stack so that appending never copies.
    private struct Frame {
        var isArray: Bool
        var elements: [JSONValue] = []
        var object = JSONObject()
        var key = ""
    }

    private static func parseBuffer(_ b: UnsafeBufferPointer<UInt8>) -> Result<JSONValue, JSONSyntaxError> {
        var reader = Reader(b: b)
        do {
            let value = try reader.document()
            return .success(value)
        } catch {
            return .failure(error)
        }
    }

    private struct Reader {
        let b: UnsafeBufferPointer<UInt8>
        var i = 0

        init(b: UnsafeBufferPointer<UInt8>) { self.b = b }

        func fail(_ reason: String, at offset: Int? = nil) -> JSONSyntaxError {
            JSONSyntaxError(byteOffset: offset ?? i, reason: reason)
        }

        @inline(__always) mutating func skipWhitespace() {
            while i < b.count {
                let c = b[i]
                if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { i += 1 } else { return }
            }
        }

        @inline(__always) func peek() -> UInt8? { i < b.count ? b[i] : nil }

        mutating func document() throws(JSONSyntaxError) -> JSONValue {
            var stack: [Frame] = []
            var result: JSONValue
            outer: while true {
                skipWhitespace()
                guard let c = peek() else { throw fail("unexpected end of input, expected a value") }
                if stack.count > JSONReader.maximumDepth { throw fail("nesting deeper than 1000 levels") }
                var value: JSONValue
                switch c {
                case UInt8(ascii: "["):
                    i += 1
                    skipWhitespace()
                    if peek() == UInt8(ascii: "]") {
                        i += 1
                        value = .array([])
                    } else {
                        stack.append(Frame(isArray: true))
                        continue outer
                    }
                case UInt8(ascii: "{"):
                    i += 1
                    skipWhitespace()
                    if peek() == UInt8(ascii: "}") {
                        i += 1
                        value = .object(JSONObject())
                    } else {
                        let key = try objectKey()
                        stack.append(Frame(isArray: false, key: key))
                        continue outer
                    }
                case UInt8(ascii: "\""): value = .string(try string())
                case UInt8(ascii: "t"):
                    try literal("true")
                    value = .bool(true)
                case UInt8(ascii: "f"):
                    try literal("false")
                    value = .bool(false)
                case UInt8(ascii: "n"):
                    try literal("null")
                    value = .null
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): value = .number(try number())
                default:
                    // WebKit rejects a leading byte order mark too (oracle: "Failed to parse the JSON
                    // String."); say what it is.
                    if i == 0 && b.count >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
                        throw fail("a UTF-8 byte order mark, which JSON does not allow; save the file without it")
                    }
                    throw fail("unexpected character, expected a value")
                }
                // A value is complete: attach it to its container, closing containers as they end.
                while true {
                    guard !stack.isEmpty else {
                        result = value
                        break outer
                    }
                    let top = stack.count - 1
                    skipWhitespace()
                    if stack[top].isArray {
                        stack[top].elements.append(value)
                        guard let c = peek() else { throw fail("unexpected end of input in an array") }
                        if c == UInt8(ascii: ",") {
                            i += 1
                            skipWhitespace()
                            if peek() == UInt8(ascii: "]") { throw fail("trailing comma in an array") }
                            continue outer
                        } else if c == UInt8(ascii: "]") {
                            i += 1
                            value = .array(stack.removeLast().elements)
                        } else {
                            throw fail("expected ',' or ']' in an array")
                        }
                    } else {
                        stack[top].object[stack[top].key] = value
                        guard let c = peek() else { throw fail("unexpected end of input in an object") }
                        if c == UInt8(ascii: ",") {
                            i += 1
                            skipWhitespace()
                            if peek() == UInt8(ascii: "}") { throw fail("trailing comma in an object") }
                            stack[top].key = try objectKey()
                            continue outer
                        } else if c == UInt8(ascii: "}") {
                            i += 1
                            value = .object(stack.removeLast().object)
                        } else {
                            throw fail("expected ',' or '}' in an object")
                        }
                    }
                }
            }
            skipWhitespace()
            if i < b.count { throw fail("unexpected data after the top-level value") }
            return result
        }

        /// Reads `"key"` and the following `:`; positioned at the key's opening quote.
        mutating func objectKey() throws(JSONSyntaxError) -> String {
            guard peek() == UInt8(ascii: "\"") else { throw fail("expected a string key in an object") }
            let key = try string()
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { throw fail("expected ':' after an object key") }
            i += 1
            return key
        }

        mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
            let start = i
            let count = word.utf8CodeUnitCount
            guard b.count - i >= count else { throw fail("invalid literal", at: start) }
            let pointer = word.utf8Start
            for k in 0..<count where b[i + k] != pointer[k] { throw fail("invalid literal", at: start) }
            i += count
        }

        @inline(__always) func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }

        mutating func number() throws(JSONSyntaxError) -> Double {
            let start = i
            if b[i] == UInt8(ascii: "-") { i += 1 }
            guard i < b.count, isDigit(b[i]) else { throw fail("invalid number", at: start) }
            if b[i] == UInt8(ascii: "0"), i + 1 < b.count, isDigit(b[i + 1]) {
                throw fail("leading zero in a number", at: start)
            }
            while i < b.count, isDigit(b[i]) { i += 1 }
            if i < b.count, b[i] == UInt8(ascii: ".") {
                i += 1
                guard i < b.count, isDigit(b[i]) else { throw fail("digits required after '.'", at: start) }
                while i < b.count, isDigit(b[i]) { i += 1 }
            }
            if i < b.count, b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") {
                i += 1
                if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") { i += 1 }
                guard i < b.count, isDigit(b[i]) else { throw fail("digits required in an exponent", at: start) }
                while i < b.count, isDigit(b[i]) { i += 1 }
            }
            let text = String(decoding: UnsafeBufferPointer(rebasing: b[start..<i]), as: UTF8.self)
            guard let value = Double(text) else { throw fail("invalid number", at: start) }
            return value
        }

        /// Reads a string; positioned at its opening quote.
        mutating func string() throws(JSONSyntaxError) -> String {
            let open = i
            i += 1
            let start = i
            var hasEscape = false
            var isASCII = true
            while true {
                guard i < b.count else { throw fail("unterminated string", at: open) }
                let c = b[i]
                if c == UInt8(ascii: "\"") { break }
                if c == UInt8(ascii: "\\") {
                    hasEscape = true
                    i += 2
                    continue
                }
                if c >= 0x80 { isASCII = false }
                i += 1
            }
            let end = i
            i += 1  // closing quote
            let slice = UnsafeBufferPointer(rebasing: b[start..<end])
            if !hasEscape {
                if isASCII { return String(decoding: slice, as: UTF8.self) }
                guard let text = String(validating: slice, as: UTF8.self) else {
                    throw fail("invalid UTF-8 in a string", at: start)
                }
                return text
            }
            return try decodeEscaped(start: start, end: end)
        }

        func hexValue(_ c: UInt8) -> UInt16? {
            switch c {
            case 0x30...0x39: return UInt16(c - 0x30)
            case 0x41...0x46: return UInt16(c - 0x41 + 10)
            case 0x61...0x66: return UInt16(c - 0x61 + 10)
            default: return nil
            }
        }

        /// Decodes a string with escapes into UTF-8. A `\\uD8xx\\uDCxx` pair is one scalar; any other
        /// surrogate code unit becomes U+FFFD (as a Swift `String` of WebKit's UTF-16 would).
        func decodeEscaped(start: Int, end: Int) throws(JSONSyntaxError) -> String {
            var out: [UInt8] = []
            out.reserveCapacity(end - start)
            var k = start
            var runStart = start
            var runIsASCII = true
            func flushRun(_ upTo: Int) throws(JSONSyntaxError) {
                guard upTo > runStart else { return }
                let run = UnsafeBufferPointer(rebasing: b[runStart..<upTo])
                if !runIsASCII, String(validating: run, as: UTF8.self) == nil {
                    throw fail("invalid UTF-8 in a string", at: runStart)
                }
                out.append(contentsOf: run)
            }
            /// A pending high surrogate from a `\\u` escape.
            var pendingHigh: UInt32?
            func appendScalar(_ value: UInt32) {
                if value < 0x80 {
                    out.append(UInt8(value))
                } else if value < 0x800 {
                    out.append(UInt8(0xC0 | value >> 6))
                    out.append(UInt8(0x80 | value & 0x3F))
                } else if value < 0x10000 {
                    out.append(UInt8(0xE0 | value >> 12))
                    out.append(UInt8(0x80 | (value >> 6) & 0x3F))
                    out.append(UInt8(0x80 | value & 0x3F))
                } else {
                    out.append(UInt8(0xF0 | value >> 18))
                    out.append(UInt8(0x80 | (value >> 12) & 0x3F))
                    out.append(UInt8(0x80 | (value >> 6) & 0x3F))
                    out.append(UInt8(0x80 | value & 0x3F))
                }
            }
            func flushPendingHigh() {
                if pendingHigh != nil {
                    appendScalar(0xFFFD)
                    pendingHigh = nil
                }
            }
            while k < end {
                let c = b[k]
                guard c == UInt8(ascii: "\\") else {
                    if c >= 0x80 { runIsASCII = false }
                    k += 1
                    continue
                }
                if k > runStart { flushPendingHigh() }
                try flushRun(k)
                let escapeStart = k
                guard k + 1 < end else { throw fail("invalid escape", at: escapeStart) }
                let e = b[k + 1]
                k += 2
                var unit: UInt32
                switch e {
                case UInt8(ascii: "\""): unit = 0x22
                case UInt8(ascii: "\\"): unit = 0x5C
                case UInt8(ascii: "/"): unit = 0x2F
                case UInt8(ascii: "b"): unit = 0x08
                case UInt8(ascii: "f"): unit = 0x0C
                case UInt8(ascii: "n"): unit = 0x0A
                case UInt8(ascii: "r"): unit = 0x0D
                case UInt8(ascii: "t"): unit = 0x09
                case UInt8(ascii: "v"): unit = 0x0B
                case UInt8(ascii: "x"), UInt8(ascii: "u"):
                    let digits = e == UInt8(ascii: "x") ? 2 : 4
                    guard end - k >= digits else { throw fail("truncated hex escape", at: escapeStart) }
                    unit = 0
                    for d in 0..<digits {
                        guard let v = hexValue(b[k + d]) else { throw fail("invalid hex escape", at: escapeStart) }
                        unit = unit << 4 | UInt32(v)
                    }
                    k += digits
                default:
                    throw fail("invalid escape", at: escapeStart)
                }
                switch unit {
                case 0xD800...0xDBFF:
                    flushPendingHigh()
                    pendingHigh = unit
                case 0xDC00...0xDFFF:
                    if let high = pendingHigh {
                        appendScalar(0x10000 + ((high - 0xD800) << 10) + (unit - 0xDC00))
                        pendingHigh = nil
                    } else {
                        appendScalar(0xFFFD)
                    }
                default:
                    flushPendingHigh()
                    appendScalar(unit)
                }
                runStart = k
                runIsASCII = true
            }
            if end > runStart { flushPendingHigh() }
            try flushRun(end)
            flushPendingHigh()
            return String(decoding: out, as: UTF8.self)
        }
    }
}
