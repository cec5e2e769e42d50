// Reading and checking SRCH (a search plan per pattern) and DRPT (domain entries whose PCRE2 text
// repeats a group): see ``Layout`` and `Documentation/BinaryFormat.md`.

extension MappedRuleList {
    /// The search plan of pattern `id` (``RegexSearchPlan``, SRCH), decoded; `nil` for a pattern that
    /// is not PCRE2 text. The matcher reads it once, when it first compiles the pattern.
    ///
    /// - Complexity: O(size of the plan and of the ASCII-subject text).
    public func searchPlan(_ id: Int) -> RegexSearchPlan? {
        let record = sections.searchPlans.offset + id * Layout.Tag.searchPlans.elementSize
        let packed = bytes.u32(record + 4)
        let flags = packed >> Layout.searchFlagShift
        guard flags & Layout.searchPlanned != 0 else { return nil }
        var ascii: String?
        if flags & Layout.searchASCIISubject != 0 {
            let offset = sections.strings.offset + Int(bytes.u32(record))
            let length = Int(packed & Layout.searchLengthMask)
            let text =
                flags & Layout.searchASCIICoded != 0
                ? bytes.symbolDecodedBytes(
                    offset, length, table: sections.selectorSymbols.offset + SymbolTable.byteCount)
                : bytes.array(offset, length)
            ascii = String(decoding: text, as: UTF8.self)
        }
        let prefilter = bytes.array(
            sections.strings.offset + Int(bytes.u32(record + 8)), Int(bytes.u32(record + 12)))
        // The validator parsed it: every length is inside.
        var index = 0
        func take(_ count: Int) -> [UInt8] {
            defer { index += count }
            return Array(prefilter[index..<(index + count)])
        }
        func byte() -> Int { Int(take(1)[0]) }
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
    public func domainRepeatsAGroup(_ id: Int) -> Bool {
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
    /// SRCH: a plan exactly for the PCRE2 patterns; flags known; the ASCII-subject text and the
    /// prefilter inside STRS; the prefilter's runs, suffix and byte demand fill it exactly.
    func checkSearchPlans() throws(BinaryRuleListError) {
        let known =
            Layout.searchPlanned | Layout.searchASCIISubject | Layout.searchASCIICoded
            | Layout.searchCaseless | Layout.searchRepeatsAGroup
        var record = sections.searchPlans.offset
        for pattern in 0..<patternCount {
            defer { record &+= Layout.Tag.searchPlans.elementSize }
            let packed = bytes.u32(record &+ 4)
            let flags = packed >> Layout.searchFlagShift
            let kind = bytes.u32(sections.patterns.offset &+ pattern &* Layout.patternSize &+ 4) >> 24 & 3
            let isRegex = kind == UInt32(Layout.PatternKind.regex.rawValue)
            guard flags & ~known == 0, (flags & Layout.searchPlanned != 0) == isRegex else {
                throw fail(record, "search plan of pattern \(pattern) does not match the pattern")
            }
            guard isRegex else {
                guard bytes.u32(record) | packed | bytes.u32(record &+ 8) | bytes.u32(record &+ 12) == 0 else {
                    throw fail(record, "search plan of pattern \(pattern) is not empty")
                }
                continue
            }
            let hasASCII = flags & Layout.searchASCIISubject != 0
            let asciiLength = UInt64(packed & Layout.searchLengthMask)
            guard hasASCII ? asciiLength > 0 : (asciiLength == 0 && flags & Layout.searchASCIICoded == 0),
                UInt64(bytes.u32(record)) + asciiLength <= stringsEnd,
                UInt64(bytes.u32(record &+ 8)) + UInt64(bytes.u32(record &+ 12)) <= stringsEnd
            else { throw fail(record, "search plan of pattern \(pattern) is out of range") }
            try checkPrefilter(
                sections.strings.offset &+ Int(bytes.u32(record &+ 8)), Int(bytes.u32(record &+ 12)), record: record)
        }
    }

    /// A prefilter of `length` bytes at `start`: at most two runs of 1–255 bytes, a suffix, byte-demand
    /// pairs with counts of at least 1, ending exactly at its end.
    private func checkPrefilter(_ start: Int, _ length: Int, record: Int) throws(BinaryRuleListError) {
        let end = start &+ length
        var offset = start
        func next() throws(BinaryRuleListError) -> Int {
            guard offset < end else { throw fail(record, "search plan's prefilter is cut short") }
            defer { offset &+= 1 }
            return Int(bytes.u8(offset))
        }
        let runs = try next()
        guard runs <= 2 else { throw fail(record, "search plan has \(runs) literals") }
        for _ in 0..<runs {
            let count = try next()
            guard count > 0, count <= end &- offset else { throw fail(record, "search plan's literal is out of range") }
            offset &+= count
        }
        let suffix = try next()
        guard suffix <= end &- offset else { throw fail(record, "search plan's suffix is out of range") }
        offset &+= suffix
        let pairs = try next()
        guard pairs &* 2 == end &- offset else { throw fail(record, "search plan's byte demand is out of range") }
        for pair in 0..<pairs where bytes.u8(offset &+ pair &* 2 &+ 1) == 0 {
            throw fail(record, "search plan demands a byte 0 times")
        }
    }
}
