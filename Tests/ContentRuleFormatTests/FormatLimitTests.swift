import ContentRuleCompiler
import ContentRuleMatcher
import ContentRuleModel
import TestSupport
import Testing

@testable import ContentRuleFormat

/// Limits of the binary format itself (field widths, `Documentation/BinaryFormat.md`), which WebKit
/// does not have: a list over one is a clear error (`BinaryRuleListError.tooLarge`), never a trap.
/// The real limits need inputs of 256 MiB or 16 million entries, so the action-bytes limit is
/// lowered here (`BinaryRuleListWriter.encode(_:maximumActionBytes:)`) to test both of its sides.
@Suite struct FormatLimitTests {
    /// One notify rule whose notification has `bytes` bytes (its action bytes in `APAY`).
    static func list(notificationBytes bytes: Int) throws -> CompiledRuleList {
        let json =
            #"[{"trigger":{"url-filter":"x"},"action":{"type":"notify","notification":""#
            + String(repeating: "n", count: bytes) + #""}}]"#
        return try #require(RuleListCompiler.compile(json: Array(json.utf8)).list)
    }

    static func isTooLarge(_ error: any Error) -> Bool {
        if case .tooLarge = error as? BinaryRuleListError { return true }
        return false
    }

    @Test func actionBytesOverTheLimitAreAnError() throws {
        let compiled = try Self.list(notificationBytes: 1_001)
        #expect(
            performing: { _ = try BinaryRuleListWriter.encode(compiled, maximumActionBytes: 1_000) },
            throws: Self.isTooLarge)
    }

    @Test func actionBytesAtTheLimitAreKept() throws {
        let bytes = try BinaryRuleListWriter.encode(try Self.list(notificationBytes: 1_000), maximumActionBytes: 1_000)
        let list = ContentRuleList(identifier: "limit", rules: try MappedRuleList(bytes: bytes))
        let load = try #require(TestLists.script("https://t.test/x.js"))
        #expect(list.actions(for: load).actions == [.notify(notification: String(repeating: "n", count: 1_000))])
    }

    /// A 16 MiB action, far above what real lists hold, is written and read back.
    @Test func largeActionIsKept() throws {
        let list = try ContentRuleList(
            identifier: "big", compiled: try Self.list(notificationBytes: 16 << 20))
        let load = try #require(TestLists.script("https://t.test/x.js"))
        let actions = list.actions(for: load).actions
        #expect(actions.count == 1)
        #expect(actions.first == .notify(notification: String(repeating: "n", count: 16 << 20)))
    }
}
