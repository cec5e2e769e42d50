#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension PCRE2Scratch {
    /// The calling thread's own scratch, created on first use and freed when the thread exits.
    ///
    /// Lets a `Sendable` matcher run PCRE2 from any thread without allocating match data per call.
    /// Do not hand the returned object to another thread.
    public static var forCurrentThread: PCRE2Scratch { unmanagedForCurrentThread().takeUnretainedValue() }

    /// Calls `body` with ``forCurrentThread`` without retaining it (the thread keeps it until it exits).
    @inlinable @inline(__always)
    public static func withCurrentThread<Result>(_ body: (PCRE2Scratch) -> Result) -> Result {
        unmanagedForCurrentThread()._withUnsafeGuaranteedRef(body)
    }

    /// The calling thread's scratch, created (and kept by the thread) on first use.
    @usableFromInline static func unmanagedForCurrentThread() -> Unmanaged<PCRE2Scratch> {
        let key = ThreadScratchKey.shared.key
        if let existing = pthread_getspecific(key) { return Unmanaged<PCRE2Scratch>.fromOpaque(existing) }
        let scratch = Unmanaged.passRetained(PCRE2Scratch())
        pthread_setspecific(key, scratch.toOpaque())
        return scratch
    }
}

/// The pthread key under which each thread keeps its scratch; its destructor releases it.
private final class ThreadScratchKey: Sendable {
    static let shared = ThreadScratchKey()
    let key: pthread_key_t

    private init() {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { pointer in
            #if canImport(Darwin)
                Unmanaged<PCRE2Scratch>.fromOpaque(pointer).release()
            #else
                if let pointer { Unmanaged<PCRE2Scratch>.fromOpaque(pointer).release() }
            #endif
        }
        precondition(status == 0, "pthread_key_create failed")
        self.key = key
    }
}
