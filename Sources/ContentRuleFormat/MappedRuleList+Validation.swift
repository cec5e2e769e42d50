import ContentRuleModel

/// The checks `MappedRuleList.init` runs over every table, so that no stored offset, index or tag
/// can lead a later read outside the file or into an unknown case. O(file size); never traps.
struct Validator {
    let bytes: RawBytes
    let sections: SectionOffsets

    private func fail(_ offset: Int, _ reason: String) -> BinaryRuleListError {
        .malformed(offset: offset, reason: reason)
    }

    /// A (u32 offset, u32 length) string reference at `offset` must lie inside STRS.
    private func checkString(at offset: Int) throws(BinaryRuleListError) {
        let start = UInt64(bytes.u32(offset))
        let length = UInt64(bytes.u32(offset + 4))
        guard start + length <= UInt64(sections.strings.count) else { throw fail(offset, "string out of bounds") }
    }

    /// Every u32 of `section` must be below `limit` (and ascending when `ascending`).
    private func checkList(
        _ section: SectionOffsets.Section, below limit: Int, ascending: Bool, _ what: String
    ) throws(BinaryRuleListError) {
        var previous = -1
        for index in 0..<section.count {
            let offset = section.offset + index * 4
            let value = Int(bytes.u32(offset))
            guard value < limit, !ascending || value > previous else { throw fail(offset, "\(what) \(value)") }
            previous = value
        }
    }

    mutating func validate(
        sourceRuleCount: Int, ruleCount: Int, slotCount: Int, patternCount: Int, domainCount: Int, conditionCount: Int
    ) throws(BinaryRuleListError) -> [Int: Action] {
        let meta = sections.meta
        guard sections.rules.count == ruleCount, sections.actions.count == slotCount,
            sections.patterns.count == patternCount, sections.domains.count == domainCount,
            sections.conditions.count == conditionCount, ruleCount <= sourceRuleCount,
            sections.removedSources.count == sourceRuleCount - ruleCount
        else { throw fail(meta, "counts do not match the sections") }
        if bytes.u32(meta + 20) != Layout.none { try checkString(at: meta + 20) }
        try checkList(sections.removedSources, below: sourceRuleCount, ascending: true, "removed source index")
        for rule in 0..<ruleCount {
            let offset = sections.rules.offset + rule * 16
            let record = RuleRecord(bytes, offset)
            guard record.pattern < patternCount, record.condition.map({ $0 < conditionCount }) ?? true,
                Int(record.actionSlot) < slotCount,
                ResourceType.all.isSuperset(of: ResourceType(rawValue: record.resourceTypes)),
                Int(record.method) <= RequestMethod.allCases.count, record.entry <= Layout.Entry.universal.rawValue
            else { throw fail(offset, "rule \(rule) has an out-of-range field") }
        }
        for template in 0..<sections.templates.count { try checkString(at: sections.templates.offset + template * 8) }
        for pattern in 0..<patternCount {
            let offset = sections.patterns.offset + pattern * 20
            try checkString(at: offset)
            let required = UInt64(bytes.u32(offset + 8)) + UInt64(bytes.u16(offset + 12))
            let prefix = Int(bytes.u16(offset + 16))
            let suffix = Int(bytes.u16(offset + 18))
            guard required <= UInt64(sections.strings.count),
                bytes.u8(offset + 14) <= Layout.PatternKind.regex.rawValue,
                bytes.u8(offset + 15) <= 7, prefix == 0xFFFF || prefix < sections.templates.count,
                suffix == 0xFFFF || suffix < sections.templates.count
            else { throw fail(offset, "pattern \(pattern) has an out-of-range field") }
        }
        for condition in 0..<conditionCount {
            let offset = sections.conditions.offset + condition * 12
            let kind = Int(bytes.u8(offset))
            let start = UInt64(bytes.u32(offset + 4))
            let count = UInt64(bytes.u32(offset + 8))
            guard kind >= 1, kind <= TriggerCondition.Kind.allCases.count,
                start + count <= UInt64(sections.conditionEntries.count)
            else { throw fail(offset, "condition \(condition) is out of range") }
            let limit = Layout.conditionKinds[kind - 1].isDomain ? domainCount : patternCount
            for index in Int(start)..<Int(start + count) {
                let entry = sections.conditionEntries.offset + index * 4
                guard Int(bytes.u32(entry)) < limit else { throw fail(entry, "condition entry out of range") }
            }
        }
        for domain in 0..<domainCount {
            let offset = sections.domains.offset + domain * 16
            let packed = bytes.u32(offset + 4)
            let start = UInt64(bytes.u32(offset))
            let postings = UInt64(bytes.u32(offset + 8))
            guard start + UInt64(packed & 0xFF_FFFF) <= UInt64(sections.strings.count), packed >> 24 <= 7,
                postings + UInt64(bytes.u32(offset + 12)) <= UInt64(sections.domainPostings.count)
            else { throw fail(offset, "domain \(domain) is out of range") }
        }
        try checkList(sections.domainPostings, below: ruleCount, ascending: false, "domain posting")
        try checkHashTable(sections.domainHash, stride: 4, below: domainCount, "domain hash slot")
        for index in 0..<sections.domainFallbacks.count {
            let offset = sections.domainFallbacks.offset + index * 8
            guard Int(bytes.u32(offset)) < ruleCount, Int(bytes.u32(offset + 4)) < domainCount else {
                throw fail(offset, "domain fallback out of range")
            }
        }
        try checkList(sections.topURLRules, below: ruleCount, ascending: true, "top-URL rule")
        try checkList(sections.alwaysChecked, below: ruleCount, ascending: true, "always-checked rule")
        try checkList(sections.universal, below: ruleCount, ascending: true, "universal rule")
        try checkLiteralIndex(ruleCount: ruleCount)
        return try checkActions(slotCount: slotCount)
    }

