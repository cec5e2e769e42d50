import Dispatch
import Locking
import Testing

@testable import PCRE2Support

/// Searches of JIT-compiled patterns call `pcre2_jit_match` directly; patterns where that would
/// differ from `pcre2_match` (no machine code, or UTF mode with its subject check) keep `pcre2_match`.
/// Expected answers are PCRE2's documented behaviour.
@Suite struct PCRE2DirectJITTests {
    static func outcome(_ regex: PCRE2Regex, _ bytes: [UInt8], _ scratch: PCRE2Scratch = PCRE2Scratch())
        -> PCRE2MatchOutcome
    {
        bytes.withUnsafeBufferPointer { regex.matchesReportingLimit($0, scratch: scratch) }
    }

    @Test func patternWithoutMachineCodeStillMatches() throws {
        // `(*NO_JIT)`: the JIT compile "succeeds" without machine code; the interpreter answers.
        let regex = try PCRE2Regex("(*NO_JIT)ab+c", options: [])
        #expect(Self.outcome(regex, Array("xabbbc".utf8)) == .match)
        #expect(Self.outcome(regex, Array("xac".utf8)) == .noMatch)
    }

    @Test func utfPatternStillChecksTheSubject() throws {
        // `(*UTF)`: an invalid UTF-8 subject is an error (pcre2_match's check), never a match.
        let regex = try PCRE2Regex("(*UTF)a", options: [])
        guard case .error(let code) = Self.outcome(regex, [0xFF, 0x61]) else {
            Issue.record("invalid UTF-8 was searched")
            return
        }
        #expect(code < 0)
        #expect(Self.outcome(regex, Array("éa".utf8)) == .match)
    }

    @Test func patternMatchLimitBelowTheContextsApplies() throws {
        // `(*LIMIT_MATCH=…)`: the smaller of the pattern's and the match context's limits applies.
        // (The DFA form of such a pattern does not compile, so the outcome is `.limitExceeded`.)
        let subject = Array((String(repeating: "ab", count: 500) + "c").utf8)
        let scratch = PCRE2Scratch()
        let limited = try PCRE2Regex("(*LIMIT_MATCH=20)(?:a|b)*?c", options: [])
        #expect(limited.isJITCompiled)
        #expect(Self.outcome(limited, subject, scratch) == .limitExceeded)
        #expect(scratch.lastMatchHitLimit)
        let unlimited = try PCRE2Regex("(?:a|b)*?c", options: [])
        #expect(Self.outcome(unlimited, subject, scratch) == .match)
        #expect(!scratch.lastMatchHitLimit)
    }

    @Test func jitCompiledSearchesMatchLikeTheInterpreter() throws {
        let subjects = ["", "a", "https://ads.example.com/banner.gif", "xx/ad/yy", "AD", "/ad"]
        for pattern in [#"/ad/"#, #"^https?://[^/]*\.example\.com/"#, "(?i)ad", #"\.gif$"#, "^$"] {
            let jit = try PCRE2Regex(pattern, options: [])
            let interpreted = try PCRE2Regex("(*NO_JIT)" + pattern, options: [])
            for subject in subjects {
                #expect(
                    Self.outcome(jit, Array(subject.utf8)) == Self.outcome(interpreted, Array(subject.utf8)),
                    "\(pattern) on \(subject)")
            }
        }
    }
}

/// ``WriteOnceSlots``: the first store into a slot wins, every reader sees that object.
@Suite struct WriteOnceSlotsTests {
    final class Box: Sendable {
        let value: Int
        init(_ value: Int) { self.value = value }
    }

    @Test func emptyUntilStoredThenFirstStoreWins() {
        let slots = WriteOnceSlots<Box>(count: 3 * WriteOnceSlots<Box>.chunkSize + 5)
        #expect(slots.count == 3 * WriteOnceSlots<Box>.chunkSize + 5)
        let last = slots.count - 1
        #expect(slots[0] == nil && slots[last] == nil)
        let first = Box(1)
        #expect(slots.store(first, at: last) === first)
        #expect(slots.store(Box(2), at: last) === first)
        #expect(slots[last] === first)
        #expect(slots[last - 1] == nil && slots[0] == nil)
        #expect(slots.withObject(at: last) { $0.value } == 1)
        #expect(slots.withObject(at: 0) { $0.value } == nil)
        #expect(WriteOnceSlots<Box>(count: 0).count == 0)
    }

    @Test func concurrentStoresAgreeOnOneObjectPerSlot() {
        let slots = WriteOnceSlots<Box>(count: 1000)
        let threads = 8
        let seen = Locked<[[ObjectIdentifier]]>(Array(repeating: [], count: threads))
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            var mine: [ObjectIdentifier] = []
            for index in 0..<slots.count {
                // Half the threads read first, so reads race with stores.
                let found = thread % 2 == 0 ? slots[index] : nil
                let object = found ?? slots.store(Box(thread), at: index)
                #expect(slots[index] === object)
                mine.append(ObjectIdentifier(object))
            }
            seen.withLock { $0[thread] = mine }
        }
        let all = seen.withLock { $0 }
        for thread in 1..<threads { #expect(all[thread] == all[0]) }
        #expect((0..<slots.count).allSatisfy { slots[$0].map { ObjectIdentifier($0) } == all[0][$0] })
    }
}

/// `PCRE2Scratch`'s work arrays: given back, they keep their capacity (and, while short, their
/// elements: a user reads from the count it found); long ones are emptied, large ones dropped.
@Suite struct PCRE2ScratchWorkArrayTests {
    @Test func arraysComeBackWithTheirCapacity() {
        let scratch = PCRE2Scratch()
        var (candidates, rules) = scratch.takeWorkArrays()
        #expect(candidates.isEmpty && rules.isEmpty)
        candidates += [1, 2, 3]
        rules += [7]
        let capacity = candidates.capacity
        scratch.restoreWorkArrays(&candidates, &rules)
        #expect(candidates.isEmpty && rules.isEmpty)  // what the scratch held before: empty
        let (again, againRules) = scratch.takeWorkArrays()
        #expect(again == [1, 2, 3] && againRules == [7])
        #expect(again.capacity == capacity)
        // Taken arrays are not in the scratch any more.
        #expect(scratch.takeWorkArrays() == ([], []))
    }

    @Test func withCurrentThreadLendsTheThreadsScratch() {
        let mine = PCRE2Scratch.forCurrentThread
        #expect(PCRE2Scratch.withCurrentThread { $0 === mine })
        // Another thread (this one waits) gets its own.
        let other = Locked<ObjectIdentifier?>(nil)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            other.withLock { $0 = PCRE2Scratch.withCurrentThread { ObjectIdentifier($0) } }
            done.signal()
        }
        done.wait()
        #expect(other.withLock { $0 } != nil && other.withLock { $0 } != ObjectIdentifier(mine))
    }

    @Test func longArraysAreEmptiedAndLargeOnesDropped() {
        let scratch = PCRE2Scratch()
        var long = [UInt64](repeating: 5, count: PCRE2Scratch.workArrayCountKept + 1)
        var rules: [Int32] = []
        rules.reserveCapacity(PCRE2Scratch.workArrayCapacityKept + 1)
        scratch.restoreWorkArrays(&long, &rules)
        let (emptied, dropped) = scratch.takeWorkArrays()
        #expect(emptied.isEmpty && emptied.capacity >= PCRE2Scratch.workArrayCountKept + 1)
        #expect(dropped.isEmpty && dropped.capacity < PCRE2Scratch.workArrayCapacityKept)
    }
}
