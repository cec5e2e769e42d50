public import Locking

extension PCRE2Scratch {
    /// The calling thread's own scratch, created on first use and freed when the thread exits.
    ///
    /// Lets a `Sendable` matcher run PCRE2 from any thread without allocating match data per call.
    /// Do not hand the returned object to another thread.
    public static var forCurrentThread: PCRE2Scratch { perThread.current }

    /// Calls `body` with ``forCurrentThread`` without retaining it (the thread keeps it until it exits).
    @inlinable @inline(__always)
    public static func withCurrentThread<Result>(_ body: (PCRE2Scratch) -> Result) -> Result {
        perThread.with(body)
    }

    /// Each thread's scratch (a pthread key whose destructor releases it).
    @usableFromInline static let perThread = ThreadLocal { PCRE2Scratch() }
}
