import RequestBatch
import SystemCalls

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
    /// The input is gzip'd (decided by its first bytes): what is read goes through it.
    private var inflater: GzipInflater?
    /// Bytes read before the input is known to be gzip'd or not (fewer than its two magic bytes).
    private var undecided: [UInt8]? = []

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
    /// of a file), inflated when the input is gzip'd (its first two bytes, 1f 8b); returns how many
    /// bytes were read (0 at the end).
    /// - Throws: ``RuntimeError`` on a read error, corrupt gzip data or a gzip stream cut short.
    private mutating func readChunk() throws(RuntimeError) -> Int {
        if block.isEmpty { block = [UInt8](repeating: 0, count: Self.readSize) }
        let count = block.withUnsafeMutableBufferPointer { SystemCall.read(descriptor, $0.baseAddress!, $0.count) }
        let name = path == "-" ? "standard input" : path
        guard count >= 0 else {
            throw RuntimeError("cannot read \(name): \(String(cString: strerror(errno)))")
        }
        var read = block[0..<count]
        if var head = undecided {
            // Not known yet: wait for two bytes, or the end.
            head += read
            guard head.count >= 2 || count == 0 else {
                undecided = head
                return count
            }
            undecided = nil
            if GzipInflater.isGzip(head) { inflater = GzipInflater() }
            read = head[...]
        }
        if let inflater {
            do {
                try read.withUnsafeBufferPointer { buffer throws(RuntimeError) in
                    try inflater.inflate(buffer, into: &pending)
                }
            } catch {
                throw RuntimeError("cannot read \(name): \(error.message)")
            }
            if count == 0 && !inflater.atMemberEnd {
                throw RuntimeError("cannot read \(name): the gzip stream is cut short")
            }
        } else {
            pending.append(contentsOf: read)
        }
        return count
    }

    /// Numbers the lines of `bytes` (complete lines; the last may lack its newline).
    private mutating func batch(_ bytes: [UInt8]) -> Batch {
        let ranges = bytes.withUnsafeBufferPointer { BatchMatching.lineRanges(in: $0) }
        let lines = ranges.enumerated().map { (number: lineNumber + $0.offset + 1, range: $0.element) }
        lineNumber += ranges.count
        return Batch(bytes: bytes, lines: lines)
    }
}
