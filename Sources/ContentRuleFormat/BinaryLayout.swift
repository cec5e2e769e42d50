import ContentRuleModel

/// Sizes, tags and bit assignments of binary rule list version 6, shared by the writer and the reader.
/// `Documentation/BinaryFormat.md` describes the same layout in prose.
enum Layout {
    static let signature: [UInt8] = [0x89, 0x43, 0x42, 0x52, 0x4C, 0x0D, 0x0A, 0x1A]
    static let headerSize = 64
    static let sectionEntrySize = 16
    static let alignment = 8
    static let none: UInt32 = 0xFFFF_FFFF
    /// "none" in `u24` fields (an empty DHSH slot).
    static let none24: UInt32 = 0xFF_FFFF

    /// Section tags: four ASCII characters read as a little-endian `u32`.
    enum Tag: UInt32, CaseIterable {
        case meta = 0x4154_454D  // "META"
        case strings = 0x5352_5453  // "STRS"
        case rules = 0x454C_5552  // "RULE"
        case removedSources = 0x454E_4F47  // "GONE"
        case patterns = 0x5354_4150  // "PATS"
        case conditions = 0x444E_4F43  // "COND"
        case conditionEntries = 0x544E_4543  // "CENT"
        case domains = 0x534D_4F44  // "DOMS"
        case domainHash = 0x4853_4844  // "DHSH"
        case domainPostings = 0x5453_5044  // "DPST"
        case domainFallbacks = 0x4C4C_4146  // "FALL"
        case topURLRules = 0x4350_4F54  // "TOPC"
        case literalHash = 0x4D52_474C  // "LGRM"
        case literalPostings = 0x5453_504C  // "LPST"
        case hostHash = 0x4D52_4748  // "HGRM"
        case alwaysChecked = 0x5357_4C41  // "ALWS"
        case universal = 0x5649_4E55  // "UNIV"
        case actions = 0x4E54_4341  // "ACTN"
        case actionPayloads = 0x5941_5041  // "APAY"
        case templates = 0x4C50_4D54  // "TMPL"
        case selectorSymbols = 0x424D_5953  // "SYMB"
        case searchPlans = 0x4843_5253  // "SRCH"
        case domainRepeats = 0x5450_5244  // "DRPT"

        /// Size of one element (the section's byte count must be a multiple of it).
        var elementSize: Int {
            switch self {
            case .meta: return 32
            case .strings, .actionPayloads, .selectorSymbols, .rules: return 1
            case .patterns: return 16
            case .literalHash, .domainFallbacks, .templates, .searchPlans: return 8
            case .domains: return 2
            case .conditionEntries, .domainHash, .domainPostings: return 3
            default: return 4
            }
        }
    }

    /// Largest pattern, condition, action slot and domain count (RULE stores them as `u24`), and
    /// largest text length of a pattern or domain entry.
    static let maximumCount = 0xFF_FFFF
    static let maximumTextLength = 0xFF_FFFF

    // RULE record (``RuleLayout``): u16 resource types | entry << 14, u8 load types | load contexts << 2 |
    // method << 4, then pattern, condition + 1 (0 = none) and action slot in as few bits as their counts need.
    /// The entry field (``RuleEntry``, the compiler's choice).
    typealias Entry = RuleEntry

    enum PatternKind: UInt8 {
        case everything = 0
        case literal = 1
        case regex = 2
    }
    static let patternCaseSensitive: UInt8 = 1
    static let patternAnchoredAtStart: UInt8 = 2
    static let patternAnchoredAtEnd: UInt8 = 4
    /// The stored PCRE2 text spells every `\.` as `.` (it had no other `\` and no bare `.`).
    static let patternDotsUnescaped: UInt8 = 8
    /// The stored PCRE2 text is coded with the second ``SymbolTable`` of SYMB (regex patterns only).
    static let patternCoded: UInt8 = 16
    /// The url-filter begins with WebKit's host anchor `^[htpsw]+://([a-z0-9-]+\.)?` (a scheme of
    /// those letters, `://`, at most one label and its dot) followed by the required literal
    /// (`CompiledPattern.hostAnchored`, decided by the compiler from the url-filter's terms; regex patterns only).
    static let patternHostAnchored: UInt8 = 32
    // PATS record (16 bytes): u32 text offset, u32 text length | kind << 24 | flags << 26,
    // u32 required offset, u32 required length (u8) | prefix template << 8 | suffix template << 20.
    static let patternSize = 16
    /// "No template" in a PATS record's 12-bit template fields.
    static let noTemplate: UInt32 = 0xFFF
    static let maximumRequiredLength = 0xFF

