import SystemCalls

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Bytes that a binary rule list is read from in place: a read-only memory map of a file, or an owned
/// copy of bytes already in memory. Keeps the memory alive for as long as any reader uses it.
///
/// This file holds all raw-memory code of ContentRuleFormat: the map, the owned buffer, and the
/// unchecked little-endian loads of ``RawBytes``, and the literal scan's stack table (``ScratchWords``).
final class RawStorage: @unchecked Sendable {
    let base: UnsafeRawPointer
    let count: Int
    private let release: @Sendable (UnsafeRawPointer, Int) -> Void

    /// Copies `bytes` into a new 16-byte-aligned buffer.
    init(copying bytes: [UInt8]) {
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: max(bytes.count, 1), alignment: 16)
        bytes.withUnsafeBytes { source in
            if let address = source.baseAddress { buffer.copyMemory(from: address, byteCount: source.count) }
        }
        base = UnsafeRawPointer(buffer)
        count = bytes.count
        release = { pointer, _ in UnsafeMutableRawPointer(mutating: pointer).deallocate() }
    }

    /// Copies `words` (native byte order) into a new 16-byte-aligned buffer: a table built on open,
    /// read with ``RawBytes/bit(_:)`` without bounds checks.
    init(copying words: [UInt64]) {
        let byteCount = words.count * 8
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: max(byteCount, 8), alignment: 16)
        buffer.storeBytes(of: 0, as: UInt64.self)
        words.withUnsafeBytes { source in
            if let address = source.baseAddress { buffer.copyMemory(from: address, byteCount: source.count) }
        }
        base = UnsafeRawPointer(buffer)
        count = byteCount
        release = { pointer, _ in UnsafeMutableRawPointer(mutating: pointer).deallocate() }
    }

    /// Maps the file at `path` read-only (`MAP_PRIVATE`). An empty file gets an empty owned buffer.
    /// - Throws: ``BinaryRuleListError/io(path:operation:message:)``.
    init(mapping path: String) throws(BinaryRuleListError) {
        let (descriptor, size) = try Self.openRegularFile(path)
        defer { close(descriptor) }
        if size == 0 {
            base = UnsafeRawPointer(UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 16))
            count = 0
            release = { pointer, _ in UnsafeMutableRawPointer(mutating: pointer).deallocate() }
            return
        }
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), address != MAP_FAILED else {
            throw AtomicFile.failure(path, "mmap")
        }
        base = UnsafeRawPointer(address)
        count = size
        release = { pointer, size in munmap(UnsafeMutableRawPointer(mutating: pointer), size) }
    }

    /// Reads the file at `path` into a new 16-byte-aligned buffer (``FileLoading/copied``): what the
    /// file holds when it is read, whatever happens to the file afterwards. Reads to the end of the file
    /// even if it grew since `fstat`.
    /// - Throws: ``BinaryRuleListError/io(path:operation:message:)``.
    init(reading path: String) throws(BinaryRuleListError) {
        let (descriptor, size) = try Self.openRegularFile(path)
        defer { close(descriptor) }
        // One byte more than the size: reaching it means the file grew.
        var capacity = size + 1
        var buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        var filled = 0
        while true {
            if filled == capacity {
                let larger = UnsafeMutableRawPointer.allocate(byteCount: capacity * 2, alignment: 16)
                larger.copyMemory(from: buffer, byteCount: filled)
                buffer.deallocate()
                buffer = larger
                capacity *= 2
            }
            let result = SystemCall.read(descriptor, buffer + filled, capacity - filled)
            if result == 0 { break }
            if result < 0 {
                let error = AtomicFile.failure(path, "read")
                buffer.deallocate()
                throw error
            }
            filled += result
        }
        base = UnsafeRawPointer(buffer)
        count = filled
        release = { pointer, _ in UnsafeMutableRawPointer(mutating: pointer).deallocate() }
    }

    /// Opens `path` read-only: its descriptor (the caller closes it) and size; only a regular file.
    private static func openRegularFile(_ path: String) throws(BinaryRuleListError) -> (Int32, Int) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw AtomicFile.failure(path, "open") }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let error = AtomicFile.failure(path, "stat")
            close(descriptor)
            throw error
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            throw .io(path: path, operation: "open", message: "not a regular file")
        }
        return (descriptor, max(Int(status.st_size), 0))
    }

    deinit { release(base, count) }

    var bytes: RawBytes { RawBytes(base: base, count: count) }
}

