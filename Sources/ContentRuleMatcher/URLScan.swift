import ContentRuleFormat

// The fast matcher's scans of a URL over the indexes of a mapped rule list: the literal index (LGRM,
// LPST) by 4-byte grams, the host index (HGRM) at the host's start, and a prefetch pass over the
// candidates' records. The format stores and validates the tables; reading them for a URL is the
// matcher's job.

extension MappedRuleList {
    /// Reads the RULE records of `candidates` (`rule << 32 | …`), then the PATS record and the first byte
    /// of the required literal of each one's pattern, and returns a value made of the bytes read: a pass
    /// of independent loads, so that the cache misses of many candidates overlap instead of each
    /// stalling the matcher in turn (a long URL has hundreds of candidates spread over the file).
    package func touchRecords(of candidates: ArraySlice<UInt64>) -> UInt64 {
        var sink: UInt64 = 0
        let layout = sections.ruleLayout
        for value in candidates {
            sink &+= UInt64(bytes.u32(sections.rules.offset + IndexHash.candidateRule(value) * layout.size))
        }
        for value in candidates {
            sink &+= UInt64(bytes.u32(patternRecord(rule(IndexHash.candidateRule(value)).pattern) + 8))
        }
        // The required literals' first bytes (the compare after the gram hit reads them).
        let strings = sections.strings.offset
        for value in candidates {
            let offset = patternRecord(rule(IndexHash.candidateRule(value)).pattern)
            if bytes.u32(offset + 12) & 0xFF != 0 {
                sink &+= UInt64(bytes.u8(strings + Int(bytes.u32(offset + 8))))
            }
        }
        return sink
    }

    /// Appends the rules filed under each distinct gram of `url` (lower-cased) that the literal index
    /// holds, each as `code << 56 | rule << 32 | (position + 1)` where `position` is the first offset of
    /// the gram in `url` (0 instead when it does not fit in 32 bits) and `code` the rule's neighbour
    /// code (``IndexHash/neighbourAllows(_:_:gramAt:)``; read the rule with
    /// ``IndexHash/candidateRule(_:)``): a gram that occurs
    /// many times in the URL adds its rules once, so a long URL repeating one literal costs a scan, not
    /// a sort of its repetitions. One gram-filter load per byte of the URL; a gram that passes it is
    /// looked up in a small direct-mapped table of the grams met again (`RecentGrams`) and, when not
    /// there, in the index (a hash probe sequence) and the slots already taken (`SeenSlots`): a URL
    /// repeating a few pieces (`/ad/ad/…`) costs a filter test and one compare per byte.
    /// - Returns: the ``IndexHash/gramRepeatBit(_:)`` of each indexed gram that occurs more than once
    ///   in `url` (a gram whose bit is clear occurs only at its position).
    /// - Complexity: O(URL length + distinct indexed grams × their rules).
    @discardableResult
    package func collectLiteralCandidates(_ url: UnsafeBufferPointer<UInt8>, into candidates: inout [UInt64]) -> UInt64
    {
        let capacity = sections.literalHash.count
        guard url.count >= IndexHash.gramLength, capacity > 0 else { return 0 }
        // A long URL hits many distinct grams: one bit per slot of the index (8 KiB for the 84,000-rule
        // list) costs less than a hash set of the slots taken.
        if url.count >= SlotBits.fromLength {
            return ScratchWords.with(count: RecentGrams.count(url.count)) { recent in
                ScratchWords.with(count: max(1, capacity / 64)) { bits in
                    var seen = SlotBits(words: bits)
                    return collectLiteralCandidates(url, into: &candidates, recent: recent, seen: &seen)
                }
            }
        }
        return ScratchWords.with(count: RecentGrams.count(url.count)) { recent in
            var seen = SeenSlots(firstSetSize: url.count >= 512 ? 256 : 32)
            return collectLiteralCandidates(url, into: &candidates, recent: recent, seen: &seen)
        }
    }

