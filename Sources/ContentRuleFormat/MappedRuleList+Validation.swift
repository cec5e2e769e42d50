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
    let stringsEnd: UInt64
    /// Built by ``Phase/literalIndex``.
    private(set) var gramFilter: [UInt64] = []
    /// Computed by the first of ``Phase/literalIndex`` and ``Phase/hostIndex`` to run.
    private var lpstBelowRuleCount: Bool?
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

    func fail(_ offset: Int, _ reason: String) -> BinaryRuleListError {
        .malformed(offset: offset, reason: reason)
    }

    /// A (u32 offset, u32 length) string reference at `offset` lies inside STRS.
    @inline(__always) private func stringInBounds(at offset: Int) -> Bool {
        UInt64(bytes.u32(offset)) + UInt64(bytes.u32(offset &+ 4)) <= stringsEnd
    }

    private func checkString(at offset: Int) throws(BinaryRuleListError) {
        guard stringInBounds(at: offset) else { throw fail(offset, "string out of bounds") }
    }

    /// The largest u32 of `section`, each masked with `mask` (0 when empty): one branch-free pass the
    /// compiler vectorizes.
    private func largestWord(_ section: SectionOffsets.Section, mask: UInt32 = .max) -> UInt32 {
        var largest: UInt32 = 0
        for index in 0..<section.count { largest = max(largest, bytes.u32(section.offset &+ index &* 4) & mask) }
        return largest
    }

    /// The largest u24 of `section` (0 when empty): one branch-free pass.
    private func largestU24(_ section: SectionOffsets.Section) -> UInt32 {
        guard section.count > 0 else { return 0 }
        var largest = bytes.u24(section.offset &+ (section.count - 1) &* 3)
        // Every u24 but the last as a masked u32 load (one load; the byte after it is in the section).
        for index in 0..<(section.count - 1) {
            largest = max(largest, bytes.u32(section.offset &+ index &* 3) & 0xFF_FFFF)
        }
        return largest
    }

    /// Every u24 of `section` is below `limit`.
    private func checkList(
        _ section: SectionOffsets.Section, below limit: Int, _ what: String
    ) throws(BinaryRuleListError) {
        let limit = UInt64(limit)
        guard section.count > 0, UInt64(largestU24(section)) >= limit else { return }
        var offset = section.offset
        let end = offset + section.count * 3
        while offset < end {
            let value = bytes.u24(offset)
            guard UInt64(value) < limit else { throw fail(offset, "\(what) \(value)") }
            offset &+= 3
        }
    }

    /// Every u32 of `section` is below `limit`, strictly ascending.
    func checkAscendingList(
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

    /// The checks, in the order of the sequential validation: when several fail,
    /// the first in this order is the one reported.
    enum Phase: Int, CaseIterable, Comparable {
        case counts, removedSources, rules, templates, patterns, conditions, domains, domainPostings, domainHash
        case fallbacks, topURLRules, alwaysChecked, universal, literalIndex, hostIndex, actions, selectorSymbols
        case searchPlans, domainRepeats

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
        case .hostIndex:
            return max(end(sections.hostHash, .hostHash), end(sections.literalPostings, .literalPostings))
        case .actions: return max(end(sections.actions, .actions), end(sections.actionPayloads, .actionPayloads))
        case .selectorSymbols: return end(sections.selectorSymbols, .selectorSymbols)
        case .searchPlans: return end(sections.searchPlans, .searchPlans)
        case .domainRepeats: return end(sections.domainRepeats, .domainRepeats)
        }
    }

    private mutating func run(_ phase: Phase) throws(BinaryRuleListError) {
        switch phase {
        case .counts:
            let meta = sections.meta
            let counts = [ruleCount, slotCount, patternCount, conditionCount, domainCount]
            guard counts.allSatisfy({ $0 <= Layout.maximumCount }),
                sections.rules.count == ruleCount * sections.ruleLayout.size, sections.actions.count == slotCount,
                sections.patterns.count == patternCount, sections.searchPlans.count == patternCount,
                sections.domains.count * Layout.Tag.domains.elementSize == domainCount * sections.domainLayout.size,
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
        case .searchPlans: try checkSearchPlans()
        case .domainRepeats:
            try checkAscendingList(sections.domainRepeats, below: domainCount, "repeating domain entry")
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
        case .hostIndex: try checkHostIndex()
        case .actions: activeActions = try checkActions()
        case .selectorSymbols:
            // Two tables of 255 u8 lengths (1...8), then 8 bytes per symbol; coded texts need no check (255 is
            // an escape, and decoding stops at the text's end).
            let table = sections.selectorSymbols
            guard table.count == 2 * SymbolTable.byteCount else { throw fail(table.offset, "symbol table size") }
            for lengths in [table.offset, table.offset + SymbolTable.byteCount] {
                for offset in lengths..<(lengths + SymbolTable.maximumCount) {
                    let length = bytes.u8(offset)
                    guard length >= 1, Int(length) <= SymbolTable.maximumLength else {
                        throw fail(offset, "symbol length \(length)")
                    }
                }
            }
        }
    }

    /// RULE: pattern, condition (or none), action slot in range; method known (the resource types,
    /// load bits and entry fill their bit fields, so every value is known).
    private func checkRules() throws(BinaryRuleListError) {
        let patterns = UInt64(patternCount)
        let conditions = UInt64(conditionCount)
        let slots = UInt64(slotCount)
        let methods = UInt64(RequestMethod.allCases.count)
        let layout = sections.ruleLayout
        typealias Fields = (pattern: UInt64, condition: UInt64, slot: UInt64, method: UInt64)
        /// (pattern, condition + 1, slot, method) of the record at `offset` (``RuleRecord``): two loads.
        @inline(__always) func fields(_ offset: Int) -> Fields {
            let record = RuleRecord(bytes, offset, layout)
            return (
                UInt64(record.pattern), UInt64(record.condition.map { $0 + 1 } ?? 0), UInt64(record.actionSlot),
                UInt64(record.method)
            )
        }
        /// The largest value of each field, read as ``RuleRecord`` does with `size`-byte records (a
        /// constant: one loop per layout, with constant shifts and branch-free reductions).
        @inline(__always) func largestFields(_ size: Int) -> Fields {
            var largest: Fields = (0, 0, 0, 0)
            var offset = sections.rules.offset
            for _ in 0..<ruleCount {
                let low = bytes.u64(offset)
                var fields: Fields
                if size == 9 {
                    let slot = bytes.u64(offset &+ 1) >> 48
                    fields = (low >> 24 & 0xFFFF, low >> 40 & 0xFFFF, slot, low >> 20 & 0xF)
                } else {
                    let high = UInt64(bytes.u32(offset &+ 8))
                    fields = (low >> 24 & 0xFF_FFFF, low >> 48 | (high & 0xFF) << 16, high >> 8, low >> 20 & 0xF)
                }
                largest = (
                    max(largest.pattern, fields.pattern), max(largest.condition, fields.condition),
                    max(largest.slot, fields.slot), max(largest.method, fields.method)
                )
                offset &+= size
            }
            return largest
        }
        // First pass: the largest value of each field; only when one is out of range does the checking
        // loop below look for the record.
        let largest = layout.size == 9 ? largestFields(9) : largestFields(12)
        if ruleCount == 0
            || (largest.pattern < patterns && largest.condition <= conditions && largest.slot < slots
                && largest.method <= methods)
        {
            return
        }
        for rule in 0..<ruleCount {
            let offset = sections.rules.offset &+ rule &* layout.size
            let (pattern, condition, slot, method) = fields(offset)
            guard pattern < patterns, condition <= conditions, slot < slots, method <= methods else {
                throw fail(offset, "rule \(rule) has an out-of-range field")
            }
        }
    }

    /// PATS: text, required literal and templates in range; kind and flags known.
    private func checkPatterns() throws(BinaryRuleListError) {
        // Template ids below this are valid; "none" (0xFFF) + 1 wraps to 0.
        let templates = UInt32(min(sections.templates.count, Int(Layout.noTemplate)))
        let kinds = UInt32(Layout.PatternKind.regex.rawValue)
        var offset = sections.patterns.offset
        for pattern in 0..<patternCount {
            let packed = bytes.u32(offset &+ 4)
            let required = bytes.u32(offset &+ 12)
            guard UInt64(bytes.u32(offset)) + UInt64(packed & 0xFF_FFFF) <= stringsEnd,
                // Bits 30 (coded) and 31 (host-anchored): set only for a PCRE2 pattern (kind 2, the only one
                // with kind >> 1 = 1).
                packed >> 24 & 3 <= kinds, packed >> 30 & 1 <= packed >> 25 & 1, packed >> 31 <= packed >> 25 & 1,
                UInt64(bytes.u32(offset &+ 8)) + UInt64(required & 0xFF) <= stringsEnd,
                (required >> 8 &+ 1) & 0xFFF <= templates, (required >> 20 &+ 1) & 0xFFF <= templates
            else { throw fail(offset, "pattern \(pattern) has an out-of-range field") }
            offset &+= Layout.patternSize
        }
    }

    /// COND: kind known, first entries ascending and inside CENT (so each condition's entries, up to
    /// the next one's first, are too), and each entry below the domain or pattern count.
    private func checkConditions() throws(BinaryRuleListError) {
        let kinds = UInt32(Layout.conditionKinds.count)
        let entryCount = UInt32(truncatingIfNeeded: sections.conditionEntries.count)
        var previous: UInt32 = 0
        var offset = sections.conditions.offset
        for condition in 0..<conditionCount {
            let word = bytes.u32(offset)
            let kind = word >> 29
            let first = word & Layout.conditionFirstMask
            guard kind >= 1, kind <= kinds, first >= previous, first <= entryCount else {
                throw fail(offset, "condition \(condition) is out of range")
            }
            previous = first
            offset &+= 4
        }
        // When every entry is below both counts (as in every file the writer makes), nothing more to check;
        // otherwise each entry is checked against its condition's kind.
        if UInt64(largestU24(sections.conditionEntries)) < UInt64(min(domainCount, patternCount)) { return }
        for condition in 0..<conditionCount {
            let record = MappedRuleList.conditionRecord(bytes, sections, condition)
            let limit = UInt32(truncatingIfNeeded: record.kind.isDomain ? domainCount : patternCount)
            for index in record.entries {
                let entry = sections.conditionEntries.offset &+ index &* 3
                guard bytes.u24(entry) < limit else { throw fail(entry, "condition entry out of range") }
            }
        }
    }

    /// DOMS: text ends ascending and inside STRS, postings ends ascending and inside DPST (the flags
    /// fill the bits above, so every value is known).
    private func checkDomains() throws(BinaryRuleListError) {
        // One loop per layout, with its widths as constants.
        if sections.domainLayout.size == 6 {
            try checkDomains(DomainLayout(size: 6))
        } else {
            try checkDomains(DomainLayout(size: 8))
        }
    }

    @inline(__always) private func checkDomains(_ layout: DomainLayout) throws(BinaryRuleListError) {
        let postings = UInt32(truncatingIfNeeded: sections.domainPostings.count)
        let mask: UInt32 = (1 << layout.flagShift) - 1
        var previous: (text: UInt32, postings: UInt32) = (0, 0)
        var offset = sections.domains.offset
        for domain in 0..<domainCount {
            let (text, packed) = layout.ends(bytes, offset)
            let end = packed & mask
            guard text >= previous.text, UInt64(text) <= stringsEnd, end >= previous.postings, end <= postings else {
                throw fail(offset, "domain \(domain) is out of range")
            }
            previous = (text, end)
            offset &+= layout.size
        }
    }

    /// A hash table of u24 values: its size is a power of two with at least one empty slot (so
    /// probing ends), and its values are in range.
    private func checkHashTable(
        _ section: SectionOffsets.Section, below limit: Int, _ what: String
    ) throws(BinaryRuleListError) {
        guard section.count & (section.count - 1) == 0 else {
            throw fail(section.offset, "\(what): table size is not a power of two")
        }
        // value + 1 wraps an empty slot (0xFFFFFF) to 0: every slot is empty or in range when the
        // largest value + 1 is at most `limit`, and some slot is empty when the smallest is 0. Branch-free,
        // as slots are empty or not at random.
        let limit = UInt64(limit)
        var largest: UInt32 = 0
        var smallest = UInt32.max
        // As in `largestWord`: every slot but the last as a masked u32 load.
        if section.count > 0 {
            let last = (bytes.u24(section.offset &+ (section.count - 1) &* 3) &+ 1) & Layout.none24
            (largest, smallest) = (last, last)
        }
        for index in 0..<max(0, section.count - 1) {
            let value = (bytes.u32(section.offset &+ index &* 3) &+ 1) & Layout.none24
            largest = max(largest, value)
            smallest = min(smallest, value)
        }
        if UInt64(largest) > limit {
            for index in 0..<section.count {
                let offset = section.offset &+ index &* 3
                let value = bytes.u24(offset)
                if value != Layout.none24, UInt64(value) >= limit { throw fail(offset, "\(what) \(value)") }
            }
        }
        guard section.count == 0 || smallest == 0 else {
            throw fail(section.offset, "\(what): table has no empty slot")
        }
    }

    /// LGRM and LPST: a power-of-two table with an empty slot; each gram's rule (held in the slot) or
    /// postings (inside LPST) below the rule count. Builds the gram filter on the way.
    private mutating func checkLiteralIndex() throws(BinaryRuleListError) -> [UInt64] {
        let table = sections.literalHash
        let postings = sections.literalPostings
        guard table.count & (table.count - 1) == 0 else {
            throw fail(table.offset, "literal index size is not a power of two")
        }
        var filter = [UInt64](repeating: 0, count: IndexHash.gramFilterWords)
        let rules = UInt32(truncatingIfNeeded: ruleCount)
        // When every word of LPST (counts and rule numbers) is below the rule count, as in every
        // file the writer makes, only each slot's rule or range needs checking. That pass also brings
        // LPST into the cache for the slots' reads, which are in hash order.
        if postingsBelowRuleCount() {
            // Branch-free, as slots are empty (gram 0), inline or not at random: the count is read at a
            // clamped index for every slot, and a bad slot only sets `outOfRange` (found again below).
            var smallestGram = UInt32.max
            var outOfRange: UInt8 = 0
            // Where a slot's list count is read (a clamped index; when LPST is empty, any readable word:
            // a list then fails its range check whatever the count).
            let countBase = postings.count > 0 ? postings.offset : table.offset
            let countLimit = max(postings.count, 1)
            for slot in 0..<table.count {
                let offset = table.offset &+ slot &* 8
                let gram = bytes.u32(offset)
                let value = bytes.u32(offset &+ 4)
                let occupied: UInt8 = gram != 0 ? 1 : 0
                smallestGram = min(smallestGram, gram)
                // Inline: rule + 1 <= the rule count; list: start + 1 + count <= the LPST size.
                let inline = value & Layout.inlinePosting != 0
                let start = Int(inline ? value & IndexHash.postingRuleMask : value)
                let count = Int(bytes.u32(countBase &+ (start < countLimit ? start : 0) &* 4))
                let need = inline ? start &+ 1 : start &+ 1 &+ count
                let limit = inline ? ruleCount : postings.count
                outOfRange |= occupied & (need <= limit ? 0 : 1)
                let bit = IndexHash.gramFilterBit(gram)
                filter[bit >> 6] |= UInt64(occupied) << UInt64(bit & 63)
            }
            if outOfRange != 0 {
                for slot in 0..<table.count {
                    let offset = table.offset &+ slot &* 8
                    guard bytes.u32(offset) != 0 else { continue }
                    let value = bytes.u32(offset &+ 4)
                    let valid =
                        value & Layout.inlinePosting != 0
                        ? value & IndexHash.postingRuleMask < rules : listInRange(Int(value))
                    guard valid else { throw fail(offset, "literal postings out of range") }
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
            let value = bytes.u32(offset &+ 4)
            if value & Layout.inlinePosting != 0 {
                guard value & IndexHash.postingRuleMask < rules else {
                    throw fail(offset, "literal posting out of range")
                }
            } else {
                try checkPostingList(Int(value), slot: offset, postings: true, "literal")
            }
            let bit = IndexHash.gramFilterBit(gram)
            filter[bit >> 6] |= 1 << UInt64(bit & 63)
        }
        guard empty else { throw fail(table.offset, "literal index has no empty slot") }
        return filter
    }

    /// Whether the LPST list at `start` (a count, then that many postings) lies inside LPST.
    @inline(__always) private func listInRange(_ start: Int) -> Bool {
        let postings = sections.literalPostings
        return start < postings.count
            && Int(bytes.u32(postings.offset &+ start &* 4)) <= postings.count &- start &- 1
    }

    /// Whether every word of LPST (counts, and postings' rules: their low 24 bits) is below the rule
    /// count, as in every file the writer makes: then a slot's list needs only its range checked. One
    /// pass over LPST, shared by the literal and the host index.
    private mutating func postingsBelowRuleCount() -> Bool {
        if let known = lpstBelowRuleCount { return known }
        let postings = sections.literalPostings
        let below =
            postings.count == 0
            || largestWord(postings, mask: IndexHash.postingRuleMask) < UInt32(truncatingIfNeeded: ruleCount)
        lpstBelowRuleCount = below
        return below
    }

    /// The LPST list at `start` (a count, then that many postings) lies inside LPST and, when
    /// `postings`, each posting's rule (its low 24 bits) is below the rule count; the error names
    /// `index` ("literal", "host") at the slot's `offset` or at the posting's.
    private func checkPostingList(
        _ start: Int, slot offset: Int, postings checkPostings: Bool, _ index: String
    ) throws(BinaryRuleListError) {
        let postings = sections.literalPostings
        guard listInRange(start) else { throw fail(offset, "\(index) postings out of range") }
        guard checkPostings else { return }
        let rules = UInt32(truncatingIfNeeded: ruleCount)
        var entry = postings.offset &+ (start &+ 1) &* 4
        let entriesEnd = entry &+ Int(bytes.u32(postings.offset &+ start &* 4)) &* 4
        while entry < entriesEnd {
            guard bytes.u32(entry) & IndexHash.postingRuleMask < rules else {
                throw fail(entry, "\(index) posting out of range")
            }
            entry &+= 4
        }
    }

    /// HGRM: a power-of-two table (or none) with an empty slot; each used slot's rule below the rule
    /// count, or its LPST list inside LPST with every rule below the rule count; an empty slot all 0.
    private mutating func checkHostIndex() throws(BinaryRuleListError) {
        let table = sections.hostHash
        guard table.count & (table.count &- 1) == 0 else {
            throw fail(table.offset, "host index size is not a power of two")
        }
        let rules = UInt32(truncatingIfNeeded: ruleCount)
        let listsChecked = postingsBelowRuleCount()
        var empty = table.count == 0
        var offset = table.offset
        let end = offset &+ table.count &* 4
        while offset < end {
            defer { offset &+= 4 }
            let slot = bytes.u32(offset)
            guard slot >> Layout.hostCheckShift != 0 else {
                guard slot == 0 else { throw fail(offset, "host index slot without check byte") }
                empty = true
                continue
            }
            let value = slot & Layout.hostValueMask
            if slot & Layout.hostInlinePosting != 0 {
                guard value < rules else { throw fail(offset, "host posting out of range") }
                continue
            }
            try checkPostingList(Int(value), slot: offset, postings: !listsChecked, "host")
        }
        guard empty else { throw fail(table.offset, "host index has no empty slot") }
    }

    /// ACTN: type known; ends ascending and inside APAY (selector codes need no check, see SYMB);
    /// `redirect` and `modify-headers` payloads decoded in full (they are the only actions kept decoded).
    private func checkActions() throws(BinaryRuleListError) -> [Int: Action] {
        let types = UInt32(Layout.actionTypes.count)
        let redirect = UInt32(Layout.actionTypeCode(.redirect))
        let modifyHeaders = UInt32(Layout.actionTypeCode(.modifyHeaders))
        let payloadCount = UInt32(truncatingIfNeeded: sections.actionPayloads.count)
        // Branch-free first pass, as action types come mixed: every type known, every end ascending and
        // inside APAY, no payload to decode. Otherwise (or to find the bad slot) the checking loop below.
        var simple: UInt8 = 1
        var previous: UInt32 = 0
        for slot in 0..<slotCount {
            let packed = bytes.u32(sections.actions.offset &+ slot &* Layout.actionSize)
            let code = packed >> Layout.actionTypeShift
            let end = packed & Layout.actionEndMask
            simple &= code < types ? 1 : 0
            simple &= code == redirect || code == modifyHeaders ? 0 : 1
            simple &= end >= previous && end <= payloadCount ? 1 : 0
            previous = end
        }
        if simple == 1 { return [:] }
        var active: [Int: Action] = [:]
        var offset = sections.actions.offset
        previous = 0
        for slot in 0..<slotCount {
            defer { offset &+= Layout.actionSize }
            let packed = bytes.u32(offset)
            let code = packed >> Layout.actionTypeShift
            let end = packed & Layout.actionEndMask
            guard code < types else { throw fail(offset, "unknown action type \(code)") }
            guard end >= previous, end <= payloadCount else { throw fail(offset, "action \(slot) is out of range") }
            let start = Int(previous)
            previous = end
            if code == redirect || code == modifyHeaders {
                let payload = bytes.array(sections.actionPayloads.offset &+ start, Int(end) &- start)
                var reader = ByteReader(payload, from: 0, to: payload.count)
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
