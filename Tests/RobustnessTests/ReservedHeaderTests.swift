import ContentRuleFormat
import Testing

/// The header's reserved bytes (offsets 28–31 and 40–63, "reserved, 0" in
/// Documentation/BinaryFormat.md) are outside the checksum: the reader refuses a file where one is
/// not 0, naming its offset, so a later format version can give them a meaning; likewise the reserved
/// word of each section-table entry.
@Suite struct ReservedHeaderTests {
    static let reservedOffsets = Array(28..<32) + Array(40..<64)

    /// The writer leaves every reserved byte 0 and such a file opens.
    @Test func zeroReservedBytesOpen() throws {
        let bytes = BinaryRuleListRobustnessTests.sample
        for offset in Self.reservedOffsets { #expect(bytes[offset] == 0, "offset \(offset)") }
        #expect(try MappedRuleList(bytes: bytes).ruleCount == 10)
    }

    /// Each reserved byte set to 1 or 0xFF, alone, is refused with the error naming its offset.
    @Test(arguments: reservedOffsets)
    func nonZeroReservedByteIsRefused(_ offset: Int) {
        for value: UInt8 in [1, 0x80, 0xFF] {
            var bytes = BinaryRuleListRobustnessTests.sample
            bytes[offset] = value
            #expect(throws: BinaryRuleListError.malformed(offset: offset, reason: "reserved header byte is not 0")) {
                try MappedRuleList(bytes: bytes)
            }
        }
    }

    /// The reserved `u32` of each section-table entry (bytes 4–7 of the entry) is 0 as written and
    /// refused otherwise, even with a checksum made to fit (the checksum covers the table).
    @Test func nonZeroSectionTableWordIsRefused() throws {
        let sample = BinaryRuleListRobustnessTests.sample
        let entries = Int(sample[24]) | Int(sample[25]) << 8
        #expect(entries > 0)
        for entry in 0..<entries {
            let offset = 64 + entry * 16 + 4
            #expect(sample[offset..<(offset + 4)].allSatisfy { $0 == 0 }, "entry \(entry)")
            for byte in [offset, offset + 3] {
                var bytes = sample
                bytes[byte] = 1
                BinaryRuleListRobustnessTests.fixChecksum(&bytes)
                #expect(
                    throws: BinaryRuleListError.malformed(
                        offset: offset, reason: "reserved section table word is not 0")
                ) { try MappedRuleList(bytes: bytes) }
            }
        }
    }

    /// The error reads as the other header errors do: the byte's offset and what is wrong.
    @Test func errorNamesTheOffset() {
        var bytes = BinaryRuleListRobustnessTests.sample
        bytes[41] = 7
        let error = #expect(throws: BinaryRuleListError.self) { try MappedRuleList(bytes: bytes) }
        #expect(error?.description == "binary rule list is damaged at byte 41: reserved header byte is not 0")
    }
}
