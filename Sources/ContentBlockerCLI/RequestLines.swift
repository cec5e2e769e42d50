#if canImport(Glibc)
    import Glibc
#endif

/// The lines of a JSON Lines request stream (`match --requests`), read as they arrive: each
/// ``next()`` returns the complete lines read so far, so a tool that writes one request to a pipe and
/// waits gets its answer at once, and a large file is read 4 MiB at a time instead of all at once.
struct RequestLines {
    /// A run of complete lines: `bytes` and, per line, its number (from 1) and its bytes' range
    /// (without the newline and a carriage return before it).
    struct Batch {
        var bytes: [UInt8]
        var lines: [(number: Int, range: Range<Int>)]
    }

    private let descriptor: Int32
    private let path: String
    private var pending: [UInt8] = []
    /// What one `read(2)` fills (allocated on the first read).
    private var block: [UInt8] = []
    private var lineNumber = 0
    private var atEnd = false
    private static let readSize = 4 << 20

    /// Opens `path`, or standard input for `-`.
    /// - Throws: ``RuntimeError`` naming the path when it cannot be opened.
    init(path: String) throws(RuntimeError) {
        self.path = path
        if path == "-" {
            descriptor = 0
            return
        }
        let opened = open(path, O_RDONLY | O_CLOEXEC)
        guard opened >= 0 else { throw RuntimeError("cannot read \(path): \(String(cString: strerror(errno)))") }
        descriptor = opened
    }

    /// Closes the file (not standard input).
    func close() {
        if descriptor != 0 { _ = Glibc.close(descriptor) }
    }

    /// The next complete lines (at least one), or nil at the end of the input. A last line without a
    /// newline counts; blank lines are lines (their number is kept for the output's pairing).
    /// - Throws: ``RuntimeError`` on a read error.
    mutating func next() throws(RuntimeError) -> Batch? {
        while true {
            if atEnd {
                guard !pending.isEmpty else { return nil }
                let bytes = pending
                pending = []
                return batch(bytes)
            }
            let before = pending.count
            let count = try readChunk()
            if count == 0 {
                atEnd = true
                continue
            }
            // Complete lines end at the last newline of what has been read.
            guard let last = pending[before...].lastIndex(of: 0x0A) else { continue }
            let bytes = Array(pending[...last])
            pending.removeSubrange(...last)
            return batch(bytes)
        }
    }

    /// Appends to `pending` one `read(2)` of at most ``readSize`` bytes (what a pipe has now, or a block
    /// of a file); returns how many (0 at the end).
    private mutating func readChunk() throws(RuntimeError) -> Int {
        if block.isEmpty { block = [UInt8](repeating: 0, count: Self.readSize) }
        while true {
            let count = block.withUnsafeMutableBufferPointer { read(descriptor, $0.baseAddress!, $0.count) }
            if count >= 0 {
                pending.append(contentsOf: block[0..<count])
                return count
            }
            if errno != EINTR {
                let name = path == "-" ? "standard input" : path
                throw RuntimeError("cannot read \(name): \(String(cString: strerror(errno)))")
            }
        }
    }

    /// Numbers the lines of `bytes` (complete lines; the last may lack its newline).
    private mutating func batch(_ bytes: [UInt8]) -> Batch {
        var lines: [(number: Int, range: Range<Int>)] = []
        var start = 0
        while start < bytes.count {
            var end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
            let next = end + 1
            if end > start && bytes[end - 1] == 0x0D { end -= 1 }
            lineNumber += 1
            lines.append((lineNumber, start..<end))
            start = next
        }
        return Batch(bytes: bytes, lines: lines)
    }
}
