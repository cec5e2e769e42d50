import ContentRuleModel

/// What opening found valid and built: where the sections are, the decoded `redirect` and
/// `modify-headers` actions, and the gram filter of the literal index.
struct ValidatedTables: Sendable {
    var sections: SectionOffsets
    var activeActions: [Int: Action]
    var gramFilter: [UInt64]
}

/// The checks `MappedRuleList.init` runs over every table, so that no stored offset, index or tag
/// can lead a later read outside the file or into an unknown case. O(file size); never traps.
///
/// Each table is checked in one pass of plain loops over the mapped bytes (no per-record
/// allocation); the first bad value throws, with the offset of its record. The checks are
/// ``Phase``s that depend only on the section table and the counts (the first phase), so they can
/// run in file order, each right after the checksum has read its sections (``validate(advancing:)``).
struct Validator {
    let bytes: RawBytes
    let sections: SectionOffsets
    let sourceRuleCount: Int
    let ruleCount: Int
    let slotCount: Int
    let patternCount: Int
    let domainCount: Int
    let conditionCount: Int
    /// Size of STRS, as the bound of `offset + length` of every string reference.
    private let stringsEnd: UInt64
    /// Built by ``Phase/literalIndex``.
    private(set) var gramFilter: [UInt64] = []
    /// Decoded by ``Phase/actions``.
    private(set) var activeActions: [Int: Action] = [:]

    init(bytes: RawBytes, sections: SectionOffsets) {
        self.bytes = bytes
        self.sections = sections
        let meta = sections.meta
        sourceRuleCount = Int(bytes.u32(meta))
        ruleCount = Int(bytes.u32(meta + 4))
        slotCount = Int(bytes.u32(meta + 8))
        patternCount = Int(bytes.u32(meta + 12))
        domainCount = Int(bytes.u32(meta + 16))
        conditionCount = Int(bytes.u32(meta + 28))
        stringsEnd = UInt64(sections.strings.count)
    }

    private func fail(_ offset: Int, _ reason: String) -> BinaryRuleListError {
        .malformed(offset: offset, reason: reason)
    }

    /// A (u32 offset, u32 length) string reference at `offset` lies inside STRS.
    @inline(__always) private func stringInBounds(at offset: Int) -> Bool {
        UInt64(bytes.u32(offset)) + UInt64(bytes.u32(offset &+ 4)) <= stringsEnd
    }

    private func checkString(at offset: Int) throws(BinaryRuleListError) {
        guard stringInBounds(at: offset) else { throw fail(offset, "string out of bounds") }
    }

    /// The largest u32 of `section` (0 when empty): one branch-free pass the compiler vectorizes.
    private func largestWord(_ section: SectionOffsets.Section) -> UInt32 {
        var largest: UInt32 = 0
        for index in 0..<section.count { largest = max(largest, bytes.u32(section.offset &+ index &* 4)) }
        return largest
    }

    /// Every u32 of `section` is below `limit`.
    private func checkList(
        _ section: SectionOffsets.Section, below limit: Int, _ what: String
    ) throws(BinaryRuleListError) {
        let limit = UInt64(limit)
        guard section.count > 0, UInt64(largestWord(section)) >= limit else { return }
        var offset = section.offset
        let end = offset + section.count * 4
        while offset < end {
            let value = bytes.u32(offset)
            guard UInt64(value) < limit else { throw fail(offset, "\(what) \(value)") }
            offset &+= 4
        }
    }

    /// Every u32 of `section` is below `limit`, strictly ascending.
    private func checkAscendingList(
        _ section: SectionOffsets.Section, below limit: Int, _ what: String
    ) throws(BinaryRuleListError) {
        let limit = UInt64(limit)
        var offset = section.offset
        let end = offset + section.count * 4
        var next: UInt64 = 0  // the smallest value allowed next
        while offset < end {
            let value = UInt64(bytes.u32(offset))
            guard value < limit, value >= next else { throw fail(offset, "\(what) \(value)") }
            next = value + 1
            offset &+= 4
        }
    }

    /// The checks, in the order of the sequential validation (format v2's reader): when several fail,
    /// the first in this order is the one reported.
    enum Phase: Int, CaseIterable, Comparable {
        case counts, removedSources, rules, templates, patterns, conditions, domains, domainPostings, domainHash
        case fallbacks, topURLRules, alwaysChecked, universal, literalIndex, actions

