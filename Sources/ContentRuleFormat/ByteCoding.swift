/// Little-endian writer for the binary rule list.
struct ByteWriter {
    private(set) var bytes: [UInt8] = []

    @inline(__always) mutating func u8(_ value: UInt8) { bytes.append(value) }
    @inline(__always) mutating func u16(_ value: UInt16) { integer(value) }
    @inline(__always) mutating func u32(_ value: UInt32) { integer(value) }
    /// The low 3 bytes of `value`.
    @inline(__always) mutating func u24(_ value: UInt32) {
        u16(UInt16(truncatingIfNeeded: value))
        u8(UInt8(truncatingIfNeeded: value >> 16))
    }
    mutating func u64(_ value: UInt64) { integer(value) }
    mutating func bool(_ value: Bool) { bytes.append(value ? 1 : 0) }

    /// Appends the integer's little-endian bytes (an unrolled loop of single-byte appends: cheaper than
    /// `append(contentsOf:)` for 2 to 8 bytes).
    @inline(__always) mutating func integer<T: FixedWidthInteger>(_ value: T) {
        var rest = value
        for _ in 0..<MemoryLayout<T>.size {
            bytes.append(UInt8(truncatingIfNeeded: rest))
            rest >>= 8
        }
    }

    /// Reserves room for `count` more bytes.
    mutating func reserve(_ count: Int) { bytes.reserveCapacity(bytes.count + count) }

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
    mutating func append(_ values: ArraySlice<UInt8>) { bytes.append(contentsOf: values) }

    /// Appends each value as a little-endian `u32`.
    mutating func u32s(_ values: [UInt32]) {
        reserve(values.count * 4)
        for value in values { u32(value) }
    }
}

/// Hashing and comparison of byte ranges of one array, 8 bytes at a time, for the writer's
/// deduplication tables (``ByteKeyTable``).
///
/// This is the writer's only raw-memory code: unaligned 8-byte loads from `withUnsafeBytes`, at offsets
/// checked against the range, which is checked against the array first.
enum ByteRange {
    /// A 64-bit hash of `bytes[range]` (quality matters for speed only: equal hashes are compared byte by byte).
    static func hash(_ bytes: [UInt8], _ range: Range<Int>) -> UInt64 {
        precondition(range.lowerBound >= 0 && range.upperBound <= bytes.count)
        return bytes.withUnsafeBytes { raw in
            var hash = 0x9E37_79B9_7F4A_7C15 ^ UInt64(range.count)
            var offset = range.lowerBound
            while offset + 8 <= range.upperBound {
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                hash = (hash ^ word) &* 0xFF51_AFD7_ED55_8CCD
                hash ^= hash >> 31
                offset += 8
            }
            var tail: UInt64 = 0
            var shift: UInt64 = 0
            while offset < range.upperBound {
                tail |= UInt64(raw[offset]) << shift
                shift += 8
                offset += 1
            }
            hash = (hash ^ tail) &* 0xC4CE_B9FE_1A85_EC53
            hash ^= hash >> 33
            hash = hash &* 0xFF51_AFD7_ED55_8CCD
            return hash ^ (hash >> 33)
        }
    }

    /// Whether `bytes[first]` and `bytes[second]` hold the same bytes.
    static func equal(_ bytes: [UInt8], _ first: Range<Int>, _ second: Range<Int>) -> Bool {
        precondition(first.lowerBound >= 0 && first.upperBound <= bytes.count)
        precondition(second.lowerBound >= 0 && second.upperBound <= bytes.count)
        guard first.count == second.count else { return false }
        return bytes.withUnsafeBytes { raw in
            var offset = 0
            let count = first.count
            while offset + 8 <= count {
                let left = raw.loadUnaligned(fromByteOffset: first.lowerBound + offset, as: UInt64.self)
                let right = raw.loadUnaligned(fromByteOffset: second.lowerBound + offset, as: UInt64.self)
                if left != right { return false }
                offset += 8
            }
            while offset < count {
                if raw[first.lowerBound + offset] != raw[second.lowerBound + offset] { return false }
                offset += 1
            }
            return true
        }
    }
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
