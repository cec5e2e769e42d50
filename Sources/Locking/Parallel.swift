import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Work on contiguous parts of a range on several threads, results in order.
public enum Parallel {
    /// The processors this process may run on (at least 1).
    public static let processorCount = max(Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), 1)

    /// `transform` of `0..<count`, computed as contiguous parts on up to ``processorCount`` threads
    /// when `count` is at least `minimumCount` (each part then has at least `minimumCount / 2`
    /// elements), and concatenated in order. `transform` must give each part's results independently
    /// of the others, so the result does not depend on how the range was split.
    ///
    /// - Complexity: the work of `transform` over `count` elements, spread over the parts, plus one
    ///   copy of the results.
    public static func map<Result>(
        count: Int, minimumCount: Int, _ transform: (Range<Int>) -> [Result]
    ) -> [Result] {
        let parts = count >= minimumCount ? min(processorCount, count / max(minimumCount / 2, 1)) : 1
        guard parts > 1 else { return transform(0..<count) }
        let results = UnsafeMutableBufferPointer<[Result]>.allocate(capacity: parts)
        results.initialize(repeating: [])
        defer {
            _ = results.deinitialize()
            results.deallocate()
        }
        // Each part writes its own slot only, and concurrentPerform returns after every part has.
        nonisolated(unsafe) let slots = results
        withoutActuallyEscaping(transform) { transform in
            nonisolated(unsafe) let work = transform
            DispatchQueue.concurrentPerform(iterations: parts) { part in
                slots[part] = work(count * part / parts..<count * (part + 1) / parts)
            }
        }
        var joined: [Result] = []
        joined.reserveCapacity(count)
        for part in results { joined += part }
        return joined
    }
}