        static func < (left: Phase, right: Phase) -> Bool { left.rawValue < right.rawValue }
    }

    /// Runs every phase, each once `checksum` has advanced past the sections it reads (so that they
    /// are read from the cache, not from memory a second time), and returns the error of the first
    /// failing phase in ``Phase`` order: the same error as running them one after the other. A phase
    /// after a failed one in that order is skipped; nothing runs when the counts are wrong.
    mutating func validate(advancing checksum: inout Checksum.Stream) -> BinaryRuleListError? {
        let order = Phase.allCases.map { (ready: readyOffset($0), phase: $0) }.sorted {
            $0.ready < $1.ready || ($0.ready == $1.ready && $0.phase < $1.phase)
        }
        var failure: (phase: Phase, error: BinaryRuleListError)?
        for (ready, phase) in order {
            checksum.advance(to: ready)
            if let failure, failure.phase < phase { continue }
            do {
                try run(phase)
            } catch {
                failure = (phase, error)
                if phase == .counts { break }
            }
        }
        return failure?.error
    }

    /// Where the last section `phase` reads ends (0 for the counts, which every other phase relies on).
    private func readyOffset(_ phase: Phase) -> Int {
        func end(_ section: SectionOffsets.Section, _ tag: Layout.Tag) -> Int {
            section.offset + section.count * tag.elementSize
        }
        switch phase {
        case .counts: return 0
        case .removedSources: return end(sections.removedSources, .removedSources)
        case .rules: return end(sections.rules, .rules)
        case .templates: return end(sections.templates, .templates)
        case .patterns: return end(sections.patterns, .patterns)
        case .conditions:
            return max(end(sections.conditions, .conditions), end(sections.conditionEntries, .conditionEntries))
        case .domains: return end(sections.domains, .domains)
        case .domainPostings: return end(sections.domainPostings, .domainPostings)
        case .domainHash: return end(sections.domainHash, .domainHash)
        case .fallbacks: return end(sections.domainFallbacks, .domainFallbacks)
        case .topURLRules: return end(sections.topURLRules, .topURLRules)
        case .alwaysChecked: return end(sections.alwaysChecked, .alwaysChecked)
        case .universal: return end(sections.universal, .universal)
        case .literalIndex:
            return max(end(sections.literalHash, .literalHash), end(sections.literalPostings, .literalPostings))
        case .actions: return max(end(sections.actions, .actions), end(sections.actionPayloads, .actionPayloads))
        }
    }

    private mutating func run(_ phase: Phase) throws(BinaryRuleListError) {
        switch phase {
        case .counts:
            let meta = sections.meta
            guard sections.rules.count == ruleCount, sections.actions.count == slotCount,
                sections.patterns.count == patternCount, sections.domains.count == domainCount,
                sections.conditions.count == conditionCount, ruleCount <= sourceRuleCount,
                sections.removedSources.count == sourceRuleCount - ruleCount
            else { throw fail(meta, "counts do not match the sections") }
            if bytes.u32(meta + 20) != Layout.none { try checkString(at: meta + 20) }
        case .removedSources:
            try checkAscendingList(sections.removedSources, below: sourceRuleCount, "removed source index")
        case .rules: try checkRules()
        case .templates:
            for template in 0..<sections.templates.count {
                try checkString(at: sections.templates.offset + template * 8)
            }
        case .patterns: try checkPatterns()
        case .conditions: try checkConditions()
        case .domains: try checkDomains()
        case .domainPostings: try checkList(sections.domainPostings, below: ruleCount, "domain posting")
        case .domainHash: try checkHashTable(sections.domainHash, below: domainCount, "domain hash slot")
        case .fallbacks:
            var offset = sections.domainFallbacks.offset
            for _ in 0..<sections.domainFallbacks.count {
                guard Int(bytes.u32(offset)) < ruleCount, Int(bytes.u32(offset &+ 4)) < domainCount else {
                    throw fail(offset, "domain fallback out of range")
                }
                offset &+= 8
            }
        case .topURLRules: try checkAscendingList(sections.topURLRules, below: ruleCount, "top-URL rule")
        case .alwaysChecked: try checkAscendingList(sections.alwaysChecked, below: ruleCount, "always-checked rule")
        case .universal: try checkAscendingList(sections.universal, below: ruleCount, "universal rule")
        case .literalIndex: gramFilter = try checkLiteralIndex()
        case .actions: activeActions = try checkActions()
        }
    }

