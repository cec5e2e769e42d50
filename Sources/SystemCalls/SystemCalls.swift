#if canImport(Glibc)
    import Glibc
    let systemRead = Glibc.read
    let systemWrite = Glibc.write
#elseif canImport(Darwin)
    import Darwin
    let systemRead = Darwin.read
    let systemWrite = Darwin.write
#endif

/// POSIX calls that a signal can interrupt (`EINTR`), retried in one place.
public enum SystemCall {
    /// `body`'s result, calling it again while it fails with `EINTR`; another failure is returned as
    /// it is (-1, with `errno` set).
    public static func retryingOnInterrupt<Result: FixedWidthInteger>(_ body: () -> Result) -> Result {
        while true {
            let result = body()
            if result != -1 || errno != EINTR { return result }
        }
    }

    /// `read(2)` of at most `count` bytes into `buffer`, retried on `EINTR`: the number read (0 at the
    /// end of the file), or -1 with `errno` set.
    public static func read(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        retryingOnInterrupt { systemRead(descriptor, buffer, count) }
    }

    /// Writes every byte of `bytes` to `descriptor` (`write(2)` until done, retried on `EINTR`);
    /// false with `errno` set when a write fails.
    public static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var offset = 0
        while offset < bytes.count {
            let written = retryingOnInterrupt { systemWrite(descriptor, base + offset, bytes.count - offset) }
            if written < 0 { return false }
            offset += written
        }
        return true
    }
}