extension UnsafeBufferPointer where Element == UInt8 {
    /// The 2 bytes at `offset` as a little-endian `u16`, unchecked: the caller keeps `offset + 2` within
    /// the buffer (a byte pair in one load).
    @inlinable @inline(__always) package func u16(_ offset: Int) -> UInt16 {
        assert(offset >= 0 && offset + 2 <= count, "u16 read out of bounds")
        return UInt16(
            littleEndian: UnsafeRawPointer(baseAddress.unsafelyUnwrapped).loadUnaligned(
                fromByteOffset: offset, as: UInt16.self))
    }

    /// The 4 bytes at `offset` as a little-endian `u32`, unchecked: the caller keeps `offset + 4` within
    /// the buffer (a matcher's gram compare: one load instead of four).
    @inlinable @inline(__always) package func u32(_ offset: Int) -> UInt32 {
        assert(offset >= 0 && offset + 4 <= count, "u32 read out of bounds")
        return UInt32(
            littleEndian: UnsafeRawPointer(baseAddress.unsafelyUnwrapped).loadUnaligned(
                fromByteOffset: offset, as: UInt32.self))
    }

    /// The 8 bytes at `offset` as a `u64` (native byte order, for equality tests), unchecked: the caller
    /// keeps `offset + 8` within the buffer.
    @inlinable @inline(__always) package func u64(_ offset: Int) -> UInt64 {
        assert(offset >= 0 && offset + 8 <= count, "u64 read out of bounds")
        return UnsafeRawPointer(baseAddress.unsafelyUnwrapped).loadUnaligned(fromByteOffset: offset, as: UInt64.self)
    }
}

extension UnsafeMutableBufferPointer where Element == UInt8 {
    /// Stores `value` (native byte order) as the 8 bytes at `offset`, unchecked: the caller keeps
    /// `offset + 8` within the buffer (the matcher's lower-cased URL: one store instead of eight).
    @inlinable @inline(__always) package func storeU64(_ value: UInt64, at offset: Int) {
        assert(offset >= 0 && offset + 8 <= count, "u64 store out of bounds")
        UnsafeMutableRawPointer(baseAddress.unsafelyUnwrapped).storeBytes(
            of: value, toByteOffset: offset, as: UInt64.self)
    }
}