    /// RULE: pattern, condition (or none), action slot in range; resource types, method and entry known.
    private func checkRules() throws(BinaryRuleListError) {
        let patterns = UInt32(truncatingIfNeeded: patternCount)
        let conditions = UInt32(truncatingIfNeeded: conditionCount)
        let slots = UInt32(truncatingIfNeeded: slotCount)
        let unknownTypes = ~ResourceType.all.rawValue
        let methods = UInt8(RequestMethod.allCases.count)
        let entries = Layout.Entry.universal.rawValue
        // First pass: the largest value of each field (branch-free reductions the compiler vectorizes);
        // only when one is out of range does the checking loop below look for the record.
        var largest = (pattern: UInt32(0), condition: UInt32(0), slot: UInt32(0), method: UInt32(0), entry: UInt32(0))
        var typeBits: UInt32 = 0
        for rule in 0..<ruleCount {
            let offset = sections.rules.offset &+ rule &* 16
            let packed = bytes.u32(offset &+ 12)
            largest.pattern = max(largest.pattern, bytes.u32(offset))
            largest.condition = max(largest.condition, bytes.u32(offset &+ 4) &+ 1)  // "none" wraps to 0
            largest.slot = max(largest.slot, bytes.u32(offset &+ 8))
            largest.method = max(largest.method, packed >> 20 & 0xF)
            largest.entry = max(largest.entry, packed >> 24)
            typeBits |= packed & 0xFFFF
        }
        let inRange =
            largest.pattern < patterns && largest.condition <= conditions && largest.slot < slots
            && typeBits & UInt32(unknownTypes) == 0 && largest.method <= UInt32(methods)
            && largest.entry <= UInt32(entries)
        if ruleCount == 0 || inRange { return }
        var offset = sections.rules.offset
        for rule in 0..<ruleCount {
            // Two loads per record; offsets inside the section cannot overflow (`&+`).
            let low = bytes.u64(offset)
            let high = bytes.u64(offset &+ 8)
            let pattern = UInt32(truncatingIfNeeded: low)
            let condition = UInt32(truncatingIfNeeded: low >> 32)  // + 1 wraps "none" (0xFFFFFFFF) to 0
            let slot = UInt32(truncatingIfNeeded: high)
            let types = UInt16(truncatingIfNeeded: high >> 32)
            let method = UInt8(truncatingIfNeeded: high >> 52) & 0xF  // the high nibble of byte 14
            let entry = UInt8(truncatingIfNeeded: high >> 56)
            guard pattern < patterns, condition &+ 1 <= conditions, slot < slots, types & unknownTypes == 0,
                method <= methods, entry <= entries
            else { throw fail(offset, "rule \(rule) has an out-of-range field") }
            offset &+= 16
        }
    }

    /// PATS: text, required literal and templates in range; kind and flags known.
    private func checkPatterns() throws(BinaryRuleListError) {
        let templates = UInt16(clamping: sections.templates.count)
        let kinds = Layout.PatternKind.regex.rawValue
        var offset = sections.patterns.offset
        for pattern in 0..<patternCount {
            try checkString(at: offset)
            // A template id + 1 wraps "none" (0xFFFF) to 0. With 0xFFFF or more templates every id is valid.
            guard UInt64(bytes.u32(offset &+ 8)) + UInt64(bytes.u16(offset &+ 12)) <= stringsEnd,
                bytes.u8(offset &+ 14) <= kinds, bytes.u8(offset &+ 15) <= 7,
                bytes.u16(offset &+ 16) &+ 1 <= templates || templates == 0xFFFF,
                bytes.u16(offset &+ 18) &+ 1 <= templates || templates == 0xFFFF
            else { throw fail(offset, "pattern \(pattern) has an out-of-range field") }
            offset &+= 20
        }
    }