    /// ``collectLiteralCandidates(_:into:)`` with its table of recent grams (zeroed) and its set of the
    /// slots taken (empty); specialized for each kind of set.
    private func collectLiteralCandidates<Seen: TakenSlots>(
        _ url: UnsafeBufferPointer<UInt8>, into candidates: inout [UInt64], recent: ScratchWords,
        seen: inout Seen
    ) -> UInt64 {
        var repeated: UInt64 = 0
        let filter = gramFilter
        // `at` is just past the gram: the gram is the 4 bytes before it, read with one load.
        var at = 4
        let end = url.count
        while at <= end {
            // Most grams miss the filter: four at a time until one does not (one loop test per four);
            // `hash` is then the hit's filter bit. Written out: a `for step in 0..<4` loop is not
            // unrolled and costs more (`Benchmarks/results/2026-12-03-notes.md`).
            var hash = -1
            while at &+ 3 <= end {
                let h0 = IndexHash.gramFilterBit(url.u32(at &- 4))
                if filter.bit(h0) {
                    hash = h0
                    break
                }
                let h1 = IndexHash.gramFilterBit(url.u32(at &- 3))
                if filter.bit(h1) {
                    hash = h1
                    at &+= 1
                    break
                }
                let h2 = IndexHash.gramFilterBit(url.u32(at &- 2))
                if filter.bit(h2) {
                    hash = h2
                    at &+= 2
                    break
                }
                let h3 = IndexHash.gramFilterBit(url.u32(at &- 1))
                if filter.bit(h3) {
                    hash = h3
                    at &+= 3
                    break
                }
                at &+= 4
            }
            defer { at &+= 1 }
            if hash < 0 {
                // The last positions, one at a time.
                guard at <= end else { break }
                hash = IndexHash.gramFilterBit(url.u32(at &- 4))
                guard filter.bit(hash) else { continue }
            }
            let gram = url.u32(at &- 4)
            // Met again recently: nothing more to learn. The table's slot: the hash's top bits (the
            // best mixed of a multiplicative hash; its low bits depend on the gram's first bytes only).
            let recentSlot = hash &>> 10
            let done = UInt64(gram) | RecentGrams.done
            if recent[recentSlot] == done { continue }
            // Read here, not kept across the loop: the filter loop keeps its few values in registers.
            let mask = sections.literalHash.count &- 1
            let table = sections.literalHash.offset
            var slot = IndexHash.gramSlot(gram) & mask
            while true {
                let key = bytes.u32(table &+ slot &* 8)
                if key == gram {
                    guard seen.insert(slot) else {
                        repeated |= IndexHash.gramRepeatBit(gram)
                        recent[recentSlot] = done
                        break
                    }
                    let value = bytes.u32(table &+ slot &* 8 &+ 4)
                    // `at` is past the gram: its position + 1 is `at - 3` (kept when all positions
                    // fit in 32 bits, else 0, unknown, for all).
                    let position = UInt64(truncatingIfNeeded: url.count < 0xFFFF_FFFF ? at - 3 : 0)
                    let postings = sections.literalPostings.offset
                    if value & IndexHash.inlinePosting != 0 {
                        // The gram's only rule (and its neighbour code), in its slot.
                        candidates.append(UInt64(value & ~IndexHash.inlinePosting) << 32 | position)
                    } else {
                        let start = postings + Int(value) * 4
                        for index in 0..<Int(bytes.u32(start)) {
                            candidates.append(UInt64(bytes.u32(start + 4 + index * 4)) << 32 | position)
                        }
                    }
                    break
                }
                if key == 0 {
                    recent[recentSlot] = done
                    break
                }
                slot = (slot + 1) & mask
            }
        }
        return repeated
    }
}

extension MappedRuleList {
    /// Appends the rules of the host index (HGRM) that may match `url` (lower-cased), each as
    /// `rule << 32` (no gram position): those filed under a prefix of 24, 16, 8 or 4 bytes of `url` at
    /// `hostStart` or at `afterFirstLabel` (each -1 when absent). A host-anchored url-filter matches
    /// only where its required literal begins at one of those two places, so every rule that can match
    /// is appended; the others a hash collision adds are ruled out by the rule's own checks. A rule can
    /// be appended twice (its prefix at both places).
    ///
    /// - Complexity: O(1) probes (at most eight) plus the rules appended.
    package func collectHostCandidates(
        _ url: UnsafeBufferPointer<UInt8>, hostStart: Int, afterFirstLabel: Int, into candidates: inout [UInt64]
    ) {
        let capacity = sections.hostHash.count
        guard capacity > 0 else { return }
        if hostStart >= 0 { collectHostCandidates(url, at: hostStart, into: &candidates) }
        if afterFirstLabel >= 0 { collectHostCandidates(url, at: afterFirstLabel, into: &candidates) }
    }

