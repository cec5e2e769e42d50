import TestSupport
import Testing

@testable import ContentRuleMatcher

/// The literal scan's set of slots already taken must answer like a `Set`: inline slots, the 64-bit
/// filter (slots sharing their low 6 bits) and the hash set behind them.
@Suite struct SeenSlotsTests {
    @Test(arguments: [1, 2, 3] as [UInt64]) func insertAnswersLikeASet(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        for distinct in [1, 8, 15, 16, 17, 40, 300] {
            // The set's first size: the default, and the one a long URL's scan starts with.
            var seen = SeenSlots(firstSetSize: distinct % 2 == 0 ? 32 : 256)
            var reference = Set<Int>()
            // Slots from a pool of `distinct` values, many a multiple of 64 apart, each drawn several times.
            let pool = (0..<distinct).map { $0 * 64 + Int.random(in: 0...2, using: &generator) }
            for _ in 0..<(distinct * 4) {
                let slot = pool.randomElement(using: &generator)!
                #expect(seen.insert(slot) == reference.insert(slot).inserted, "\(distinct) \(slot)")
            }
        }
    }
}
