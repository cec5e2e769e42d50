import ContentRuleCompiler
import ContentRuleFormat
import ContentRuleMatcher
import ContentRuleModel
import ContentRuleURL
import Foundation
import Testing

/// A list opened with `FileLoading.copied` keeps answering as it did when the file it came from is
/// rewritten in place, truncated or removed afterwards (a memory map would see the new bytes, or fault
/// on the missing ones); `content-blocker match` loads binary lists that way (with a map, a long-running
/// `match --requests -` crashes when `cp new.cbrl list.cbrl` rewrites its list).
@Suite struct FileLoadingTests {
    static let json = #"""
        [{"trigger":{"url-filter":"ads\\.js","if-domain":["*example.com"]},"action":{"type":"block"}},
         {"trigger":{"url-filter":"^https?://tracker\\.test/"},"action":{"type":"block"}}]
        """#
    static let other = #"[{"trigger":{"url-filter":"nothing-here"},"action":{"type":"block-cookies"}}]"#

    static func encoded(_ json: String) throws -> [UInt8] {
        try BinaryRuleList.encode(try #require(RuleListCompiler.compile(json: Array(json.utf8)).list))
    }

    static func blocks(_ list: ContentRuleList, _ url: String, top: String) throws -> Bool {
        let requestURL = try #require(WebURL(url))
        let topURL = try #require(WebURL(top))
        let load = ResourceLoadInfo(url: requestURL, mainDocumentURL: topURL, resourceType: .script)
        return list.actions(for: load).blocksLoad
    }

    @Test func aCopiedListIgnoresLaterChangesToItsFile() throws {
        let directory = try AtomicWriteTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("list.cbrl").path
        let bytes = try Self.encoded(Self.json)
        let replacement = try Self.encoded(Self.other)
        // Rewritten in place with another list (shorter), truncated to nothing, truncated to a
        // prefix, overwritten with garbage, removed.
        let changes: [(String, () throws -> Void)] = [
            ("rewritten", { try Data(replacement).write(to: URL(fileURLWithPath: path)) }),
            ("emptied", { try Data().write(to: URL(fileURLWithPath: path)) }),
            ("truncated", { try Data(bytes.prefix(100)).write(to: URL(fileURLWithPath: path)) }),
            ("garbage", { try Data(repeating: 0xA5, count: bytes.count).write(to: URL(fileURLWithPath: path)) }),
            ("removed", { try FileManager.default.removeItem(atPath: path) }),
        ]
        for (change, apply) in changes {
            // In place: the same inode (`Data.write` without `.atomic` truncates and writes).
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let list = try ContentRuleList(identifier: "copied", contentsOfFile: path, loading: .copied)
            #expect(try Self.blocks(list, "https://cdn.test/ads.js", top: "https://www.example.com/"), "\(change)")
            try apply()
            // The same answers as before the change, for every request.
            #expect(try Self.blocks(list, "https://cdn.test/ads.js", top: "https://www.example.com/"), "\(change)")
            #expect(try Self.blocks(list, "https://tracker.test/x", top: "https://a.test/"), "\(change)")
            #expect(try !Self.blocks(list, "https://cdn.test/ads.js", top: "https://a.test/"), "\(change)")
        }
    }

    @Test func bothLoadingsReadTheSameList() throws {
        let directory = try AtomicWriteTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("list.cbrl").path
        try Data(try Self.encoded(Self.json)).write(to: URL(fileURLWithPath: path))
        let mapped = try ContentRuleList(identifier: "l", contentsOfFile: path)
        let copied = try ContentRuleList(identifier: "l", contentsOfFile: path, loading: .copied)
        for (url, top) in [
            ("https://cdn.test/ads.js", "https://www.example.com/"), ("https://tracker.test/", "https://a.test/"),
            ("https://cdn.test/ads.js", "https://a.test/"),
        ] {
            #expect(try Self.blocks(mapped, url, top: top) == Self.blocks(copied, url, top: top))
        }
        // I/O errors are the same: a missing file, a directory.
        for loading in [FileLoading.memoryMapped, .copied] {
            #expect(throws: (any Error).self) {
                try ContentRuleList(identifier: "l", contentsOfFile: path + ".missing", loading: loading)
            }
            #expect(throws: (any Error).self) {
                try ContentRuleList(identifier: "l", contentsOfFile: directory.path, loading: loading)
            }
        }
    }
}
