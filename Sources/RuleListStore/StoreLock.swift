import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// The store's lock between processes and threads: `flock(2)` on the store directory's `.lock` file,
/// shared for reading a list, exclusive for replacing or removing one. Each use opens its own
/// descriptor, so two threads of one process exclude each other as two processes do. A lock holder
/// that dies releases it (the kernel closes its descriptors).
struct StoreLock {
    private let descriptor: Int32

    /// Waits for the lock of the store at `directory`.
    /// - Throws: ``ContentRuleListStoreError/io(path:operation:message:)`` when the lock file cannot be
    ///   opened or locked.
    init(directory: String, exclusive: Bool) throws(ContentRuleListStoreError) {
        let path = directory + "/.lock"
        descriptor = SystemCall.retryingOnInterrupt { open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o666) }
        guard descriptor >= 0 else { throw .io(path: path, operation: "open lock", message: Self.errorText()) }
        let operation = exclusive ? LOCK_EX : LOCK_SH
        guard SystemCall.retryingOnInterrupt({ flock(descriptor, operation) }) == 0 else {
            let message = Self.errorText()
            close(descriptor)
            throw .io(path: path, operation: "lock", message: message)
        }
    }

    /// Releases the lock.
    func release() { close(descriptor) }

    static func errorText() -> String { String(cString: strerror(errno)) }
}