    /// ``collectHostCandidates(_:hostStart:afterFirstLabel:into:)`` at one place.
    @inline(__always)
    private func collectHostCandidates(
        _ url: UnsafeBufferPointer<UInt8>, at start: Int, into candidates: inout [UInt64]
    ) {
        let available = url.count &- start
        guard available >= 4 else { return }
        if available >= 8 {
            let first = url.u64(start)
            if available >= 16 {
                let second = url.u64(start &+ 8)
                if available >= 24 {
                    probeHostIndex(IndexHash.hostKey(first, second, url.u64(start &+ 16), length: 24), &candidates)
                }
                probeHostIndex(IndexHash.hostKey(first, second, 0, length: 16), &candidates)
            }
            probeHostIndex(IndexHash.hostKey(first, 0, 0, length: 8), &candidates)
        }
        probeHostIndex(IndexHash.hostKey(UInt64(url.u32(start)), 0, 0, length: 4), &candidates)
    }

    /// Appends the rules of every HGRM slot on `hash`'s probe sequence whose check byte is `hash`'s.
    @inline(__always)
    private func probeHostIndex(_ hash: UInt64, _ candidates: inout [UInt64]) {
        let mask = sections.hostHash.count &- 1
        let table = sections.hostHash.offset
        let check = IndexHash.hostCheck(hash)
        var slot = Int(truncatingIfNeeded: hash >> 32) & mask
        while true {
            let word = bytes.u32(table &+ slot &* 4)
            if word == 0 { return }
            if word & (0xFF << IndexHash.hostCheckShift) == check {
                let value = word & IndexHash.hostValueMask
                if word & IndexHash.hostInlinePosting != 0 {
                    candidates.append(UInt64(value) << 32)
                } else {
                    let start = sections.literalPostings.offset &+ Int(value) &* 4
                    for index in 0..<Int(bytes.u32(start)) {
                        candidates.append(UInt64(bytes.u32(start &+ 4 &+ index &* 4) & IndexHash.postingRuleMask) << 32)
                    }
                }
            }
            slot = (slot &+ 1) & mask
        }
    }
}

/// A zeroed power-of-two table of `u64` words in temporary (stack) storage, for one scan: every index is
/// masked to the table, so no access leaves it.
struct ScratchWords {
    private let base: UnsafeMutablePointer<UInt64>
    private let mask: Int

    /// Word `index & (count - 1)`.
    @inline(__always) subscript(index: Int) -> UInt64 {
        get { base[index & mask] }
        nonmutating set { base[index & mask] = newValue }
    }

    /// Calls `body` with `count` (a power of two) zeroed words, valid during the call.
    @inline(__always) static func with<Result>(count: Int, _ body: (ScratchWords) -> Result) -> Result {
        precondition(count > 0 && count & (count - 1) == 0, "a power of two")
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: count) { words in
            words.initialize(repeating: 0)
            return body(ScratchWords(base: words.baseAddress.unsafelyUnwrapped, mask: count - 1))
        }
    }
}

/// The scan's table of recent grams (``ScratchWords``, indexed by the gram's filter bit): each word is
/// a gram that passed the gram filter and needs nothing more (not in the index, or met again: its
/// rules taken and its repetition recorded), with ``done`` above its 32 bits; 0 = empty. A gram's
/// first occurrence is not recorded (a URL of distinct grams writes nothing). A gram not in the table
/// (not met again yet, or evicted by another) takes the full path, whose answers do not depend on it.
enum RecentGrams {
    /// The tag of a recorded gram.
    static let done: UInt64 = 1 << 32

    /// Words in the table for a URL of `length` bytes (a power of two, at most 1,024: slots are the
    /// top 10 bits of ``IndexHash/gramFilterBit(_:)``): few for a short URL, which has few grams to
    /// repeat and pays for zeroing the table on every request. (1,024 words for URLs of 4 KiB and
    /// more cost more to zero than the collisions they avoid on the adversarial 16 KiB URLs.)
    static func count(_ length: Int) -> Int { length >= 256 ? 64 : 8 }
}

/// The literal-index slots one URL scan has already taken rules from.
protocol TakenSlots {
    /// Records `slot`; false when it was recorded before.
    mutating func insert(_ slot: Int) -> Bool
}

/// ``TakenSlots`` as one bit per slot of the index, in zeroed temporary words: for a long URL, which
/// hits many distinct grams (a hash set of them would cost more than zeroing the bits).
struct SlotBits: TakenSlots {
    /// The URL length from which a scan uses this set.
    static let fromLength = 2_048
    let words: ScratchWords

