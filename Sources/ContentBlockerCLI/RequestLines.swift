import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// The lines of a JSON Lines request stream (`match --requests`), read as they arrive: each
/// ``next()`` returns the complete lines read so far, so a tool that writes one request to a pipe and
/// waits gets its answer at once, and a large file is read 4 MiB at a time instead of all at once.
struct RequestLines {
    /// A run of complete lines: `bytes` and, per line, its number (from 1) and its bytes' range
    /// (without the newline and a carriage return before it).
    struct Batch {
        var bytes: [UInt8]
        var lines: [(number: Int, range: Range<Int>)]
    }

    private let descriptor: Int32
    private let path: String
    private var pending: [UInt8] = []
    /// What one `read(2)` fills (allocated on the first read).
    private var block: [UInt8] = []
    private var lineNumber = 0
    private var atEnd = false
    private static let readSize = 4 << 20
    /// The input is gzip'd (decided by its first bytes): what is read goes through it.
    private var inflater: GzipInflater?
    /// Bytes read before the input is known to be gzip'd or not (fewer than its two magic bytes).
    private var undecided: [UInt8]? = []

    /// Opens `path`, or standard input for `-`.
    /// - Throws: ``RuntimeError`` naming the path when it cannot be opened.
    init(path: String) throws(RuntimeError) {
        self.path = path
        if path == "-" {
            descriptor = 0
            return
        }
        let opened = open(path, O_RDONLY | O_CLOEXEC)
        guard opened >= 0 else { throw RuntimeError("cannot read \(path): \(String(cString: strerror(errno)))") }
        descriptor = opened
    }

    /// Closes the file (not standard input).
    func close() {
        if descriptor != 0 { _ = Glibc.close(descriptor) }
    }

    /// The next complete lines (at least one), or nil at the end of the input. A last line without a
    /// newline counts; blank lines are lines (their number is kept for the output's pairing).
    /// - Throws: ``RuntimeError`` on a read error.
    mutating func next() throws(RuntimeError) -> Batch? {
        while true {
            if atEnd {
                guard !pending.isEmpty else { return nil }
                let bytes = pending
                pending = []
                return batch(bytes)
            }
            let before = pending.count
            let count = try readChunk()
            if count == 0 {
                atEnd = true
                continue
            }
            // Complete lines end at the last newline of what has been read.
            guard let last = pending[before...].lastIndex(of: 0x0A) else { continue }
            let bytes = Array(pending[...last])
            pending.removeSubrange(...last)
            return batch(bytes)
        }
    }

    /// Appends to `pending` one `read(2)` of at most ``readSize`` bytes (what a pipe has now, or a block
    /// of a file), inflated when the input is gzip'd (its first two bytes, 1f 8b); returns how many
    /// bytes were read (0 at the end).
    /// - Throws: ``RuntimeError`` on a read error, corrupt gzip data or a gzip stream cut short.
    private mutating func readChunk() throws(RuntimeError) -> Int {
        if block.isEmpty { block = [UInt8](repeating: 0, count: Self.readSize) }
        let count = block.withUnsafeMutableBufferPointer { SystemCall.read(descriptor, $0.baseAddress!, $0.count) }
        let name = path == "-" ? "standard input" : path
        guard count >= 0 else {
            throw RuntimeError("cannot read \(name): \(String(cString: strerror(errno)))")
        }
        var read = block[0..<count]
        if var head = undecided {
            // Not known yet: wait for two bytes, or the end.
            head += read
            guard head.count >= 2 || count == 0 else {
                undecided = head
                return count
            }
            undecided = nil
            if GzipInflater.isGzip(head) { inflater = GzipInflater() }
            read = head[...]
        }
        if let inflater {
            do {
                try read.withUnsafeBufferPointer { buffer throws(RuntimeError) in
                    try inflater.inflate(buffer, into: &pending)
                }
            } catch {
                throw RuntimeError("cannot read \(name): \(error.message)")
            }
            if count == 0 && !inflater.atMemberEnd {
                throw RuntimeError("cannot read \(name): the gzip stream is cut short")
            }
        } else {
            pending.append(contentsOf: read)
        }
        return count
    }

    /// Numbers the lines of `bytes` (complete lines; the last may lack its newline).
    private mutating func batch(_ bytes: [UInt8]) -> Batch {
        var lines: [(number: Int, range: Range<Int>)] = []
        var number = lineNumber
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var start = 0
            while start < buffer.count {
                let newline = memchr(base + start, 0x0A, buffer.count - start)
                var end = newline.map { UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) - base } ?? buffer.count
                let next = end + 1
                if end > start && buffer[end - 1] == 0x0D { end -= 1 }
                number += 1
                lines.append((number, start..<end))
                start = next
            }
        }
        lineNumber = number
        return Batch(bytes: bytes, lines: lines)
    }
}

extension RequestLines {
    /// Whether a line `JSONReader` accepted is strict JSON (RFC 8259, as Foundation's JSON reader takes
    /// it), which request lines must be. WebKit's reader also accepts `\v` and `\xHH` escapes, control
    /// characters unescaped in strings, lone UTF-16 surrogates (`\uD800` not followed by `\uDC00`…, or
    /// the second half alone), numbers beyond `Double`'s range (`1e999`), and containers nested deeper
    /// than Foundation's 512 levels.
    static func isStrictJSON(_ line: ArraySlice<UInt8>) -> Bool { strictJSONProblem(line) == nil }

    /// Where and why a line `JSONReader` accepted is not strict JSON (``isStrictJSON(_:)``): the byte
    /// offset in the line (from 0) and the reason; `nil` when it is strict JSON.
    static func strictJSONProblem(_ line: ArraySlice<UInt8>) -> (offset: Int, reason: String)? {
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
}

extension RequestLines {
    /// The text of the last top-level member named `key` (written without escapes) of a line that is a
    /// strict JSON object, from its value's first byte to its last; `nil` when there is none. The same
    /// member `JSONObject` keeps (the last of a repeated key).
    /// - Complexity: O(line length).
    static func rawMember(_ key: String, of line: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
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
