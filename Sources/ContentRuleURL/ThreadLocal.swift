// One instance of a class per thread, without a lock.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Each thread's own `Object`, made by `make` on the thread's first use and released when the thread
/// exits (a pthread key whose destructor releases it). Lets the URL layer keep per-thread memos that
/// are read and written without a lock; the object must not be handed to another thread.
final class ThreadLocal<Object: AnyObject>: Sendable {
    private let key: pthread_key_t
    private let make: @Sendable () -> Object

    init(_ make: @escaping @Sendable () -> Object) {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { pointer in
            #if canImport(Darwin)
                Unmanaged<AnyObject>.fromOpaque(pointer).release()
            #else
                if let pointer { Unmanaged<AnyObject>.fromOpaque(pointer).release() }
            #endif
        }
        precondition(status == 0, "pthread_key_create failed")
        self.key = key
        self.make = make
    }

    /// Calls `body` with the calling thread's object (not retained for the call: the thread keeps it).
    @inline(__always) func with<Result>(_ body: (Object) -> Result) -> Result {
        unmanaged()._withUnsafeGuaranteedRef(body)
    }

    private func unmanaged() -> Unmanaged<Object> {
        if let existing = pthread_getspecific(key) { return Unmanaged<Object>.fromOpaque(existing) }
        let object = Unmanaged.passRetained(make())
        pthread_setspecific(key, object.toOpaque())
        return object
    }
}
