import TestSupport
import Testing

@testable import ContentRuleFormat

/// The writer's deduplication tables must number keys exactly like a dictionary filled in the same
/// order (first insertion wins), since record ids and STRS offsets in the file depend on it.
@Suite struct ByteKeyTableTests {
    /// Keys of 0 to 40 bytes (across the 8-byte hashing words) from a small alphabet, so that many
    /// repeat and many share prefixes.
    static func keys(seed: UInt64, count: Int) -> [[UInt8]] {
        var generator = SeededGenerator(seed: seed)
        return (0..<count).map { _ in
            let length = Int.random(in: 0...40, using: &generator)
            return (0..<length).map { _ in UInt8.random(in: 0x61...0x63, using: &generator) }
        }
    }

    @Test(arguments: [1, 2, 3] as [UInt64]) func idsMatchADictionaryInInsertionOrder(seed: UInt64) {
        var table = ByteKeyTable()
        var reference: [[UInt8]: Int] = [:]
        for key in Self.keys(seed: seed, count: 5000) {
            table.append(key[...])
            let (id, isNew) = table.finish()
            let expected = reference[key] ?? reference.count
            #expect(id == expected)
            #expect(isNew == (reference[key] == nil))
            if reference[key] == nil { reference[key] = expected }
            #expect(Array(table[id]) == key)
        }
        #expect(table.count == reference.count)
        // Keys are stored back to back in id order.
        let stored = reference.sorted { $0.value < $1.value }.flatMap(\.key)
        #expect(table.bytes == stored)
    }

    @Test func keysBuiltFromPartsAndRemovedBytes() {
        var table = ByteKeyTable()
        table.append(u32: 0x0403_0201)
        table.append("ab")
        #expect(table.finish() == (0, true))
        table.append([UInt8]([1, 2, 3, 4, 0x61, 0x62])[...])
        #expect(table.finish() == (0, false))
        table.append("abc")
        let other = table.finish()
        #expect(other == (1, true))
        #expect(Array(table[other.id]) == Array("abc".utf8))
        #expect(table.pendingCount == 0)
    }

    @Test func stringPoolOffsetsAreFirstInsertionPositions() {
        var pool = StringPool()
        #expect(pool.add("") == (0, 0))
        #expect(pool.add("abc") == (0, 3))
        #expect(pool.add("de") == (3, 2))
        #expect(pool.add("abc") == (0, 3))
        #expect(pool.add(Array("de".utf8)[...]) == (3, 2))
        // Byte equality, not String equality: "é" precomposed and decomposed are different strings here.
        #expect(pool.add("\u{E9}") == (5, 2))
        #expect(pool.add("e\u{301}") == (7, 3))
        #expect(pool.bytes == Array("abcde\u{E9}e\u{301}".utf8))
    }
}
