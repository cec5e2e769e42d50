import CZlib

/// Inflates a gzip stream as it arrives, with zlib (`inflate` with gzip headers; members written one
/// after another, as `cat a.gz b.gz` makes, are read in turn). The zlib stream lives at a fixed heap
/// address, which zlib requires between calls.
final class GzipInflater {
    private let stream: UnsafeMutablePointer<z_stream>
    private var output = [UInt8](repeating: 0, count: 1 << 18)
    /// The last member ended and no byte of another has come since.
    private(set) var atMemberEnd = false

    /// Whether `bytes` begin as a gzip stream does (its magic number 1f 8b).
    static func isGzip(_ bytes: some Collection<UInt8>) -> Bool { bytes.starts(with: [0x1F, 0x8B]) }

    init() {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        // 15 + 16: the largest window, and gzip headers and trailers (zlib's `inflateInit2`).
        let status = inflateInit2_(stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        precondition(status == Z_OK, "zlib inflateInit2 failed (\(status))")
    }

    deinit {
        inflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Appends to `out` what `input` inflates to.
    /// - Throws: ``RuntimeError`` with zlib's reason when the data is not a valid gzip stream.
    func inflate(_ input: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) throws(RuntimeError) {
        guard let base = input.baseAddress, !input.isEmpty else { return }
        stream.pointee.next_in = UnsafeMutablePointer(mutating: base)
        stream.pointee.avail_in = UInt32(input.count)
        while stream.pointee.avail_in > 0 {
            if atMemberEnd {
                inflateReset(stream)
                atMemberEnd = false
            }
            let (status, produced) = output.withUnsafeMutableBufferPointer { buffer in
                stream.pointee.next_out = buffer.baseAddress
                stream.pointee.avail_out = UInt32(buffer.count)
                let status = CZlib.inflate(stream, Z_NO_FLUSH)
                return (status, buffer.count - Int(stream.pointee.avail_out))
            }
            out.append(contentsOf: output[0..<produced])
            switch status {
            case Z_OK, Z_BUF_ERROR: continue
            case Z_STREAM_END: atMemberEnd = true
            default:
                let reason = stream.pointee.msg.map { String(cString: $0) } ?? "error \(status)"
                throw RuntimeError("not a valid gzip stream (zlib: \(reason))")
            }
        }
    }
}
