// One instance of a class per thread, without a lock.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Each thread's own `Object`, made by `make` on the thread's first use and released when the thread
/// exits (a pthread key whose destructor releases it). Lets a `Sendable` type keep per-thread state
/// that is read and written without a lock (PCRE2's match data, the URL layer's memo); the object must
/// not be handed to another thread.
public final class ThreadLocal<Object: AnyObject>: Sendable {
    private let key: pthread_key_t
    private let make: @Sendable () -> Object

    public init(_ make: @escaping @Sendable () -> Object) {
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

    /// The calling thread's object (retained for the caller).
    public var current: Object { unmanaged().takeUnretainedValue() }

    /// Calls `body` with the calling thread's object (not retained for the call: the thread keeps it).
    @inlinable @inline(__always) public func with<Result>(_ body: (Object) -> Result) -> Result {
        unmanaged()._withUnsafeGuaranteedRef(body)
    }

    /// The calling thread's object, made (and kept by the thread) on first use. Not inlinable: the
    /// pthread functions come from an internal import.
    @usableFromInline func unmanaged() -> Unmanaged<Object> {
        if let existing = pthread_getspecific(key) { return Unmanaged<Object>.fromOpaque(existing) }
        let object = Unmanaged.passRetained(make())
        pthread_setspecific(key, object.toOpaque())
        return object
    }
}
