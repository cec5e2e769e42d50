import ContentRuleModel

/// How a binary rule list file is brought into memory.
public enum FileLoading: Sendable {
    /// Mapped read-only (`mmap`, `MAP_PRIVATE`): no copy, pages shared with the page cache and other
    /// processes, read only where a request needs them. The file must not be changed in place while it
    /// is open — replace it by renaming a new file over it, as `content-blocker compile -o` and
    /// `AtomicFile` do (and as WebKit's content rule list store does). Truncating or rewriting it in
    /// place (`cp new.cbrl list.cbrl`, `: > list.cbrl`) changes bytes that were validated, or removes
    /// them: the process can then crash (`SIGBUS`) or misread the list.
    case memoryMapped
    /// Read into memory (one copy of the file, `read(2)`): what the file holds when it is opened,
    /// whatever happens to the file afterwards. Costs a copy of the file (about 1 ms for 6 MB) and
    /// private memory of its size.
    case copied
}

/// A version-6 binary rule list, read in place from a memory map (or from bytes in memory).
///
/// Opening checks the header, the section table and the checksum, then every offset, index and
/// tag of every table (``BinaryRuleListError`` on the first problem), so that the accessors, which
/// read without further checks, can never read outside the file. O(file size); no table is copied.
/// The file is read from memory once: each table is validated right after the checksum has read it,
/// from the cache. PCRE2 patterns are stored as text; compiling them is up to the matcher.
///
/// Immutable and `Sendable`. Layout: `Documentation/BinaryFormat.md`.
public final class MappedRuleList: Sendable {
    let storage: RawStorage
    @usableFromInline package let bytes: RawBytes
    @usableFromInline package let sections: SectionOffsets
    /// Size of the file in bytes.
    public let byteCount: Int
    /// Number of elements of the source JSON array.
    public let sourceRuleCount: Int
    /// Rules that can fire (the source rules minus those in the global stylesheet).
    public let ruleCount: Int
    /// Number of action slots (ACTN records).
    public let actionSlotCount: Int
    /// Number of stored patterns (PATS records).
    public let patternCount: Int
    /// Number of domain entries (DOMS records).
    public let domainCount: Int
    /// Number of stored conditions (COND records).
    public let conditionCount: Int
    /// `redirect` and `modify-headers` actions, decoded (and so validated) on open.
    let activeActions: [Int: Action]
    /// One bit per ``IndexHash/gramFilterBit(_:)`` of the literal index's grams, built on open: most
    /// 4-byte windows of a URL are in no rule's literal, and this 128 KiB table says so with one load
    /// instead of a probe sequence. Read through ``gramFilter``.
    private let gramFilterStorage: RawStorage
    /// ``gramFilterStorage``'s bits.
    package let gramFilter: RawBytes

    /// Maps (or, with ``FileLoading/copied``, reads) and validates the file at `path`.
    /// - Throws: ``BinaryRuleListError``: I/O errors, wrong signature or version, damage.
    /// - Complexity: O(file size) (checksum and table validation).
    public convenience init(contentsOfFile path: String, loading: FileLoading = .memoryMapped)
        throws(BinaryRuleListError)
    {
        switch loading {
        case .memoryMapped: try self.init(storage: try RawStorage(mapping: path))
        case .copied: try self.init(storage: try RawStorage(reading: path))
        }
    }

    /// Validates bytes of a binary rule list (copied once into aligned memory).
    public convenience init(bytes: [UInt8]) throws(BinaryRuleListError) {
        try self.init(storage: RawStorage(copying: bytes))
    }

    /// Maps (or reads) the file at `path` and validates the binary rule list in its first `length`
    /// bytes; the bytes after it belong to whoever wrote the file (the content rule list store keeps
    /// the list's identifier and source there). The list's header must give exactly `length` bytes.
    /// - Throws: ``BinaryRuleListError``, as ``init(contentsOfFile:loading:)``; `sizeMismatch` when the
    ///   file is shorter than `length`.
    package convenience init(contentsOfFile path: String, prefix length: Int, loading: FileLoading)
        throws(BinaryRuleListError)
    {
        let storage: RawStorage
        switch loading {
        case .memoryMapped: storage = try RawStorage(mapping: path)
        case .copied: storage = try RawStorage(reading: path)
        }
        guard length >= 0, length <= storage.count else { throw .sizeMismatch(expected: length, found: storage.count) }
        try self.init(storage: storage, length: length)
    }

    init(storage: RawStorage, length: Int? = nil) throws(BinaryRuleListError) {
        self.storage = storage
        let bytes = length.map { RawBytes(base: storage.base, count: $0) } ?? storage.bytes
        self.bytes = bytes
        try SectionOffsets.checkHeader(bytes)
        let tables = try Self.verifyAndValidate(bytes)
        sections = tables.sections
        byteCount = bytes.count
        let meta = tables.sections.meta
        sourceRuleCount = Int(bytes.u32(meta))
        ruleCount = Int(bytes.u32(meta + 4))
        actionSlotCount = Int(bytes.u32(meta + 8))
        patternCount = Int(bytes.u32(meta + 12))
        domainCount = Int(bytes.u32(meta + 16))
        conditionCount = Int(bytes.u32(meta + 28))
        activeActions = tables.activeActions
        gramFilterStorage = RawStorage(copying: tables.gramFilter)
        gramFilter = gramFilterStorage.bytes
    }