    /// O(1): a test and a set of one bit.
    @inline(__always) mutating func insert(_ slot: Int) -> Bool {
        let bit: UInt64 = 1 &<< UInt64(truncatingIfNeeded: slot & 63)
        let word = words[slot &>> 6]
        words[slot &>> 6] = word | bit
        return word & bit == 0
    }
}

/// The literal-index slots one URL scan has already taken rules from. The first 16 are held inline
/// (no allocation): most URLs hit few distinct grams. Beyond those, an open-addressing set sized by the
/// slots seen (not by the table). A 64-bit filter of all recorded slots answers most new slots without
/// a compare.
struct SeenSlots: TakenSlots {
    typealias Eight = (Int, Int, Int, Int, Int, Int, Int, Int)
    /// The first slots recorded, in order (`low` then `high`); -1 = none.
    private var low: Eight = (-1, -1, -1, -1, -1, -1, -1, -1)
    private var high: Eight = (-1, -1, -1, -1, -1, -1, -1, -1)
    private var inlineCount = 0
    /// Bit `slot & 63` of every recorded slot.
    private var filter: UInt64 = 0
    /// Power-of-two hash set of the later slots, -1 = empty; at most half full; allocated when needed.
    private var set: [Int] = []
    private var count = 0
    /// The set's size when first needed (a power of two): larger for a long URL, which hits many
    /// distinct grams, so that it does not double several times.
    private let firstSetSize: Int

    init(firstSetSize: Int = 32) { self.firstSetSize = firstSetSize }

    /// Records `slot`; false when it was recorded before.
    /// - Complexity: O(1) amortized (a filter test, up to 16 compares, then a hash probe; the set
    ///   doubles when half full).
    @inline(__always) mutating func insert(_ slot: Int) -> Bool {
        let bit: UInt64 = 1 << UInt64(slot & 63)
        // Most slots: new to the filter, with inline room (no compare).
        if filter & bit == 0 && inlineCount < 16 {
            filter |= bit
            if inlineCount < 8 { Self.store(&low, inlineCount, slot) } else { Self.store(&high, inlineCount - 8, slot) }
            inlineCount += 1
            return true
        }
        return insertChecking(slot, bit)
    }

    /// ``insert(_:)`` when the filter holds the slot's bit or the inline slots are full.
    @inline(never) private mutating func insertChecking(_ slot: Int, _ bit: UInt64) -> Bool {
        if filter & bit != 0 {
            if Self.holds(low, slot) || Self.holds(high, slot) { return false }
            if !set.isEmpty && setHolds(slot) { return false }
        }
        filter |= bit
        if inlineCount < 16 {
            if inlineCount < 8 { Self.store(&low, inlineCount, slot) } else { Self.store(&high, inlineCount - 8, slot) }
            inlineCount += 1
            return true
        }
        if set.isEmpty { set = [Int](repeating: -1, count: firstSetSize) }
        _ = add(slot)
        if count * 2 > set.count {
            let old = set
            set = [Int](repeating: -1, count: old.count * 2)
            count = 0
            for value in old where value >= 0 { _ = add(value) }
        }
        return true
    }

    @inline(__always) private static func holds(_ e: Eight, _ slot: Int) -> Bool {
        (e.0 == slot) || (e.1 == slot) || (e.2 == slot) || (e.3 == slot) || (e.4 == slot) || (e.5 == slot)
            || (e.6 == slot) || (e.7 == slot)
    }

    @inline(__always) private static func store(_ e: inout Eight, _ index: Int, _ slot: Int) {
        switch index {
        case 0: e.0 = slot
        case 1: e.1 = slot
        case 2: e.2 = slot
        case 3: e.3 = slot
        case 4: e.4 = slot
        case 5: e.5 = slot
        case 6: e.6 = slot
        default: e.7 = slot
        }
    }

    private func setHolds(_ slot: Int) -> Bool {
        let mask = set.count - 1
        var index = (slot &* 0x9E37_79B9) & mask
        while set[index] >= 0 {
            if set[index] == slot { return true }
            index = (index + 1) & mask
        }
        return false
    }

    private mutating func add(_ slot: Int) -> Bool {
        let mask = set.count - 1
        var index = (slot &* 0x9E37_79B9) & mask
        while set[index] >= 0 {
            if set[index] == slot { return false }
            index = (index + 1) & mask
        }
        set[index] = slot
        count += 1
        return true
    }
}
