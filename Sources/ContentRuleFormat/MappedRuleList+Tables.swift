public import ContentRuleModel

/// One rule as stored (RULE section).
@usableFromInline package struct RuleRecord: Sendable {
    @usableFromInline package var pattern: Int
    /// Index of the rule's condition, or `nil`.
    @usableFromInline package var condition: Int?
    @usableFromInline package var actionSlot: UInt32
    /// Raw bits as in the rule (0 means every resource type; likewise for load types and contexts).
    @usableFromInline package var resourceTypes: UInt16
    @usableFromInline package var loadTypes: UInt8
    @usableFromInline package var loadContexts: UInt8
    /// 0: none, else `RequestMethod.allCases[method - 1]`.
    @usableFromInline package var method: UInt8
    /// How the fast matcher reaches the rule: 0 literal index, 1 domain postings, 2 always, 3 universal.
    @usableFromInline package var entry: UInt8

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
@usableFromInline package enum StoredPatternKind: UInt8, Sendable {
    /// Matches every URL.
    case everything = 0
    /// A plain string (lower-cased unless case-sensitive), maybe anchored.
    case literal = 1
    /// PCRE2 text.
    case regex = 2
}

/// One pattern as stored (PATS section). The buffers point into the mapped file: valid while the
/// ``MappedRuleList`` lives.
@usableFromInline package struct PatternRecord {
    @usableFromInline package var kind: StoredPatternKind
    @usableFromInline package var caseSensitive: Bool
    @usableFromInline package var anchoredAtStart: Bool
    @usableFromInline package var anchoredAtEnd: Bool
    /// Literal text, or the PCRE2 text between its prefix and suffix templates (symbol-coded for some
    /// regex patterns; with each `\\.` spelled `.` when ``dotsUnescaped``; ``MappedRuleList/regexSource(_:)``
    /// gives the PCRE2 text).
    @usableFromInline package var text: UnsafeBufferPointer<UInt8>
    /// ``text`` spells each `\\.` of the PCRE2 text as `.` (it has no other `\\` and no bare `.`).
    @usableFromInline package var dotsUnescaped: Bool
    /// ``text`` is coded with the PCRE2 ``SymbolTable`` (regex patterns only; read by
    /// ``MappedRuleList/regexSource(_:)``).
    @usableFromInline var coded: Bool
    /// The PATS word holding the prefix and suffix template ids (read by ``MappedRuleList/regexSource(_:)``
    /// only: the matcher's prefilter path never needs the templates).
    @usableFromInline var templates: UInt32
    /// A lower-cased literal every matching URL contains (empty when none).
    @usableFromInline package var required: UnsafeBufferPointer<UInt8>
    /// A PCRE2 pattern that, for a URL to match, needs ``required`` just after the URL's `://` (the
    /// scheme all of the letters `hpstw`) or just after the first label there and its dot: it begins
    /// with the host anchor `^[htpsw]+://([a-z0-9-]+\.)?` and then spells ``required``.
    @usableFromInline package var hostAnchored: Bool

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
@usableFromInline package struct ConditionRecord: Sendable {
    @usableFromInline package var kind: TriggerCondition.Kind
    /// Range in the condition entries: domain ids for domain kinds, pattern ids otherwise.
    @usableFromInline package var entries: Range<Int>
}

/// One domain entry (DOMS section).
@usableFromInline package struct DomainRecord {
    /// The domain without `*` when ``indexed``, else the entry's PCRE2 text.
    @usableFromInline package var text: UnsafeBufferPointer<UInt8>
    @usableFromInline package var subdomains: Bool
    @usableFromInline package var caseSensitive: Bool
    /// Held by the domain hash table (letters, digits, `.`, `-`, `_`).
    @usableFromInline package var indexed: Bool
    /// Rules whose condition lists this entry, ascending.
    @usableFromInline package var postings: Range<Int>

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
    @inlinable package func rule(_ number: Int) -> RuleRecord {
        RuleRecord(bytes, sections.rules.offset + number * sections.ruleLayout.size, sections.ruleLayout)
    }

    /// Where pattern `id`'s PATS record is in the file.
    @inlinable @inline(__always) package func patternRecord(_ id: Int) -> Int {
        sections.patterns.offset + id * 16
    }

    // PATS record (16 bytes): u32 text offset, u32 text length | kind << 24 | flags << 26, u32 required
    // offset, u32 required length (8 bits) | prefix template << 8 | suffix template << 20 (12 bits, 0xFFF none).
    @inlinable @inline(__always) package func pattern(_ id: Int) -> PatternRecord {
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
    package func regexSource(_ id: Int) -> String {
        let pattern = pattern(id)
        return assembledText(
            templates: pattern.templates >> 8, at: sections.strings.offset + Int(bytes.u32(patternRecord(id))),
            count: pattern.text.count, coded: pattern.coded, dotsUnescaped: pattern.dotsUnescaped)
    }

    /// A text stored between templates (`templates`: prefix | suffix << 12, 0xFFF none): the prefix, the
    /// `count` bytes at `offset` (decoded with the PCRE2 ``SymbolTable`` when `coded`; each `.` written
    /// `\\.` when `dotsUnescaped`), the suffix.
    func assembledText(templates: UInt32, at offset: Int, count: Int, coded: Bool, dotsUnescaped: Bool) -> String {
        let prefix = template(templates & 0xFFF)
        let suffix = template(templates >> 12 & 0xFFF)
        // A coded text: with the second table of SYMB (``SymbolTable``).
        let text =
            coded
            ? bytes.symbolDecodedBytes(offset, count, table: sections.selectorSymbols.offset + SymbolTable.byteCount)
            : bytes.array(offset, count)
        var source = Array(prefix)
        source.reserveCapacity(prefix.count + text.count * 2 + suffix.count)
        if dotsUnescaped {
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
    package func condition(_ id: Int) -> ConditionRecord { Self.conditionRecord(bytes, sections, id) }

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

    @inlinable package func conditionEntry(_ index: Int) -> Int {
        Int(bytes.u24(sections.conditionEntries.offset + index * 3))
    }

    // DOMS record (``DomainLayout``): end of its text in STRS, end of its postings in DPST | flags << 21 or 29;
    // both begin where the previous entry's end (entry 0's at 0).
    @inlinable package func domain(_ id: Int) -> DomainRecord {
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

    @inlinable package func domainPosting(_ index: Int) -> Int32 {
        Int32(bitPattern: bytes.u24(sections.domainPostings.offset + index * 3))
    }

    /// Number of slots of the domain hash table (a power of two, or 0).
    @inlinable package var domainHashCapacity: Int { sections.domainHash.count }
    /// The domain id in a slot of the domain hash table, or `nil` for an empty slot.
    @inlinable package func domainHashSlot(_ slot: Int) -> Int? {
        let value = bytes.u24(sections.domainHash.offset + slot * 3)
        return value == 0xFF_FFFF ? nil : Int(value)
    }

    /// (rule, domain id) pairs of domain entries the hash table does not hold, by rule.
    package var domainFallbacks: [(rule: Int32, domain: Int)] {
        (0..<sections.domainFallbacks.count).map {
            let offset = sections.domainFallbacks.offset + $0 * 8
            return (Int32(bitPattern: bytes.u32(offset)), Int(bytes.u32(offset + 4)))
        }
    }

    /// Rules with an `if-top-url` / `unless-top-url` condition, ascending.
    package var topURLRules: [Int32] { list(sections.topURLRules) }
    /// Rules the fast matcher checks on every request, ascending.
    package var alwaysCheckedRules: [Int32] { list(sections.alwaysChecked) }
    /// Universal rules without a condition or with an `unless-*` top-URL condition, ascending.
    package var universalRules: [Int32] { list(sections.universal) }

    func list(_ section: SectionOffsets.Section) -> [Int32] {
        (0..<section.count).map { Int32(bitPattern: bytes.u32(section.offset + $0 * 4)) }
    }

    /// Number of slots of the literal index (a power of two, or 0).
    @inlinable package var literalHashCapacity: Int { sections.literalHash.count }
    /// The gram in a slot of the literal index (0 = empty).
    @inlinable package func literalGram(_ slot: Int) -> UInt32 { bytes.u32(sections.literalHash.offset + slot * 8) }

    /// The type of the action in `slot`.
    // ACTN record (4 bytes): u32 end of the slot's bytes in APAY | type << 28; they begin where the previous
    // slot's end (slot 0's at 0).
    package func actionType(_ slot: Int) -> ActionType {
        Layout.actionType(code: bytes.u32(sections.actions.offset + slot * 4) >> Layout.actionTypeShift)
    }

    /// The action in `slot`, decoded from the file.
    package func action(_ slot: Int) -> Action {
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
    package func sourceIndex(ofRule rule: Int) -> UInt32 {
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
