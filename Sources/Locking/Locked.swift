#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value guarded by a POSIX mutex: `Synchronization.Mutex`'s `withLock`, with a lock that Thread
/// Sanitizer sees.
///
/// On Linux `Synchronization.Mutex` takes its lock with priority-inheritance futexes inside the
/// runtime, which TSan does not observe: every access a `Mutex` guards is reported as a data race
/// (eight threads incrementing a `Mutex`-guarded dictionary give dozens of reports; the same program
/// with a `pthread_mutex_t` gives none). `scripts/tsan` must be able to tell real races from those, so
/// the matcher's shared caches use this type instead.
///
/// Uncontended, a lock and unlock cost about as much as `Mutex`'s (`pthread_mutex_lock` /
/// `pthread_mutex_unlock`, a compare-and-swap each).
public final class Locked<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// Accessed only inside `withLock`, under the mutex: Swift's run-time exclusivity check (a
    /// `swift_beginAccess`/`swift_endAccess` pair on every call) would only repeat what the mutex
    /// guarantees.
    @exclusivity(unchecked) private var value: Value

    /// Guards `value`.
    public init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        precondition(pthread_mutex_init(mutex, nil) == 0, "pthread_mutex_init failed")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value; other threads' `withLock` calls wait.
    /// Not reentrant: calling `withLock` on the same instance from `body` deadlocks.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