    /// The checksum, the section table and every table (``Validator``), in one pass over the file:
    /// the checksum advances section by section and each table is validated just after it, while
    /// it is still in the cache. The result is the same as checking them one after the other: a
    /// checksum mismatch is reported before any table error (validation reads only what it has
    /// checked, so it is safe on a damaged file too), a section table error before a table's.
    static func verifyAndValidate(_ bytes: RawBytes) throws(BinaryRuleListError) -> ValidatedTables {
        var checksum = Checksum.Stream(bytes, from: Layout.headerSize, count: bytes.count - Layout.headerSize)
        var tables: ValidatedTables?
        var failure: BinaryRuleListError?
        do {
            var validator = Validator(bytes: bytes, sections: try SectionOffsets(table: bytes))
            failure = validator.validate(advancing: &checksum)
            tables = ValidatedTables(
                sections: validator.sections, activeActions: validator.activeActions,
                gramFilter: validator.gramFilter)
        } catch {
            failure = error
        }
        let expected = bytes.u64(32)
        let found = checksum.finish()
        guard found == expected else { throw .checksumMismatch(expected: expected, found: found) }
        if let failure { throw failure }
        guard let tables else { throw .malformed(offset: 0, reason: "not validated") }
        return tables
    }

    /// Selectors of the global display-none stylesheet, or `nil` when the list has none.
    public var globalStylesheet: String? {
        let offset = bytes.u32(sections.meta + 20)
        guard offset != Layout.none else { return nil }
        return bytes.string(sections.strings.offset + Int(offset), Int(bytes.u32(sections.meta + 24)))
    }
}