/// A read-only little-endian view of `count` bytes at `base`.
///
/// Loads do **not** check bounds in release builds: the reader (``MappedRuleList``) validates every
/// offset once, on load, before any load here can use it. Debug builds assert every load's bounds, so
/// the debug test suite and every fuzz run check that argument: an offset the validator let through
/// that leaves the file stops there.
@usableFromInline package struct RawBytes: @unchecked Sendable {
    @usableFromInline package let base: UnsafeRawPointer
    @usableFromInline package let count: Int

    @usableFromInline init(base: UnsafeRawPointer, count: Int) {
        self.base = base
        self.count = count
    }

    /// Debug builds: traps unless `width` bytes at `offset` are inside the view.
    @inlinable @inline(__always) package func checkBounds(_ offset: Int, _ width: Int) {
        assert(offset >= 0 && width >= 0 && offset <= count - width, "read of \(width) bytes at \(offset) of \(count)")
    }

    @inlinable @inline(__always) package func u8(_ offset: Int) -> UInt8 {
        checkBounds(offset, 1)
        return base.load(fromByteOffset: offset, as: UInt8.self)
    }
    @inlinable @inline(__always) package func u16(_ offset: Int) -> UInt16 {
        checkBounds(offset, 2)
        return UInt16(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
    }
    @inlinable @inline(__always) package func u32(_ offset: Int) -> UInt32 {
        checkBounds(offset, 4)
        return UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }
    /// A 3-byte little-endian value (two loads: the byte after it may be past the end of the file).
    @inlinable @inline(__always) package func u24(_ offset: Int) -> UInt32 {
        UInt32(u16(offset)) | UInt32(u8(offset + 2)) << 16
    }
    @inlinable @inline(__always) package func u64(_ offset: Int) -> UInt64 {
        checkBounds(offset, 8)
        return UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }
    /// Bit `index` of the `u64` words from the start (bit `index & 63` of word `index >> 6`, native
    /// byte order): one load.
    @inlinable @inline(__always) package func bit(_ index: Int) -> Bool {
        checkBounds((index &>> 6) &<< 3, 8)
        return base.load(fromByteOffset: (index &>> 6) &<< 3, as: UInt64.self)
            &>> UInt64(truncatingIfNeeded: index & 63) & 1
            != 0
    }
    /// `count` bytes starting at `offset`.
    @inlinable @inline(__always) package func buffer(_ offset: Int, _ count: Int) -> UnsafeBufferPointer<UInt8> {
        checkBounds(offset, count)
        return UnsafeBufferPointer(start: (base + offset).assumingMemoryBound(to: UInt8.self), count: count)
    }
    /// Bytes `offset..<offset+count` as a String; invalid UTF-8 is repaired (U+FFFD), never trapped on.
    func string(_ offset: Int, _ count: Int) -> String { String(decoding: buffer(offset, count), as: UTF8.self) }
    /// The text coded in `codes` bytes at `offset` with the ``SymbolTable`` at `table` (255 `u8`
    /// lengths, then 8 bytes per symbol): a symbol per code below 255, else the next byte (an escape at
    /// the end adds nothing). Invalid UTF-8 is repaired (U+FFFD), never trapped on.
    func symbolDecoded(_ offset: Int, _ codes: Int, table: Int) -> String {
        String(unsafeUninitializedCapacity: codes * 8 + 8) { decodeSymbols(offset, codes, table: table, into: $0) }
    }

    /// ``symbolDecoded(_:_:table:)`` as bytes.
    func symbolDecodedBytes(_ offset: Int, _ codes: Int, table: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: codes * 8 + 8) {
            $1 = decodeSymbols(offset, codes, table: table, into: $0)
        }
    }

    /// Writes the decoded text to `output` (room for 8 bytes per code + 8: each symbol is one 8-byte
    /// store) and returns its length.
    private func decodeSymbols(_ offset: Int, _ codes: Int, table: Int, into output: UnsafeMutableBufferPointer<UInt8>)
        -> Int
    {
        guard let target = UnsafeMutableRawPointer(output.baseAddress) else { return 0 }
        let symbols = SymbolTable.maximumCount
        var written = 0
        var index = offset
        let end = offset + codes
        while index < end {
            let code = Int(u8(index))
            index += 1
            if code < symbols {
                target.storeBytes(of: u64(table + symbols + code * 8), toByteOffset: written, as: UInt64.self)
                written += Int(u8(table + code))
            } else if index < end {
                target.storeBytes(of: u8(index), toByteOffset: written, as: UInt8.self)
                written += 1
                index += 1
            }
        }
        return written
    }

    /// A copy of bytes `offset..<offset+count`.
    func array(_ offset: Int, _ count: Int) -> [UInt8] { Array(buffer(offset, count)) }
}

/// XXH64 (seed 0) of a byte range: the binary rule list's checksum. Bound by its eight 64-bit
/// multiplies per 32 bytes (about 4 bytes per cycle, 10 GB/s in cache): a 10 MB file takes about a
/// millisecond, more when it has to come from memory.
enum Checksum {
    private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
    private static let prime4: UInt64 = 0x85EB_CA77_C2B2_AE63
    private static let prime5: UInt64 = 0x27D4_EB2F_1656_67C5

