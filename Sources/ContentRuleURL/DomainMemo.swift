// The calling thread's memo of registrable domains: a hit costs no lock, no hashing of a String and
// no allocation.

import Locking

/// Hosts whose registrable domain (``RegistrableDomain/of(host:)``) is a suffix of their own bytes,
/// each with where that suffix starts: a direct-mapped table of ``slots`` slots, each the host's
/// length, the suffix's offset and the host's bytes (at most ``longestHost``), in the elements of a
/// `ManagedBuffer` (8 KiB).
///
/// Each thread has its own (``withCurrentThread(_:)``, kept until the thread exits), so neither a
/// look-up nor a store takes a lock; a store replaces whatever the slot held. Only exact byte
/// matches hit: a host that shares a slot with another costs a look-up through
/// ``RegistrableDomain/of(host:)`` again, never a wrong answer.
final class DomainMemo: ManagedBuffer<Void, UInt64> {
    /// Slots in the table (a power of two).
    static let slots = 64
    /// Words per slot: one for the lengths, the rest for the host's bytes.
    static let slotWords = 16
    /// The longest host a slot holds, in bytes.
    static let longestHost = (slotWords - 1) * 8
    /// Set in a slot's first word when the slot holds a host.
    private static let filled: UInt64 = 1 << 32

    /// A new memo, all slots empty.
    static func make() -> DomainMemo {
        let memo = unsafeDowncast(create(minimumCapacity: slots * slotWords) { _ in }, to: DomainMemo.self)
        memo.withUnsafeMutablePointerToElements { $0.initialize(repeating: 0, count: slots * slotWords) }
        return memo
    }

    /// Where the registrable domain of `host` starts in `host`, when this memo holds `host`.
    func domainOffset(of host: UnsafeBufferPointer<UInt8>) -> Int? {
        let count = host.count
        guard count > 0 && count <= Self.longestHost else { return nil }
        return withUnsafeMutablePointerToElements { elements -> Int? in
            let slot = elements + Self.slot(of: host) &* Self.slotWords
            let header = slot.pointee
            guard header & (Self.filled | 0xFFFF) == Self.filled | UInt64(count) else { return nil }
            guard Self.sameBytes(UnsafeRawPointer(slot + 1), UnsafeRawPointer(host.baseAddress!), count: count) else {
                return nil
            }
            return Int(truncatingIfNeeded: (header >> 16) & 0xFFFF)
        }
    }

    /// Remembers that the registrable domain of `host` starts at `offset` in it (a host longer than
    /// ``longestHost`` is not kept).
    func store(_ host: UnsafeBufferPointer<UInt8>, domainOffset offset: Int) {
        let count = host.count
        guard count > 0 && count <= Self.longestHost && offset >= 0 && offset < count else { return }
        withUnsafeMutablePointerToElements { elements in
            let slot = elements + Self.slot(of: host) &* Self.slotWords
            (slot + 1).initialize(repeating: 0, count: Self.slotWords - 1)
            UnsafeMutableRawPointer(slot + 1).copyMemory(from: host.baseAddress!, byteCount: count)
            slot.pointee = Self.filled | UInt64(offset) << 16 | UInt64(count)
        }
    }

    /// Whether the `count` bytes at `a` and at `b` are the same: 8 bytes at a time, the last 8 again
    /// (or the few there are, one by one).
    @inline(__always) static func sameBytes(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Bool {
        guard count >= 8 else {
            for index in 0..<count
            where a.load(fromByteOffset: index, as: UInt8.self) != b.load(fromByteOffset: index, as: UInt8.self) {
                return false
            }
            return true
        }
        var at = 0
        while at &+ 8 < count {
            let word = a.loadUnaligned(fromByteOffset: at, as: UInt64.self)
            guard word == b.loadUnaligned(fromByteOffset: at, as: UInt64.self) else { return false }
            at &+= 8
        }
        let last = count &- 8
        return a.loadUnaligned(fromByteOffset: last, as: UInt64.self)
            == b.loadUnaligned(fromByteOffset: last, as: UInt64.self)
    }

    /// The slot of `host` (1 to ``longestHost`` bytes): its length and its first and last 8 bytes, mixed.
    private static func slot(of host: UnsafeBufferPointer<UInt8>) -> Int {
        let count = host.count
        var first: UInt64
        var last: UInt64
        if count >= 8 {
            let bytes = UnsafeRawPointer(host.baseAddress!)
            first = bytes.loadUnaligned(as: UInt64.self)
            last = bytes.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
        } else {
            first = 0
            for byte in host { first = first << 8 | UInt64(byte) }
            last = 0
        }
        let mixed = (first &* 0x9E37_79B9_7F4A_7C15 ^ last ^ UInt64(count)) &* 0xBF58_476D_1CE4_E5B9
        return Int(truncatingIfNeeded: mixed >> 58) & (slots - 1)
    }

    /// Calls `body` with the calling thread's memo, made on first use and released when the thread
    /// exits (not retained for the call: the thread keeps it).
    @inline(__always) static func withCurrentThread<Result>(_ body: (DomainMemo) -> Result) -> Result {
        perThread.with(body)
    }

    private static let perThread = ThreadLocal { DomainMemo.make() }
}
