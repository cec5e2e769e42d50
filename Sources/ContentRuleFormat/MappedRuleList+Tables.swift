public import ContentRuleModel

/// One rule as stored (RULE section).
public struct RuleRecord: Sendable {
    public var pattern: Int
    /// Index of the rule's condition, or `nil`.
    public var condition: Int?
    public var actionSlot: UInt32
    /// Raw bits as in the rule (0 means every resource type; likewise for load types and contexts).
    public var resourceTypes: UInt16
    public var loadTypes: UInt8
    public var loadContexts: UInt8
    /// 0: none, else `RequestMethod.allCases[method - 1]`.
    public var method: UInt8
    /// How the fast matcher reaches the rule: 0 literal index, 1 domain postings, 2 always, 3 universal.
    public var entry: UInt8

    // RULE record (``RuleLayout``): u16 resource types | entry << 14, u8 load types | load contexts << 2 |
    // method << 4, then pattern, condition + 1 (0 = none) and action slot, bit-packed.
    @inlinable init(_ bytes: RawBytes, _ offset: Int, _ layout: RuleLayout) {
        let low = bytes.u64(offset)
        let condition: Int
        if layout.size == 9 {
            // u16 pattern, condition + 1, slot: bits 24–39, 40–55, 56–71 (the slot's high byte is byte 8).
            pattern = Int(truncatingIfNeeded: low >> 24 & 0xFFFF)
            condition = Int(truncatingIfNeeded: low >> 40 & 0xFFFF)
            actionSlot = UInt32(truncatingIfNeeded: bytes.u64(offset + 1) >> 48)
        } else {
            // u24 pattern, condition + 1, slot: bits 24–47, 48–71, 72–95.
            let high = bytes.u32(offset + 8)
            pattern = Int(truncatingIfNeeded: low >> 24 & 0xFF_FFFF)
            condition = Int(truncatingIfNeeded: low >> 48) | Int(high & 0xFF) << 16
            actionSlot = high >> 8
        }
        self.condition = condition == 0 ? nil : condition - 1
        resourceTypes = UInt16(truncatingIfNeeded: low) & 0x3FFF
        entry = UInt8(truncatingIfNeeded: low >> 14) & 3
        let packed = UInt8(truncatingIfNeeded: low >> 16)
        loadTypes = packed & 3
        loadContexts = (packed >> 2) & 3
        method = packed >> 4
    }
}

/// How a stored pattern is matched.
public enum StoredPatternKind: UInt8, Sendable {
    /// Matches every URL.
    case everything = 0
    /// A plain string (lower-cased unless case-sensitive), maybe anchored.
    case literal = 1
    /// PCRE2 text.
    case regex = 2
}

/// One pattern as stored (PATS section). The buffers point into the mapped file: valid while the
/// ``MappedRuleList`` lives.
public struct PatternRecord {
    public var kind: StoredPatternKind
    public var caseSensitive: Bool
    public var anchoredAtStart: Bool
    public var anchoredAtEnd: Bool
    /// Literal text, or the PCRE2 text between its prefix and suffix templates (symbol-coded for some
    /// regex patterns; with each `\\.` spelled `.` when ``dotsUnescaped``; ``MappedRuleList/regexSource(_:)``
    /// gives the PCRE2 text).
    public var text: UnsafeBufferPointer<UInt8>
    /// ``text`` spells each `\\.` of the PCRE2 text as `.` (it has no other `\\` and no bare `.`).
    public var dotsUnescaped: Bool
    /// ``text`` is coded with the PCRE2 ``SymbolTable`` (regex patterns only; read by
    /// ``MappedRuleList/regexSource(_:)``).
    @usableFromInline var coded: Bool
    /// The PATS word holding the prefix and suffix template ids (read by ``MappedRuleList/regexSource(_:)``
    /// only: the matcher's prefilter path never needs the templates).
    @usableFromInline var templates: UInt32
    /// A lower-cased literal every matching URL contains (empty when none).
    public var required: UnsafeBufferPointer<UInt8>
    /// A PCRE2 pattern that, for a URL to match, needs ``required`` just after the URL's `://` (the
    /// scheme all of the letters `hpstw`) or just after the first label there and its dot: it begins
    /// with the host anchor `^[htpsw]+://([a-z0-9-]+\.)?` and then spells ``required``.
    public var hostAnchored: Bool