    // SRCH record (8 bytes, one per PATS record): u32 flags (8 bits) | the ASCII-subject text's prefix
    // template << 8 | suffix template << 20 (12 bits each, 0xFFF none); u32 offset in STRS of the plan's
    // bytes: when the ASCII-subject text has its own part (flag 2 without 64), a string reference (u32
    // offset, u32 length) to it; then the prefilter: u8 run count (≤ 2), each run as u8 length and
    // bytes, u8 suffix length and bytes, u8 byte-demand count and (u8 byte, u8 count) pairs. Both words
    // 0 for a pattern that is not PCRE2 text.
    static let searchPlanned: UInt32 = 1
    static let searchASCIISubject: UInt32 = 2
    /// The ASCII-subject text's own part is coded with the PCRE2 ``SymbolTable``.
    static let searchASCIICoded: UInt32 = 4
    static let searchCaseless: UInt32 = 8
    static let searchRepeatsAGroup: UInt32 = 16
    /// The ASCII-subject text's own part spells each `\.` as `.` (as PATS flag 8).
    static let searchASCIIDotsUnescaped: UInt32 = 32
    /// The ASCII-subject text's own part is its pattern's own part in PATS (and coded as it is).
    static let searchASCIIInPattern: UInt32 = 64
    static let searchTemplateShift: UInt32 = 8

    // DRPT: u32 ids, ascending, of the domain entries stored as PCRE2 text that repeats a group.

    // COND record (4 bytes): u32 first entry | kind << 29; its entries end where the next one's begin.
    static let conditionFirstMask: UInt32 = 0x1FFF_FFFF

    // DOMS record (``DomainLayout``): end of its text in STRS, end of its postings in DPST | flags << 21 or 29.
    // Both begin where the previous entry's end (entry 0's at 0): the domain texts open STRS, in id order.
    static let domainPostingsMask: UInt32 = 0x1FFF_FFFF
    static let domainSubdomains: UInt32 = 1
    static let domainCaseSensitive: UInt32 = 2
    static let domainIndexed: UInt32 = 4

    // ACTN record (4 bytes): u32 end of the slot's bytes in APAY | type << 28; they begin where the previous
    // slot's end (slot 0's at 0).
    static let actionSize = 4
    static let actionTypeShift: UInt32 = 28
    /// Largest end of a slot's bytes in APAY (the total size of APAY).
    static let maximumActionLength = 0x0FFF_FFFF
    static let actionEndMask: UInt32 = 0x0FFF_FFFF

    /// LGRM value with this bit set: the gram's only rule, held in the slot (no LPST list).
    static let inlinePosting = IndexHash.inlinePosting
    // Postings of the literal index: ``IndexHash/postingRuleMask``, ``IndexHash/neighbourCodeShift``.

    // HGRM slot (4 bytes): check byte << 24 | value (23 bits) | hostInlinePosting; 0 = empty (a used
    // slot's check byte is never 0). The value is the key's only rule (with the flag) or an LPST offset.
    static let hostCheckShift = IndexHash.hostCheckShift
    static let hostInlinePosting = IndexHash.hostInlinePosting
    static let hostValueMask = IndexHash.hostValueMask

    /// `ActionType.allCases` and `TriggerCondition.Kind.allCases`, made once (`allCases` builds a new array per call).
    static let actionTypes = ActionType.allCases
    static let conditionKinds = TriggerCondition.Kind.allCases

    static let requestMethods = RequestMethod.allCases

