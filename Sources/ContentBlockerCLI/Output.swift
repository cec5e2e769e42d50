import RequestBatch
import RuleListParser
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// Standard output and error, unbuffered writes of whole lines.
enum Console {
    static func out(_ text: String) { write(text + "\n", to: 1) }
    static func err(_ text: String) { write(text + "\n", to: 2) }

    /// Whether ``progress(_:)`` shows anything: standard error is a terminal and standard output is
    /// not that terminal. Results written to the terminal that shows the progress line would land
    /// on the line after it (the next result would start where the progress text ends); when
    /// results go to a file or a pipe, the progress line is all the terminal shows.
    static let showsProgress: Bool = {
        guard isatty(2) != 0 else { return false }
        guard isatty(1) != 0 else { return true }
        var output = stat()
        var error = stat()
        guard fstat(1, &output) == 0, fstat(2, &error) == 0 else { return false }
        return output.st_rdev != error.st_rdev
    }()

    /// A progress line on standard error (overwritten in place), only when ``showsProgress``.
    static func progress(_ text: String) {
        guard showsProgress else { return }
        write("\r\u{1B}[K" + text, to: 2)
    }
    static func endProgress() {
        guard showsProgress else { return }
        write("\r\u{1B}[K", to: 2)
    }

    /// The `errno` of the first failed write to standard output (a full disk, a closed pipe with
    /// SIGPIPE ignored), or nil: the process then exits 2 instead of 0 (`main.swift`). Written by the
    /// main thread only.
    nonisolated(unsafe) static var outputError: Int32?

    /// Writes `text` to standard output; false (and ``outputError`` set) when the write failed.
    @discardableResult
    static func outText(_ text: String) -> Bool { write(text, to: 1) }

    @discardableResult
    private static func write(_ text: String, to descriptor: Int32) -> Bool {
        var text = text
        return text.withUTF8 { write($0, to: descriptor) }
    }

    /// Writes `bytes` to standard output (a binary rule list for `compile -o -`); false on an error.
    @discardableResult
    static func outBytes(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { write($0, to: 1) }
    }

    /// Opens `path` (a device or a pipe) for writing and writes `bytes` to it; false with `errno` set
    /// when the open or a write fails.
    static func write(_ bytes: [UInt8], toStream path: String) -> Bool {
        let descriptor = open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        let written = bytes.withUnsafeBufferPointer { write($0, to: descriptor) }
        let error = errno
        close(descriptor)
        errno = error
        return written
    }

    private static func write(_ buffer: UnsafeBufferPointer<UInt8>, to descriptor: Int32) -> Bool {
        guard SystemCall.writeAll(descriptor, UnsafeRawBufferPointer(buffer)) else {
            if descriptor == 1 && outputError == nil { outputError = errno }
            return false
        }
        return true
    }
}

/// A JSON value for output, with keys kept in insertion order.
indirect enum JSON {
    case null
    case bool(Bool)
    case int(Int)
    case string(String)
    case array([JSON])
    case object([(String, JSON)])
    /// JSON text written as it is.
    case raw(String)

    var text: String {
        var writer = JSONWriter()
        write(to: &writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    func write(to writer: inout JSONWriter) {
        switch self {
        case .null: writer.null()
        case .bool(let value): writer.bool(value)
        case .int(let value): writer.int(value)
        case .string(let value): writer.string(value)
        case .raw(let text): writer.raw(text)
        case .array(let values):
            writer.openArray()
            for value in values {
                writer.element()
                value.write(to: &writer)
            }
            writer.closeArray()
        case .object(let members):
            writer.openObject()
            for (key, value) in members {
                writer.key(key)
                value.write(to: &writer)
            }
            writer.closeObject()
        }
    }

}
