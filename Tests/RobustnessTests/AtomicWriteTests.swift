import ContentRuleFormat
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Crash-safe output: a compile killed at any moment leaves the previous file intact and no partial
/// file visible; file-system errors are reported clearly.
@Suite struct AtomicWriteTests {
    static func temporaryDirectory() throws -> URL {
        try TemporaryDirectory.make("atomic")
    }

    @Test func unwritableDirectoryIsAClearError() throws {
        let error = #expect(throws: BinaryRuleListError.self) {
            try AtomicFile.write([1, 2, 3], to: "/nonexistent-directory/out.cbrl")
        }
        #expect(error?.description.contains("/nonexistent-directory/out.cbrl") == true)
        #expect(error?.description.contains("No such file or directory") == true)
    }

    @Test func writeReplacesWholeFile() throws {
        let directory = try Self.temporaryDirectory()
        let path = directory.appendingPathComponent("out.bin").path
        try AtomicFile.write(Array(repeating: 1, count: 10), to: path)
        try AtomicFile.write(Array(repeating: 2, count: 5), to: path)
        #expect(try AtomicFile.read(path) == Array(repeating: 2, count: 5))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["out.bin"])
    }

    /// A destination that exists and is not a regular file is refused and left as it was (renaming
    /// over a device node would replace it); a symbolic link is followed: its target is written, the
    /// link stays a link.
    @Test func onlyRegularFilesAreReplaced() throws {
        let directory = try Self.temporaryDirectory()
        for special in ["/dev/null", directory.path] {
            let error = #expect(throws: BinaryRuleListError.self) { try AtomicFile.write([1, 2, 3], to: special) }
            #expect(error?.description.contains("not a regular file") == true, "\(special)")
        }
        var status = stat()
        #expect(stat("/dev/null", &status) == 0 && status.st_mode & S_IFMT == S_IFCHR)
        let fifo = directory.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: BinaryRuleListError.self) { try AtomicFile.write([1], to: fifo) }

        let target = directory.appendingPathComponent("target.bin").path
        let link = directory.appendingPathComponent("link.bin").path
        try AtomicFile.write([9], to: target)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        try AtomicFile.write([4, 5], to: link)
        #expect(try AtomicFile.read(target) == [4, 5])
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
        // A link to nothing: its target is created (as `cp` and `>` do), the link stays.
        let dangling = directory.appendingPathComponent("dangling.bin").path
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: directory.path + "/missing")
        try AtomicFile.write([1], to: dangling)
        #expect(try AtomicFile.read(directory.path + "/missing") == [1])
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dangling) == directory.path + "/missing")
        // A link to a directory that does not exist: a clear error naming the target, nothing created.
        let nowhere = directory.appendingPathComponent("nowhere.bin").path
        try FileManager.default.createSymbolicLink(atPath: nowhere, withDestinationPath: directory.path + "/no/file")
        let error = #expect(throws: BinaryRuleListError.self) { try AtomicFile.write([1], to: nowhere) }
        #expect(error?.description.contains("No such file or directory") == true)
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/no"))
    }

    /// `content-blocker compile` of a large list, killed with SIGKILL after a random delay, many times:
    /// the output is always absent or a complete, valid binary rule list (never partial).
    @Test(.slowTier) func killedCompileLeavesNoPartialFile() throws {
        let cli = TestData.contentBlockerExecutable
        let list = TestData.repositoryRoot.appendingPathComponent("rules/easy2json/easyprivacy.json").path
        let directory = try Self.temporaryDirectory()
        let output = directory.appendingPathComponent("out.cbrl").path
        var generator = SeededGenerator(seed: 3)
        var sawComplete = false
        for attempt in 0..<12 {
            let process = Process()
            process.executableURL = cli
            process.arguments = ["compile", list, "-o", output]
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(useconds_t(generator.next() % 1_500_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            if FileManager.default.fileExists(atPath: output) {
                let bytes = try AtomicFile.read(output)
                #expect(throws: Never.self, "attempt \(attempt): partial output") { try MappedRuleList(bytes: bytes) }
                sawComplete = true
            }
            let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            for name in names where name.hasPrefix(".tmp-content-blocker") {
                // A temporary file may remain after SIGKILL (nothing can remove it), but it is never
                // the output's name, and the next successful compile leaves only complete files.
                try FileManager.default.removeItem(atPath: directory.appendingPathComponent(name).path)
            }
        }
        print("killed compiles: output complete in some attempts: \(sawComplete)")
    }
}