    /// COND: kind known, entries inside CENT and each below the domain or pattern count.
    private func checkConditions() throws(BinaryRuleListError) {
        let kinds = Layout.conditionKinds
        var domainKinds: UInt32 = 0
        for (index, kind) in kinds.enumerated() where kind.isDomain { domainKinds |= 1 << UInt32(index + 1) }
        let entryCount = UInt64(sections.conditionEntries.count)
        let entriesBase = sections.conditionEntries.offset
        // When every entry is below both counts (as in every file the writer makes), each condition
        // needs only its range checked; otherwise each entry is checked against its condition's kind.
        let entriesChecked = UInt64(largestWord(sections.conditionEntries)) < UInt64(min(domainCount, patternCount))
        var offset = sections.conditions.offset
        for condition in 0..<conditionCount {
            let kind = bytes.u8(offset)
            let start = UInt64(bytes.u32(offset &+ 4))
            let count = UInt64(bytes.u32(offset &+ 8))
            guard kind >= 1, Int(kind) <= kinds.count, start + count <= entryCount else {
                throw fail(offset, "condition \(condition) is out of range")
            }
            offset &+= 12
            if entriesChecked { continue }
            let limit = UInt32(truncatingIfNeeded: domainKinds >> UInt32(kind) & 1 != 0 ? domainCount : patternCount)
            var entry = entriesBase &+ Int(start) &* 4
            let end = entry &+ Int(count) &* 4
            while entry < end {
                guard bytes.u32(entry) < limit else { throw fail(entry, "condition entry out of range") }
                entry &+= 4
            }
        }
    }

    /// DOMS: text and postings in range, flags known.
    private func checkDomains() throws(BinaryRuleListError) {
        let postings = UInt64(sections.domainPostings.count)
        var offset = sections.domains.offset
        for domain in 0..<domainCount {
            let packed = bytes.u32(offset &+ 4)
            guard UInt64(bytes.u32(offset)) + UInt64(packed & 0xFF_FFFF) <= stringsEnd, packed >> 24 <= 7,
                UInt64(bytes.u32(offset &+ 8)) + UInt64(bytes.u32(offset &+ 12)) <= postings
            else { throw fail(offset, "domain \(domain) is out of range") }
            offset &+= 16
        }
    }

    /// A hash table of u32 values: its size is a power of two with at least one empty slot (so
    /// probing ends), and its values are in range.
    private func checkHashTable(
        _ section: SectionOffsets.Section, below limit: Int, _ what: String
    ) throws(BinaryRuleListError) {
        guard section.count & (section.count - 1) == 0 else {
            throw fail(section.offset, "\(what): table size is not a power of two")
        }
        // value + 1 wraps an empty slot (0xFFFFFFFF) to 0: every slot is empty or in range when the
        // largest value + 1 is at most `limit`, and some slot is empty when the smallest is 0. Branch-free,
        // as slots are empty or not at random.
        let limit = UInt64(limit)
        var largest: UInt32 = 0
        var smallest = UInt32.max
        for index in 0..<section.count {
            let value = bytes.u32(section.offset &+ index &* 4) &+ 1
            largest = max(largest, value)
            smallest = min(smallest, value)
        }
        if UInt64(largest) > limit {
            for index in 0..<section.count {
                let offset = section.offset &+ index &* 4
                let value = bytes.u32(offset)
                if value != Layout.none, UInt64(value) >= limit { throw fail(offset, "\(what) \(value)") }
            }
        }
        guard section.count == 0 || smallest == 0 else {
            throw fail(section.offset, "\(what): table has no empty slot")
        }
    }

