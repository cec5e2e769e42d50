public import Foundation

/// Directories for tests' files, under one directory of this test process that is removed when the
/// process exits (a test run leaves nothing in the temporary directory).
public enum TemporaryDirectory {
    /// `$TMPDIR/cb-tests-PID`, created on first use, with its removal registered at exit.
    static let root: URL = {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "cb-tests-\(ProcessInfo.processInfo.processIdentifier)")
        atexit {
            let root = FileManager.default.temporaryDirectory.appendingPathComponent(
                "cb-tests-\(ProcessInfo.processInfo.processIdentifier)")
            try? FileManager.default.removeItem(at: root)
        }
        return root
    }()

    /// A new empty directory, `prefix` and a UUID, under ``root``.
    public static func make(_ prefix: String) throws -> URL {
        let url = root.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