    @usableFromInline init(
        kind: StoredPatternKind, caseSensitive: Bool, anchoredAtStart: Bool, anchoredAtEnd: Bool,
        dotsUnescaped: Bool, coded: Bool, text: UnsafeBufferPointer<UInt8>, templates: UInt32,
        required: UnsafeBufferPointer<UInt8>, hostAnchored: Bool
    ) {
        self.hostAnchored = hostAnchored
        self.coded = coded
        self.templates = templates
        self.kind = kind
        self.caseSensitive = caseSensitive
        self.anchoredAtStart = anchoredAtStart
        self.anchoredAtEnd = anchoredAtEnd
        self.dotsUnescaped = dotsUnescaped
        self.text = text
        self.required = required
    }
}

/// One condition as stored (COND section).
public struct ConditionRecord: Sendable {
    public var kind: TriggerCondition.Kind
    /// Range in the condition entries: domain ids for domain kinds, pattern ids otherwise.
    public var entries: Range<Int>
}

/// One domain entry (DOMS section).
public struct DomainRecord {
    /// The domain without `*` when ``indexed``, else the entry's PCRE2 text.
    public var text: UnsafeBufferPointer<UInt8>
    public var subdomains: Bool
    public var caseSensitive: Bool
    /// Held by the domain hash table (letters, digits, `.`, `-`, `_`).
    public var indexed: Bool
    /// Rules whose condition lists this entry, ascending.
    public var postings: Range<Int>

    @usableFromInline init(
        text: UnsafeBufferPointer<UInt8>, subdomains: Bool, caseSensitive: Bool, indexed: Bool, postings: Range<Int>
    ) {
        self.text = text
        self.subdomains = subdomains
        self.caseSensitive = caseSensitive
        self.indexed = indexed
        self.postings = postings
    }
}

