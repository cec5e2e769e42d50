import ContentRuleMatcher
import ContentRuleModel
import ContentRuleURL
import Foundation
import Locking
import TestSupport
import Testing

@testable import RuleListStore

/// `ContentRuleListStore`: WebKit's `WKContentRuleListStore` operations (compile for an identifier,
/// look up, remove, the available identifiers, the source) on a directory, with identifiers of any
/// string, a list of an older binary rule list version compiled again from its stored source, and
/// damaged files reported and still removable. Expected answers: a list compiled directly from the same
/// JSON (`TestLists.compile`), and the JSON bytes given.
@Suite struct ContentRuleListStoreTests {
    static let block = #"[{"trigger":{"url-filter":"ads"},"action":{"type":"block"}}]"#
    static let cookies = #"[{"trigger":{"url-filter":"track"},"action":{"type":"block-cookies"}}]"#

    static func temporaryStore() throws -> ContentRuleListStore {
        // A store creates its directory: this one does not exist yet.
        let path = try TemporaryDirectory.make("store").path
        return try ContentRuleListStore(directory: path + "/nested/store")
    }

    static func actions(_ list: ContentRuleList, _ url: String) throws -> [Action] {
        let load = ResourceLoadInfo(url: try #require(WebURL(url)), mainDocumentURL: nil, resourceType: .image)
        return list.actions(for: load).actions
    }

    @Test func compileLookUpSourceRemove() throws {
        let store = try Self.temporaryStore()
        let compiled = try store.compileContentRuleList(forIdentifier: "ads", encodedContentRuleList: Self.block)
        #expect(try Self.actions(compiled, "https://x.test/ads.js") == [.block])
        let found = try store.lookUpContentRuleList(forIdentifier: "ads")
        #expect(found.identifier == "ads")
        #expect(try Self.actions(found, "https://x.test/ads.js") == [.block])
        #expect(try Self.actions(found, "https://x.test/a.js").isEmpty)
        #expect(try store.contentRuleListSource(forIdentifier: "ads") == Array(Self.block.utf8))
        #expect(try store.availableContentRuleListIdentifiers() == ["ads"])
        // Replacing: the new list is found; a list looked up before keeps its own answers.
        try store.compileContentRuleList(forIdentifier: "ads", encodedContentRuleList: Self.cookies)
        #expect(
            try Self.actions(store.lookUpContentRuleList(forIdentifier: "ads"), "https://x.test/track") == [
                .blockCookies
            ])
        #expect(try Self.actions(found, "https://x.test/ads.js") == [.block])
        try store.removeContentRuleList(forIdentifier: "ads")
        #expect(try store.availableContentRuleListIdentifiers().isEmpty)
        #expect(throws: ContentRuleListStoreError.notFound(identifier: "ads")) {
            try store.lookUpContentRuleList(forIdentifier: "ads")
        }
        #expect(throws: ContentRuleListStoreError.notFound(identifier: "ads")) {
            try store.removeContentRuleList(forIdentifier: "ads")
        }
        #expect(throws: ContentRuleListStoreError.notFound(identifier: "ads")) {
            try store.contentRuleListSource(forIdentifier: "ads")
        }
        #expect(try Self.actions(found, "https://x.test/ads.js") == [.block])  // still mapped
    }

    /// Any string is an identifier: each is stored in a file of the store's directory and listed back.
    @Test func identifiersOfAnyString() throws {
        let store = try Self.temporaryStore()
        let identifiers = [
            "", "a/b", "../escape", ".hidden", "%41", "spaces and\ttabs", "ünïcödé", "日本", "a\u{0}b", "UPPER-lower_9",
            String(repeating: "long/", count: 200),
        ]
        for identifier in identifiers {
            try store.compileContentRuleList(forIdentifier: identifier, encodedContentRuleList: Self.block)
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: store.directory).filter { $0 != ".lock" }
        #expect(names.count == identifiers.count)
        #expect(names.allSatisfy { $0.hasPrefix("ContentRuleList-") && !$0.contains("/") && $0.utf8.count <= 255 })
        #expect(
            try store.availableContentRuleListIdentifiers()
                == identifiers.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        for identifier in identifiers {
            #expect(try store.lookUpContentRuleList(forIdentifier: identifier).identifier == identifier)
            try store.removeContentRuleList(forIdentifier: identifier)
        }
        #expect(try store.availableContentRuleListIdentifiers().isEmpty)
    }

    /// An invalid list is refused with its diagnostics (WebKit's first error first); the stored list stays.
    @Test func invalidListKeepsTheStoredOne() throws {
        let store = try Self.temporaryStore()
        try store.compileContentRuleList(forIdentifier: "x", encodedContentRuleList: Self.block)
        do {
            try store.compileContentRuleList(forIdentifier: "x", encodedContentRuleList: #"[{"trigger":{}}]"#)
            Issue.record("compiled an invalid list")
        } catch {
            guard case .compileFailed(let identifier, let diagnostics) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(identifier == "x")
            #expect(diagnostics.first?.error == .jsonInvalidURLFilterInTrigger)  // WebKit: a trigger needs a url-filter
            #expect(error.webKitMessage == "Unspecified error during compile.")
        }
        #expect(try store.contentRuleListSource(forIdentifier: "x") == Array(Self.block.utf8))
        #expect(try Self.actions(store.lookUpContentRuleList(forIdentifier: "x"), "https://x.test/ads") == [.block])
    }

    /// A list stored by binary rule list version 5 (`Tests/Data/format/v5-sample.cbin`, compiled from
    /// `v5-sample.json`) is compiled again from its stored source when looked up, and stored in its place.
    @Test func olderVersionIsCompiledAgainFromItsSource() throws {
        let store = try Self.temporaryStore()
        let directory = TestData.repositoryRoot.appendingPathComponent("Tests/Data/format")
        let old = Array(try Data(contentsOf: directory.appendingPathComponent("v5-sample.cbin")))
        let source = Array(try Data(contentsOf: directory.appendingPathComponent("v5-sample.json")))
        let path = store.path(for: "old")
        try Data(StoredFile.encode(binary: old, identifier: "old", source: source)).write(
            to: URL(fileURLWithPath: path))
        let migrated = try store.lookUpContentRuleList(forIdentifier: "old")
        let direct = try #require(TestLists.compile(source).list)
        for url in ["https://ads.example/x", "https://example.com/ads/banner.png", "https://site.test/track.js"] {
            #expect(try Self.actions(migrated, url) == Self.actions(direct, url), "\(url)")
        }
        let rewritten = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(rewritten[8] == 6)  // the binary rule list's version, little-endian at byte 8
        #expect(try store.contentRuleListSource(forIdentifier: "old") == source)
        // A version-5 list whose source does not compile now: version mismatch, as WebKit reports it.
        try Data(StoredFile.encode(binary: old, identifier: "bad", source: Array("[]".utf8)))
            .write(to: URL(fileURLWithPath: store.path(for: "bad")))
        do {
            _ = try store.lookUpContentRuleList(forIdentifier: "bad")
            Issue.record("looked up a list whose source does not compile")
        } catch {
            guard case .versionMismatch(_, let found, let diagnostics) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(found == 5)
            #expect(diagnostics.first?.error == .jsonContainsNoRules)
            #expect(error.webKitMessage == "Version of file does not match version of interpreter.")
        }
    }

    /// A damaged file is a clear error naming the file; `remove` still removes it.
    @Test func damagedFilesAreReportedAndRemovable() throws {
        let store = try Self.temporaryStore()
        let damages: [(String, ([UInt8]) -> [UInt8])] = [
            ("truncated", { Array($0.prefix($0.count / 2)) }),
            (
                "a payload byte changed",
                {
                    var bytes = $0
                    bytes[100] ^= 0xFF
                    return bytes
                }
            ),
            (
                "footer lengths",
                {
                    var bytes = $0
                    bytes[bytes.count - 24] ^= 0x01
                    return bytes
                }
            ),
            ("empty", { _ in [] }),
            (
                "another identifier's file",
                { _ in
                    StoredFile.encode(binary: [], identifier: "someone-else", source: [])
                }
            ),
        ]
        for (name, damage) in damages {
            try store.compileContentRuleList(forIdentifier: name, encodedContentRuleList: Self.block)
            let url = URL(fileURLWithPath: store.path(for: name))
            try Data(damage(Array(try Data(contentsOf: url)))).write(to: url)
            do {
                _ = try store.lookUpContentRuleList(forIdentifier: name)
                Issue.record("\(name): looked up")
            } catch {
                guard case .damaged(let identifier, let path, _) = error else {
                    Issue.record("\(name): \(error)")
                    continue
                }
                #expect(identifier == name && path == url.path, "\(name)")
                #expect(error.description.contains("compile it again, or remove it"), "\(name)")
            }
            try store.removeContentRuleList(forIdentifier: name)
            #expect(!FileManager.default.fileExists(atPath: url.path), "\(name)")
        }
    }

    /// Threads compiling and looking up one identifier at once: every look-up finds one of the lists
    /// whole, and the store holds one file.
    @Test func threadsShareTheStore() throws {
        let store = try Self.temporaryStore()
        try store.compileContentRuleList(forIdentifier: "shared", encodedContentRuleList: Self.block)
        let failures = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            do {
                for round in 0..<10 {
                    if index % 2 == 0 {
                        try store.compileContentRuleList(
                            forIdentifier: "shared", encodedContentRuleList: round % 2 == 0 ? Self.block : Self.cookies)
                    } else {
                        let list = try store.lookUpContentRuleList(forIdentifier: "shared")
                        let answers = [
                            try Self.actions(list, "https://x.test/ads"),
                            try Self.actions(list, "https://x.test/track"),
                        ]
                        if answers != [[.block], []] && answers != [[], [.blockCookies]] {
                            failures.withLock { $0.append("mixed answers \(answers)") }
                        }
                    }
                }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty)
        let names = try FileManager.default.contentsOfDirectory(atPath: store.directory).sorted()
        #expect(names == [".lock", "ContentRuleList-shared"])
    }

    @Test func defaultDirectoryFollowsXDG() {
        // The process's own environment: XDG_DATA_HOME when absolute, else HOME's .local/share.
        let environment = ProcessInfo.processInfo.environment
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            #expect(ContentRuleListStore.defaultDirectory == data + "/content-blocker")
        } else if let home = environment["HOME"], !home.isEmpty {
            #expect(ContentRuleListStore.defaultDirectory == home + "/.local/share/content-blocker")
        }
    }

    @Test func aFileIsNotAStore() throws {
        let file = try TemporaryDirectory.make("store-file").appendingPathComponent("file")
        try Data("x".utf8).write(to: file)
        #expect(
            throws: ContentRuleListStoreError.io(path: file.path, operation: "open store", message: "not a directory")
        ) {
            _ = try ContentRuleListStore(directory: file.path)
        }
    }
}
