import ContentRuleCompiler
import ContentRuleFormat
import Foundation
import TestSupport
import Testing

/// Damaged binary rule lists must give a clear error, never a crash, hang or out-of-bounds read.
/// (Swift traps on out-of-bounds access, so any unchecked read fails these tests by crashing.)
@Suite struct BinaryRuleListRobustnessTests {
    /// A small list that uses every kind of payload: conditions, flags, every action type.
    static let sample: [UInt8] = {
        let json = """
            [{"trigger":{"url-filter":"^https?://ads\\\\.example/","resource-type":["image","script"],"load-type":["third-party"]},"action":{"type":"block"}},
             {"trigger":{"url-filter":".*","if-domain":["*news.example","shop.example"]},"action":{"type":"css-display-none","selector":".ad, #banner"}},
             {"trigger":{"url-filter":"track","unless-top-url":["^https://safe\\\\."],"request-method":"post"},"action":{"type":"block-cookies"}},
             {"trigger":{"url-filter":"notify-me","load-context":["child-frame"]},"action":{"type":"notify","notification":"hello"}},
             {"trigger":{"url-filter":"go","if-frame-url":["frame"]},"action":{"type":"redirect","redirect":{"transform":{"scheme":"https","port":"8443","query-transform":{"remove-parameters":["utm"],"add-or-replace-parameters":[{"key":"a","value":"1","replace-only":true}]}}}}},
             {"trigger":{"url-filter":"hdr"},"action":{"type":"modify-headers","priority":3,"request-headers":[{"operation":"set","header":"X-A","value":"1"},{"operation":"remove","header":"Cookie"}]}},
             {"trigger":{"url-filter":"x(y)z"},"action":{"type":"redirect","redirect":{"regex-substitution":"https://\\\\1.test/"}}},
             {"trigger":{"url-filter":"upgrade"},"action":{"type":"make-https"}},
             {"trigger":{"url-filter":"allow"},"action":{"type":"ignore-previous-rules"}},
             {"trigger":{"url-filter":"stop"},"action":{"type":"ignore-following-rules"}}]
            """
        let compiled = RuleListCompiler.compile(json: Array(json.utf8)).list!
        return BinaryRuleList.encode(compiled)
    }()

    @Test func sampleRoundTrips() throws {
        let decoded = try BinaryRuleList.decode(Self.sample)
        #expect(BinaryRuleList.encode(decoded) == Self.sample)
        #expect(decoded.rules.count == 10)
    }

    @Test func truncationAtEveryOffsetIsAnError() {
        for length in 0..<Self.sample.count {
            #expect(throws: BinaryRuleListError.self) { try BinaryRuleList.decode(Array(Self.sample[0..<length])) }
        }
    }

    @Test func bitFlipsAreCaughtByTheChecksum() {
        var generator = SplitMix64(seed: 42)
        for _ in 0..<2_000 {
            var bytes = Self.sample
            let offset = 32 + Int(generator.next() % UInt64(bytes.count - 32))
            bytes[offset] ^= UInt8(1 << (generator.next() % 8))
            #expect(throws: BinaryRuleListError.self) { try BinaryRuleList.decode(bytes) }
        }
    }

    @Test func wrongSignatureVersionAndSize() {
        var bytes = Self.sample
        bytes[1] = 0x44
        #expect(throws: BinaryRuleListError.notARuleList) { try BinaryRuleList.decode(bytes) }
        bytes = Self.sample
        bytes[8] = 9
        #expect(throws: BinaryRuleListError.unsupportedVersion(found: 9, supported: 1)) {
            try BinaryRuleList.decode(bytes)
        }
        #expect(throws: BinaryRuleListError.self) { try BinaryRuleList.decode(Self.sample + [0]) }
        #expect(throws: BinaryRuleListError.notARuleList) { try BinaryRuleList.decode([]) }
    }

    /// The hostile case: payload bytes changed and the checksum recomputed, so only the decoder's own
    /// validation stands between the data and a crash. Every result must be a decoded list or an error.
    @Test func corruptPayloadWithValidChecksumNeverCrashes() {
        var generator = SplitMix64(seed: 7)
        var errors = 0
        for round in 0..<20_000 {
            var bytes = Self.sample
            let changes = 1 + round % 4
            for _ in 0..<changes {
                let offset = 32 + Int(generator.next() % UInt64(bytes.count - 32))
                bytes[offset] = round % 3 == 0 ? 0xFF : UInt8(truncatingIfNeeded: generator.next())
            }
            Self.fixChecksum(&bytes)
            do {
                _ = try BinaryRuleList.decode(bytes)
            } catch {
                errors += 1
            }
        }
        #expect(errors > 0)
    }

    /// Huge counts and lengths at every 4-byte position of the payload must not allocate or read past the end.
    @Test func hugeCountsAreRejected() {
        for offset in stride(from: 32, to: Self.sample.count - 4, by: 1) {
            var bytes = Self.sample
            for index in 0..<4 { bytes[offset + index] = 0xFF }
            Self.fixChecksum(&bytes)
            _ = try? BinaryRuleList.decode(bytes)
        }
    }

    static func fixChecksum(_ bytes: inout [UInt8]) {
        let crc = crc32(bytes[32...])
        for index in 0..<4 { bytes[24 + index] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(index))) }
    }

    /// CRC-32 (IEEE), written independently of the library's for the test.
    static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc & 1) == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}

/// A small seeded generator (SplitMix64) for reproducible corruption.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
