import SystemCalls

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
/// Only regular files are replaced: a destination that is a symbolic link is followed as `cp` and a
/// shell's `>` follow it (its target is written — created if the link dangles — and the link stays),
/// and one that exists but is not a regular file (a device such as `/dev/null`, a directory, a FIFO)
/// is refused — renaming over it would replace the device node.
///
/// A file replaced keeps its permission bits; a new file gets `0666` less the process's umask (the
/// mode `open(2)` would give it). The replacement is a new inode: other hard links to the old file
/// keep the old contents (as with `sed -i` or `rsync`).
public enum AtomicFile {
    /// Writes `bytes` to `path` atomically.
    /// - Throws: ``BinaryRuleListError/io(path:operation:message:)`` with the failing step and `strerror`
    ///   ("not a regular file" for a destination that exists and is not one).
    public static func write(_ bytes: [UInt8], to requestedPath: String) throws(BinaryRuleListError) {
        let (path, existingMode) = try destination(requestedPath)
        let directory = directoryName(of: path)
        // Created as `open(2)` creates a file (the kernel applies the umask and a default ACL); a file
        // being replaced is private until it gets that file's mode just before the rename.
        let (descriptor, temporaryPath) = try createTemporaryFile(
            in: directory, mode: existingMode == nil ? 0o666 : 0o600, for: path)
        var succeeded = false
        defer {
            if !succeeded { unlink(temporaryPath) }
        }
        guard bytes.withUnsafeBytes({ SystemCall.writeAll(descriptor, $0) }) else {
            let error = failure(path, "write")
            close(descriptor)
            throw error
        }
        guard existingMode.map({ fchmod(descriptor, $0) == 0 }) ?? true, fsync(descriptor) == 0 else {
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
            let count = chunk.withUnsafeMutableBytes { SystemCall.read(descriptor, $0.baseAddress!, $0.count) }
            if count < 0 { throw failure(path, "read") }
            if count == 0 { break }
            result.append(contentsOf: chunk[0..<count])
        }
        return result
    }

    /// A new file `directory/.tmp-content-blocker-XXXXXX` (random suffix) opened for writing, created
    /// with `mode` (less the umask): its descriptor and path.
    static func createTemporaryFile(
        in directory: String, mode: mode_t, for path: String
    ) throws(BinaryRuleListError) -> (Int32, String) {
        let characters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        for _ in 0..<100 {
            let suffix = String((0..<12).map { _ in characters.randomElement()! })
            let temporaryPath = directory + "/.tmp-content-blocker-" + suffix
            let descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
            if descriptor >= 0 { return (descriptor, temporaryPath) }
            if errno != EEXIST { break }
        }
        throw failure(path, "create temporary file")
    }

    /// The file a write to `path` replaces — `path`, or the target of the symbolic link(s) at `path`,
    /// which need not exist — and the permission bits of that file if it exists.
    /// - Throws: when `path` exists and is not a regular file (after following links), or a link
    ///   cannot be read or there are too many (a loop).
    static func destination(_ path: String) throws(BinaryRuleListError) -> (path: String, mode: mode_t?) {
        var resolved = path
        // Linux's limit on links followed in one path resolution (`ELOOP` beyond).
        for _ in 0...40 {
            var status = stat()
            guard lstat(resolved, &status) == 0 else {
                // Nothing there (the usual case, or a dangling link's target): the write creates it;
                // other errors show up when the temporary file is created.
                return (resolved, nil)
            }
            guard status.st_mode & S_IFMT == S_IFLNK else {
                guard status.st_mode & S_IFMT == S_IFREG else {
                    throw .io(path: path, operation: "replace", message: "not a regular file")
                }
                return (resolved, status.st_mode & 0o7777)
            }
            var target = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlink(resolved, &target, target.count - 1)
            guard length > 0 else { throw failure(path, "read symbolic link") }
            let text = String(decoding: target[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            // A relative target is relative to the link's directory.
            resolved = text.hasPrefix("/") ? text : directoryName(of: resolved) + "/" + text
        }
        errno = ELOOP
        throw failure(path, "resolve symbolic link")
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
