import ContentRuleFormat

/// The request URL lower-cased (ASCII), as the literal index and the required literals are, with how
/// often each byte occurs in it: the fast matcher's prefilter input. Both live in temporary storage
/// (no allocation per request).
struct LoweredURL {
    let bytes: UnsafeBufferPointer<UInt8>
    /// 256 counts, indexed by byte; for a URL of ``URLGramTable/minimumLength`` bytes or more, followed
    /// by its ``URLGramTable`` (built when due).
    let byteCounts: UnsafeBufferPointer<Int32>
    /// The answers of regex patterns remembered for this URL (``knownAnswer(pattern:)``): a direct-mapped
    /// table of ``answerSlots`` pairs (pattern id + 1, answer), 0 = empty.
    let answers: UnsafeBufferPointer<Int32>
    /// Where a host-anchored pattern (``PatternRecord/hostAnchored``, `^[htpsw]+://([a-z0-9-]+\.)?`)
    /// may continue: just after the `://` that follows the URL's leading run of the letters `hpstw`
    /// (-1 when the URL does not begin so), and ``afterFirstLabel``: just after the run of letters,
    /// digits and `-` there and its `.` (-1 when there is no such run or no `.` after it). Each part of
    /// the anchor can end in one place only (the byte after it is outside its set): no other split.
    let hostStart: Int
    let afterFirstLabel: Int
    /// Every byte of the URL is 1–127 (always so for a serialized URL): PCRE2 may search it with
    /// ``PCRE2ASCIISubject``'s spelling of a pattern.
    let isASCIIWithoutNUL: Bool

    static let answerSlots = 16

    /// The URL length from which ``with(_:_:)`` counts bytes in four tables (``lowercaseAndCountInParts``).
    static let splitCountsFromLength = 4_096

    /// Lower-cases the whole 8-byte words of `url` into `storage` and adds their bytes to `counts`;
    /// returns the index after them and the OR of the words read. Consecutive bytes go to four
    /// different tables, summed at the end: with one table, a URL repeating a byte (`…nn…`,
    /// `aaaa…`) makes each increment wait for the previous store to the same counter (a 64 KiB
    /// `bannerbanner…` URL spent more time counting than scanning for grams).
    private static func lowercaseAndCountInParts(
        _ url: UnsafeBufferPointer<UInt8>, into storage: UnsafeMutableBufferPointer<UInt8>,
        counts: UnsafeMutableBufferPointer<Int32>
    ) -> (index: Int, highBits: UInt64) {
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: 4 * 256) { parts in
            parts.initialize(repeating: 0)
            var index = 0
            var highBits: UInt64 = 0
            while index + 8 <= url.count {
                let word = url.u64(index)
                highBits |= word
                let lower = lowercased(word: word)
                storage.storeU64(lower, at: index)
                parts[Int(truncatingIfNeeded: lower & 0xFF)] &+= 1
                parts[256 | Int(truncatingIfNeeded: lower &>> 8 & 0xFF)] &+= 1
                parts[512 | Int(truncatingIfNeeded: lower &>> 16 & 0xFF)] &+= 1
                parts[768 | Int(truncatingIfNeeded: lower &>> 24 & 0xFF)] &+= 1
                parts[Int(truncatingIfNeeded: lower &>> 32 & 0xFF)] &+= 1
                parts[256 | Int(truncatingIfNeeded: lower &>> 40 & 0xFF)] &+= 1
                parts[512 | Int(truncatingIfNeeded: lower &>> 48 & 0xFF)] &+= 1
                parts[768 | Int(truncatingIfNeeded: lower &>> 56)] &+= 1
                index += 8
            }
            for byte in 0..<256 {
                counts[byte] = parts[byte] &+ parts[256 | byte] &+ parts[512 | byte] &+ parts[768 | byte]
            }
            return (index, highBits)
        }
    }

    /// The answer remembered for regex pattern `id` on this URL, if any. O(1).
    @inline(__always) func knownAnswer(pattern id: Int) -> Bool? {
        let slot = (id & (Self.answerSlots - 1)) &* 2
        return answers[slot] == Int32(truncatingIfNeeded: id &+ 1) ? answers[slot + 1] != 0 : nil
    }

    /// Remembers `answer` for regex pattern `id` (replacing the pattern that shared its slot). O(1).
    @inline(__always) func remember(_ answer: Bool, pattern id: Int) {
        // The table lives in ``with(_:_:)``'s writable temporary storage.
        let table = UnsafeMutablePointer(mutating: answers.baseAddress.unsafelyUnwrapped)
        let slot = (id & (Self.answerSlots - 1)) &* 2
        table[slot] = Int32(truncatingIfNeeded: id &+ 1)
        table[slot + 1] = answer ? 1 : 0
    }

    /// Calls `body` with `url` lower-cased and its bytes counted, in stack storage when small.
    static func with<Result>(_ url: UnsafeBufferPointer<UInt8>, _ body: (LoweredURL) -> Result) -> Result {
        let statistics = url.count >= URLGramTable.minimumLength ? URLGramTable.statisticsCount : 256
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(url.count, 1)) { storage in
            // Apart: 256 counts are the most Swift keeps on the stack (1 KiB).
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: 2 * answerSlots) { answers in
                answers.initialize(repeating: 0)
                return withUnsafeTemporaryAllocation(of: Int32.self, capacity: statistics) { counts in
                    // The counts and the table's state (not built); the table is zeroed when built.
                    counts.baseAddress.unsafelyUnwrapped.initialize(
                        repeating: 0, count: min(statistics, URLGramTable.state + 1))
                    var index = 0
                    var highBits: UInt64 = 0
                    if url.count >= splitCountsFromLength {
                        (index, highBits) = lowercaseAndCountInParts(url, into: storage, counts: counts)
                    }
                    // 8 bytes at a time (``lowercased(word:)``), counted from the stored bytes.
                    while index + 8 <= url.count {
                        let word = url.u64(index)
                        highBits |= word
                        storage.storeU64(lowercased(word: word), at: index)
                        for offset in index..<index + 8 { counts[Int(storage[offset])] &+= 1 }
                        index += 8
                    }
                    for index in index..<url.count {
                        highBits |= UInt64(url[index])
                        let byte = IndexHash.lowercased(url[index])
                        storage[index] = byte
                        counts[Int(byte)] &+= 1
                    }
                    let bytes = UnsafeBufferPointer(rebasing: storage[0..<url.count])
                    let (hostStart, afterFirstLabel) = hostAnchorEnds(bytes)
                    return body(
                        LoweredURL(
                            bytes: bytes, byteCounts: UnsafeBufferPointer(counts),
                            answers: UnsafeBufferPointer(answers),
                            hostStart: hostStart, afterFirstLabel: afterFirstLabel,
                            isASCIIWithoutNUL: counts[0] == 0 && highBits & 0x8080_8080_8080_8080 == 0))
                }
            }
        }
    }
}

