#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whole-file reads and crash-safe writes.
///
/// A write goes to a new temporary file in the destination's directory, is flushed with `fsync`,
/// then renamed over the destination (atomic on POSIX file systems), and the directory is synced.
/// A reader therefore sees either the old file or the complete new one, never a partial file, even
/// if the process is killed mid-write; on any error the temporary file is removed.
///
/// Only regular files are replaced: a destination that is a symbolic link is followed (its target is
/// written, the link stays), and one that exists but is not a regular file (a device such as
/// `/dev/null`, a directory, a FIFO) is refused — renaming over it would replace the device node.
public enum AtomicFile {
    /// Writes `bytes` to `path` atomically.
    /// - Throws: ``BinaryRuleListError/io(path:operation:message:)`` with the failing step and `strerror`
    ///   ("not a regular file" for a destination that exists and is not one).
    public static func write(_ bytes: [UInt8], to requestedPath: String) throws(BinaryRuleListError) {
        let path = try destination(requestedPath)
        let directory = directoryName(of: path)
        var template = Array((directory + "/.tmp-content-blocker-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw failure(path, "create temporary file") }
        let temporaryPath = String(
            decoding: template.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var succeeded = false
        defer {
            if !succeeded { unlink(temporaryPath) }
        }
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                Glibc.write(descriptor, buffer.baseAddress! + written, bytes.count - written)
            }
            if result < 0 {
                if errno == EINTR { continue }
                let error = failure(path, "write")
                close(descriptor)
                throw error
            }
            written += result
        }
        guard fchmod(descriptor, 0o644) == 0, fsync(descriptor) == 0 else {
            let error = failure(path, "sync")
            close(descriptor)
            throw error
        }
        guard close(descriptor) == 0 else { throw failure(path, "close") }
        guard rename(temporaryPath, path) == 0 else { throw failure(path, "rename") }
        succeeded = true
        let directoryDescriptor = open(directory, O_RDONLY | O_DIRECTORY)
        if directoryDescriptor >= 0 {
            _ = fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
    }

    /// Reads a whole file.
    /// - Throws: ``BinaryRuleListError/io(path:operation:message:)``.
    public static func read(_ path: String) throws(BinaryRuleListError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw failure(path, "open") }
        defer { close(descriptor) }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure(path, "read")
            }
            if count == 0 { break }
            result.append(contentsOf: chunk[0..<count])
        }
        return result
    }

    /// The file a write to `path` replaces: `path`, or the target of the symbolic link(s) at `path`.
    /// - Throws: when `path` exists and is not a regular file (after following links), or a link
    ///   cannot be resolved.
    static func destination(_ path: String) throws(BinaryRuleListError) -> String {
        var status = stat()
        guard lstat(path, &status) == 0 else {
            // Nothing there (the usual case): the write creates it; other errors show up when the
            // temporary file is created.
            return path
        }
        var resolved = path
        if status.st_mode & S_IFMT == S_IFLNK {
            guard let real = realpath(path, nil) else { throw failure(path, "resolve symbolic link") }
            resolved = String(cString: real)
            free(real)
            guard stat(resolved, &status) == 0 else { throw failure(path, "resolve symbolic link") }
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw .io(path: path, operation: "replace", message: "not a regular file")
        }
        return resolved
    }

    static func directoryName(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "." }
        if slash == path.utf8.startIndex { return "/" }
        return String(path[..<slash])
    }

    static func failure(_ path: String, _ operation: String) -> BinaryRuleListError {
        .io(path: path, operation: operation, message: String(cString: strerror(errno)))
    }
}