    static func conditionKind(_ kind: TriggerCondition.Kind) -> UInt8 {
        UInt8(conditionKinds.firstIndex(of: kind)! + 1)
    }
    static func methodCode(_ method: RequestMethod?) -> UInt8 {
        method.map { UInt8(requestMethods.firstIndex(of: $0)! + 1) } ?? 0
    }
    static func actionTypeCode(_ type: ActionType) -> UInt8 { UInt8(actionTypes.firstIndex(of: type)!) }

    /// `actionTypes[code]` for a code the validator accepted, as a switch: the matcher's per-rule reads
    /// load no global array (its lazy initialization check and a retain of the array per read).
    @inline(__always) static func actionType(code: UInt32) -> ActionType {
        switch code {
        case 0: return .block
        case 1: return .blockCookies
        case 2: return .cssDisplayNone
        case 3: return .ignorePreviousRules
        case 4: return .ignoreFollowingRules
        case 5: return .makeHTTPS
        case 6: return .notify
        case 7: return .redirect
        default: return .modifyHeaders
        }
    }

    /// `conditionKinds[code - 1]` for a code the validator accepted, as a switch (see
    /// ``actionType(code:)``).
    @inline(__always) static func conditionKind(code: UInt32) -> TriggerCondition.Kind {
        switch code {
        case 1: return .ifDomain
        case 2: return .unlessDomain
        case 3: return .ifTopURL
        case 4: return .unlessTopURL
        case 5: return .ifFrameURL
        default: return .unlessFrameURL
        }
    }

    static func aligned(_ value: Int) -> Int { (value + alignment - 1) & ~(alignment - 1) }
}

/// The layout of RULE records, chosen by the pattern, condition and action slot counts of META: 24 bits
/// of flags (`u16` resource types | entry << 14, `u8` load types | load contexts << 2 | method << 4),
/// then the pattern id, condition + 1 and action slot, as `u16`s (9-byte records) when every pattern id,
/// condition + 1 and slot fits in 16 bits, else as `u24`s (12-byte records). Two fixed layouts, so that
/// a record is read with constant shifts (one predictable branch).
@usableFromInline package struct RuleLayout: Sendable {
    /// 9 (compact) or 12.
    @usableFromInline package let size: Int
    /// Bit offsets of the fields in the record (pattern, condition + 1, slot), for the writer.
    var positions: (pattern: Int, condition: Int, slot: Int) { size == 9 ? (24, 40, 56) : (24, 48, 72) }

    /// Counts above ``Layout/maximumCount`` are refused on opening (before a rule is read).
    init(patterns: Int, conditions: Int, slots: Int) {
        size = patterns <= 0x1_0000 && conditions < 0x1_0000 && slots <= 0x1_0000 ? 9 : 12
    }

    /// The layout of `size`-byte records (9 or 12).
    init(size: Int) { self.size = size }
}

/// The layout of DOMS records, told by the size of DOMS (its byte count is the META domain count times
/// the record size): 6-byte records (`u24` text end, `u24` postings end | flags << 21) when every text
/// end fits in 24 bits and every postings end in 21, else 8-byte records (`u32` text end, `u32` postings
/// end | flags << 29).
@usableFromInline package struct DomainLayout: Sendable {
    /// 6 (compact) or 8.
    @usableFromInline let size: Int
    /// Position of the flags in the second field; the postings end fills the bits below.
    @usableFromInline let flagShift: UInt32
    /// The text end's bits in the `u32` at the record's start.
    @usableFromInline let textMask: UInt32
    /// The second field is the `u32` at `size - 4` shifted right by this (8: its high 24 bits).
    @usableFromInline let packedShift: UInt32

    @usableFromInline init(size: Int) {
        self.size = size
        flagShift = size == 6 ? 21 : 29
        textMask = size == 6 ? 0xFF_FFFF : 0xFFFF_FFFF
        packedShift = size == 6 ? 8 : 0
    }

    /// The layout the writer uses for these largest ends.
    init(textEnd: Int, postingsEnd: Int) { self.init(size: textEnd <= 0xFF_FFFF && postingsEnd < 1 << 21 ? 6 : 8) }

    /// The layout of a DOMS section of `byteCount` bytes holding `domains` records (8 if it is not 6).
    init(byteCount: Int, domains: Int) { self.init(size: domains > 0 && byteCount == domains * 6 ? 6 : 8) }

    /// The two fields of the record at `offset`: text end, and postings end | flags << ``flagShift``.
    /// Branch-free, with two `u32` reads inside the record.
    @inlinable @inline(__always) func ends(_ bytes: RawBytes, _ offset: Int) -> (text: UInt32, packed: UInt32) {
        (bytes.u32(offset) & textMask, bytes.u32(offset &+ size &- 4) >> packedShift)
    }
}