    /// LGRM and LPST: a power-of-two table with an empty slot; each gram's postings inside LPST and
    /// below the rule count. Builds the gram filter on the way.
    private func checkLiteralIndex() throws(BinaryRuleListError) -> [UInt64] {
        let table = sections.literalHash
        let postings = sections.literalPostings
        guard table.count & (table.count - 1) == 0 else {
            throw fail(table.offset, "literal index size is not a power of two")
        }
        var filter = [UInt64](repeating: 0, count: IndexHash.gramFilterWords)
        let rules = UInt32(truncatingIfNeeded: ruleCount)
        // When every word of LPST (counts and rule numbers) is below the rule count, as in every
        // file the writer makes, only each slot's range needs checking. That pass also brings LPST
        // into the cache for the slots' reads, which are in hash order.
        if postings.count > 0, largestWord(postings) < rules {
            // Branch-free, as slots are empty (gram 0) or not at random: the count is read at a
            // clamped index for every slot, and a bad slot only sets `outOfRange` (found again below).
            var smallestGram = UInt32.max
            var outOfRange: UInt8 = 0
            for slot in 0..<table.count {
                let offset = table.offset &+ slot &* 8
                let gram = bytes.u32(offset)
                let start = Int(bytes.u32(offset &+ 4))
                let occupied: UInt8 = gram != 0 ? 1 : 0
                smallestGram = min(smallestGram, gram)
                let count = Int(bytes.u32(postings.offset &+ (start < postings.count ? start : 0) &* 4))
                outOfRange |= occupied & (start < postings.count ? 0 : 1)
                outOfRange |= occupied & (count <= postings.count &- start &- 1 ? 0 : 1)
                let bit = IndexHash.gramFilterBit(gram)
                filter[bit >> 6] |= UInt64(occupied) << UInt64(bit & 63)
            }
            if outOfRange != 0 {
                for slot in 0..<table.count {
                    let offset = table.offset &+ slot &* 8
                    guard bytes.u32(offset) != 0 else { continue }
                    let start = Int(bytes.u32(offset &+ 4))
                    guard start < postings.count,
                        Int(bytes.u32(postings.offset &+ start &* 4)) <= postings.count &- start &- 1
                    else { throw fail(offset, "literal postings out of range") }
                }
            }
            guard table.count == 0 || smallestGram == 0 else {
                throw fail(table.offset, "literal index has no empty slot")
            }
            return filter
        }
        var empty = table.count == 0
        var offset = table.offset
        let end = offset + table.count * 8
        while offset < end {
            defer { offset &+= 8 }
            let gram = bytes.u32(offset)
            guard gram != 0 else {
                empty = true
                continue
            }
            let start = Int(bytes.u32(offset &+ 4))
            guard start < postings.count else { throw fail(offset, "literal postings out of range") }
            let count = Int(bytes.u32(postings.offset &+ start &* 4))
            guard count <= postings.count &- start &- 1 else { throw fail(offset, "literal postings out of range") }
            var entry = postings.offset &+ (start &+ 1) &* 4
            let entriesEnd = entry &+ count &* 4
            while entry < entriesEnd {
                guard bytes.u32(entry) < rules else { throw fail(entry, "literal posting out of range") }
                entry &+= 4
            }
            let bit = IndexHash.gramFilterBit(gram)
            filter[bit >> 6] |= 1 << UInt64(bit & 63)
        }
        guard empty else { throw fail(table.offset, "literal index has no empty slot") }
        return filter
    }

    /// ACTN: type known; selector and notification strings in range; `redirect` and
    /// `modify-headers` payloads decoded in full (they are the only actions kept decoded).
    private func checkActions() throws(BinaryRuleListError) -> [Int: Action] {
        let types = UInt8(Layout.actionTypes.count)
        let selector = Layout.actionTypeCode(.cssDisplayNone)
        let notification = Layout.actionTypeCode(.notify)
        let redirect = Layout.actionTypeCode(.redirect)
        let modifyHeaders = Layout.actionTypeCode(.modifyHeaders)
        // Branch-free first pass, as action types come mixed: every type known, every string in range,
        // no payload to decode. Otherwise (or to find the bad slot) the checking loop below.
        var simple: UInt8 = 1
        for slot in 0..<slotCount {
            let offset = sections.actions.offset &+ slot &* 12
            let code = bytes.u8(offset)
            let inBounds: UInt8 = stringInBounds(at: offset &+ 4) ? 1 : 0  // read for every slot: branch-free
            let isString: UInt8 = code == selector || code == notification ? 1 : 0
            simple &= code < types ? 1 : 0
            simple &= code == redirect || code == modifyHeaders ? 0 : 1
            simple &= inBounds | (isString ^ 1)
        }
        if simple == 1 { return [:] }
        var active: [Int: Action] = [:]
        var payloads: [UInt8] = []
        var offset = sections.actions.offset
        for slot in 0..<slotCount {
            defer { offset &+= 12 }
            let code = bytes.u8(offset)
            guard code < types else { throw fail(offset, "unknown action type \(code)") }
            if code == selector || code == notification {
                try checkString(at: offset &+ 4)
            } else if code == redirect || code == modifyHeaders {
                if active.isEmpty {
                    payloads = bytes.array(sections.actionPayloads.offset, sections.actionPayloads.count)
                }
                let start = Int(bytes.u32(offset + 4))
                let length = Int(bytes.u32(offset + 8))
                guard start <= payloads.count, length <= payloads.count - start else {
                    throw fail(offset, "action payload out of range")
                }
                var reader = ByteReader(payloads, from: start, to: start + length)
                let action = try reader.decodeAction()
                guard reader.remaining == 0, action.type == Layout.actionTypes[Int(code)] else {
                    throw fail(offset, "action payload does not match its type")
                }
                active[slot] = action
            }
        }
        return active
    }
}
