import ContentRuleCompiler
import ContentRuleFormat
import Testing

/// Opening checks the checksum and every table in one pass (`Documentation/BinaryFormat.md`,
/// "Opening"): whatever the order the work is done in, a damaged file gives the error of the first
/// check in the documented order: the checksum before any table, then the tables in order.
@Suite struct BinaryRuleListOpeningTests {
    /// Byte offset of the section with `tag` (section table: 16-byte entries from offset 64; `u32`
    /// tag, reserved, offset, length).
    static func section(_ tag: String, in bytes: [UInt8]) -> Int {
        let wanted = Array(tag.utf8)
        let end = 64 + BinaryRuleList.sectionCount * 16
        for entry in stride(from: 64, to: end, by: 16) where Array(bytes[entry..<(entry + 4)]) == wanted {
            return (0..<4).reduce(0) { $0 | Int(bytes[entry + 8 + $1]) << (8 * $1) }
        }
        Issue.record("no section \(tag)")
        return 0
    }

    /// Opening `bytes` fails with `.malformed` at `offset` (the damaged table's offset).
    static func expectMalformed(_ bytes: [UInt8], reportedAt offset: Int, _ comment: String = "") {
        do {
            _ = try MappedRuleList(bytes: bytes)
            Issue.record("a damaged file opened \(comment)")
        } catch {
            guard case .malformed(let found, _) = error else {
                Issue.record("unexpected error \(error) \(comment)")
                return
            }
            #expect(found == offset, "\(comment)")
        }
    }

    static func setU32(_ bytes: inout [UInt8], _ offset: Int, _ value: UInt32, width: Int = 4) {
        for index in 0..<width { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(index))) }
    }

    @Test func checksumMismatchComesBeforeATableError() {
        var bytes = BinaryRuleListRobustnessTests.sample
        Self.setU32(&bytes, Self.section("RULE", in: bytes), 0xFFFF_FFFF)  // rule 0's pattern
        let expected = (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[32 + $1]) << (8 * UInt64($1)) }
        let found = BinaryRuleList.checksum(Array(bytes[64...]))
        #expect(throws: BinaryRuleListError.checksumMismatch(expected: expected, found: found)) {
            try MappedRuleList(bytes: bytes)
        }
    }

    /// DPST (domain postings) is checked before DHSH (the domain hash table), which comes first in
    /// the file: with both damaged, the posting is reported; with only the hash table, the hash table.
    @Test func theFirstDamagedTableInCheckingOrderIsReported() throws {
        let postings = Self.section("DPST", in: BinaryRuleListRobustnessTests.sample)
        let hashTable = Self.section("DHSH", in: BinaryRuleListRobustnessTests.sample)
        #expect(hashTable < postings)
        var onlyHashTable = BinaryRuleListRobustnessTests.sample
        Self.setU32(&onlyHashTable, hashTable, 0x7F_FFFF, width: 3)  // u24 slot 0: neither empty nor a domain id
        BinaryRuleListRobustnessTests.fixChecksum(&onlyHashTable)
        var both = onlyHashTable
        Self.setU32(&both, postings, 0x7F_FFFF, width: 3)  // u24 posting 0: not a rule
        BinaryRuleListRobustnessTests.fixChecksum(&both)
        for (bytes, offset) in [(onlyHashTable, hashTable), (both, postings)] {
            Self.expectMalformed(bytes, reportedAt: offset)
        }
    }

    /// A rule number in an LPST list (a gram with several rules) that is not a rule is refused, as are
    /// u24 condition entries (CENT) past the domain count.
    @Test func damagedPostingListsAndConditionEntriesAreRefused() throws {
        let json =
            "["
            + (0..<8).map {
                #"{"trigger":{"url-filter":"shared-x","if-domain":["d\#($0).test"]},"action":{"type":"block"}}"#
            }
            .joined(separator: ",") + "]"
        let list = try #require(RuleListCompiler.compile(json: Array(json.utf8)).list)
        let sample = try BinaryRuleList.encode(list)
        _ = try MappedRuleList(bytes: sample)
        #expect(Self.section("LPST", in: sample) < Self.section("ALWS", in: sample))  // LPST holds a list
        for (tag, offset, width) in [("LPST", 4, 4), ("CENT", 0, 3)] {
            var bytes = sample
            let at = Self.section(tag, in: bytes) + offset
            Self.setU32(&bytes, at, 0x7F_FFFF, width: width)
            BinaryRuleListRobustnessTests.fixChecksum(&bytes)
            #expect(throws: BinaryRuleListError.self, "\(tag)") { try MappedRuleList(bytes: bytes) }
        }
    }

    static func u32(_ bytes: [UInt8], _ offset: Int, width: Int = 4) -> UInt32 {
        (0..<width).reduce(0) { $0 | UInt32(bytes[offset + $1]) << (8 * UInt32($1)) }
    }

    /// ACTN records (`u32` end in APAY | type << 28) and the sample's 6-byte DOMS records (`u24` text end,
    /// `u24` postings end | flags << 21): an unknown type, an action end past APAY or below the previous
    /// slot's, a text end past STRS, a postings end past DPST and a domain count that does not match
    /// the size of DOMS are refused, the records' errors at the record's offset.
    @Test func damagedActionAndDomainRecordsAreRefused() throws {
        let sample = BinaryRuleListRobustnessTests.sample
        let rules = try MappedRuleList(bytes: sample)
        let actions = Self.section("ACTN", in: sample)
        let domains = Self.section("DOMS", in: sample)
        let meta = Self.section("META", in: sample)
        let last = actions + (rules.actionSlotCount - 1) * 4
        let lastType = Self.u32(sample, last) & 0xF000_0000
        // The slot before the last has bytes in APAY (an end of 0 would be below it).
        try #require(Self.u32(sample, last - 4) & 0x0FFF_FFFF > 0)
        try #require(rules.domainCount == 2)
        let damages: [(at: Int, value: UInt32, width: Int, reported: Int)] = [
            (actions, 15 << 28, 4, actions),  // unknown type
            (last, lastType | 0x0FFF_FFFF, 4, last),  // past APAY
            (last, lastType, 4, last),  // below the previous end
            (domains, 0xFF_FFFF, 3, domains),  // text end past STRS
            (domains + 3, 0x1F_FFFF, 3, domains),  // postings end past DPST (no flags)
            (meta + 16, 3, 4, meta),  // three domains: DOMS would hold 18 bytes
        ]
        for damage in damages {
            var bytes = sample
            Self.setU32(&bytes, damage.at, damage.value, width: damage.width)
            BinaryRuleListRobustnessTests.fixChecksum(&bytes)
            Self.expectMalformed(bytes, reportedAt: damage.reported, "\(damage)")
        }
    }
}