extension MappedRuleList {
    /// Reads the RULE records of `candidates` (`rule << 32 | …`), then the PATS record and the first byte
    /// of the required literal of each one's pattern, and returns a value made of the bytes read: a pass
    /// of independent loads, so that the cache misses of many candidates overlap instead of each
    /// stalling the matcher in turn (a long URL has hundreds of candidates spread over the file).
    public func touchRecords(of candidates: ArraySlice<UInt64>) -> UInt64 {
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

    @inlinable public func rule(_ number: Int) -> RuleRecord {
        RuleRecord(bytes, sections.rules.offset + number * sections.ruleLayout.size, sections.ruleLayout)
    }

    /// Where pattern `id`'s PATS record is in the file.
    @inlinable @inline(__always) func patternRecord(_ id: Int) -> Int {
        sections.patterns.offset + id * 16
    }

    // PATS record (16 bytes): u32 text offset, u32 text length | kind << 24 | flags << 26, u32 required
    // offset, u32 required length (8 bits) | prefix template << 8 | suffix template << 20 (12 bits, 0xFFF none).
    @inlinable @inline(__always) public func pattern(_ id: Int) -> PatternRecord {
        let offset = patternRecord(id)
        let strings = sections.strings.offset
        let packed = bytes.u32(offset + 4)
        let flags = packed >> 26
        let required = bytes.u32(offset + 12)
        return PatternRecord(
            kind: StoredPatternKind(rawValue: UInt8(truncatingIfNeeded: packed >> 24) & 3) ?? .regex,
            caseSensitive: flags & 1 != 0, anchoredAtStart: flags & 2 != 0, anchoredAtEnd: flags & 4 != 0,
            dotsUnescaped: flags & 8 != 0, coded: flags & 16 != 0,
            text: bytes.buffer(strings + Int(bytes.u32(offset)), Int(packed & 0xFF_FFFF)),
            templates: required,
            required: bytes.buffer(strings + Int(bytes.u32(offset + 8)), Int(required & 0xFF)),
            hostAnchored: flags & 32 != 0)
    }

    @inlinable func template(_ id: UInt32) -> UnsafeBufferPointer<UInt8> {
        guard id != 0xFFF else { return UnsafeBufferPointer(start: nil, count: 0) }
        return string(at: sections.templates.offset + Int(id) * 8)
    }

    /// The full PCRE2 text of a regex pattern: prefix template, own text (its `\\.` restored), suffix template.
    public func regexSource(_ id: Int) -> String {
        let pattern = pattern(id)
        let prefix = template(pattern.templates >> 8 & 0xFFF)
        let suffix = template(pattern.templates >> 20)
        // A coded text: with the second table of SYMB (``SymbolTable``).
        let text =
            pattern.coded
            ? bytes.symbolDecodedBytes(
                sections.strings.offset + Int(bytes.u32(sections.patterns.offset + id * 16)), pattern.text.count,
                table: sections.selectorSymbols.offset + SymbolTable.byteCount)
            : Array(pattern.text)
        var source = Array(prefix)
        source.reserveCapacity(prefix.count + text.count * 2 + suffix.count)
        if pattern.dotsUnescaped {
            for byte in text {
                if byte == UInt8(ascii: ".") { source.append(UInt8(ascii: "\\")) }
                source.append(byte)
            }
        } else {
            source += text
        }
        source += suffix
        return String(decoding: source, as: UTF8.self)
    }

    /// A (u32 offset, u32 length) reference into STRS at `offset`.
    @inlinable func string(at offset: Int) -> UnsafeBufferPointer<UInt8> {
        bytes.buffer(sections.strings.offset + Int(bytes.u32(offset)), Int(bytes.u32(offset + 4)))
    }

    // COND record (4 bytes): u32 first entry | kind << 29; the entries end where the next condition's begin.
    public func condition(_ id: Int) -> ConditionRecord { Self.conditionRecord(bytes, sections, id) }

    /// COND record `id` (its kind and first entries checked by the validator before it is read).
    @inline(__always) static func conditionRecord(_ bytes: RawBytes, _ sections: SectionOffsets, _ id: Int)
        -> ConditionRecord
    {
        let offset = sections.conditions.offset + id * 4
        let word = bytes.u32(offset)
        let start = Int(word & Layout.conditionFirstMask)
        let end =
            id + 1 < sections.conditions.count
            ? Int(bytes.u32(offset + 4) & Layout.conditionFirstMask) : sections.conditionEntries.count
        return ConditionRecord(kind: Layout.conditionKind(code: word >> 29), entries: start..<end)
    }

    @inlinable public func conditionEntry(_ index: Int) -> Int {
        Int(bytes.u24(sections.conditionEntries.offset + index * 3))
    }

    // DOMS record (``DomainLayout``): end of its text in STRS, end of its postings in DPST | flags << 21 or 29;
    // both begin where the previous entry's end (entry 0's at 0).
    @inlinable public func domain(_ id: Int) -> DomainRecord {
        let layout = sections.domainLayout
        let offset = sections.domains.offset + id * layout.size
        let end = layout.ends(bytes, offset)
        let start = id == 0 ? (text: 0, packed: 0) : layout.ends(bytes, offset - layout.size)
        let mask: UInt32 = (1 << layout.flagShift) - 1
        let flags = end.packed >> layout.flagShift
        return DomainRecord(
            text: bytes.buffer(sections.strings.offset + Int(start.text), Int(end.text) - Int(start.text)),
            subdomains: flags & 1 != 0, caseSensitive: flags & 2 != 0,
            indexed: flags & 4 != 0, postings: Int(start.packed & mask)..<Int(end.packed & mask))
    }

    @inlinable public func domainPosting(_ index: Int) -> Int32 {
        Int32(bitPattern: bytes.u24(sections.domainPostings.offset + index * 3))
    }

    /// Number of slots of the domain hash table (a power of two, or 0).
    @inlinable public var domainHashCapacity: Int { sections.domainHash.count }
    /// The domain id in a slot of the domain hash table, or `nil` for an empty slot.
    @inlinable public func domainHashSlot(_ slot: Int) -> Int? {
        let value = bytes.u24(sections.domainHash.offset + slot * 3)
        return value == 0xFF_FFFF ? nil : Int(value)
    }

    /// (rule, domain id) pairs of domain entries the hash table does not hold, by rule.
    public var domainFallbacks: [(rule: Int32, domain: Int)] {
        (0..<sections.domainFallbacks.count).map {
            let offset = sections.domainFallbacks.offset + $0 * 8
            return (Int32(bitPattern: bytes.u32(offset)), Int(bytes.u32(offset + 4)))
        }
    }

    /// Rules with an `if-top-url` / `unless-top-url` condition, ascending.
    public var topURLRules: [Int32] { list(sections.topURLRules) }
    /// Rules the fast matcher checks on every request, ascending.
    public var alwaysCheckedRules: [Int32] { list(sections.alwaysChecked) }
    /// Universal rules without a condition or with an `unless-*` top-URL condition, ascending.
    public var universalRules: [Int32] { list(sections.universal) }

    func list(_ section: SectionOffsets.Section) -> [Int32] {
        (0..<section.count).map { Int32(bitPattern: bytes.u32(section.offset + $0 * 4)) }
    }

    /// Number of slots of the literal index (a power of two, or 0).
    @inlinable public var literalHashCapacity: Int { sections.literalHash.count }
    /// The gram in a slot of the literal index (0 = empty).
    @inlinable public func literalGram(_ slot: Int) -> UInt32 { bytes.u32(sections.literalHash.offset + slot * 8) }

    /// The type of the action in `slot`.
    // ACTN record (4 bytes): u32 end of the slot's bytes in APAY | type << 28; they begin where the previous
    // slot's end (slot 0's at 0).
    public func actionType(_ slot: Int) -> ActionType {
        Layout.actionType(code: bytes.u32(sections.actions.offset + slot * 4) >> Layout.actionTypeShift)
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
    public func collectLiteralCandidates(_ url: UnsafeBufferPointer<UInt8>, into candidates: inout [UInt64]) -> UInt64 {
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
                    if value & Layout.inlinePosting != 0 {
                        // The gram's only rule (and its neighbour code), in its slot.
                        candidates.append(UInt64(value & ~Layout.inlinePosting) << 32 | position)
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

    /// The action in `slot`, decoded from the file.
    public func action(_ slot: Int) -> Action {
        let offset = sections.actions.offset + slot * 4
        let end = Int(bytes.u32(offset) & Layout.actionEndMask)
        let start = slot == 0 ? 0 : Int(bytes.u32(offset - 4) & Layout.actionEndMask)
        switch actionType(slot) {
        case .block: return .block
        case .blockCookies: return .blockCookies
        case .ignorePreviousRules: return .ignorePreviousRules
        case .ignoreFollowingRules: return .ignoreFollowingRules
        case .makeHTTPS: return .makeHTTPS
        case .cssDisplayNone:
            return .cssDisplayNone(selector: selector(at: sections.actionPayloads.offset + start, codes: end - start))
        case .notify:
            let text = bytes.buffer(sections.actionPayloads.offset + start, end - start)
            return .notify(notification: String(decoding: text, as: UTF8.self))
        case .redirect, .modifyHeaders: return activeActions[slot] ?? .block
        }
    }

    /// A css-display-none selector from its codes (``SymbolTable``): a symbol's bytes per code below
    /// the symbol count, else (an escape) the next byte; an escape at the end adds nothing.
    func selector(at offset: Int, codes: Int) -> String {
        bytes.symbolDecoded(offset, codes, table: sections.selectorSymbols.offset)
    }

    /// The index of `rule` in the source JSON array.
    /// - Complexity: O(log n) in the number of rules that went to the global stylesheet.
    public func sourceIndex(ofRule rule: Int) -> UInt32 {
        // removed[i] - i is non-decreasing: the number of removed sources before rule `r` is the
        // number of i with removed[i] - i <= r.
        var low = 0
        var high = sections.removedSources.count
        while low < high {
            let middle = (low + high) / 2
            let value = Int(bytes.u32(sections.removedSources.offset + middle * 4)) - middle
            if value <= rule { low = middle + 1 } else { high = middle }
        }
        return UInt32(rule + low)
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