/// Hashing shared by the index writer and the matcher's look-ups.
@usableFromInline package enum IndexHash {
    /// Length of the literal index's grams.
    @inlinable package static var gramLength: Int { 4 }

    /// The 4 bytes at `at` as a little-endian `u32` (the gram's key; never 0 for indexed literals).
    @inline(__always) package static func gram(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
    }

    @inlinable @inline(__always) package static func gramSlot(_ gram: UInt32) -> Int {
        Int(truncatingIfNeeded: (UInt64(gram) &* 0x9E37_79B9_7F4A_7C15) >> 32)
    }

    /// Size of the gram filter in 64-bit words (2^20 bits: about 4% of the bits set for the ~40,000
    /// grams of an 84,000-rule list).
    static let gramFilterWords = 1 << 14

    /// The gram's bit in the gram filter (a hash independent of ``gramSlot(_:)``): the top 20 bits of
    /// the 32-bit product with an odd constant (multiplicative hashing; one multiply by an immediate).
    /// The filter is built on open, not stored: this hash is not part of the file format.
    @inlinable @inline(__always) package static func gramFilterBit(_ gram: UInt32) -> Int {
        Int(truncatingIfNeeded: (gram &* 0x85EB_CA77) >> 12)
    }

    /// The gram's bit in a 64-bit set of grams (a hash independent of ``gramSlot(_:)``):
    /// ``MappedRuleList/collectLiteralCandidates(_:into:)`` marks the indexed grams that occur more
    /// than once in the URL.
    @inlinable @inline(__always) package static func gramRepeatBit(_ gram: UInt32) -> UInt64 {
        1 &<< ((UInt64(gram) &* 0xD6E8_FEB8_6659_FD93) &>> 58)
    }

    /// Rule numbers in LGRM slots and in LPST lists of the literal index: the low 24 bits; the 7 bits
    /// above hold the rule's neighbour code (``IndexKey/gram(_:neighbourCode:)``).
    @inlinable package static var postingRuleMask: UInt32 { 0xFF_FFFF }
    @inlinable package static var neighbourCodeShift: UInt32 { 24 }
    /// A neighbour code with this bit compares the byte after the gram (else the byte before it); its
    /// low 6 bits are those of the byte.
    @inlinable package static var neighbourAfter: UInt32 { 0x40 }

    /// The neighbour code of a literal filed under its gram at `offset` (the gram's first occurrence in
    /// it): ``neighbourAfter`` | the low 6 bits of the byte after the gram, or, when the gram ends the
    /// literal, the low 6 bits of the byte before it; 0 (no check) when the gram is the whole literal
    /// or that code would be 0. Where the gram occurs once in a URL, an occurrence of the literal has
    /// that byte there (``neighbourAllows(_:_:gramAt:)``).
    package static func neighbourCode(_ literal: ArraySlice<UInt8>, gramAt offset: Int) -> UInt8 {
        let start = literal.startIndex
        if offset + gramLength < literal.count {
            return UInt8(neighbourAfter) | literal[start + offset + gramLength] & 0x3F
        }
        return offset > 0 ? literal[start + offset - 1] & 0x3F : 0
    }

    /// The rule of a candidate value of ``MappedRuleList/collectLiteralCandidates(_:into:)``
    /// (`code << 56 | rule << 32 | position + 1`; code 0 for candidates from elsewhere).
    @inlinable @inline(__always) package static func candidateRule(_ value: UInt64) -> Int {
        Int(truncatingIfNeeded: (value >> 32) & UInt64(postingRuleMask))
    }

    /// Whether a literal-index candidate `value` may occur in the lower-cased `url` whose gram occurs
    /// only at `gramAt`: its neighbour code (``IndexKey/gram(_:neighbourCode:)``, none = true)
    /// names the byte after or before the gram there. False means the candidate's literal is not in
    /// `url` (so neither is a match of its url-filter). O(1).
    @inlinable @inline(__always) package static func neighbourAllows(
        _ value: UInt64, _ url: UnsafeBufferPointer<UInt8>, gramAt: Int
    ) -> Bool {
        let code = UInt32(truncatingIfNeeded: value >> (32 + neighbourCodeShift)) & 0x7F
        if code == 0 { return true }
        let at = code & neighbourAfter != 0 ? gramAt &+ gramLength : gramAt &- 1
        return at >= 0 && at < url.count && UInt32(url[at]) & 0x3F == code & 0x3F
    }

    /// The prefix lengths the host index files required literals under: the longest of them that the
    /// literal has (``hostKey(_:_:_:length:)``). Longest first. The 24-byte keys tell apart long host
    /// names that share their first 16 bytes, for two more probes per request
    /// (`Benchmarks/results/2026-12-03-notes.md`).
    package static let hostKeyLengths = [24, 16, 8, 4]

    /// The host index's hash of `length` bytes (4, 8, 16 or 24) read as little-endian words: `first`
    /// (8 bytes, or 4 zero-extended), `second` (bytes 8–15, else 0), `third` (bytes 16–23, else 0).
    /// Its slot is `hash >> 32` masked, its check byte the low byte (1 when that is 0).
    @inlinable @inline(__always) package static func hostKey(
        _ first: UInt64, _ second: UInt64, _ third: UInt64, length: Int
    ) -> UInt64 {
        var hash =
            (first &* 0x9E37_79B9_7F4A_7C15) ^ (second &* 0xC2B2_AE3D_27D4_EB4F) ^ (third &* 0x1656_67B1_9E37_79F9)
            ^ UInt64(truncatingIfNeeded: length)
        hash ^= hash >> 29
        hash &*= 0xBF58_476D_1CE4_E5B9
        return hash ^ (hash >> 32)
    }

    /// The HGRM check byte of a ``hostKey(_:_:_:length:)`` hash, in place (never 0).
    @inlinable @inline(__always) package static func hostCheck(_ hash: UInt64) -> UInt32 {
        let low = UInt32(truncatingIfNeeded: hash) & 0xFF
        return (low | (low == 0 ? 1 : 0)) << hostCheckShift
    }

    /// LGRM value with this bit set: the gram's only rule (with its neighbour code), held in the slot
    /// (no LPST list).
    @inlinable package static var inlinePosting: UInt32 { 0x8000_0000 }
    /// HGRM slot: check byte << this | value (23 bits) | ``hostInlinePosting``; 0 = empty.
    @inlinable package static var hostCheckShift: UInt32 { 24 }
    /// HGRM value with this bit set: the key's only rule, in the slot (else an LPST offset).
    @inlinable package static var hostInlinePosting: UInt32 { 0x80_0000 }
    @inlinable package static var hostValueMask: UInt32 { 0x7F_FFFF }

    /// FNV-1a over `bytes` (ASCII lower-cased when `lowercase`), mixed with the domain flags.
    @inlinable @inline(__always) package static func domain(
        _ bytes: UnsafeBufferPointer<UInt8>, lowercase: Bool, flags: UInt32
    ) -> Int {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325 ^ UInt64(flags)
        for byte in bytes {
            let value = lowercase && byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
            hash = (hash ^ UInt64(value)) &* 0x100_0000_01B3
        }
        return Int(truncatingIfNeeded: hash ^ (hash >> 29))
    }

    /// ASCII lower-casing of one byte.
    @inlinable @inline(__always) package static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }
}