/// Where each section starts and how many elements it has (validated by `init`).
@usableFromInline package struct SectionOffsets: Sendable {
    @usableFromInline package struct Section: Sendable {
        @usableFromInline package var offset: Int
        @usableFromInline package var count: Int
    }
    @usableFromInline var meta = 0
    @usableFromInline package var strings = Section(offset: 0, count: 0)
    @usableFromInline package var rules = Section(offset: 0, count: 0)
    @usableFromInline package var removedSources = Section(offset: 0, count: 0)
    @usableFromInline package var patterns = Section(offset: 0, count: 0)
    @usableFromInline package var conditions = Section(offset: 0, count: 0)
    @usableFromInline package var conditionEntries = Section(offset: 0, count: 0)
    @usableFromInline package var domains = Section(offset: 0, count: 0)
    @usableFromInline package var domainHash = Section(offset: 0, count: 0)
    @usableFromInline package var domainPostings = Section(offset: 0, count: 0)
    @usableFromInline package var domainFallbacks = Section(offset: 0, count: 0)
    @usableFromInline package var topURLRules = Section(offset: 0, count: 0)
    @usableFromInline package var literalHash = Section(offset: 0, count: 0)
    @usableFromInline package var literalPostings = Section(offset: 0, count: 0)
    @usableFromInline package var hostHash = Section(offset: 0, count: 0)
    @usableFromInline package var alwaysChecked = Section(offset: 0, count: 0)
    @usableFromInline package var universal = Section(offset: 0, count: 0)
    @usableFromInline package var actions = Section(offset: 0, count: 0)
    @usableFromInline package var actionPayloads = Section(offset: 0, count: 0)
    @usableFromInline package var templates = Section(offset: 0, count: 0)
    @usableFromInline package var searchPlans = Section(offset: 0, count: 0)
    @usableFromInline package var domainRepeats = Section(offset: 0, count: 0)
    @usableFromInline package var selectorSymbols = Section(offset: 0, count: 0)
    /// From the META counts (each is checked against ``Layout/maximumCount`` before a rule is read).
    @usableFromInline package var ruleLayout = RuleLayout(patterns: 0, conditions: 0, slots: 0)
    /// From the size of DOMS and the META domain count.
    @usableFromInline package var domainLayout = DomainLayout(size: 8)

    /// Checks the signature, the version, the header and file sizes, that the reserved header bytes
    /// are 0 (the checksum does not cover the header) and that the section table fits.
    static func checkHeader(_ bytes: RawBytes) throws(BinaryRuleListError) {
        guard bytes.count >= Layout.signature.count,
            Layout.signature.indices.allSatisfy({ bytes.u8($0) == Layout.signature[$0] })
        else { throw .notARuleList }
        guard bytes.count >= 16 else { throw .sizeMismatch(expected: Layout.headerSize, found: bytes.count) }
        let version = bytes.u32(8)
        guard version == BinaryRuleList.version else {
            throw .unsupportedVersion(found: version, supported: BinaryRuleList.version)
        }
        guard bytes.count >= Layout.headerSize else {
            throw .sizeMismatch(expected: Layout.headerSize, found: bytes.count)
        }
        guard Int(bytes.u32(12)) == Layout.headerSize else { throw .malformed(offset: 12, reason: "header size") }
        let declared = bytes.u64(16)
        guard declared == UInt64(bytes.count) else {
            throw .sizeMismatch(expected: declared > UInt64(Int.max) ? Int.max : Int(declared), found: bytes.count)
        }
        guard Int(bytes.u32(24)) == Layout.Tag.allCases.count else {
            throw .malformed(offset: 24, reason: "section count")
        }
        for offset in Array(28..<32) + Array(40..<Layout.headerSize) where bytes.u8(offset) != 0 {
            throw .malformed(offset: offset, reason: "reserved header byte is not 0")
        }
        let tableEnd = Layout.headerSize + Layout.Tag.allCases.count * Layout.sectionEntrySize
        guard bytes.count >= tableEnd else { throw .sizeMismatch(expected: tableEnd, found: bytes.count) }
    }

    /// Reads and checks the section table (after ``checkHeader(_:)``; the checksum is verified apart).
    init(table bytes: RawBytes) throws(BinaryRuleListError) {
        let tags = Layout.Tag.allCases
        let tableEnd = Layout.headerSize + tags.count * Layout.sectionEntrySize
        var seen: [Layout.Tag: Section] = [:]
        var previousEnd = tableEnd
        for index in tags.indices {
            let entry = Layout.headerSize + index * Layout.sectionEntrySize
            guard let tag = Layout.Tag(rawValue: bytes.u32(entry)), seen[tag] == nil else {
                throw .malformed(offset: entry, reason: "unknown or repeated section tag")
            }
            guard bytes.u32(entry + 4) == 0 else {
                throw .malformed(offset: entry + 4, reason: "reserved section table word is not 0")
            }
            let offset = Int(bytes.u32(entry + 8))
            let length = Int(bytes.u32(entry + 12))
            guard offset % Layout.alignment == 0, offset >= previousEnd, length <= bytes.count - offset,
                length % tag.elementSize == 0
            else { throw .malformed(offset: entry, reason: "section \(tag) out of bounds or misaligned") }
            previousEnd = offset + length
            seen[tag] = Section(offset: offset, count: length / tag.elementSize)
        }
        func section(_ tag: Layout.Tag) -> Section { seen[tag]! }
        guard section(.meta).count == 1 else { throw .malformed(offset: section(.meta).offset, reason: "META size") }
        meta = section(.meta).offset
        ruleLayout = RuleLayout(
            patterns: Int(bytes.u32(meta + 12)), conditions: Int(bytes.u32(meta + 28)), slots: Int(bytes.u32(meta + 8)))
        strings = section(.strings)
        rules = section(.rules)
        removedSources = section(.removedSources)
        patterns = section(.patterns)
        conditions = section(.conditions)
        conditionEntries = section(.conditionEntries)
        domains = section(.domains)
        domainLayout = DomainLayout(
            byteCount: domains.count * Layout.Tag.domains.elementSize, domains: Int(bytes.u32(meta + 16)))
        domainHash = section(.domainHash)
        domainPostings = section(.domainPostings)
        domainFallbacks = section(.domainFallbacks)
        topURLRules = section(.topURLRules)
        literalHash = section(.literalHash)
        literalPostings = section(.literalPostings)
        hostHash = section(.hostHash)
        alwaysChecked = section(.alwaysChecked)
        universal = section(.universal)
        actions = section(.actions)
        actionPayloads = section(.actionPayloads)
        templates = section(.templates)
        selectorSymbols = section(.selectorSymbols)
        searchPlans = section(.searchPlans)
        domainRepeats = section(.domainRepeats)
    }
}

/// The binary rule list file format, version 6 (see `Documentation/BinaryFormat.md`).
public enum BinaryRuleList {
    /// The version this build writes and reads.
    public static let version: UInt32 = 6
    /// The number of sections a file of this version has (its section table's length).
    public static var sectionCount: Int { Layout.Tag.allCases.count }

    /// Encodes a compiled rule list with its indexes. O(size of the list).
    /// - Throws: ``BinaryRuleListError/tooLarge(_:)`` when the list exceeds a limit of the format (more
    ///   than 2^24 − 1 rules, patterns, conditions, condition entries, domain entries or postings of a
    ///   domain; a url-filter text over 16 MiB; more than 256 MiB of action bytes; more than 4,094
    ///   templates; with host keys, more than 2^23 − 1 rules or index postings, which the compiler
    ///   avoids by filing every rule in the literal index). WebKit has no such limits; the parser's
    ///   150,000 rules keep real lists far below them.
    public static func encode(_ list: CompiledRuleList) throws(BinaryRuleListError) -> [UInt8] {
        try BinaryRuleListWriter.encode(list)
    }

    /// The checksum the header stores: XXH64 with seed 0 of every byte after the 64-byte header.
    public static func checksum(_ bytes: [UInt8]) -> UInt64 { Checksum.xxh64(bytes) }
}
