/// Little-endian writer for the binary rule list.
struct ByteWriter {
    private(set) var bytes: [UInt8] = []

    mutating func u8(_ value: UInt8) { bytes.append(value) }
    mutating func u16(_ value: UInt16) { integer(value) }
    mutating func u32(_ value: UInt32) { integer(value) }
    mutating func u64(_ value: UInt64) { integer(value) }
    mutating func bool(_ value: Bool) { bytes.append(value ? 1 : 0) }

    @inline(__always) mutating func integer<T: FixedWidthInteger>(_ value: T) {
        var shift = 0
        while shift < T.bitWidth {
            bytes.append(UInt8(truncatingIfNeeded: value >> shift))
            shift += 8
        }
    }

    mutating func string(_ value: String) {
        let utf8 = Array(value.utf8)
        u32(UInt32(utf8.count))
        bytes.append(contentsOf: utf8)
    }

    mutating func optionalString(_ value: String?) {
        bool(value != nil)
        if let value { string(value) }
    }

    mutating func count(_ value: Int) { u32(UInt32(value)) }
    mutating func append(_ values: [UInt8]) { bytes.append(contentsOf: values) }
}

/// Bounds-checked little-endian reader: every read checks the remaining length and throws
/// ``BinaryRuleListError/malformed(offset:reason:)`` instead of trapping.
struct ByteReader {
    let bytes: [UInt8]
    private(set) var offset: Int
    let end: Int

    init(_ bytes: [UInt8], from start: Int = 0, to end: Int? = nil) {
        self.bytes = bytes
        self.offset = start
        self.end = end ?? bytes.count
    }

    var remaining: Int { end - offset }

    mutating func u8() throws(BinaryRuleListError) -> UInt8 {
        guard remaining >= 1 else { throw .malformed(offset: offset, reason: "unexpected end of data") }
        defer { offset += 1 }
        return bytes[offset]
    }
    mutating func u16() throws(BinaryRuleListError) -> UInt16 { try integer() }
    mutating func u32() throws(BinaryRuleListError) -> UInt32 { try integer() }
    mutating func u64() throws(BinaryRuleListError) -> UInt64 { try integer() }

    mutating func integer<T: FixedWidthInteger>() throws(BinaryRuleListError) -> T {
        let size = MemoryLayout<T>.size
        guard remaining >= size else { throw .malformed(offset: offset, reason: "unexpected end of data") }
        var value: T = 0
        for index in 0..<size { value |= T(bytes[offset + index]) << (8 * index) }
        offset += size
        return value
    }

    mutating func bool() throws(BinaryRuleListError) -> Bool {
        let start = offset
        switch try u8() {
        case 0: return false
        case 1: return true
        default: throw .malformed(offset: start, reason: "invalid boolean")
        }
    }

    mutating func string() throws(BinaryRuleListError) -> String {
        let start = offset
        let length = Int(try u32())
        guard length <= remaining else { throw .malformed(offset: start, reason: "string longer than the data") }
        let slice = bytes[offset..<(offset + length)]
        guard let value = String(validating: slice, as: UTF8.self) else {
            throw .malformed(offset: offset, reason: "invalid UTF-8 in string")
        }
        offset += length
        return value
    }

    mutating func optionalString() throws(BinaryRuleListError) -> String? {
        try bool() ? try string() : nil
    }

    /// A count of elements that each take at least `minimumElementSize` bytes, checked against
    /// the remaining data so a corrupt count cannot cause a huge allocation.
    mutating func count(minimumElementSize: Int = 1) throws(BinaryRuleListError) -> Int {
        let start = offset
        let value = Int(try u32())
        guard value <= remaining / max(minimumElementSize, 1) else {
            throw .malformed(offset: start, reason: "element count \(value) exceeds the data")
        }
        return value
    }
}
