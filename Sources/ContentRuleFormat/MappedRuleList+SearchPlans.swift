// Reading and checking SRCH (a search plan per pattern) and DRPT (domain entries whose PCRE2 text
// repeats a group): see ``Layout`` and `Documentation/BinaryFormat.md`.

extension MappedRuleList {
    /// The search plan of pattern `id` (``RegexSearchPlan``, SRCH), decoded; `nil` for a pattern that
    /// is not PCRE2 text. The matcher reads it once, when it first compiles the pattern.
    ///
    /// - Complexity: O(size of the plan and of the ASCII-subject text).
    package func searchPlan(_ id: Int) -> RegexSearchPlan? {
        let record = sections.searchPlans.offset + id * Layout.Tag.searchPlans.elementSize
        let word = bytes.u32(record)
        let flags = word & 0xFF
        guard flags & Layout.searchPlanned != 0 else { return nil }
        // The validator parsed the plan's bytes: every length is inside STRS.
        var at = sections.strings.offset + Int(bytes.u32(record + 4))
        var ascii: String?
        if flags & Layout.searchASCIISubject != 0 {
            let templates = word >> Layout.searchTemplateShift
            let dots = flags & Layout.searchASCIIDotsUnescaped != 0
            if flags & Layout.searchASCIIInPattern != 0 {
                let pattern = pattern(id)
                ascii = assembledText(
                    templates: templates, at: sections.strings.offset + Int(bytes.u32(patternRecord(id))),
                    count: pattern.text.count, coded: pattern.coded, dotsUnescaped: dots)
            } else {
                ascii = assembledText(
                    templates: templates, at: sections.strings.offset + Int(bytes.u32(at)),
                    count: Int(bytes.u32(at + 4)), coded: flags & Layout.searchASCIICoded != 0, dotsUnescaped: dots)
                at += 8
            }
        }
        func byte() -> Int {
            defer { at += 1 }
            return Int(bytes.u8(at))
        }
        func take(_ count: Int) -> [UInt8] {
            defer { at += count }
            return bytes.array(at, count)
        }
        let mandatory = (0..<byte()).map { _ in take(byte()) }
        let suffix = take(byte())
        let demand = (0..<byte()).map { _ in
            let pair = take(2)
            return RegexSearchPlan.ByteDemand(byte: pair[0], count: pair[1])
        }
        return RegexSearchPlan(
            asciiSubjectPattern: ascii, caseless: flags & Layout.searchCaseless != 0, mandatory: mandatory,
            suffix: suffix, byteDemand: demand, repeatsAGroup: flags & Layout.searchRepeatsAGroup != 0)
    }

    /// Whether domain entry `id` is stored as PCRE2 text that repeats a group (DRPT).
    ///
    /// - Complexity: O(log n) in the number of such entries.
    package func domainRepeatsAGroup(_ id: Int) -> Bool {
        var low = 0
        var high = sections.domainRepeats.count
        let target = UInt32(truncatingIfNeeded: id)
        while low < high {
            let middle = (low + high) / 2
            let value = bytes.u32(sections.domainRepeats.offset + middle * 4)
            if value == target { return true }
            if value < target { low = middle + 1 } else { high = middle }
        }
        return false
    }
}

extension Validator {
    /// SRCH: a plan exactly for the PCRE2 patterns; flags and templates known; an ASCII-subject text
    /// in its pattern only when the dots spelling agrees; the plan's bytes (the text reference, the
    /// prefilter's runs, suffix and byte demand) inside STRS.
    func checkSearchPlans() throws(BinaryRuleListError) {
        let known =
            Layout.searchPlanned | Layout.searchASCIISubject | Layout.searchASCIICoded | Layout.searchCaseless
            | Layout.searchRepeatsAGroup | Layout.searchASCIIDotsUnescaped | Layout.searchASCIIInPattern
        // Template ids below this are valid; "none" (0xFFF) + 1 wraps to 0.
        let templates = UInt32(min(sections.templates.count, Int(Layout.noTemplate)))
        let asciiOnly = Layout.searchASCIICoded | Layout.searchASCIIDotsUnescaped | Layout.searchASCIIInPattern
        var record = sections.searchPlans.offset
        for pattern in 0..<patternCount {
            defer { record &+= Layout.Tag.searchPlans.elementSize }
            let word = bytes.u32(record)
            let flags = word & 0xFF
            let patternWord = bytes.u32(sections.patterns.offset &+ pattern &* Layout.patternSize &+ 4)
            let isRegex = patternWord >> 24 & 3 == UInt32(Layout.PatternKind.regex.rawValue)
            guard flags & ~known == 0, (flags & Layout.searchPlanned != 0) == isRegex else {
                throw fail(record, "search plan of pattern \(pattern) does not match the pattern")
            }
            guard isRegex else {
                guard word | bytes.u32(record &+ 4) == 0 else {
                    throw fail(record, "search plan of pattern \(pattern) is not empty")
                }
                continue
            }
            let hasASCII = flags & Layout.searchASCIISubject != 0
            let inPattern = flags & Layout.searchASCIIInPattern != 0
            guard hasASCII || flags & asciiOnly == 0,
                !inPattern || flags & Layout.searchASCIICoded == 0,
                (word >> 8 &+ 1) & 0xFFF <= templates, (word >> 20 &+ 1) & 0xFFF <= templates
            else { throw fail(record, "search plan of pattern \(pattern) has an unknown field") }
            var offset = UInt64(bytes.u32(record &+ 4))
            if hasASCII && !inPattern {
                guard offset + 8 <= stringsEnd else { throw fail(record, "search plan is out of range") }
                let text = sections.strings.offset &+ Int(offset)
                guard UInt64(bytes.u32(text)) + UInt64(bytes.u32(text &+ 4)) <= stringsEnd else {
                    throw fail(record, "search plan's text is out of range")
                }
                offset += 8
            }
            try checkPrefilter(at: offset, record: record)
        }
    }

    /// A prefilter at `offset` in STRS: at most two runs of 1–255 bytes, a suffix, byte-demand pairs
    /// with counts of at least 1, all inside STRS.
    private func checkPrefilter(at offset: UInt64, record: Int) throws(BinaryRuleListError) {
        var offset = offset
        let base = sections.strings.offset
        func next() throws(BinaryRuleListError) -> UInt64 {
            guard offset < stringsEnd else { throw fail(record, "search plan's prefilter is out of range") }
            defer { offset += 1 }
            return UInt64(bytes.u8(base &+ Int(offset)))
        }
        func skip(_ count: UInt64) throws(BinaryRuleListError) {
            guard offset + count <= stringsEnd else { throw fail(record, "search plan's prefilter is out of range") }
            offset += count
        }
        let runs = try next()
        guard runs <= 2 else { throw fail(record, "search plan has \(runs) literals") }
        for _ in 0..<runs {
            let count = try next()
            guard count > 0 else { throw fail(record, "search plan has an empty literal") }
            try skip(count)
        }
        try skip(try next())
        let pairs = try next()
        for _ in 0..<pairs {
            _ = try next()
            guard try next() > 0 else { throw fail(record, "search plan demands a byte 0 times") }
        }
    }
}
