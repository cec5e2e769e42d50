package import RuleListParser

/// JSON text written straight into bytes: what every command's JSON output goes through (``JSON`` for
/// a value built first, the batch results of `match` member by member, with no value tree).
///
/// No spaces; strings escape `"`, `\`, `\n`, `\r`, `\t` and other control characters (`\u00XX`) and copy
/// every other byte as it is (escapes are ASCII, so UTF-8 sequences stay whole). Commas are written by
/// ``key(_:)`` and ``element()`` after the first member or element of the innermost open container.
package struct JSONWriter {
    package var bytes: [UInt8] = []
    /// Bit `depth % 64`: the container open at that depth has a member or element already (the bits
    /// of containers deeper than 63 levels share bits with shallower ones; ``overflow`` keeps theirs).
    private var hasContent: UInt64 = 0
    private var depth = 0
    /// Whether the containers deeper than 63 levels, outermost first, have content.
    private var overflow: [Bool] = []

    package init(reservingCapacity capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    package mutating func openObject() { open(0x7B) }
    package mutating func closeObject() { close(0x7D) }
    package mutating func openArray() { open(0x5B) }
    package mutating func closeArray() { close(0x5D) }

    /// Starts an object member: a comma when it is not the first, then `"name":`.
    package mutating func key(_ name: StaticString) {
        separate()
        bytes.append(0x22)
        bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        bytes.append(0x22)
        bytes.append(0x3A)
    }

    /// ``key(_:)`` of a name known only at run time (escaped as a string).
    package mutating func key(_ name: String) {
        separate()
        string(name)
        bytes.append(0x3A)
    }

    /// Starts an array element: a comma when it is not the first.
    package mutating func element() { separate() }

    package mutating func null() { raw("null") }
    package mutating func bool(_ value: Bool) { raw(value ? "true" : "false") }

    package mutating func int(_ value: Int) {
        if value < 0 { bytes.append(0x2D) }
        var magnitude = value.magnitude
        var digits:
            (
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
            ) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[19 - count] = 0x30 + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            for index in (20 - count)..<20 { bytes.append(buffer[index]) }
        }
    }

    /// Text written as it is (a literal, or JSON text already written).
    package mutating func raw(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }
    package mutating func raw(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }
    package mutating func raw(_ text: some Collection<UInt8>) { bytes.append(contentsOf: text) }

    /// A value `JSONReader` read (a request's `id`), written back: strings, booleans, null, arrays and
    /// objects (keys in their order) as they were; a number with an integral value in `Int`'s range as
    /// an integer (`1`, not `1.0`), another as Swift prints a `Double` (`0.5`, `1.2345678901234567e+19`),
    /// which is valid JSON; an infinite one as `null`.
    package mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let flag): bool(flag)
        case .number(let number):
            if !number.isFinite {
                null()
            } else if number == number.rounded(.towardZero) && number >= -0x1p63 && number < 0x1p63 {
                int(Int(number))
            } else {
                raw(number.description)
            }
        case .string(let text): string(text)
        case .array(let values):
            openArray()
            for element in values {
                self.element()
                self.value(element)
            }
            closeArray()
        case .object(let object):
            openObject()
            for name in object.keys {
                key(name)
                self.value(object[name] ?? .null)
            }
            closeObject()
        }
    }

    package mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { string(bytes: $0) }
    }

    /// A JSON array of strings.
    package mutating func strings(_ values: [String]) {
        openArray()
        for value in values {
            element()
            string(value)
        }
        closeArray()
    }

    /// A JSON string of UTF-8 `value`: runs of bytes that need no escape are copied at once.
    package mutating func string(bytes value: UnsafeBufferPointer<UInt8>) {
        bytes.append(0x22)
        var runStart = 0
        var index = 0
        while index < value.count {
            // The common case: a run with nothing to escape, up to the end.
            index = JSONStringScan.firstStop(in: value, from: index, stopAtNonASCII: false)
            guard index < value.count else { break }
            let byte = value[index]
            if index > runStart { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: value[runStart..<index])) }
            index += 1
            runStart = index
            switch byte {
            case 0x22: bytes.append(contentsOf: [0x5C, 0x22])
            case 0x5C: bytes.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: bytes.append(contentsOf: [0x5C, 0x6E])
            case 0x0D: bytes.append(contentsOf: [0x5C, 0x72])
            case 0x09: bytes.append(contentsOf: [0x5C, 0x74])
            default:
                bytes.append(contentsOf: [0x5C, 0x75, 0x30, 0x30, Self.hexDigit(byte >> 4), Self.hexDigit(byte & 0xF)])
            }
        }
        if value.count > runStart { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: value[runStart...])) }
        bytes.append(0x22)
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 { value < 10 ? 0x30 + value : 0x61 + value - 10 }

    private mutating func open(_ bracket: UInt8) {
        bytes.append(bracket)
        depth += 1
        if depth >= 64 { overflow.append(false) } else { hasContent &= ~(1 << UInt64(depth)) }
    }

    private mutating func close(_ bracket: UInt8) {
        bytes.append(bracket)
        if depth >= 64 { overflow.removeLast() }
        depth -= 1
    }

    private mutating func separate() {
        if depth >= 64 {
            if overflow[overflow.count - 1] { bytes.append(0x2C) } else { overflow[overflow.count - 1] = true }
            return
        }
        let bit: UInt64 = 1 << UInt64(depth)
        if hasContent & bit != 0 { bytes.append(0x2C) } else { hasContent |= bit }
    }
}

/// Finds the bytes JSON string scanning stops at, eight bytes at a time (SWAR: each step tests a
/// 64-bit word for a quote, a backslash, a control character and, if asked, a non-ASCII byte).
package enum JSONStringScan {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    /// The index of the first byte at or after `start` that is `"`, `\`, below 0x20 or (when
    /// `stopAtNonASCII`) 0x80 or above; `buffer.count` when there is none.
    @inline(__always)
    package static func firstStop(in buffer: UnsafeBufferPointer<UInt8>, from start: Int, stopAtNonASCII: Bool) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        var index = start
        let raw = UnsafeRawPointer(base)
        while index + 8 <= buffer.count {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            var flags = (word &- 0x20 &* ones) & ~word
            let quote = word ^ (0x22 &* ones)
            flags |= (quote &- ones) & ~quote
            let backslash = word ^ (0x5C &* ones)
            flags |= (backslash &- ones) & ~backslash
            flags &= highs
            if stopAtNonASCII { flags |= word & highs }
            if flags != 0 { return index + flags.trailingZeroBitCount / 8 }
            index += 8
        }
        while index < buffer.count {
            let byte = base[index]
            if byte == 0x22 || byte == 0x5C || byte < 0x20 || stopAtNonASCII && byte >= 0x80 { return index }
            index += 1
        }
        return buffer.count
    }
}
