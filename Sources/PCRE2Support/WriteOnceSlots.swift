public import Synchronization

/// A fixed number of slots, each set at most once to an object and then read by any thread without a
/// lock: the matcher's cache of compiled patterns (`PCRE2Regex` and what goes with it), where a
/// look-up happens several times per request and a store once per pattern.
///
/// A look-up is two atomic loads (acquiring): the slot's chunk, then the slot. A store publishes the
/// object with a compare-and-exchange (releasing), so a reader that sees it sees it fully made;
/// when two threads store into one slot, the first store wins and both get its object. Objects are
/// kept (retained) until the table is freed, so a reference read from a slot stays valid while the
/// table lives.
///
/// Slots come in chunks of ``chunkSize``, allocated the first time one of their slots is stored:
/// making a table costs O(count / chunkSize), not a slot per object.
public final class WriteOnceSlots<Object: AnyObject & Sendable>: @unchecked Sendable {
    /// A slot: the retained object's address, nil while empty.
    @usableFromInline typealias Slot = Atomic<UnsafeMutableRawPointer?>
    /// Slots per chunk (a power of two).
    @inlinable public static var chunkSize: Int { 1 << chunkShift }
    @inlinable static var chunkShift: Int { 6 }
    /// Number of slots.
    public let count: Int
    /// One atomic pointer per chunk: the chunk's first `Slot`, nil until a slot of it is stored.
    @usableFromInline let chunks: UnsafeMutablePointer<Slot>
    private let chunkCount: Int

    /// Makes `count` empty slots.
    /// - Complexity: O(count / chunkSize).
    public init(count: Int) {
        precondition(count >= 0, "negative slot count")
        self.count = count
        chunkCount = (count + Self.chunkSize - 1) >> Self.chunkShift
        chunks = .allocate(capacity: max(chunkCount, 1))
        for index in 0..<chunkCount { (chunks + index).initialize(to: Slot(nil)) }
    }

    deinit {
        for index in 0..<chunkCount {
            guard let chunk = chunks[index].load(ordering: .acquiring) else { continue }
            let slots = chunk.assumingMemoryBound(to: Slot.self)
            for slot in 0..<Self.chunkSize {
                if let object = slots[slot].load(ordering: .acquiring) {
                    Unmanaged<Object>.fromOpaque(object).release()
                }
            }
            slots.deinitialize(count: Self.chunkSize)
            slots.deallocate()
        }
        chunks.deinitialize(count: chunkCount)
        chunks.deallocate()
    }

    /// The object stored in slot `index` (`0..<count`), or nil when none was.
    @inlinable public subscript(index: Int) -> Object? {
        precondition(index >= 0 && index < count, "slot index out of range")
        guard let chunk = chunks[index >> Self.chunkShift].load(ordering: .acquiring),
            let object = chunk.assumingMemoryBound(to: Slot.self)[index & (Self.chunkSize - 1)].load(
                ordering: .acquiring)
        else { return nil }
        return Unmanaged<Object>.fromOpaque(object).takeUnretainedValue()
    }

    /// Calls `body` with the object stored in slot `index` (`0..<count`), without retaining it (the
    /// table keeps it while it lives); nil when none was stored.
    @inlinable @inline(__always)
    public func withObject<Result>(at index: Int, _ body: (Object) -> Result) -> Result? {
        precondition(index >= 0 && index < count, "slot index out of range")
        guard let chunk = chunks[index >> Self.chunkShift].load(ordering: .acquiring),
            let object = chunk.assumingMemoryBound(to: Slot.self)[index & (Self.chunkSize - 1)].load(
                ordering: .acquiring)
        else { return nil }
        return Unmanaged<Object>.fromOpaque(object)._withUnsafeGuaranteedRef(body)
    }

    /// Stores `object` in slot `index` unless an object was stored there first.
    /// - Returns: the slot's object: `object`, or the one stored before.
    public func store(_ object: Object, at index: Int) -> Object {
        precondition(index >= 0 && index < count, "slot index out of range")
        let slot = self.chunk(index >> Self.chunkShift) + (index & (Self.chunkSize - 1))
        let retained = Unmanaged.passRetained(object).toOpaque()
        let (stored, first) = slot.pointee.compareExchange(
            expected: nil, desired: retained, ordering: .acquiringAndReleasing)
        if stored { return object }
        Unmanaged<Object>.fromOpaque(retained).release()
        // Not stored: the slot held an object already.
        return Unmanaged<Object>.fromOpaque(first.unsafelyUnwrapped).takeUnretainedValue()
    }

    /// The first slot of chunk `index`, allocated (and published) if it was not yet.
    private func chunk(_ index: Int) -> UnsafeMutablePointer<Slot> {
        if let chunk = chunks[index].load(ordering: .acquiring) { return chunk.assumingMemoryBound(to: Slot.self) }
        let made = UnsafeMutablePointer<Slot>.allocate(capacity: Self.chunkSize)
        for slot in 0..<Self.chunkSize { (made + slot).initialize(to: Slot(nil)) }
        let (stored, first) = chunks[index].compareExchange(
            expected: nil, desired: UnsafeMutableRawPointer(made), ordering: .acquiringAndReleasing)
        if stored { return made }
        // Another thread published the chunk first: use it.
        made.deinitialize(count: Self.chunkSize)
        made.deallocate()
        return first.unsafelyUnwrapped.assumingMemoryBound(to: Slot.self)
    }
}