    /// A hash table's size is a power of two with at least one empty slot (so probing ends), and
    /// its values are in range.
    private func checkHashTable(
        _ section: SectionOffsets.Section, stride: Int, below limit: Int, _ what: String
    ) throws(BinaryRuleListError) {
        guard section.count == 0 || (section.count & (section.count - 1) == 0) else {
            throw fail(section.offset, "\(what): table size is not a power of two")
        }
        var empty = section.count == 0
        for slot in 0..<section.count {
            let offset = section.offset + slot * stride
            let value = bytes.u32(offset)
            if value == Layout.none {
                empty = true
            } else if Int(value) >= limit {
                throw fail(offset, "\(what) \(value)")
            }
        }
        guard empty else { throw fail(section.offset, "\(what): table has no empty slot") }
    }

    private func checkLiteralIndex(ruleCount: Int) throws(BinaryRuleListError) {
        let table = sections.literalHash
        let postings = sections.literalPostings
        guard table.count == 0 || (table.count & (table.count - 1) == 0) else {
            throw fail(table.offset, "literal index size is not a power of two")
        }
        var empty = table.count == 0
        for slot in 0..<table.count {
            let offset = table.offset + slot * 8
            guard bytes.u32(offset) != 0 else {
                empty = true
                continue
            }
            let start = Int(bytes.u32(offset + 4))
            guard start < postings.count else { throw fail(offset, "literal postings out of range") }
            let count = Int(bytes.u32(postings.offset + start * 4))
            guard count <= postings.count - start - 1 else { throw fail(offset, "literal postings out of range") }
            for index in (start + 1)..<(start + 1 + count) {
                let entry = postings.offset + index * 4
                guard Int(bytes.u32(entry)) < ruleCount else { throw fail(entry, "literal posting out of range") }
            }
        }
        guard empty else { throw fail(table.offset, "literal index has no empty slot") }
    }

    private func checkActions(slotCount: Int) throws(BinaryRuleListError) -> [Int: Action] {
        var active: [Int: Action] = [:]
        let payloads = bytes.array(sections.actionPayloads.offset, sections.actionPayloads.count)
        for slot in 0..<slotCount {
            let offset = sections.actions.offset + slot * 12
            let code = Int(bytes.u8(offset))
            guard code < ActionType.allCases.count else { throw fail(offset, "unknown action type \(code)") }
            switch Layout.actionTypes[code] {
            case .cssDisplayNone, .notify:
                try checkString(at: offset + 4)
            case .redirect, .modifyHeaders:
                let start = Int(bytes.u32(offset + 4))
                let length = Int(bytes.u32(offset + 8))
                guard start <= payloads.count, length <= payloads.count - start else {
                    throw fail(offset, "action payload out of range")
                }
                var reader = ByteReader(payloads, from: start, to: start + length)
                let action = try reader.decodeAction()
                guard reader.remaining == 0, action.type == Layout.actionTypes[code] else {
                    throw fail(offset, "action payload does not match its type")
                }
                active[slot] = action
            default:
                break
            }
        }
        return active
    }
}