    @inline(__always) private static func round(_ accumulator: UInt64, _ input: UInt64) -> UInt64 {
        ((accumulator &+ input &* prime2).rotatedLeft(31)) &* prime1
    }

    @inline(__always) private static func merge(_ accumulator: UInt64, _ value: UInt64) -> UInt64 {
        ((accumulator ^ round(0, value)) &* prime1) &+ prime4
    }

    /// XXH64 of `bytes[start..<start+count]`.
    static func xxh64(_ bytes: RawBytes, from start: Int, count: Int) -> UInt64 {
        var stream = Stream(bytes, from: start, count: count)
        return stream.finish()
    }

    /// XXH64 computed in steps over a range of mapped bytes, so that other work can read each part
    /// while it is still in the cache: ``advance(to:)`` any number of times, then ``finish()``.
    struct Stream {
        private let bytes: RawBytes
        private let start: Int
        private let end: Int
        /// Where the next 32-byte stripe starts.
        private(set) var position: Int
        private var v1 = prime1 &+ prime2
        private var v2 = prime2
        private var v3: UInt64 = 0
        private var v4 = 0 &- prime1

        init(_ bytes: RawBytes, from start: Int, count: Int) {
            self.bytes = bytes
            self.start = start
            end = start + count
            position = start
        }

        /// Consumes the whole stripes that end at or before `limit`.
        mutating func advance(to limit: Int) {
            let stripes = (min(limit, end) - position) / 32
            guard stripes > 0 else { return }
            var offset = position
            // Four independent lanes; the stripe count is computed once, so the loop has no overflow checks.
            for _ in 0..<stripes {
                v1 = round(v1, bytes.u64(offset))
                v2 = round(v2, bytes.u64(offset &+ 8))
                v3 = round(v3, bytes.u64(offset &+ 16))
                v4 = round(v4, bytes.u64(offset &+ 24))
                offset &+= 32
            }
            position = offset
        }

        /// The hash of the whole range (consumes the remaining stripes first).
        mutating func finish() -> UInt64 {
            advance(to: end)
            var offset = position
            var hash: UInt64
            if end - start >= 32 {
                hash = v1.rotatedLeft(1) &+ v2.rotatedLeft(7) &+ v3.rotatedLeft(12) &+ v4.rotatedLeft(18)
                hash = merge(hash, v1)
                hash = merge(hash, v2)
                hash = merge(hash, v3)
                hash = merge(hash, v4)
            } else {
                hash = prime5
            }
            hash = hash &+ UInt64(end - start)
            while offset + 8 <= end {
                hash ^= round(0, bytes.u64(offset))
                hash = hash.rotatedLeft(27) &* prime1 &+ prime4
                offset += 8
            }
            if offset + 4 <= end {
                hash ^= UInt64(bytes.u32(offset)) &* prime1
                hash = hash.rotatedLeft(23) &* prime2 &+ prime3
                offset += 4
            }
            while offset < end {
                hash ^= UInt64(bytes.u8(offset)) &* prime5
                hash = hash.rotatedLeft(11) &* prime1
                offset += 1
            }
            hash ^= hash >> 33
            hash = hash &* prime2
            hash ^= hash >> 29
            hash = hash &* prime3
            hash ^= hash >> 32
            return hash
        }
    }

    /// XXH64 of an array (used by the writer and the tests).
    static func xxh64(_ array: [UInt8]) -> UInt64 {
        array.withUnsafeBytes { buffer in
            let base = buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 16)!
            return xxh64(RawBytes(base: base, count: buffer.count), from: 0, count: buffer.count)
        }
    }
}

extension UInt64 {
    @inline(__always) fileprivate func rotatedLeft(_ count: UInt64) -> UInt64 {
        (self << count) | (self >> (64 - count))
    }
}
