/// Distinct byte strings numbered in first-insertion order and stored back to back in one array: the
/// writer's deduplication tables (strings, patterns, domains, conditions, templates) without a `Hasher`
/// and without an array per key.
///
/// A key is built at the end of ``bytes`` with the `append` methods, then ``finish()`` keeps it (a new
/// id) or removes it again (the id of the equal key stored before). Because keys are kept in id order,
/// the string pool's ``bytes`` are the STRS section itself.
package struct ByteKeyTable {
    /// Every distinct key in id order, followed by the key being built.
    private(set) var bytes: [UInt8] = []
    private var starts: [Int] = [0]
    private var hashes: [UInt64] = []
    /// Open addressing, linear probing: the key's hash's upper 32 bits << 32 | its id + 1, or 0 for an
    /// empty slot (the hash bits in the slot spare a cache miss on `hashes` for most probes).
    private var slots = [UInt64](repeating: 0, count: 64)

    package init() {}

    /// Number of distinct keys.
    package var count: Int { hashes.count }

    /// Where key `id` is in ``bytes``.
    package func range(_ id: Int) -> Range<Int> { starts[id]..<starts[id + 1] }

    package subscript(id: Int) -> ArraySlice<UInt8> { bytes[starts[id]..<starts[id + 1]] }

    /// Bytes of the key being built so far.
    var pendingCount: Int { bytes.count - starts[starts.count - 1] }

    /// Makes room for `keys` keys of `byteCount` bytes in all without growing.
    package mutating func reserve(keys: Int, bytes byteCount: Int) {
        bytes.reserveCapacity(byteCount)
        hashes.reserveCapacity(keys)
        starts.reserveCapacity(keys + 1)
        var capacity = slots.count
        while capacity < keys * 2 { capacity *= 2 }
        if capacity > slots.count { rehash(capacity) }
    }

    package mutating func append(_ byte: UInt8) { bytes.append(byte) }

    package mutating func append(u32 value: UInt32) {
        bytes.append(UInt8(truncatingIfNeeded: value))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value >> 16))
        bytes.append(UInt8(truncatingIfNeeded: value >> 24))
    }

    package mutating func append(_ text: String) { append(text.utf8) }

    /// Appends UTF-8 bytes, copied in one piece when the string is stored contiguously (native strings are).
    package mutating func append<Bytes: Collection<UInt8>>(_ utf8: Bytes) {
        if utf8.withContiguousStorageIfAvailable({ bytes.append(contentsOf: $0) }) == nil {
            bytes.append(contentsOf: utf8)
        }
    }

    /// Ends the key being built as a new id even when an equal key is stored (look-ups keep finding
    /// the first): for keys that must lie back to back.
    mutating func finishUnshared() -> Int {
        let end = bytes.count
        let hash = ByteRange.hash(bytes, starts[starts.count - 1]..<end)
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        let id = hashes.count
        slots[slot] = hash & 0xFFFF_FFFF_0000_0000 | UInt64(id + 1)
        hashes.append(hash)
        starts.append(end)
        if hashes.count * 2 > slots.count { rehash(slots.count * 2) }
        return id
    }

    /// Ends the key being built: its id, and whether it is new.
    package mutating func finish() -> (id: Int, isNew: Bool) {
        let start = starts[starts.count - 1]
        let end = bytes.count
        let (hash, slot, found) = probe(start..<end)
        if let found {
            bytes.removeLast(end - start)
            return (found, false)
        }
        let id = hashes.count
        slots[slot] = hash & 0xFFFF_FFFF_0000_0000 | UInt64(id + 1)
        hashes.append(hash)
        starts.append(end)
        if hashes.count * 2 > slots.count { rehash(slots.count * 2) }
        return (id, true)
    }

    /// Drops the key being built: the id of the equal key stored before, or `nil`.
    package mutating func lookUp() -> Int? {
        let start = starts[starts.count - 1]
        let found = probe(start..<bytes.count).found
        bytes.removeLast(bytes.count - start)
        return found
    }

    /// The hash of `bytes[key]`, and the id of the stored key equal to it or the empty slot where it goes.
    private func probe(_ key: Range<Int>) -> (hash: UInt64, slot: Int, found: Int?) {
        let hash = ByteRange.hash(bytes, key)
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        let tag = hash & 0xFFFF_FFFF_0000_0000
        while slots[slot] != 0 {
            let id = Int(truncatingIfNeeded: slots[slot] & 0xFFFF_FFFF) - 1
            if slots[slot] & 0xFFFF_FFFF_0000_0000 == tag
                && ByteRange.equal(bytes, starts[id]..<starts[id + 1], key)
            {
                return (hash, slot, id)
            }
            slot = (slot + 1) & mask
        }
        return (hash, slot, nil)
    }

    private mutating func rehash(_ capacity: Int) {
        slots = [UInt64](repeating: 0, count: capacity)
        let mask = slots.count - 1
        for (id, hash) in hashes.enumerated() {
            var slot = Int(truncatingIfNeeded: hash) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = hash & 0xFFFF_FFFF_0000_0000 | UInt64(id + 1)
        }
    }
}

/// Deduplicated UTF-8 strings, appended to the STRS section.
///
/// Keys are byte strings, not `String`s: `String` equality is Unicode canonical equivalence, which
/// would merge differently encoded selectors.
struct StringPool {
    private var table = ByteKeyTable()

    /// The STRS section.
    var bytes: [UInt8] { table.bytes }

    mutating func reserve(strings: Int) { table.reserve(keys: strings, bytes: 0) }

    mutating func add(_ text: String) -> (UInt32, UInt32) {
        table.append(text)
        return finish()
    }

    mutating func add(_ slice: ArraySlice<UInt8>) -> (UInt32, UInt32) {
        table.append(slice)
        return finish()
    }

    /// Appends `slice` at the end of STRS even when it is stored already (later equal strings share
    /// the first copy): returns the new end of STRS.
    mutating func addUnshared(_ slice: ArraySlice<UInt8>) -> UInt32 {
        table.append(slice)
        if table.pendingCount > 0 { _ = table.finishUnshared() }
        return UInt32(table.bytes.count)
    }

    /// `(offset, length)` of the string just appended; `(0, 0)` for the empty string, which is not stored.
    private mutating func finish() -> (UInt32, UInt32) {
        let length = table.pendingCount
        if length == 0 { return (0, 0) }
        let id = table.finish().id
        return (UInt32(table.range(id).lowerBound), UInt32(length))
    }
}