extension LoweredURL {
    /// ``IndexHash/lowercased(_:)`` of each of the 8 bytes of `word`: a byte whose low 7 bits are at
    /// least `A` and below `[` and whose high bit is clear gets bit 5 set (adds that cannot carry
    /// into the next byte).
    @inline(__always) static func lowercased(word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let low = word & (ones &* 0x7F)
        let atLeastA = low &+ ones &* (0x80 - 0x41)
        let pastZ = low &+ ones &* (0x80 - 0x5B)
        return word | (atLeastA & ~pastZ & ~word & (ones &* 0x80)) &>> 2
    }

    /// ``hostStart`` and ``afterFirstLabel`` of the lower-cased URL `url`.
    static func hostAnchorEnds(_ url: UnsafeBufferPointer<UInt8>) -> (hostStart: Int, afterFirstLabel: Int) {
        let count = url.count
        var at = 0
        while at < count, isSchemeLetter(url[at]) { at += 1 }
        guard at > 0, at + 3 <= count, url[at] == UInt8(ascii: ":"), url[at + 1] == UInt8(ascii: "/"),
            url[at + 2] == UInt8(ascii: "/")
        else { return (-1, -1) }
        at += 3
        var dot = at
        while dot < count, isLabelByte(url[dot]) { dot += 1 }
        guard dot > at, dot < count, url[dot] == UInt8(ascii: ".") else { return (at, -1) }
        return (at, dot + 1)
    }

    /// `[hpstw]`, in a lower-cased URL.
    @inline(__always) private static func isSchemeLetter(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "h") || byte == UInt8(ascii: "t") || byte == UInt8(ascii: "p") || byte == UInt8(ascii: "s")
            || byte == UInt8(ascii: "w")
    }

    /// `[0-9a-z-]`, in a lower-cased URL.
    @inline(__always) private static func isLabelByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-")
    }
}
